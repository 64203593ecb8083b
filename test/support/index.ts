/**
 * What the tests of every area use: the repository root, child processes run without a shell with
 * their output collected (from scripts/lib/process.ts, which the scripts use too: scripts/ never
 * imports test/), waiting for a condition, temporary directories and file-tree hashes. Each area
 * adds its own helpers in `test/<area>/helpers.ts` (or `support.ts`).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { existingRootState, stateDir } from '../../generator/output/run-state.ts';
import { REPO_ROOT } from '../../generator/paths.ts';
import { run, type RunOptions, type RunResult } from '../../scripts/lib/process.ts';

/** The repository root (absolute, no trailing separator): the generator's, found from its own files. */
export { REPO_ROOT } from '../../generator/paths.ts';

export {
  run,
  runTsx,
  start,
  tsxArgs,
  type RunOptions,
  type RunResult,
  type Running,
} from '../../scripts/lib/process.ts';

/**
 * The arguments of `node` that run `npm run generate` as the script does (`scripts/run-generate.mjs`:
 * the generator bundled once per state of its sources, then plain `node`), with `args` after them.
 * Tests run the generator's command this way, not through tsx, so each child skips TypeScript's
 * loader and the compile of the generator's sources (about 1.3 s of CPU a run).
 */
export function generateArgs(args: readonly string[] = []): string[] {
  return [path.join(REPO_ROOT, 'scripts', 'run-generate.mjs'), ...args];
}

/** Runs `npm run generate`'s entry with `args` in a child `node` (see `generateArgs`). Never rejects. */
export function runGenerate(args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  return run(process.execPath, generateArgs(args), options);
}

/**
 * Waits until `cond()` is true, polling every 5 ms.
 * @throws Error (with `detail()` when given) after `ms` milliseconds.
 */
export async function until(cond: () => boolean, ms = 3_000, detail?: () => string): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`condition not reached in ${ms} ms${detail ? `: ${detail()}` : ''}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * A seeded pseudo-random number source (a linear congruential generator): the same numbers in [0, 1) for
 * the same `seed` on every run, so a test's random inputs are reproducible.
 */
export function seededRandom(seed: number): () => number {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

/** A new temporary directory named `<prefix>XXXXXX`; `remove()` deletes it with its contents. */
export function tempDir(prefix = 'inference-sdk-test-'): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** sha256 of every file under `dir`, by relative path, in sorted order; `{}` when `dir` is missing. */
export function hashTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  let files: string[];
  try {
    files = readdirSync(dir, { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  } catch {
    return out;
  }
  for (const full of files)
    out[path.relative(dir, full)] = createHash('sha256').update(readFileSync(full)).digest('hex');
  return out;
}

/**
 * What the generator keeps for the output root `root` in its state folder other than its record
 * of built files (generator/output/run-state.ts): a lock, a journal, temporary folders. Empty when
 * no run is active or interrupted there.
 */
export function stateLeftovers(root: string): string[] {
  const state = existingRootState(root);
  if (!state) return [];
  const key = path.basename(state.lock, '.lock');
  return readdirSync(stateDir()).filter((n) => n.startsWith(`${key}.`) && n !== path.basename(state.built));
}
