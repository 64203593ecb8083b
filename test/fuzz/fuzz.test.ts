// The generator's fuzzing gate in `npm test`: a slice of the seeded generator fuzzer (fuzz/,
// `npm run fuzz`) with a fixed seed, every family once (the families come round-robin: fuzz/cases.ts),
// asserting zero cases in every failure class. CI runs the first 1,000 cases of the same seed after the
// tests (.ci/run), so the slice here is the smallest that still reaches every family. Each failing case is listed with the command that reproduces it
// (`npm run fuzz -- --seed 1 --case K`). One child process: the slice's time is mostly each child's
// fixed set-up (a real model generated), and the other test files keep the second core busy.
import { expect, test } from 'vitest';
import { formatFailure, runFuzz } from '../../fuzz/run.ts';
import { FAILURE_CLASSES } from '../../fuzz/verdict.ts';
import { ORDER } from '../../fuzz/cases.ts';

const SEED = 1;
const CASES = ORDER.length;

test(`${CASES} hostile model objects (seed ${SEED}): no unnamed crash, invalid TypeScript, injection, escape, partial write, hang or parameter type unlike json-schema-to-typescript's`, async () => {
  const report = await runFuzz({ seed: SEED, cases: CASES, jobs: 1, timeoutSeconds: 30 });
  expect(report.cases).toBe(CASES);
  // Diagnostics of the runtime or of a real model's output would hide the cases' own: none allowed.
  expect(report.shared, 'diagnostics outside the cases (runtime or template output)').toEqual([]);
  expect(report.outcomes.filter((o) => FAILURE_CLASSES.includes(o.class)).map(formatFailure)).toEqual([]);
  expect(Object.fromEntries(FAILURE_CLASSES.map((c) => [c, report.counts[c]]))).toEqual(
    Object.fromEntries(FAILURE_CLASSES.map((c) => [c, 0])),
  );
  // The slice reached the generator's output stage and its refusals alike.
  expect(report.counts.generated).toBeGreaterThan(CASES / 4);
  expect(report.counts.refused).toBeGreaterThan(CASES / 10);
  // the oracle (fuzz/oracle.ts) judged the parameter types of the generated cases
  expect(report.oracle.compared).toBeGreaterThan(CASES / 5);
}, 600_000); // about 20 s alone; the whole suite shares the 2 cores, so the limit leaves room for that
