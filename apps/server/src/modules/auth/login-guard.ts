import { CONSTANTS } from '@vigil/contract';
import type { Clock } from '../../clock.ts';
import type { Db, Executor } from '../../db/database.ts';
import { fail } from '../../core/app-error.ts';
import { afterFailure, lockedMinutes, type LockoutState } from './lockout.policy.ts';
import { LoginFailureRepository } from './login-failure.repository.ts';

/** Failed sign-ins one address may make within the lockout window, across all names, before it waits. */
export const ADDRESS_FAILURE_LIMIT = 50;

const key = (userName: string) => userName.trim().toLowerCase();

/**
 * The shared sign-in lockout (in the database, so every instance agrees). It counts per login name
 * and address together: five wrong passwords lock that name from that address for 15 minutes, not
 * the account everywhere, so nobody can lock a real user out from elsewhere. Unknown names are
 * counted and locked exactly like known ones: their answers and work are the same.
 */
export class LoginGuard {
  private readonly repo = new LoginFailureRepository();
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Refuses a name locked from this address, or an address that failed too often with any names. */
  async assertOpen(userName: string, ip: string): Promise<void> {
    const now = this.clock.now();
    const minutes = lockedMinutes(await this.repo.state(this.db, key(userName), ip), now);
    if (minutes > 0) throw fail('login.locked', { minutes });
    const since = new Date(now.getTime() - CONSTANTS.loginLockout.windowMs);
    if ((await this.repo.failuresFrom(this.db, ip, since)) >= ADDRESS_FAILURE_LIMIT) {
      throw fail('login.rateLimited', { seconds: Math.ceil(CONSTANTS.loginLockout.windowMs / 1000) });
    }
  }

  /** Counts one failure; the state after it (locked when it was the fifth). */
  failed(userName: string, ip: string): Promise<LockoutState> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const current = await this.repo.stateForUpdate(tx, key(userName), ip, now);
      if (lockedMinutes(current, now) > 0) return current;
      const next = afterFailure(current, now);
      await this.repo.save(tx, key(userName), ip, next, now);
      return next;
    });
  }

  succeeded(userName: string, ip: string): Promise<void> {
    return this.repo.clear(this.db, key(userName), ip);
  }

  /** Lifts the locks of a name from every address; how many address records were cleared. */
  unlock(userName: string, tx: Executor = this.db): Promise<number> {
    return this.repo.clearName(tx, key(userName));
  }

  lockedUntil(userNames: readonly string[]): Promise<Map<string, Date>> {
    return this.repo.lockedUntilByName(this.db, userNames.map(key), this.clock.now());
  }

  purge(): Promise<void> {
    const { windowMs, lockMs } = CONSTANTS.loginLockout;
    return this.repo.purge(this.db, new Date(this.clock.now().getTime() - Math.max(windowMs, lockMs)));
  }
}
