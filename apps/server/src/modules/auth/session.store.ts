import { createHash, randomBytes } from 'node:crypto';
import type { Db, Executor } from '../../db/database.ts';
import type { Clock } from '../../clock.ts';
import { SessionRepository } from './session.repository.ts';

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Opaque random session tokens, stored only as hashes; revocation by session, account or provider. */
export class SessionStore {
  readonly repo = new SessionRepository();
  constructor(
    readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async create(
    accountId: number,
    values: { channel: string; ip: string; userAgent: string | undefined; currentProviderId: number | null },
  ): Promise<{ token: string; socketKey: string; id: number }> {
    const token = randomBytes(32).toString('base64url');
    const socketKey = randomBytes(24).toString('base64url');
    const now = this.clock.now();
    const row = await this.repo.insert(this.db, {
      tokenHash: hashToken(token),
      socketKey,
      accountId,
      channel: values.channel,
      ip: values.ip,
      userAgent: values.userAgent?.slice(0, 512) ?? null,
      currentProviderId: values.currentProviderId,
      createdAt: now,
      lastSeenAt: now,
    });
    return { token, socketKey, id: row.id };
  }

  revoke(sessionId: number, reason: string): Promise<void> {
    return this.repo.revoke(this.db, sessionId, reason, this.clock.now());
  }

  revokeAccounts(accountIds: readonly number[], reason: string, tx: Executor = this.db): Promise<void> {
    return this.repo.revokeAccounts(tx, accountIds, reason, this.clock.now());
  }
}
