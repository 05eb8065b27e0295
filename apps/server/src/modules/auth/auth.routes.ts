import type { Handlers } from '../../http/register-calls.ts';
import { callerOf } from '../../http/call-context.ts';
import type { AuthService } from './auth.service.ts';
import type { RsaKeyService } from './rsa-key.service.ts';
import type { SessionService } from './session.service.ts';
import type { AccountService } from '../accounts/account.service.ts';
import { withReaderName } from '../accounts/initial-admin.ts';

type AuthCalls =
  | 'adminLogin'
  | 'adminSso'
  | 'adminLogout'
  | 'adminUpdatePassword'
  | 'adminPublicKey'
  | 'adminSession'
  | 'changeProvider';

export const authHandlers = (
  auth: AuthService,
  sessions: SessionService,
  rsa: RsaKeyService,
  accounts: AccountService,
): Pick<Handlers, AuthCalls> => ({
  adminLogin: async (input, ctx) =>
    withReaderName(await auth.login(input, { ip: ctx.ip, userAgent: ctx.userAgent }), ctx.lang),
  adminSso: async (input, ctx) =>
    withReaderName(await auth.sso(input, { ip: ctx.ip, userAgent: ctx.userAgent }), ctx.lang),
  async adminLogout(_input, ctx) {
    await auth.logout(callerOf(ctx), ctx.ip);
    return null;
  },
  async adminUpdatePassword(input, ctx) {
    await auth.updatePassword(callerOf(ctx), input, ctx.ip);
    return null;
  },
  adminPublicKey: async () => ({ publicKey: rsa.publicKey, algorithm: 'RSA-OAEP-256' as const }),
  async adminSession(_input, ctx) {
    const caller = callerOf(ctx);
    const account = await accounts.findById(caller.accountId);
    return withReaderName(await sessions.infoFor(caller, account?.mustChangePassword ?? false), ctx.lang);
  },
  changeProvider: (input, ctx) => auth.changeProvider(callerOf(ctx), input.domain),
});
