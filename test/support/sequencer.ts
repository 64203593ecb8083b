/**
 * The order vitest starts the test files in: longest first, so that on two workers the long files do
 * not end up last with one worker idle. vitest's own order (`BaseSequencer`) is longest first only when
 * its cache holds the durations of an earlier run; a fresh clone (CI) has none, and vitest then starts
 * the largest files first, which left the type checks, TypeDoc and the fuzzer (short files, long runs)
 * to the end. `ESTIMATED_SECONDS` gives those files' durations (vitest's per-file time in a clean-clone
 * run on the 2-core machine); a cached duration, where there is one, wins.
 */
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds per file, repository-relative, for files of at least about 10 s. Only the order depends on
 * them: a wrong figure costs time, never a result.
 */
export const ESTIMATED_SECONDS: Readonly<Record<string, number>> = {
  // packs both tarballs first (test/support/packed.ts): the other worker starts files that need no pack
  'test/cli/cli.test.ts': 90,
  'test/drift/refresh.test.ts': 30,
  'test/package/docs.test.ts': 27,
  'test/generator/typecheck.test.ts': 22,
  'test/fuzz/fuzz.test.ts': 16,
  'test/drift/refresh-hardening.test.ts': 16,
  'test/package/build.test.ts': 16,
  'test/generator/check.test.ts': 15,
  // these wait for the pack that cli.test.ts starts
  'test/package/package.test.ts': 14,
  'test/cli/safety.test.ts': 13,
  'test/generator/startup.test.ts': 11,
  'test/generator/determinism.test.ts': 10,
};

/** vitest's order, then longest first within each project (cached duration, else the estimate, else 0). */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const root = this.ctx.config.root;
    const projects = [...new Set(ordered.map((f) => f.project.name))];
    const seconds = (f: TestSpecification): number => {
      const file = path.relative(root, f.moduleId).split(path.sep).join('/');
      const cached = this.ctx.cache.getFileTestResults(`${f.project.name}:${file}`);
      return cached ? cached.duration / 1000 : (ESTIMATED_SECONDS[file] ?? 0);
    };
    const weight = new Map(ordered.map((f) => [f, seconds(f)]));
    // Array.prototype.sort is stable: equal weights keep vitest's order
    return [...ordered].sort(
      (a, b) => projects.indexOf(a.project.name) - projects.indexOf(b.project.name) || weight.get(b)! - weight.get(a)!,
    );
  }
}
