/**
 * The test order (test/support/sequencer.ts): longest first within each project, from vitest's cached
 * durations where it has them and from the estimates in a fresh clone; the estimates name files that
 * exist.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import { ESTIMATED_SECONDS, LongestFirst } from '../support/sequencer.ts';
import { REPO_ROOT } from '../support/index.ts';

const ROOT = REPO_ROOT;

/** A sequencer over a stand-in of vitest's context: `cached` durations (ms) by `project:file`. */
function sequencer(cached: Record<string, number> = {}): LongestFirst {
  const ctx = {
    config: { root: ROOT, sequence: {} },
    cache: {
      getFileTestResults: (key: string) => (key in cached ? { duration: cached[key], failed: false } : undefined),
      getFileStats: () => ({ size: 1 }),
    },
  };
  return new LongestFirst(ctx as unknown as Vitest);
}

const spec = (project: string, file: string, isolate = false) =>
  ({
    moduleId: path.join(ROOT, file),
    project: { name: project, config: { isolate, sequence: { groupOrder: 0 } } },
  }) as unknown as TestSpecification;

const names = (specs: TestSpecification[]) =>
  specs.map((s) => `${s.project.name}:${path.relative(ROOT, s.moduleId).split(path.sep).join('/')}`);

describe('LongestFirst', () => {
  test('a fresh clone: the estimated files first, longest first, the others after in vitest order', async () => {
    const files = [
      spec('shared', 'test/unit/a.test.ts'),
      spec('shared', 'test/generator/typecheck.test.ts'),
      spec('shared', 'test/cli/cli.test.ts'),
      spec('isolated', 'test/runtime/b.test.ts', true),
      spec('shared', 'test/package/docs.test.ts'),
    ];
    expect(names(await sequencer().sort(files))).toEqual([
      'isolated:test/runtime/b.test.ts',
      'shared:test/cli/cli.test.ts',
      'shared:test/package/docs.test.ts',
      'shared:test/generator/typecheck.test.ts',
      'shared:test/unit/a.test.ts',
    ]);
  });

  test("vitest's cached durations win over the estimates", async () => {
    const files = [spec('shared', 'test/cli/cli.test.ts'), spec('shared', 'test/unit/a.test.ts')];
    const s = sequencer({ 'shared:test/cli/cli.test.ts': 1_000, 'shared:test/unit/a.test.ts': 200_000 });
    expect(names(await s.sort(files))).toEqual(['shared:test/unit/a.test.ts', 'shared:test/cli/cli.test.ts']);
  });

  test('every estimated file exists', () => {
    expect(Object.keys(ESTIMATED_SECONDS).filter((f) => !existsSync(path.join(REPO_ROOT, f)))).toEqual([]);
  });
});
