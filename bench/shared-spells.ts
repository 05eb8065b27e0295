/**
 * What shared sleep-monitor spells cost (decision 0039). Against the Redis at REDIS_URL:
 *
 * 1. Redis: BENCH_DEVICES monitors (5000) each send BENCH_ROUNDS samples (20), one round at a
 *    time, every sample one Lua script (as the instances send them, auto-pipelined). Prints
 *    samples/s through one connection and Redis's own time per script (INFO commandstats, the
 *    difference over the run: other clients' scripts on a shared Redis count in it).
 * 2. The instance: the engine judging the same samples on its own count (`vitals`, the one
 *    instance's path) and on merged spells (`sleepVerdicts` + `sharedVitals` on the ledger's
 *    answers, Redis excluded): the ratio is what the shared path adds per sample in the process.
 *
 * Run: REDIS_URL=redis://127.0.0.1:6379 npx tsx bench/shared-spells.ts
 * Options: BENCH_DEVICES=5000 BENCH_ROUNDS=20
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { defaultAlarmRules } from '@vigil/contract';
import { Redis } from 'ioredis';
import { LateLog } from '../apps/server/src/core/log.ts';
import { AlarmEngine, VITALS_GAP_MS } from '../apps/server/src/modules/alarms/engine/alarm-engine.ts';
import type { Subject, VitalsSample } from '../apps/server/src/modules/alarms/engine/engine-types.ts';
import type { MergedSample } from '../apps/server/src/modules/alarms/engine/shared-spell.ts';
import { RedisSpellLedger, SPELL_KEY_PREFIX } from '../apps/server/src/modules/alarms/redis-spell-ledger.ts';

const option = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
};
const DEVICES = option('BENCH_DEVICES', 5000);
const ROUNDS = option('BENCH_ROUNDS', 20);
const url = process.env.REDIS_URL;
if (!url) throw new Error('REDIS_URL is not set');

const T0 = Date.now();
const run = randomBytes(3).toString('hex').toUpperCase();
const ids = Array.from({ length: DEVICES }, (_, i) => `BENCH-${run}-${i}`);
const subjects: Subject[] = ids.map((deviceId) => ({
  deviceId,
  kind: 'sleep_monitor',
  typeCode: 49,
  deviceRowId: 1,
  providerId: 1,
  bedId: 1,
  residentId: 1,
  roomId: null,
  areaId: null,
  caregiverId: null,
  occupied: true,
  absent: false,
  rules: defaultAlarmRules(),
}));
/** A night's mix: mostly calm, some stops and restless seconds, so every kind of verdict is merged. */
const sampleOf = (device: number, round: number): VitalsSample => {
  const k = (device * 31 + round * 7) % 10;
  return { hr: k === 9 ? 130 : 64, rr: k < 2 ? 0 : 15, inBed: k !== 8, move: k === 7 ? 75 : 40 };
};

const evalshaStats = async (redis: Redis) => {
  const line = (await redis.info('commandstats')).split('\n').find((l) => l.startsWith('cmdstat_evalsha:'));
  const calls = Number(/calls=(\d+)/.exec(line ?? '')?.[1] ?? 0);
  const usec = Number(/usec=(\d+)/.exec(line ?? '')?.[1] ?? 0);
  return { calls, usec };
};

const main = async () => {
  const ledger = new RedisSpellLedger(url, new LateLog(), VITALS_GAP_MS);
  await ledger.start();
  const admin = new Redis(url);
  const engine = new AlarmEngine(() => 120);
  const answers: MergedSample[][] = [];

  // 0. The floor: the least a script per sample costs, one GET and one SET of a record as long.
  admin.defineCommand('benchSpellFloor', {
    numberOfKeys: 1,
    lua: "redis.call('GET', KEYS[1]); redis.call('SET', KEYS[1], ARGV[1], 'PX', 60000); return ARGV[1]",
  });
  const floorRecord = 'x'.repeat(8 * 45);
  const floor = admin as unknown as { benchSpellFloor: (key: string, value: string) => Promise<string> };
  const floorBefore = await evalshaStats(admin);
  const floorStarted = performance.now();
  for (let round = 0; round < ROUNDS; round++)
    await Promise.all(ids.map((id) => floor.benchSpellFloor(`${SPELL_KEY_PREFIX}floor-${id}`, floorRecord)));
  const floorSeconds = (performance.now() - floorStarted) / 1000;
  const floorAfter = await evalshaStats(admin);

  // 1. Redis.
  const before = await evalshaStats(admin);
  const started = performance.now();
  for (let round = 0; round < ROUNDS; round++) {
    const at = T0 + round * 1000;
    answers.push(
      await Promise.all(
        subjects.map((s, d) =>
          ledger.apply(s.deviceId, {
            seq: round + 1,
            ts: at,
            at,
            verdicts: engine.sleepVerdicts(s, sampleOf(d, round), new Date(at)),
          }),
        ),
      ),
    );
  }
  const seconds = (performance.now() - started) / 1000;
  const after = await evalshaStats(admin);
  const samples = DEVICES * ROUNDS;
  console.log(`1. Redis: ${DEVICES} monitors × ${ROUNDS} samples through one connection`);
  console.log(`   ${Math.round(samples / seconds)} samples/s (${seconds.toFixed(2)} s)`);
  const perCall = (a: typeof after, b: typeof before) => (a.usec - b.usec) / Math.max(1, a.calls - b.calls);
  const floorPerCall = perCall(floorAfter, floorBefore);
  console.log(`   floor (GET + SET script): ${Math.round(samples / floorSeconds)} calls/s`);
  console.log(`   Redis time per script: ${perCall(after, before).toFixed(1)} µs, floor ${floorPerCall.toFixed(1)} µs`);
  console.log(
    `   ratio to the floor: time ${(perCall(after, before) / floorPerCall).toFixed(2)}, rate ${(floorSeconds / seconds).toFixed(2)}`,
  );

  // 2. The instance: the same samples judged on its own count and on the ledger's answers.
  const time = (judge: (s: Subject, d: number, round: number, at: Date) => void) => {
    const t = performance.now();
    for (let round = 0; round < ROUNDS; round++) {
      const at = new Date(T0 + round * 1000);
      subjects.forEach((s, d) => judge(s, d, round, at));
    }
    return (performance.now() - t) / samples;
  };
  const local = new AlarmEngine(() => 120);
  const shared = new AlarmEngine(() => 120);
  // Warm both once, then measure.
  for (const pass of [0, 1]) {
    const ownMs = time((s, d, round, at) => local.vitals(s, sampleOf(d, round), at));
    const sharedMs = time((s, d, round, at) => {
      const sample = sampleOf(d, round);
      const verdicts = shared.sleepVerdicts(s, sample, at);
      const merged = answers[round]?.[d];
      if (merged) shared.sharedVitals(s, sample, at, verdicts, merged);
    });
    if (pass === 1) {
      console.log('2. The instance, per sample (Redis excluded):');
      console.log(`   own count ${(ownMs * 1000).toFixed(2)} µs, shared spells ${(sharedMs * 1000).toFixed(2)} µs`);
      console.log(`   ratio shared / own: ${(sharedMs / ownMs).toFixed(2)}`);
    }
  }

  for (let i = 0; i < ids.length; i += 1000) {
    const some = ids.slice(i, i + 1000);
    await admin.del(...some.map((id) => SPELL_KEY_PREFIX + id), ...some.map((id) => `${SPELL_KEY_PREFIX}floor-${id}`));
  }
  await admin.quit();
  await ledger.stop();
};

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
