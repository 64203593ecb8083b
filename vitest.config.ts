import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/support/sequencer.ts';

// Files that replace or reset modules (vi.mock, vi.resetModules) get a fresh module graph each; the
// others share one per worker (isolate: false), so a worker does not import the generator, the runtime
// and TypeScript again for every file: on 2 cores that halves the run of test/runtime and test/unit.
const ISOLATED = [
  'test/runtime/error-brand.test.ts',
  'test/runtime/failure-unavailable.test.ts',
  'test/runtime/retry-loop.test.ts',
  'test/runtime/retry-loop-unavailable.test.ts',
];

// The JSON report is read by .ci/run to print one plain `N passed, M failed` line for the whole run.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', 'json'],
    outputFile: { json: '.tmp/vitest-report.json' },
    // one worker per core (vitest's default leaves one core to itself, which on 2 cores runs one file
    // at a time while most files wait on child processes)
    maxWorkers: availableParallelism(),
    sequence: { sequencer: LongestFirst },
    projects: [
      { extends: true, test: { name: 'isolated', include: ISOLATED, isolate: true } },
      {
        extends: true,
        test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: ISOLATED, isolate: false },
      },
    ],
  },
});
