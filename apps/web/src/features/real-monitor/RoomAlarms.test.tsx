import { fireEvent, render, screen, within } from '@testing-library/react';
import type { AlarmRecord } from '@vigil/contract/browser';
import type { i18n as I18n } from 'i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { alarmRecord } from '../../test/alarm-record.ts';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import { groupByRoom } from './room-groups.ts';
import { RoomAlarms } from './RoomAlarms.tsx';

const alarm = (id: number, over: Partial<AlarmRecord>): AlarmRecord => alarmRecord(id, over);

const door = alarm(1, { alertType: 'DOOR' });
const smoke = alarm(2, { alertType: 'SMOKE', type: 'security' });
const sos = alarm(3, { alertType: 'SOS', type: 'call', bunk: 'A' });
const otherRoom = alarm(4, { alertType: 'FLOOD', room: '103' });
const sleep = alarm(5, { alertType: 'LEAVE_BED', type: 'sleep', userName: 'Edith Warren' });
const unplaced = alarm(6, { alertType: 'GAS', room: null, floorArea: null });

let i18n: I18n;
beforeAll(async () => {
  i18n = await englishI18n();
});

describe('security alarms grouped by room', () => {
  it('gathers a room’s security and call alarms where the first is; the rest stay cards of their own', () => {
    const entries = groupByRoom([sleep, door, otherRoom, smoke, unplaced, sos]);
    expect(entries.map((e) => (e.kind === 'alarm' ? e.alarm.id : e.alarms.map((a) => a.id)))).toEqual([
      5,
      [1, 2, 3],
      4,
      6,
    ]);
  });

  it('keeps a single alarm of a room as a plain card, and parts rooms of the same name on other floors', () => {
    expect(groupByRoom([door]).map((e) => e.kind)).toEqual(['alarm']);
    const upstairs = alarm(7, { floorArea: 'East Wing / Floor 2' });
    expect(groupByRoom([door, upstairs]).map((e) => e.kind)).toEqual(['alarm', 'alarm']);
  });

  it('shows one header for the room, and each alarm handled from its own card', async () => {
    const entry = groupByRoom([door, smoke, sos])[0];
    if (entry?.kind !== 'room') throw new Error('no group');
    const onHandle = vi.fn();
    render(inTestShell(i18n, <RoomAlarms entry={entry} columns={{ xs: 24 }} onHandle={onHandle} />));
    const group = await screen.findByRole('group', { name: 'Room 102 — 3 alarms' });
    expect(within(group).getByTestId('room-alarms-header').textContent).toBe('Room 102 — 3 alarmsEast Wing / Floor 1');
    const card = within(group).getByTestId('alarm-card-2');
    fireEvent.click(within(card).getByRole('button', { name: 'Handle' }));
    expect(onHandle).toHaveBeenCalledWith(smoke);
  });
});
