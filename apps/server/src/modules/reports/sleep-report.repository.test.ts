import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../../test/db-suites.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { nightWindow } from './night-window.ts';
import { SleepReportRepository, type ReportClaim } from './sleep-report.repository.ts';

const MINUTE = 60_000;
const window = nightWindow('2026-03-02', '21:30', '06:30', 'UTC');
const at = (minutes: number) => new Date(window.end.getTime() + minutes * MINUTE);

describeEachDb('sleep report claims (%s)', (target) => {
  let app: TestApp;
  const repo = new SleepReportRepository();
  const claimAt = (residentId: number, minutes: number, extra: Partial<ReportClaim> = {}) =>
    repo.claim(app.database.db, {
      providerId: 1,
      residentId,
      bedId: 3,
      window,
      now: at(minutes),
      staleBefore: at(minutes - 10),
      ...extra,
    });

  beforeAll(async () => {
    app = await createTestApp(target);
  });
  afterAll(() => app?.close());

  it('gives each report one producer when instances claim it at once', async () => {
    const ids = await Promise.all(Array.from({ length: 6 }, () => claimAt(101, 0)));
    expect(ids.filter((id) => id !== null)).toHaveLength(1);
    expect((await repo.find(app.database.db, 101, '2026-03-02'))?.state).toBe('computing');
  });

  it('leaves a ready report alone unless forced, and a fresh claim to its holder', async () => {
    const id = await claimAt(102, 0);
    expect(id).not.toBeNull();
    expect(await claimAt(102, 5)).toBeNull(); // still computing, not stale
    const done = await repo.complete(app.database.db, id ?? 0, at(0), {
      report: { totalSleep: 25_000 },
      analysisVersion: 1,
      now: at(1),
    });
    expect(done).toBe(true);
    expect(await claimAt(102, 60)).toBeNull();
    const again = await claimAt(102, 61, { force: true });
    expect(again).toBe(id);
    expect((await repo.find(app.database.db, 102, '2026-03-02'))?.state).toBe('computing');
  });

  it('takes over a claim left by a stopped instance, and the late result of the old one is refused', async () => {
    const first = await claimAt(103, 0);
    const takenOver = await claimAt(103, 11);
    expect(takenOver).toBe(first);
    const late = await repo.complete(app.database.db, first ?? 0, at(0), {
      report: {},
      analysisVersion: 1,
      now: at(12),
    });
    expect(late).toBe(false);
    expect(
      await repo.complete(app.database.db, first ?? 0, at(11), { report: {}, analysisVersion: 1, now: at(12) }),
    ).toBe(true);
  });

  it('claims a failed report again at the next round, with its reason kept until then', async () => {
    const id = await claimAt(104, 0);
    await repo.fail(app.database.db, id ?? 0, at(0), 'worker stopped');
    expect(await repo.find(app.database.db, 104, '2026-03-02')).toMatchObject({
      state: 'failed',
      error: 'worker stopped',
    });
    expect(await claimAt(104, 1)).toBe(id);
    expect((await repo.find(app.database.db, 104, '2026-03-02'))?.error).toBeNull();
  });
});
