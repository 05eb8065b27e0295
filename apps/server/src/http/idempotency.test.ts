import { insertResident, residentList } from '@vigil/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.ts';
import { idempotencyKeys, residents } from '../db/schema.ts';
import { residentInput } from '../modules/residents/resident-fixtures.ts';
import { makeProvider } from '../test/fixtures.ts';
import { ADMIN_PASSWORD, ADMIN_USER, createTestApp, type TestApp } from '../test/harness.ts';
import { describeEachDb } from '../test/db-suites.ts';
import { IdempotencyGuard, requestHash } from './idempotency.ts';
import { IdempotencyRepository } from './idempotency.repository.ts';

interface Answer {
  httpStatus: number;
  status: number;
  msgKey?: string;
  data: unknown;
}

describe('requestHash', () => {
  it('does not depend on key order, but on every value and on file bytes', () => {
    expect(requestHash({ a: 1, b: [1, 2] })).toBe(requestHash({ b: [1, 2], a: 1 }));
    expect(requestHash({ a: 1, b: [1, 2] })).not.toBe(requestHash({ a: 1, b: [2, 1] }));
    expect(requestHash({ a: '1' })).not.toBe(requestHash({ a: 1 }));
    expect(requestHash({ f: new Uint8Array([1, 2]) })).not.toBe(requestHash({ f: new Uint8Array([1, 3]) }));
  });
});

