import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'scripts/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite and argon2 are CPU-heavy; two workers match the two cores.
    maxWorkers: 2,
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});
