/**
 * `npm run sleep:validate` on the shared expert-labelled recordings, as CI runs it: the table is
 * printed, and the pooled figures must not fall below what the method measured when it was
 * written (docs/sleep-analysis.md). Skipped, with the reason, where the datasets are absent.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Summary } from './summary.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const CLI = path.join(ROOT, 'packages/sleep/src/validate/cli.ts');
const DATASETS = process.env.SLEEP_DATASETS ?? path.resolve(ROOT, '../shared/datasets');
const present = fs.existsSync(path.join(DATASETS, 'apnea-ecg'));

/** What the shipped method measured on the development recordings, less a margin for the last
 * digit: a change that makes any figure worse fails here. */
const FLOORS: Record<keyof Omit<Summary, 'records'>, number> = {
  apneaMinuteAccuracy: 0.862, // 0.8634
  apneaRecordAccuracy: 1, // 39 of 39 records
  ahiClassAgreement: 0.765, // 0.7660
  stagingAccuracy4: 0.663, // 0.6638
  stagingKappa4: 0.451, // 0.4518 (target 0.49 missed: docs/sleep-analysis.md)
  afSensitivity: 0.99, // 0.9901
  afSpecificity: 0.986, // 0.9867
};

const validate = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 300_000 });

const lastJson = (stdout: string): Summary => JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as Summary;

describe('sleep:validate', () => {
  it('explains itself and refuses a folder without recordings', () => {
    expect(validate('--help').stdout).toMatch(/--data/);
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'sleep-empty-'));
    const refused = validate('--data', empty);
    fs.rmSync(empty, { recursive: true });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/No database folder/);
  });
});

describe.skipIf(!present)(
  `sleep:validate on ${present ? DATASETS : 'the shared datasets — skipped: not found; set SLEEP_DATASETS'}`,
  () => {
    const unseen = fs.mkdtempSync(path.join(os.tmpdir(), 'sleep-unseen-'));
    afterAll(() => fs.rmSync(unseen, { recursive: true, force: true }));

    it('prints a row per record and the pooled figures, none below its floor', () => {
      const run = validate('--data', DATASETS);
      console.log(run.stdout);
      expect(run.status, run.stderr).toBe(0);
      const summary = lastJson(run.stdout);
      const records = fs
        .readdirSync(DATASETS, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .flatMap((entry) => fs.readdirSync(path.join(DATASETS, entry.name)).filter((f) => f.endsWith('.labels.csv')));
      expect(summary.records).toBe(records.length);
      for (const [figure, floor] of Object.entries(FLOORS)) {
        expect(summary[figure as keyof typeof FLOORS], figure).toBeGreaterThanOrEqual(floor);
      }
    });

    it('recognises databases by their labels in a folder it has never seen', () => {
      // Two recordings of each database under made-up folder names, without records.csv.
      for (const [from, to] of [
        ['apnea-ecg', 'night-a'],
        ['slpdb', 'night-b'],
        ['ltafdb', 'night-c'],
      ] as const) {
        const source = path.join(DATASETS, from);
        fs.mkdirSync(path.join(unseen, to));
        const names = fs
          .readdirSync(source)
          .filter((f) => f.endsWith('.labels.csv'))
          .slice(0, 2)
          .map((f) => f.slice(0, -'.labels.csv'.length));
        for (const name of names) {
          for (const suffix of ['.labels.csv', '.hr.csv.gz', '.rr.csv.gz']) {
            fs.copyFileSync(path.join(source, name + suffix), path.join(unseen, to, name + suffix));
          }
        }
      }
      const run = validate('--data', unseen);
      expect(run.status, run.stderr).toBe(0);
      const summary = lastJson(run.stdout);
      expect(summary.records).toBe(6);
      expect(summary.apneaMinuteAccuracy).not.toBeNull();
      expect(summary.stagingKappa4).not.toBeNull();
      expect(summary.afSensitivity).not.toBeNull();
    });
  },
);