describeEachDb('Idempotency-Key (%s)', (target) => {
  let app: TestApp;
  let clock: ManualClock;
  let admin: string;
  let home: { id: number; token: string };
  let other: { id: number; token: string };

  const post = async (path: string, token: string, body: unknown, key?: string): Promise<Answer> => {
    const res = await app.app.inject({
      method: 'POST',
      url: path,
      headers: {
        'x-token': token,
        'content-type': 'application/json',
        'accept-language': 'en-US',
        ...(key === undefined ? {} : { 'idempotency-key': key }),
      },
      payload: JSON.stringify(body),
    });
    const envelope = JSON.parse(res.body) as Omit<Answer, 'httpStatus'>;
    return { ...envelope, httpStatus: res.statusCode };
  };
  const residentsNamed = async (providerId: number, name: string) =>
    (await app.database.db.select().from(residents).where(eq(residents.providerId, providerId))).filter(
      (r) => r.name === name,
    );

  beforeAll(async () => {
    clock = new ManualClock(new Date('2026-03-15T12:00:00Z'));
    app = await createTestApp(target, { clock, env: { SESSION_IDLE_MINUTES: '43200' } });
    admin = await app.login(ADMIN_USER, ADMIN_PASSWORD);
    const h = await makeProvider(app, admin, 'Idem Home');
    home = { id: h.id, token: await app.login(h.userName, h.password) };
    const o = await makeProvider(app, admin, 'Idem Other');
    other = { id: o.id, token: await app.login(o.userName, o.password) };
  });
  afterAll(() => app?.close());

  it('without a key, a confirmed resident sent twice is registered twice (what the key prevents)', async () => {
    const body = residentInput({ name: 'Twice Without Key', confirm: true });
    await post(insertResident.path, home.token, body);
    await post(insertResident.path, home.token, body);
    expect(await residentsNamed(home.id, 'Twice Without Key')).toHaveLength(2);
  });

  it('replays the first answer to a repeat of the same key instead of creating again', async () => {
    const body = residentInput({ name: 'Replayed Once', confirm: true });
    const first = await post(insertResident.path, home.token, body, 'key-replay-1');
    const again = await post(insertResident.path, home.token, body, 'key-replay-1');
    expect(first.status).toBe(200);
    expect(again).toEqual(first);
    expect(await residentsNamed(home.id, 'Replayed Once')).toHaveLength(1);
  });

  it('runs concurrent requests with the same key once; every one gets the first answer', async () => {
    const body = residentInput({ name: 'Concurrent Once', confirm: true });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => post(insertResident.path, home.token, body, 'key-concurrent-1')),
    );
    const ids = new Set(answers.map((a) => JSON.stringify(a.data)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(ids.size).toBe(1);
    expect(await residentsNamed(home.id, 'Concurrent Once')).toHaveLength(1);
  });

  it('replays a refusal too: the repeat of a refused request is refused alike, not run again', async () => {
    const body = residentInput({ name: 'Refused Twice' });
    await post(insertResident.path, home.token, { ...body, confirm: true });
    const first = await post(insertResident.path, home.token, body, 'key-refused-1');
    expect(first.msgKey).toBe('resident.sameName');
    expect(await post(insertResident.path, home.token, body, 'key-refused-1')).toEqual(first);
  });

  it('refuses the same key with a different body with a clear 400', async () => {
    await post(insertResident.path, home.token, residentInput({ name: 'Body One', confirm: true }), 'key-body-1');
    const other = await post(insertResident.path, home.token, residentInput({ name: 'Body Two' }), 'key-body-1');
    expect(other.httpStatus).toBe(400);
    expect(other.status).toBe(400);
    expect(other.msgKey).toBe('idempotency.keyReused');
    expect(await residentsNamed(home.id, 'Body Two')).toHaveLength(0);
  });

  it('keeps keys per account: another account using the same key runs its own request', async () => {
    const mine = await post(insertResident.path, home.token, residentInput({ name: 'Mine', confirm: true }), 'shared');
    const theirs = await post(
      insertResident.path,
      other.token,
      residentInput({ name: 'Theirs', confirm: true }),
      'shared',
    );
    expect(mine.status).toBe(200);
    expect(theirs.status).toBe(200);
    expect(theirs.data).not.toEqual(mine.data);
    expect(await residentsNamed(other.id, 'Theirs')).toHaveLength(1);
    const list = await app.call(residentList, { pageNum: 1, pageSize: 50, keyWord: 'Mine' }, { token: other.token });
    expect(list.data?.rows ?? []).toHaveLength(0);
  });

  it('refuses a malformed key with a 400 and runs nothing', async () => {
    const res = await post(
      insertResident.path,
      home.token,
      residentInput({ name: 'Bad Key', confirm: true }),
      'x'.repeat(129),
    );
    expect(res.httpStatus).toBe(400);
    expect(res.msgKey).toBe('idempotency.keyInvalid');
    expect(await residentsNamed(home.id, 'Bad Key')).toHaveLength(0);
  });

  it('forgets keys after the retention window: they are purged and the request runs again', async () => {
    const body = residentInput({ name: 'After Window', confirm: true });
    await post(insertResident.path, home.token, body, 'key-window-1');
    const stored = () => app.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, 'key-window-1'));
    expect(await stored()).toHaveLength(1);
    clock.advance(25 * 60 * 60 * 1000);
    await post(insertResident.path, home.token, body, 'key-window-1');
    expect(await residentsNamed(home.id, 'After Window')).toHaveLength(2);
    // The first row was purged; the one left is the new request's.
    const rows = await stored();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.createdAt.getTime()).toBe(clock.now().getTime());
  });

  describe('the guard', () => {
    const scope = (key: string) => ({ accountId: 1, call: 'guardTest', key });
    const guard = () =>
      new IdempotencyGuard(app.database.db, clock, {
        retentionMs: 24 * 60 * 60 * 1000,
        waitMs: 200,
        abandonedAfterMs: 60_000,
        pollMs: 20,
      });
    const answer = (n: number, keep = true) => ({ httpStatus: 200, body: { status: 200, data: n }, keep });

    it('answers "still in progress" to a repeat while the first runs longer than the wait, and never runs it twice', async () => {
      let finish: () => void = () => undefined;
      let claimed: () => void = () => undefined;
      const running = new Promise<void>((resolve) => (claimed = resolve));
      const first = guard().run(
        scope('slow'),
        { a: 1 },
        () =>
          new Promise((resolve) => {
            finish = () => resolve(answer(1));
            claimed();
          }),
      );
      // The repeat starts once the first holds the key (with a pool, two racing starts may claim in either order).
      await running;
      const runs: number[] = [];
      const repeat = guard().run(scope('slow'), { a: 1 }, async () => {
        runs.push(2);
        return answer(2);
      });
      await expect(repeat).rejects.toMatchObject({ key: 'idempotency.inProgress', httpStatus: 409 });
      finish();
      expect((await first).body).toEqual({ status: 200, data: 1 });
      expect(runs).toEqual([]);
    });

    it('does not keep a server failure: a retry with the key runs again', async () => {
      const failed = await guard().run(scope('failing'), { a: 1 }, async () => ({
        ...answer(1, false),
        httpStatus: 500,
      }));
      expect(failed.httpStatus).toBe(500);
      const retried = await guard().run(scope('failing'), { a: 1 }, async () => answer(2));
      expect(retried.body).toEqual({ status: 200, data: 2 });
    });

    it('takes over a key whose first request died with its instance, once it is abandoned', async () => {
      await new IdempotencyRepository().claim(app.database.db, scope('orphan'), requestHash({ a: 1 }), clock.now());
      const early = guard().run(scope('orphan'), { a: 1 }, async () => answer(1));
      await expect(early).rejects.toMatchObject({ key: 'idempotency.inProgress' });
      clock.advance(61_000);
      const late = await guard().run(scope('orphan'), { a: 1 }, async () => answer(3));
      expect(late.body).toEqual({ status: 200, data: 3 });
      // Stored now: the next repeat replays it.
      expect((await guard().run(scope('orphan'), { a: 1 }, async () => answer(4))).body).toEqual({
        status: 200,
        data: 3,
      });
    });
  });
});
