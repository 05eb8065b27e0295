/**
 * Daily sleep reports at care-home scale (issue 11: 1,000 beds' daily reports in ≤ 60 s on one
 * core, off the main thread). Stores BENCH_RESIDENTS nights of 9 hours the way ingest stores
 * them (`device_minute` with beat intervals, `device_second`), then makes every resident's
 * report as the scheduler does, through ReportProducer: claim → read the night → lay it on the
 * grid → analyse it in one worker thread → store the analysis and the minute curves. Beside it, in the same run, the peer: the same reads alone (the
 * least any report must cost), and the main thread's event-loop use while reports run.
 *
 * Run: npx tsx bench/sleep-reports.ts            (PGlite)
 *      DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/sleep-reports.ts
 * Options: BENCH_RESIDENTS=1000, BENCH_IN_FLIGHT=2 (reports under way at once, as the scheduler).
 */
import { performance } from 'node:perf_hooks';
import { deviceMinutes, deviceSeconds, sleepReports } from '../apps/server/src/db/schema.ts';
import { emptySeconds, writeSecond } from '../apps/server/src/modules/gateway/index.ts';
import { AnalysisPool } from '../apps/server/src/modules/reports/analysis-pool.ts';
import { nightWindow } from '../apps/server/src/modules/reports/night-window.ts';
import { NightRepository } from '../apps/server/src/modules/reports/night.repository.ts';
import { backgroundPacer } from '../apps/server/src/core/background-pacer.ts';
import { ReportProducer } from '../apps/server/src/modules/reports/report-producer.ts';
import { storedReportOf } from '../apps/server/src/modules/reports/stored-report.ts';
import { yieldToEventLoop } from '../apps/server/src/core/yield.ts';
import { createTestApp } from '../apps/server/src/test/harness.ts';

const RESIDENTS = Number(process.env.BENCH_RESIDENTS ?? '1000');
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? '2');
const TARGET = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const window = nightWindow('2026-03-02', '22:00', '06:00', 'UTC'); // 20:00 → 06:10, 610 minutes
const MINUTES = Math.round((window.end.getTime() - window.start.getTime()) / 60_000);

/** One resident's minutes: in bed from 21:30 to 06:00, asleep from 22:15, a slow swing of the
 * rhythm with beat-to-beat variation that differs per resident. */
function minutesOf(resident: number) {
  const minutes: { minute: Date; rri: number[]; seconds: Uint8Array }[] = [];
  const phase = resident * 0.37;
  for (let m = 0; m < MINUTES; m++) {
    const minute = new Date(window.start.getTime() + m * 60_000);
    const seconds = emptySeconds();
    const rri: number[] = [];
    for (let s = 0; s < 60; s++) {
      const t = m * 60 + s;
      const inBed = t >= 5400 && t < 36_000;
      const hr = inBed ? 58 + 6 * Math.sin(t / 1100 + phase) + 2 * Math.sin(t / 37) : 0;
      writeSecond(seconds, s, {
        hr,
        rr: inBed ? 14 : 0,
        move: t % 1400 < 3 ? 35 : 1,
        inBed,
        asleep: inBed && t >= 8100,
      });
      if (hr) rri.push(Math.round(60_000 / hr + 25 * Math.sin(t * 2.1 + phase)));
    }
    minutes.push({ minute, rri, seconds });
  }
  return minutes;
}

const app = await createTestApp(TARGET);
const db = app.database.db;
console.log(
  `Sleep reports bench ${new Date().toISOString()} on ${TARGET}: ${RESIDENTS} residents × ${MINUTES} minutes (${window.start.toISOString()} → ${window.end.toISOString()})`,
);

let started = performance.now();
for (let resident = 1; resident <= RESIDENTS; resident++) {
  const minutes = minutesOf(resident);
  const deviceId = `BENCH-${resident}`;
  for (let i = 0; i < minutes.length; i += 305) {
    const part = minutes.slice(i, i + 305);
    await db.insert(deviceMinutes).values(
      part.map((m) => ({
        deviceId,
        minute: m.minute,
        providerId: 1,
        bedId: resident,
        residentId: resident,
        samples: 60,
        hrSamples: 60,
        rrSamples: 60,
        inBedSeconds: 60,
        asleepSeconds: 60,
        moveAvg: 1,
        moveMax: 35,
        rri: m.rri.length ? m.rri : null,
      })),
    );
    await db
      .insert(deviceSeconds)
      .values(part.map((m) => ({ deviceId, minute: m.minute, providerId: 1, seconds: m.seconds })));
  }
}
console.log(
  `stored ${(RESIDENTS * MINUTES * 2).toLocaleString('en')} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);

const nights = new NightRepository();

// Peer: the reads alone.
started = performance.now();
const slices = NightRepository.slicesOf(window.start, window.end);
for (let resident = 1; resident <= RESIDENTS; resident++)
  for (const slice of slices) await nights.packedSlice(db, resident, slice.from, slice.to);
const readSeconds = (performance.now() - started) / 1000;

// The reports, made as the scheduler makes them: ReportProducer (claim, read, analyse in one
// worker thread, store the analysis and the minute curves), IN_FLIGHT at a time, the event loop
// let go between two (report-scheduler.ts).
const pool = new AnalysisPool({ size: 1 });
const clock = { now: () => new Date(window.end.getTime() + 60_000) };
// Paced as the server paces them (reports.module.ts): on PGlite at most a quarter of the thread.
const producer = new ReportProducer(db, clock, pool, backgroundPacer(app.database.kind));
const loopBefore = performance.eventLoopUtilization();
started = performance.now();
const perReport: number[] = [];
let next = 1;
const one = async (resident: number) => {
  const t0 = performance.now();
  const outcome = await producer.produce({ providerId: 1, residentId: resident, bedId: resident }, window);
  if (outcome !== 'made') throw new Error(`resident ${resident}: ${outcome}`);
  perReport.push(performance.now() - t0);
  await yieldToEventLoop();
};
await Promise.all(
  Array.from({ length: IN_FLIGHT }, async () => {
    for (let resident = next++; resident <= RESIDENTS; resident = next++) await one(resident);
  }),
);
const totalSeconds = (performance.now() - started) / 1000;
const loop = performance.eventLoopUtilization(loopBefore);
const stored = await db.select({ report: sleepReports.report }).from(sleepReports);
const insufficient = stored.filter((r) => storedReportOf(r.report)?.report.insufficient).length;
await pool.stop();
await app.close();

perReport.sort((a, b) => a - b);
const q = (p: number) => perReport[Math.min(perReport.length - 1, Math.floor(p * perReport.length))] ?? Number.NaN;
console.log(`
reads alone (peer)            ${readSeconds.toFixed(1)} s for ${RESIDENTS} nights
reports (read, analyse, store) ${totalSeconds.toFixed(1)} s = ${(totalSeconds / readSeconds).toFixed(2)}× the reads alone; per report p50 ${q(0.5).toFixed(0)} ms, p95 ${q(0.95).toFixed(0)} ms; ${insufficient} nights without enough data
main thread busy while they ran ${(100 * loop.utilization).toFixed(0)}% (event-loop utilisation; the analysis itself ran in the worker)
target: ${RESIDENTS} daily reports ≤ 60 s → ${totalSeconds <= 60 ? 'PASS' : 'MISS'}`);
