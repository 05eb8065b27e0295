import { defaultAlarmRules } from '@vigil/contract';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock.ts';
import type { Db, Tx } from '../../db/database.ts';
import type { Transactions } from '../../db/transactions.ts';
import type { DeviceContext, DeviceDirectory } from '../gateway/index.ts';
import { DeviceFeed } from '../gateway/testing.ts';
import { AlarmRunner, type StoredEventRow } from './alarm-runner.ts';
import type { AlarmRepository } from './alarm.repository.ts';
import { AlarmMetrics } from './alarm-metrics.ts';
import type { AlarmSpellStore } from './alarm-spell.store.ts';
import { AlarmEngine } from './engine/alarm-engine.ts';
import type { Subject } from './engine/engine-types.ts';
import type { WatchDirectory } from './watch-directory.ts';

const context: DeviceContext = {
  deviceId: 'SOS-1',
  typeCode: 20993,
  deviceRowId: 1,
  providerId: 7,
  bedId: null,
  residentId: null,
  uploadData: false,
  reportInterval: null,
  gatewayDeviceId: null,
  roomId: null,
  areaId: null,
  caregiverId: null,
};

describe('AlarmRunner in the events’ transaction', () => {
  it('takes its decisions back when storing them fails, so the retried batch decides them again', async () => {
    const clock = new ManualClock(new Date('2026-11-26T03:00:00Z'));
    const engine = new AlarmEngine(() => 180);
    let failures = 1;
    const raised: string[] = [];
    const repo = {
      raise: async (_db: unknown, rows: { deviceId: string; alertType: string }[]) => {
        if (failures-- > 0) throw new Error('deadlock detected');
        raised.push(...rows.map((r) => r.alertType));
        const at = new Date();
        return rows.map((r, i) => ({
          alarm: {
            ...r,
            id: i + 1,
            count: 1,
            providerId: 7,
            startedAt: at,
            raisedAt: at,
            lastAt: at,
            releasedAt: null,
          },
          outcome: 'raised',
        }));
      },
      release: async () => [],
      addTimeline: async () => undefined,
    } as unknown as AlarmRepository;
    const subject = (c: DeviceContext): Subject => ({
      deviceId: c.deviceId,
      kind: 'sleep_monitor',
      typeCode: c.typeCode,
      deviceRowId: c.deviceRowId,
      providerId: c.providerId,
      bedId: null,
      residentId: null,
      roomId: null,
      areaId: null,
      caregiverId: null,
      occupied: false,
      absent: false,
      rules: defaultAlarmRules(),
    });
    const runner = new AlarmRunner({
      db: {} as Db,
      transactions: {} as Transactions,
      clock,
      engine,
      watch: { subject } as unknown as WatchDirectory,
      directory: { get: () => context } as unknown as DeviceDirectory,
      feed: new DeviceFeed(),
      repo,
      spells: {
        load: async () => [],
        save: async () => undefined,
        remove: async () => undefined,
      } as unknown as AlarmSpellStore,
      metrics: new AlarmMetrics(),
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    });
    const row: StoredEventRow = {
      id: 1,
      deviceId: 'SOS-1',
      event: 'mat',
      seq: 1,
      occurredAt: clock.now(),
      receivedAt: clock.now(),
      detail: { state: 'dislodged' },
      providerId: 7,
      deviceRowId: 1,
      bedId: null,
      residentId: null,
    };
    const emit = () => undefined;
    await expect(runner.onEventsStored({} as Tx, emit, [row])).rejects.toThrow('deadlock');
    // Not taken as raised: the retry raises it (a mat alarm is raised once per spell).
    expect(engine.openTypes('SOS-1').has('MAT_DISLODGED')).toBe(false);
    await runner.onEventsStored({} as Tx, emit, [row]);
    expect(raised).toEqual(['MAT_DISLODGED']);
  });
});
