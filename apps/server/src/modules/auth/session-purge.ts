import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { LoginGuard } from './login-guard.ts';
import { SessionRepository } from './session.repository.ts';

/** How long an ended session stays: long enough to answer "expired, log in again" rather than "unknown". */
export const SESSION_RETENTION_MS = 24 * 60 * 60_000;
const EVERY_MS = 10 * 60_000;

/**
 * Deletes ended sessions (revoked, or idle past expiry, a day later) and stale sign-in failure
 * counts, at start and every ten minutes while the server runs. Each instance may run it: the
 * deletes are idempotent.
 */
export class SessionPurge {
  private readonly repo = new SessionRepository();
  private timer: NodeJS.Timeout | undefined;
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly idleMs: number,
    private readonly guard: LoginGuard,
  ) {}

  async run(): Promise<number> {
    const now = this.clock.now().getTime();
    const purged = await this.repo.purge(
      this.db,
      new Date(now - SESSION_RETENTION_MS),
      new Date(now - this.idleMs - SESSION_RETENTION_MS),
    );
    await this.guard.purge();
    return purged;
  }

  start(onError: (error: unknown) => void): void {
    const tick = () => void this.run().catch(onError);
    tick();
    this.timer = setInterval(tick, EVERY_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
