import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one plain closing line ("vitest: N passed, N failed, N skipped") that CI logs can be
 * read by, the files' time per project and the slowest files, so a run that grows shows where.
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
    const perProject = new Map<string, { files: number; ms: number }>();
    for (const module of testModules) {
      const total = perProject.get(module.project.name) ?? { files: 0, ms: 0 };
      perProject.set(module.project.name, { files: total.files + 1, ms: total.ms + module.diagnostic().duration });
    }
    console.log('\nfiles’ time per project (summed over workers):');
    for (const [name, { files, ms }] of [...perProject].sort((a, b) => b[1].ms - a[1].ms)) {
      console.log(`  ${(ms / 1000).toFixed(1).padStart(7)} s  ${name} (${files} files)`);
    }
    console.log('\nslowest files:');
    for (const { name, ms } of slowest) console.log(`  ${(ms / 1000).toFixed(1).padStart(7)} s  ${name}`);
    console.log(`\nvitest: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  }
}
