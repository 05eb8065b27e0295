import { callerOf } from '../../../http/call-context.ts';
import type { Handlers } from '../../../http/register-calls.ts';
import type { RawDataService } from './raw.service.ts';

type RawDataCalls = 'originDataList' | 'originDataDownload' | 'originDataDelete' | 'originDataDeleteAll';

/** Handlers of the original (raw) data calls: input already validated, one service call each. */
export const rawDataHandlers = (raw: RawDataService): Pick<Handlers, RawDataCalls> => ({
  async originDataList(input, ctx) {
    const { rows, total } = await raw.list(callerOf(ctx), input);
    return { rows, total, pageNum: input.pageNum, pageSize: input.pageSize };
  },
  originDataDownload: (input, ctx) => raw.download(callerOf(ctx), input.deviceId, input.day),
  originDataDelete: async (input, ctx) => ({
    deleted: await raw.remove(callerOf(ctx), input.deviceId, input.day, ctx.ip),
  }),
  originDataDeleteAll: async (input, ctx) => ({
    deleted: await raw.remove(callerOf(ctx), input.deviceId, undefined, ctx.ip),
  }),
});
