/**
 * Speed of the sleep report PDFs (target: ≤ 1 s per report on this 2-core machine, text layout
 * and font subsetting included, fonts already loaded). Renders BENCH_DAILY daily reports (a full
 * night: ~1,220 hypnogram epochs, ~600 minutes of curves) and BENCH_MONTHLY monthly reports
 * (30 nights) in zh-CN, en-US, ja and cs, residents named in four scripts.
 *
 * Beside each report, in the same run, the peer: the same document drawn with pdfkit's built-in
 * Helvetica (nothing embedded, no fallback), in English with a Latin name: what the same
 * drawing costs without the embedded fonts.
 *
 * Run: npm run bench:pdf    Options: BENCH_DAILY=50, BENCH_MONTHLY=20.
 */
import { performance } from 'node:perf_hooks';
import type { Language } from '@vigil/contract';
import { loadReportFonts, standardFontPlan, embeddedFontPlan } from '../apps/server/src/modules/reports/pdf/fonts.ts';
import { monthFixture, nightFixture, residentFixture } from '../apps/server/src/modules/reports/pdf/fixtures.ts';
import { drawDailyReport, renderDailyReportPdf } from '../apps/server/src/modules/reports/pdf/render-daily.ts';
import { drawMonthReport, renderMonthReportPdf } from '../apps/server/src/modules/reports/pdf/render-monthly.ts';

const DAILY = Number(process.env.BENCH_DAILY ?? '50');
const MONTHLY = Number(process.env.BENCH_MONTHLY ?? '20');
const TARGET_MS = 1000;
const CASES: { language: Language; timeZone: string; names: string[] }[] = [
  { language: 'zh-CN', timeZone: 'Asia/Shanghai', names: ['张三', '王秀英', '佐藤 花子'] },
  { language: 'en-US', timeZone: 'America/New_York', names: ['Margaret Ellis', '김민준', 'Zdeněk Šťastný'] },
  { language: 'ja', timeZone: 'Asia/Tokyo', names: ['佐藤 花子', '高橋 さくら', '张三'] },
  { language: 'cs', timeZone: 'Europe/Prague', names: ['Zdeněk Šťastný', 'Božena Říhová', '김민준'] },
];

const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};

async function time(work: () => Promise<Uint8Array>): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  const file = await work();
  return { ms: performance.now() - started, bytes: file.byteLength };
}

const loadStarted = performance.now();
loadReportFonts();
const loadMs = performance.now() - loadStarted;

interface Job {
  kind: 'daily' | 'monthly';
  language: Language;
  render: () => Promise<Uint8Array>;
  peer: () => Promise<Uint8Array>;
}

const jobs: Job[] = [];
for (let i = 0; i < DAILY; i++) {
  const c = CASES[i % CASES.length] ?? CASES[0];
  if (!c) throw new Error('no bench case');
  const night = `2026-03-${String(1 + (i % 28)).padStart(2, '0')}`;
  const input = nightFixture({
    night,
    timeZone: c.timeZone,
    seed: i + 1,
    resident: residentFixture(c.names[i % c.names.length] ?? ''),
  });
  const peer = nightFixture({ night, timeZone: c.timeZone, seed: i + 1, resident: residentFixture('Margaret Ellis') });
  jobs.push({
    kind: 'daily',
    language: c.language,
    render: () => renderDailyReportPdf({ ...input, language: c.language, timeZone: c.timeZone }),
    peer: () => drawDailyReport({ ...peer, language: 'en-US', timeZone: c.timeZone }, standardFontPlan),
  });
}
for (let i = 0; i < MONTHLY; i++) {
  const c = CASES[i % CASES.length] ?? CASES[0];
  if (!c) throw new Error('no bench case');
  const report = monthFixture({ seed: i + 1, resident: residentFixture(c.names[i % c.names.length] ?? '') });
  const peer = monthFixture({ seed: i + 1, resident: residentFixture('Margaret Ellis') });
  jobs.push({
    kind: 'monthly',
    language: c.language,
    render: () => renderMonthReportPdf({ report, language: c.language, timeZone: c.timeZone }),
    peer: () => drawMonthReport({ report: peer, language: 'en-US', timeZone: c.timeZone }, standardFontPlan),
  });
}

// Warm-up, not measured: one report of each kind in each language (JIT, Intl formatters, glyph caches).
for (const c of CASES) {
  const night = nightFixture({ timeZone: c.timeZone, resident: residentFixture(c.names[0] ?? '') });
  await drawDailyReport({ ...night, language: c.language, timeZone: c.timeZone }, embeddedFontPlan(c.language));
  await drawMonthReport(
    { report: monthFixture(), language: c.language, timeZone: c.timeZone },
    embeddedFontPlan(c.language),
  );
}
await drawDailyReport({ ...nightFixture(), language: 'en-US', timeZone: 'UTC' }, standardFontPlan);
await drawMonthReport({ report: monthFixture(), language: 'en-US', timeZone: 'UTC' }, standardFontPlan);

console.log(
  `Report PDF bench ${new Date().toISOString()}: ${DAILY} daily + ${MONTHLY} monthly reports in ${CASES.map((c) => c.language).join(', ')}; ` +
    `fonts loaded once in ${loadMs.toFixed(0)} ms`,
);

const results = {
  daily: { ms: [] as number[], peer: [] as number[], bytes: [] as number[] },
  monthly: { ms: [] as number[], peer: [] as number[], bytes: [] as number[] },
};
const byLanguage = new Map<string, number[]>();
for (const job of jobs) {
  // Report and peer alternate, so both see the same machine.
  const report = await time(job.render);
  const peer = await time(job.peer);
  results[job.kind].ms.push(report.ms);
  results[job.kind].peer.push(peer.ms);
  results[job.kind].bytes.push(report.bytes);
  const key = `${job.kind} ${job.language}`;
  byLanguage.set(key, [...(byLanguage.get(key) ?? []), report.ms]);
}

for (const [key, ms] of byLanguage) {
  console.log(
    `  ${key.padEnd(14)} ${String(ms.length).padStart(3)} reports  p50 ${quantile(ms, 0.5).toFixed(1)} ms  max ${Math.max(...ms).toFixed(1)} ms`,
  );
}
let pass = true;
for (const kind of ['daily', 'monthly'] as const) {
  const r = results[kind];
  if (r.ms.length === 0) continue;
  const p50 = quantile(r.ms, 0.5);
  const p95 = quantile(r.ms, 0.95);
  const peer50 = quantile(r.peer, 0.5);
  const kb = r.bytes.reduce((a, b) => a + b, 0) / r.bytes.length / 1024;
  pass &&= p95 <= TARGET_MS;
  console.log(
    `${kind.padEnd(7)} ms/report p50 ${p50.toFixed(1)}, p95 ${p95.toFixed(1)}, max ${Math.max(...r.ms).toFixed(1)} ` +
      `(target ≤ ${TARGET_MS} ms: ${p95 <= TARGET_MS ? 'PASS' : 'MISS'}); ${kb.toFixed(0)} KB average; ` +
      `peer (Helvetica, nothing embedded) p50 ${peer50.toFixed(1)} ms; report / peer p50 ${(p50 / peer50).toFixed(2)}×`,
  );
}
if (!pass) process.exitCode = 1;
