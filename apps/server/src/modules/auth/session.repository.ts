import { and, eq, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/database.ts';
import { accounts, providers, sessions, ssoNonces } from '../../db/schema.ts';

const parent = alias(providers, 'parent_provider');

export class SessionRepository {
  async insert(db: Executor, values: typeof sessions.$inferInsert) {
    const [row] = await db.insert(sessions).values(values).returning();
    if (!row) throw new Error('session insert returned nothing');
    return row;
  }

  /** One round trip: the session with its account, provider and parent provider. */
  async findByTokenHash(db: Executor, tokenHash: string) {
    return this.findWhere(db, eq(sessions.tokenHash, tokenHash));
  }

  /** The session whose live-socket key this is (the key the console sends in the socket's /login). */
  async findBySocketKey(db: Executor, socketKey: string) {
    return this.findWhere(db, eq(sessions.socketKey, socketKey));
  }

  private async findWhere(db: Executor, where: SQL) {
    const [row] = await db
      .select({
        session: sessions,
        account: accounts,
        provider: {
          id: providers.id,
          enabled: providers.enabled,
          deletedAt: providers.deletedAt,
          providerClass: providers.providerClass,
        },
        parentEnabled: parent.enabled,
      })
      .from(sessions)
      .innerJoin(accounts, eq(accounts.id, sessions.accountId))
      .leftJoin(providers, eq(providers.id, accounts.providerId))
      .leftJoin(parent, eq(parent.id, providers.parentId))
      .where(where);
    return row;
  }

  async touch(db: Executor, id: number, at: Date): Promise<void> {
    await db.update(sessions).set({ lastSeenAt: at }).where(eq(sessions.id, id));
  }

  async setCurrentProvider(db: Executor, id: number, providerId: number): Promise<void> {
    await db.update(sessions).set({ currentProviderId: providerId }).where(eq(sessions.id, id));
  }

  async revoke(db: Executor, id: number, reason: string, at: Date): Promise<void> {
    await db
      .update(sessions)
      .set({ revokedAt: at, revokeReason: reason })
      .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
  }

  async revokeAccounts(db: Executor, accountIds: readonly number[], reason: string, at: Date): Promise<void> {
    if (!accountIds.length) return;
    await db
      .update(sessions)
      .set({ revokedAt: at, revokeReason: reason })
      .where(and(inArray(sessions.accountId, [...accountIds]), isNull(sessions.revokedAt)));
  }

  /** Stores a fast-login signature; false when it was already used. */
  async claimSsoSignature(db: Executor, signature: string, at: Date): Promise<boolean> {
    const rows = await db.insert(ssoNonces).values({ signature, usedAt: at }).onConflictDoNothing().returning();
    return rows.length === 1;
  }

  async purgeSsoSignatures(db: Executor, before: Date): Promise<void> {
    await db.delete(ssoNonces).where(lt(ssoNonces.usedAt, before));
  }

  async purgeExpired(db: Executor, idleBefore: Date): Promise<void> {
    await db
      .delete(sessions)
      .where(sql`${sessions.lastSeenAt} < ${idleBefore} or ${sessions.revokedAt} < ${idleBefore}`);
  }

  /** Deletes sessions revoked, or unused, before `before`; how many went. */
  async purge(db: Executor, revokedBefore: Date, idleBefore: Date): Promise<number> {
    const gone = await db
      .delete(sessions)
      .where(or(lt(sessions.revokedAt, revokedBefore), lt(sessions.lastSeenAt, idleBefore)))
      .returning({ id: sessions.id });
    return gone.length;
  }
}
