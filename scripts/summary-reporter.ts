import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one plain closing line ("vitest: N passed, N failed, N skipped") that CI logs can be
 * read by, and the slowest files with their project, so a run that grows shows where.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
    }
    const slowest = testModules
      .map((module) => ({
        name: `${module.project.name}: ${module.relativeModuleId}`,
        ms: module.diagnostic().duration,
      }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 25);
    console.log('\nslowest files:');
    for (const { name, ms } of slowest) console.log(`  ${(ms / 1000).toFixed(1).padStart(7)} s  ${name}`);
    console.log(`\nvitest: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  }
}
