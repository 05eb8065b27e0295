import type { Handlers } from '../../http/register-calls.ts';
import { callerOf } from '../../http/call-context.ts';
import type { ResidentService } from './resident.service.ts';

type ResidentCalls =
  | 'residentList'
  | 'residentSummary'
  | 'deleteResident'
  | 'insertResident'
  | 'updateResident'
  | 'getResident'
  | 'startAbsence'
  | 'endAbsence';

export const residentHandlers = (residents: ResidentService): Pick<Handlers, ResidentCalls> => ({
  async residentList(input, ctx) {
    const { rows, total } = await residents.list(callerOf(ctx), input);
    return { rows, total, pageNum: input.pageNum, pageSize: input.pageSize };
  },
  residentSummary: (_input, ctx) => residents.summary(callerOf(ctx)),
  deleteResident: (input, ctx) => residents.remove(callerOf(ctx), input.id, ctx.ip),
  insertResident: (input, ctx) => residents.create(callerOf(ctx), input, ctx.ip),
  async updateResident(input, ctx) {
    await residents.update(callerOf(ctx), input, ctx.ip);
    return null;
  },
  getResident: (input, ctx) => residents.get(callerOf(ctx), input.id),
  startAbsence: (input, ctx) => residents.absences.start(callerOf(ctx), input, ctx.ip),
  async endAbsence(input, ctx) {
    await residents.absences.end(callerOf(ctx), input.userId, ctx.ip);
    return null;
  },
});
