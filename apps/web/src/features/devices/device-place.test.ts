import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { pathOfPlace, placeFilterOf, placeLines, placeModeOf, placeOfPath, UNPLACED } from './device-place.ts';

const t = ((key: string, values?: { name?: string }) =>
  key === 'devices:place.room' ? `Room ${values?.name}` : key) as TFunction;
const none = { areaName: null, floorName: null, roomName: null, bunkName: null, userName: null, caregiverName: null };

describe('device places', () => {
  it('places sleep monitors and radars by their bed, badges and watches by who wears them', () => {
    expect(placeModeOf('sleep_monitor')).toBe('bedLink');
    expect(placeModeOf('fall_radar')).toBe('bedLink');
    expect(placeModeOf('badge')).toBe('resident');
    expect(placeModeOf('nurse_watch')).toBe('caregiver');
    expect(placeModeOf('door_magnet')).toBe('place');
    expect(placeModeOf('gateway_host')).toBe('place');
  });

  it('sends a picked path as one anchor, and an empty one as a cleared place', () => {
    expect(placeOfPath([20, 21, 11, 3])).toEqual({ bunkId: 3, roomId: null, areaId: null });
    expect(placeOfPath([20, 21, 11])).toEqual({ bunkId: null, roomId: 11, areaId: null });
    expect(placeOfPath([20, 21])).toEqual({ bunkId: null, roomId: null, areaId: 21 });
    expect(placeOfPath([20])).toEqual({ bunkId: null, roomId: null, areaId: 20 });
    expect(placeOfPath([])).toEqual({ bunkId: null, roomId: null, areaId: null });
  });

  it('reads a device’s path back as far as its place goes', () => {
    const row = { areaId: 20, floorId: 21, roomId: 11, bunkId: 3 };
    expect(pathOfPlace({ ...row, placeKind: 'bed' })).toEqual([20, 21, 11, 3]);
    expect(pathOfPlace({ ...row, placeKind: 'room', bunkId: null })).toEqual([20, 21, 11]);
    expect(pathOfPlace({ areaId: 20, floorId: 21, roomId: null, bunkId: null, placeKind: 'area' })).toEqual([20, 21]);
    expect(pathOfPlace({ ...row, placeKind: 'resident' })).toEqual([]);
  });

  it('names a place the way a caregiver says it', () => {
    expect(placeLines(t, { ...none, placeKind: 'bed', roomName: '102', bunkName: 'A', floorName: 'Floor 1' })).toEqual({
      main: 'Room 102 · A',
      sub: 'Floor 1',
    });
    expect(placeLines(t, { ...none, placeKind: 'room', roomName: 'Lounge' })?.main).toBe('Lounge');
    expect(placeLines(t, { ...none, placeKind: 'area', areaName: 'Building A', floorName: 'Floor 1' })).toEqual({
      main: 'Floor 1',
      sub: 'Building A',
    });
    expect(placeLines(t, { ...none, placeKind: 'resident', userName: 'Edith Warren' })?.main).toBe('Edith Warren');
    expect(placeLines(t, { ...none, placeKind: 'caregiver', caregiverName: 'Anna' })?.main).toBe('Anna');
    expect(placeLines(t, { ...none, placeKind: null })).toBeNull();
  });

  it('filters by a room, a floor or area, or a place not set', () => {
    expect(placeFilterOf([20, 21, 11])).toEqual({ roomId: 11, areaId: undefined, placed: undefined });
    expect(placeFilterOf([20, 21])).toEqual({ roomId: undefined, areaId: 21, placed: undefined });
    expect(placeFilterOf([UNPLACED])).toEqual({ roomId: undefined, areaId: undefined, placed: false });
    expect(placeFilterOf(undefined)).toEqual({ roomId: undefined, areaId: undefined, placed: undefined });
  });
});
