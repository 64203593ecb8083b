import { defineConfig } from 'vitest/config';

// The JSON report is read by .ci/run to print one plain `N passed, M failed` line for the whole run.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', 'json'],
    outputFile: { json: '.tmp/vitest-report.json' },
  },
});
