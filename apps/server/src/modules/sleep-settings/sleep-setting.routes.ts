import { callerOf } from '../../http/call-context.ts';
import type { Handlers } from '../../http/register-calls.ts';
import type { SleepSettingService } from './sleep-setting.service.ts';

type SleepSettingCalls = 'bedSleepSetting' | 'saveBedSleepSetting';

/** Handlers of BunkManage's sleep-setting calls: input already validated, one service call each. */
export const sleepSettingHandlers = (settings: SleepSettingService): Pick<Handlers, SleepSettingCalls> => ({
  bedSleepSetting: (input, ctx) => settings.get(callerOf(ctx), input.userId),
  saveBedSleepSetting: async ({ userIds, ...config }, ctx) => ({
    count: await settings.save(callerOf(ctx), userIds, config, ctx.ip),
  }),
});
