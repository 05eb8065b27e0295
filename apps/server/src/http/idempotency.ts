import { createHash, type Hash } from 'node:crypto';
import { Status } from '@vigil/contract';
import type { FastifyRequest } from 'fastify';
import type { Clock } from '../clock.ts';
import type { Executor } from '../db/database.ts';
import { AppError } from '../core/app-error.ts';
import { IdempotencyRepository, type KeyScope } from './idempotency.repository.ts';

/** The request header naming one user action; a retry sends the same value. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** What a call answered: replayed as is to a repeat of the same key. */
export interface StoredAnswer {
  httpStatus: number;
  body: unknown;
  /** A server-side failure is not kept: a retry runs the call again. */
  keep: boolean;
}

export interface IdempotencyOptions {
  /** How long a key is remembered (docs/api-conventions.md). */
  retentionMs: number;
  /** How long a repeat waits for a first request that is still running. */
  waitMs: number;
  /** A first request still unanswered after this long died with its instance: a repeat runs instead. */
  abandonedAfterMs: number;
  pollMs: number;
}

export const IDEMPOTENCY_DEFAULTS: IdempotencyOptions = {
  retentionMs: 24 * 60 * 60 * 1000,
  waitMs: 15_000,
  abandonedAfterMs: 10 * 60 * 1000,
  pollMs: 50,
};

const KEY_PATTERN = /^[\x21-\x7e]{1,128}$/;

/** The request's Idempotency-Key; undefined without one; a malformed key is refused with a 400. */
export const idempotencyKeyOf = (request: FastifyRequest): string | undefined => {
  const header = request.headers[IDEMPOTENCY_HEADER];
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  if (!KEY_PATTERN.test(value)) throw new AppError(Status.INVALID_INPUT, 'idempotency.keyInvalid', {}, 400);
  return value;
};

/** Feeds a value to a hash in a form that does not depend on key order. */
const feed = (hash: Hash, value: unknown): void => {
  if (value instanceof Uint8Array) {
    hash.update(`b${value.length}:`).update(value);
  } else if (Array.isArray(value)) {
    hash.update(`a${value.length}[`);
    for (const item of value) feed(hash, item);
    hash.update(']');
  } else if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    hash.update(`o${entries.length}{`);
    for (const [key, item] of entries) {
      hash.update(JSON.stringify(key));
      feed(hash, item);
    }
    hash.update('}');
  } else {
    hash.update(`v${JSON.stringify(value) ?? 'undefined'};`);
  }
};

/** A digest of a request's input (files included), so a key reused for another request is noticed. */
export const requestHash = (input: unknown): string => {
  const hash = createHash('sha256');
  feed(hash, input);
  return hash.digest('hex');
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs a call at most once per (account, call, key): the first request claims the key in the
 * database (so every instance agrees), runs, and stores its answer; a repeat replays that answer,
 * waiting while the first still runs; a repeat with another input is refused. Keys are purged once
 * the retention window has passed.
 */
export class IdempotencyGuard {
  private lastPurge = 0;

  constructor(
    private readonly db: Executor,
    private readonly clock: Clock,
    private readonly options: IdempotencyOptions = IDEMPOTENCY_DEFAULTS,
    private readonly repo = new IdempotencyRepository(),
  ) {}

  async run(
    scope: KeyScope,
    input: unknown,
    execute: () => Promise<StoredAnswer>,
  ): Promise<Pick<StoredAnswer, 'httpStatus' | 'body'>> {
    await this.purgeExpired();
    return this.attempt(scope, requestHash(input), execute);
  }

  private async attempt(
    scope: KeyScope,
    hash: string,
    execute: () => Promise<StoredAnswer>,
  ): Promise<Pick<StoredAnswer, 'httpStatus' | 'body'>> {
    if (await this.repo.claim(this.db, scope, hash, this.clock.now())) return this.runFirst(scope, execute);
    const deadline = Date.now() + this.options.waitMs;
    for (;;) {
      const stored = await this.repo.find(this.db, scope);
      // Released after a server-side failure: this request may run as the first.
      if (!stored) return this.attempt(scope, hash, execute);
      if (stored.requestHash !== hash) {
        throw new AppError(Status.INVALID_INPUT, 'idempotency.keyReused', {}, 400);
      }
      if (stored.httpStatus !== null) return { httpStatus: stored.httpStatus, body: stored.answer };
      const now = this.clock.now();
      const abandonedBefore = new Date(now.getTime() - this.options.abandonedAfterMs);
      if (stored.createdAt < abandonedBefore && (await this.repo.takeOver(this.db, scope, abandonedBefore, now))) {
        return this.runFirst(scope, execute);
      }
      if (Date.now() >= deadline) throw new AppError(Status.FAILED, 'idempotency.inProgress', {}, 409);
      await sleep(this.options.pollMs);
    }
  }

  /** Runs the call for the request holding the key and stores (or, after a server failure, frees) it. */
  private async runFirst(
    scope: KeyScope,
    execute: () => Promise<StoredAnswer>,
  ): Promise<Pick<StoredAnswer, 'httpStatus' | 'body'>> {
    let answer: StoredAnswer;
    try {
      answer = await execute();
    } catch (error) {
      await this.repo.release(this.db, scope);
      throw error;
    }
    if (answer.keep) await this.repo.complete(this.db, scope, answer.body, answer.httpStatus);
    else await this.repo.release(this.db, scope);
    return answer;
  }

  /** Deletes keys older than the window, at most once a minute per instance. */
  private async purgeExpired(): Promise<void> {
    const now = this.clock.now().getTime();
    if (now - this.lastPurge < 60_000) return;
    this.lastPurge = now;
    await this.repo.purgeBefore(this.db, new Date(now - this.options.retentionMs));
  }
}
