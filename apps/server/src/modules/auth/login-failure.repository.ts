import { and, eq, gt, gte, inArray, lt, max, sum } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { loginFailures } from '../../db/schema.ts';
import type { LockoutState } from './lockout.policy.ts';

const none: LockoutState = { failedLogins: 0, firstFailedAt: null, lockedUntil: null };

/** The only SQL of the sign-in lockout (login_failure rows, keyed by login name and address). */
export class LoginFailureRepository {
  async state(db: Executor, userName: string, ip: string): Promise<LockoutState> {
    const [row] = await db
      .select()
      .from(loginFailures)
      .where(and(eq(loginFailures.userName, userName), eq(loginFailures.ip, ip)));
    return row ? { failedLogins: row.failures, firstFailedAt: row.firstFailedAt, lockedUntil: row.lockedUntil } : none;
  }

  /** The pair's row, created if missing and row-locked until the transaction ends: parallel failures count one by one. */
  async stateForUpdate(db: Executor, userName: string, ip: string, now: Date): Promise<LockoutState> {
    await db.insert(loginFailures).values({ userName, ip, failures: 0, firstFailedAt: now }).onConflictDoNothing();
    const [row] = await db
      .select()
      .from(loginFailures)
      .where(and(eq(loginFailures.userName, userName), eq(loginFailures.ip, ip)))
      .for('update');
    if (!row || row.failures === 0) return { ...none, lockedUntil: row?.lockedUntil ?? null };
    return { failedLogins: row.failures, firstFailedAt: row.firstFailedAt, lockedUntil: row.lockedUntil };
  }

  async save(db: Executor, userName: string, ip: string, state: LockoutState, now: Date): Promise<void> {
    await db
      .update(loginFailures)
      .set({ failures: state.failedLogins, firstFailedAt: state.firstFailedAt ?? now, lockedUntil: state.lockedUntil })
      .where(and(eq(loginFailures.userName, userName), eq(loginFailures.ip, ip)));
  }

  async clear(db: Executor, userName: string, ip: string): Promise<void> {
    await db.delete(loginFailures).where(and(eq(loginFailures.userName, userName), eq(loginFailures.ip, ip)));
  }

  /** Lifts every lock and count of a name, from every address (an administrator's unlock, a password reset). */
  async clearName(db: Executor, userName: string): Promise<number> {
    const rows = await db
      .delete(loginFailures)
      .where(eq(loginFailures.userName, userName))
      .returning({ ip: loginFailures.ip });
    return rows.length;
  }

  /** Failures counted from one address since `since`, whatever the names. */
  async failuresFrom(db: Executor, ip: string, since: Date): Promise<number> {
    const [row] = await db
      .select({ n: sum(loginFailures.failures) })
      .from(loginFailures)
      .where(and(eq(loginFailures.ip, ip), gte(loginFailures.firstFailedAt, since)));
    return Number(row?.n ?? 0);
  }

  /** The latest lock still in force per name, for the account lists. */
  async lockedUntilByName(db: Executor, userNames: readonly string[], now: Date): Promise<Map<string, Date>> {
    if (!userNames.length) return new Map();
    const rows = await db
      .select({ userName: loginFailures.userName, until: max(loginFailures.lockedUntil) })
      .from(loginFailures)
      .where(and(inArray(loginFailures.userName, [...userNames]), gt(loginFailures.lockedUntil, now)))
      .groupBy(loginFailures.userName);
    return new Map(rows.filter((r) => r.until).map((r) => [r.userName, r.until as Date]));
  }

  /** Rows neither locked nor inside a counting window any more. */
  async purge(db: Executor, before: Date): Promise<void> {
    await db
      .delete(loginFailures)
      .where(and(lt(loginFailures.firstFailedAt, before), lt(loginFailures.lockedUntil, before)));
    await db.delete(loginFailures).where(and(lt(loginFailures.firstFailedAt, before), eq(loginFailures.failures, 0)));
  }
}
