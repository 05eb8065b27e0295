import { callerOf } from '../../http/call-context.ts';
import type { Handlers } from '../../http/register-calls.ts';
import type { CaregiverService } from './caregiver.service.ts';
import type { FamilyService } from './family.service.ts';

type CaregiverCalls =
  | 'queryNursingList'
  | 'insertNursing'
  | 'operateNursing'
  | 'resetNursingPassword'
  | 'deleteNursing'
  | 'deleteUserFamily';

export const caregiverHandlers = (
  caregivers: CaregiverService,
  family: FamilyService,
): Pick<Handlers, CaregiverCalls> => ({
  async queryNursingList(input, ctx) {
    const { rows, total } = await caregivers.list(callerOf(ctx), input);
    return { rows, total, pageNum: input.pageNum, pageSize: input.pageSize };
  },
  insertNursing: (input, ctx) => caregivers.create(callerOf(ctx), input, ctx.ip),
  async operateNursing(input, ctx) {
    await caregivers.operate(callerOf(ctx), input.id, input, ctx.ip);
    return null;
  },
  resetNursingPassword: async (input, ctx) => ({
    initialPassword: await caregivers.resetPassword(callerOf(ctx), input.id, ctx.ip),
  }),
  async deleteNursing(input, ctx) {
    await caregivers.remove(callerOf(ctx), input.id, ctx.ip);
    return null;
  },
  async deleteUserFamily(input, ctx) {
    await family.unbind(callerOf(ctx), input.id, ctx.ip);
    return null;
  },
});
