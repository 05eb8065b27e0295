import { callerOf } from '../../http/call-context.ts';
import type { Handlers } from '../../http/register-calls.ts';
import type { AlarmService } from './alarm.service.ts';
import type { AlarmSettingsService } from './alarm-settings.service.ts';
import type { BedAlarmSettingsService } from './bed-alarm-settings.service.ts';

type AlarmCalls =
  | 'alarmLogUnDeal'
  | 'alarmLog'
  | 'alarmDealStatus'
  | 'alarmRelieve'
  | 'alarmExport'
  | 'alarmTimeline'
  | 'alarmAddNote'
  | 'alertFlag'
  | 'queryAlertLevel'
  | 'saveAlertLevel'
  | 'bedAlarmSetting'
  | 'saveBedAlarmSetting';

/** Handlers of the alarm calls: input already validated, one service call each. */
export const alarmHandlers = (
  alarms: AlarmService,
  settings: AlarmSettingsService,
  beds: BedAlarmSettingsService,
): Pick<Handlers, AlarmCalls> => ({
  alarmLogUnDeal: (input, ctx) => alarms.list(callerOf(ctx), input, true, ctx.lang),
  alarmLog: (input, ctx) => alarms.list(callerOf(ctx), input, false, ctx.lang),
  alarmDealStatus: (input, ctx) => alarms.one(callerOf(ctx), input.id, ctx.lang),
  alarmRelieve: (input, ctx) => alarms.relieve(callerOf(ctx), input, ctx.lang, ctx.ip),
  alarmExport: (input, ctx) => alarms.export(callerOf(ctx), input, ctx.lang),
  alarmTimeline: (input, ctx) => alarms.timeline(callerOf(ctx), input.id),
  alarmAddNote: (input, ctx) => alarms.addNote(callerOf(ctx), input, ctx.ip),
  alertFlag: (_input, ctx) => alarms.alertFlag(callerOf(ctx)),
  queryAlertLevel: (input, ctx) => settings.query(callerOf(ctx), input.providerId),
  saveAlertLevel: (input, ctx) => settings.save(callerOf(ctx), input, ctx.ip),
  bedAlarmSetting: (input, ctx) => beds.get(callerOf(ctx), input.userId),
  saveBedAlarmSetting: (input, ctx) => beds.save(callerOf(ctx), input.userId, input.rules, input.receivers, ctx.ip),
});
