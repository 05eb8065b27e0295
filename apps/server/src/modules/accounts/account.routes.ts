import type { Role } from '@vigil/contract';
import type { Handlers } from '../../http/register-calls.ts';
import { callerOf } from '../../http/call-context.ts';
import type { AccountService } from './account.service.ts';
import { displayNameFor } from './initial-admin.ts';
import type { RsaKeyService } from '../auth/rsa-key.service.ts';

export const accountHandlers = (
  accounts: AccountService,
  rsa: RsaKeyService,
): Pick<Handlers, 'queryAccountList' | 'insertAccount' | 'operateAccount' | 'unlockAccount'> => ({
  async queryAccountList(input, ctx) {
    const { rows, total } = await accounts.list(callerOf(ctx), input);
    return {
      rows: rows.map(({ account, providerName, providerIds, lockedUntil }) => ({
        id: account.id,
        userName: account.userName,
        nickName: displayNameFor(account, ctx.lang),
        role: account.role as Role,
        providerId: account.providerId,
        providerName,
        permissionType: account.permissionType,
        providerIds,
        enabled: account.enabled,
        remark: account.remark,
        lastLoginTime: account.lastLoginAt?.toISOString() ?? null,
        createTime: account.createdAt.toISOString(),
        lockedUntil: lockedUntil?.toISOString() ?? null,
      })),
      total,
      pageNum: input.pageNum,
      pageSize: input.pageSize,
    };
  },
  insertAccount: (input, ctx) =>
    accounts.create(
      callerOf(ctx),
      {
        ...input,
        password: input.passWord === undefined ? undefined : input.rsa ? rsa.decrypt(input.passWord) : input.passWord,
      },
      ctx.ip,
    ),
  operateAccount: (input, ctx) => accounts.operate(callerOf(ctx), input.id, input, ctx.ip),
  unlockAccount: (input, ctx) => accounts.unlock(callerOf(ctx), input.userName, ctx.ip),
});
