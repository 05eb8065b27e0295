/**
 * The rules of a staged rollout (docs/firmware.md), pure so each can be tested on its own:
 * which stage each device falls in, what a stage's figures are, and what the rollout does next.
 */
import type { UpgradeCounts, UpgradeState } from '@vigil/contract';
import type { StageStateCount } from './firmware.repository.ts';

/**
 * The stage of each of `n` devices, in the order given: stage k holds the devices up to its
 * cumulative share (rounded up, so a 5 % stage of 10 devices still upgrades one, never none).
 */
export const assignStages = (n: number, stages: readonly number[]): number[] => {
  const ends = stages.map((percent) => Math.ceil((n * percent) / 100));
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const stage = ends.findIndex((end) => i < end);
    out.push(stage === -1 ? stages.length - 1 : stage);
  }
  return out;
};

/**
 * A stable order of devices that does not follow their ids, so the first stage is not always
 * the oldest installs of one provider: sorted by an FNV-1a hash of the device ID.
 */
export const rolloutOrder = <T extends { deviceId: string }>(devices: readonly T[]): T[] => {
  const hash = (text: string) => {
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
    return h;
  };
  return [...devices]
    .map((d) => ({ d, h: hash(d.deviceId) }))
    .sort((a, b) => a.h - b.h || a.d.deviceId.localeCompare(b.d.deviceId))
    .map((x) => x.d);
};

export const emptyCounts = (): UpgradeCounts => ({
  total: 0,
  pending: 0,
  deferred: 0,
  inProgress: 0,
  succeeded: 0,
  failed: 0,
  cancelled: 0,
});

const add = (counts: UpgradeCounts, state: UpgradeState, n: number) => {
  counts.total += n;
  if (state === 'sent' || state === 'downloading' || state === 'installing') counts.inProgress += n;
  else counts[state] += n;
};

/** The whole rollout's figures and each stage's. */
export const rolloutCounts = (stages: readonly number[], rows: readonly StageStateCount[]) => {
  const counts = emptyCounts();
  const stageCounts = stages.map((percent, stage) => ({ stage, percent, ...emptyCounts() }));
  for (const row of rows) {
    add(counts, row.state, row.n);
    const stage = stageCounts[row.stage];
    if (stage) add(stage, row.state, row.n);
  }
  return { counts, stageCounts };
};

/**
 * A stage's failures passed the threshold, as a share (per cent) of the stage's devices — not
 * of those finished so far, which would pause a large stage on its first two reports.
 */
export const failedTooOften = (stage: UpgradeCounts, thresholdPercent: number): boolean =>
  stage.failed > 0 && stage.failed * 100 > thresholdPercent * stage.total;

export type RolloutStep = { kind: 'pause' } | { kind: 'advance'; to: number } | { kind: 'done' } | { kind: 'wait' };

/**
 * What a running rollout does after a look, from its open stage's figures and every stage's:
 * - pause when the open stage failed too often;
 * - advance when nothing of the open stage is under way and nothing it holds can be sent now
 *   (devices offline or deferred wait on, and are sent whenever they can be);
 * - done when the last stage is open and every upgrade has finished.
 */
export const nextStep = (
  stage: number,
  stageCounts: readonly UpgradeCounts[],
  total: UpgradeCounts,
  thresholdPercent: number,
  sendableNow: number,
): RolloutStep => {
  const open = stageCounts[stage];
  if (!open) return { kind: 'done' };
  if (failedTooOften(open, thresholdPercent)) return { kind: 'pause' };
  const last = stage >= stageCounts.length - 1;
  if (last) return total.inProgress + total.pending + total.deferred === 0 ? { kind: 'done' } : { kind: 'wait' };
  const openInFlight = stageCounts.slice(0, stage + 1).reduce((sum, c) => sum + c.inProgress, 0);
  return openInFlight === 0 && sendableNow === 0 ? { kind: 'advance', to: stage + 1 } : { kind: 'wait' };
};
