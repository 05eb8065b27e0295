import type { Handlers } from '../../http/register-calls.ts';
import { callerOf } from '../../http/call-context.ts';
import type { ProviderService } from './provider.service.ts';
import type { RsaKeyService } from '../auth/rsa-key.service.ts';

type ProviderCalls =
  'queryProviderList' | 'insertProvider' | 'restProviderPwd' | 'operateProvider' | 'getProvider' | 'deleteProvider';

export const providerHandlers = (providers: ProviderService, rsa: RsaKeyService): Pick<Handlers, ProviderCalls> => ({
  async queryProviderList(input, ctx) {
    const { rows, total } = await providers.list(callerOf(ctx), input);
    return { rows, total, pageNum: input.pageNum, pageSize: input.pageSize };
  },
  insertProvider: (input, ctx) =>
    providers.create(
      callerOf(ctx),
      {
        ...input,
        password: input.passWord === undefined ? undefined : input.rsa ? rsa.decrypt(input.passWord) : input.passWord,
      },
      ctx.ip,
    ),
  restProviderPwd: async (input, ctx) => ({
    initialPassword: await providers.resetPassword(callerOf(ctx), input.id, ctx.ip),
  }),
  async operateProvider(input, ctx) {
    await providers.operate(callerOf(ctx), input.id, input, ctx.ip);
    return null;
  },
  getProvider: (input, ctx) => providers.get(callerOf(ctx), input.id),
  async deleteProvider(input, ctx) {
    await providers.remove(callerOf(ctx), input.id, ctx.ip);
    return null;
  },
});
