import { QueryClient } from '@tanstack/react-query';
import { alarmLog, alarmLogUnDeal, alertFlag, bedAlarmSetting, queryAlertLevel } from '@vigil/contract/browser';
import { afterEach, describe, expect, it } from 'vitest';
import { callKey, reloadForFrame } from './use-call.ts';

describe('call keys and what pushed frames reload', () => {
  const client = new QueryClient();
  afterEach(() => client.clear());

  const seed = () => {
    client.setQueryData(callKey(alarmLogUnDeal, { pageNum: 1, pageSize: 10, orderBy: 'timeStamp', order: 'desc' }), 1);
    client.setQueryData(callKey(alertFlag, {}), 2);
    client.setQueryData(callKey(alarmLog, { pageNum: 1, pageSize: 10, orderBy: 'timeStamp', order: 'desc' }), 3);
    client.setQueryData(callKey(queryAlertLevel, {}), 4);
    client.setQueryData(callKey(bedAlarmSetting, { userId: 7 }), 5);
  };
  const stale = () =>
    client
      .getQueryCache()
      .findAll()
      .filter((q) => q.state.isInvalidated)
      .map((q) => q.queryKey[0])
      .sort();

  it('a new alarm reloads the pending list and the bell, not the processed log or the settings', async () => {
    seed();
    await reloadForFrame(client, { path: '/alertNotify', data: {} });
    expect(stale()).toEqual([alarmLogUnDeal.path, alertFlag.path].sort());
  });

  it('a release reloads the processed log too', async () => {
    seed();
    await reloadForFrame(client, { path: '/userStatusNotify', data: {} });
    expect(stale()).toEqual([alarmLog.path, alarmLogUnDeal.path, alertFlag.path].sort());
  });

  it('changed alarm settings reload the levels and the bed rules only', async () => {
    seed();
    await reloadForFrame(client, { path: '/dataChange', data: { what: 'alarmSettings' } });
    expect(stale()).toEqual([bedAlarmSetting.path, queryAlertLevel.path].sort());
  });

  it('a frame that changes no answer reloads nothing', async () => {
    seed();
    await reloadForFrame(client, { path: '/vitalsNotify', data: { rows: [] } });
    await reloadForFrame(client, { path: '/dataChange', data: { what: 'unknown' } });
    expect(stale()).toEqual([]);
  });
});
