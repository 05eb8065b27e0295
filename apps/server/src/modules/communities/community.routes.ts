import { callerOf } from '../../http/call-context.ts';
import type { Handlers } from '../../http/register-calls.ts';
import type { CommunityService } from './community.service.ts';

type CommunityCalls =
  | 'insertCommunity'
  | 'updateCommunity'
  | 'queryCommunityList'
  | 'saveUserSleepConfig'
  | 'saveUserSleepConfigs'
  | 'getUserSleepConfig'
  | 'saveAlarmConfig'
  | 'deleteCommunity';

export const communityHandlers = (communities: CommunityService): Pick<Handlers, CommunityCalls> => ({
  insertCommunity: (input, ctx) => communities.create(callerOf(ctx), input, ctx.ip),
  async updateCommunity(input, ctx) {
    await communities.update(callerOf(ctx), input, ctx.ip);
    return null;
  },
  async queryCommunityList(input, ctx) {
    const { rows, total } = await communities.list(callerOf(ctx), input);
    return { rows, total, pageNum: input.pageNum, pageSize: input.pageSize };
  },
  async saveUserSleepConfig({ communityId, residentId, ...config }, ctx) {
    await communities.saveSleepConfig(callerOf(ctx), communityId, [residentId], config, ctx.ip);
    return null;
  },
  saveUserSleepConfigs: async ({ communityId, residentIds, ...config }, ctx) => ({
    count: await communities.saveSleepConfig(callerOf(ctx), communityId, residentIds, config, ctx.ip),
  }),
  getUserSleepConfig: (input, ctx) => communities.sleepConfigOf(callerOf(ctx), input.communityId, input.residentId),
  async saveAlarmConfig({ communityId, ...config }, ctx) {
    await communities.saveAlarmConfig(callerOf(ctx), communityId, config, ctx.ip);
    return null;
  },
  async deleteCommunity(input, ctx) {
    await communities.remove(callerOf(ctx), input.id, ctx.ip);
    return null;
  },
});
