import type { LiveResident, LiveVitals } from '@vigil/contract/browser';
import { useLocation } from 'react-router';

/** Fixtures and probes of the monitoring screens' tests. */
export const vitals = (userId: number, over: Partial<LiveVitals> = {}): LiveVitals => ({
  userId,
  deviceId: `SLP-${userId}`,
  online: true,
  inBed: true,
  heartRate: 68,
  breathRate: 15,
  move: 0,
  ts: 1_790_000_000,
  upgrading: false,
  ...over,
});

export const liveResident = (userId: number, over: Partial<LiveResident> = {}): LiveResident => ({
  userId,
  userName: `Resident ${userId}`,
  gender: null,
  age: 82,
  bedId: userId,
  bunk: `${userId}`,
  room: '101',
  floorArea: 'Building A / Floor 1',
  communityName: null,
  away: false,
  focus: false,
  vitals: vitals(userId),
  pendingAlarms: 0,
  alertLevel: null,
  ...over,
});

/** Shows where the screen navigated to. */
export const LocationProbe = () => {
  const location = useLocation();
  return <span data-testid="location">{`${location.pathname}${location.search}`}</span>;
};
