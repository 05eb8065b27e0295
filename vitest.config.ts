import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite and argon2 are CPU-heavy; two workers match the two cores.
    maxWorkers: 2,
    reporters: ['default', './scripts/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/server/src/**/*.test.ts',
            'apps/simulator/src/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          exclude: ['**/*.slow.test.ts', '**/node_modules/**'],
          environment: 'node',
          // Files share a worker's modules (decision 0023): the server graph and the migrated
          // PGlite template load once per worker, not once per file. 942 s → 392 s.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // Whole server processes started, killed and restarted: after the unit tests, one at a time.
          name: 'slow',
          include: ['apps/server/src/**/*.slow.test.ts', 'scripts/**/*.slow.test.ts'],
          environment: 'node',
          testTimeout: 180_000,
          sequence: { groupOrder: 2 },
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['apps/web/src/test/setup.ts'],
          // As the node project (decision 0023): antd and the screens load once per worker.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // Browser tests: the real server in-process, Debian's Chromium; skipped without it.
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['e2e/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // A page reloaded on a loaded two-core machine can take longer than expect.poll's default
          // second to read the server's answer (the login test's isAbroad failed so, twice in a row).
          expect: { poll: { timeout: 15_000 } },
          // In CI a browser test that failed runs once more: a page on a loaded two-core machine
          // can miss a wait by a moment. A failure that repeats fails the run.
          retry: process.env.CI ? 1 : 0,
          // After the unit tests, two files at a time: a browser test mostly waits for the page, and
          // one at a time left a core idle for 18 minutes of CI. Each file has its own server
          // (PGlite, a free port) and browser.
          sequence: { groupOrder: 1 },
          // As the node project (decision 0023): a worker loads the server graph and compiles PGlite
          // once, not once per file. A file's first server took 6.5 s to start, a later one 1.8 s.
          isolate: false,
        },
      },
    ],
  },
});
