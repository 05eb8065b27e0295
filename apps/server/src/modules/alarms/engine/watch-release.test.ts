import { defaultAlarmRules, RELEASE_KIND } from '@vigil/contract';
import { describe, expect, it } from 'vitest';
import type { Subject, WatchRelease, WatchTarget } from './engine-types.ts';
import { refusalOf, watchTarget, type NamedAlarm } from './watch-release.ts';

const watch: Subject = {
  deviceId: 'WCH-1',
  kind: 'nurse_watch',
  typeCode: 21012,
  deviceRowId: 1,
  providerId: 7,
  bedId: null,
  residentId: null,
  roomId: null,
  areaId: null,
  caregiverId: null,
  occupied: false,
  absent: false,
  rules: defaultAlarmRules(),
};
const at = new Date('2026-11-26T03:00:00Z');
const release = (target: Partial<WatchTarget>, providerId: number | null = 7): WatchRelease => ({
  op: 'watch-release',
  watch: { ...watch, providerId },
  target: { alarmId: null, deviceId: null, ...target },
  startedBy: at,
  types: ['SOS'],
  at,
});
const alarm = (over: Partial<NamedAlarm> = {}): NamedAlarm => ({
  deviceId: 'BTN-1',
  providerId: 7,
  releaseKind: RELEASE_KIND.none,
  ...over,
});

describe('what a watch release names', () => {
  it('reads the alarm id and the device, and nothing from a release naming neither', () => {
    expect(watchTarget({ alarmId: 12 })).toEqual({ alarmId: 12, deviceId: null });
    expect(watchTarget({ deviceId: 'btn-1' })).toEqual({ alarmId: null, deviceId: 'BTN-1' });
    expect(watchTarget({})).toBeUndefined();
    expect(watchTarget({ alarmId: -1, deviceId: 3 })).toBeUndefined();
  });
});

describe('why a watch release released nothing', () => {
  it.each([
    ['an id no alarm has', release({ alarmId: 12 }), [], 'unknown'],
    ['an alarm of another device than it names', release({ alarmId: 12, deviceId: 'BTN-2' }), [alarm()], 'unknown'],
    ['another provider’s alarm', release({ alarmId: 12 }), [alarm({ providerId: 8 })], 'foreign'],
    ['an alarm of no provider', release({ alarmId: 12 }), [alarm({ providerId: null })], 'foreign'],
    ['any alarm, by a watch of no provider', release({ alarmId: 12 }, null), [alarm()], 'foreign'],
    [
      'an alarm released already',
      release({ alarmId: 12 }),
      [alarm({ releaseKind: RELEASE_KIND.software })],
      'not_open',
    ],
    ['an open alarm not released by its id: a device’s fault', release({ alarmId: 12 }), [alarm()], 'not_releasable'],
    ['a device with nothing open', release({ deviceId: 'BTN-1' }), [], 'not_open'],
    ['another provider’s device', release({ deviceId: 'BTN-1' }), [alarm({ providerId: 8 })], 'foreign'],
    [
      'a device’s open alarm not released: a fault, or begun after the press',
      release({ deviceId: 'BTN-1' }),
      [alarm()],
      'not_releasable',
    ],
  ] as const)('%s', (_what, d, named, refusal) => {
    expect(refusalOf(d, named)).toBe(refusal);
  });
});
