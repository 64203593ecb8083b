/**
 * Helpers of the CLI tests: both tarballs of a release (packed and installed once per run:
 * test/support/packed.ts) in a fresh project, run the installed bin, and
 * fingerprint a directory (to prove that a failed command wrote nothing).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { hashTree, run, type RunResult } from '../support/index.ts';
import { tscProject } from '../support/tsc.ts';
export { packedTarballs } from '../support/packed.ts';
import { linkInstalled } from '../support/packed.ts';

/**
 * Makes `<dir>` a user's ES module project with both packed tarballs installed: its `node_modules` is a
 * link to the install that every file shares (`linkInstalled`, test/support/packed.ts).
 */
export function installBoth(dir: string): Promise<void> {
  return linkInstalled(dir, 'both', { name: 'user-project', version: '0.0.0', private: true, type: 'module' });
}

/** Runs the installed `oxen-inference-codegen` in `project` with `env` added (no OXEN_* from the outer environment). */
export function codegen(project: string, args: string[], env: Record<string, string> = {}): Promise<RunResult> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OXEN_')));
  return run(path.join(project, 'node_modules', '.bin', 'oxen-inference-codegen'), args, {
    cwd: project,
    env: { ...base, NO_COLOR: '1', ...env },
    timeoutMs: 120_000,
  });
}

/**
 * Compiles the project of `config` (a tsconfig file) as `tsc -p <config> --pretty false` run in its folder
 * does, in this worker (test/support/tsc.ts). @returns tsc's exit code and output.
 */
export function tsc(config: string): Promise<RunResult> {
  return Promise.resolve(tscProject(config, {}, path.dirname(config)));
}

/** One sha256 over every file under `dir` (path and bytes; see `hashTree`), or 'absent'. */
export function treeHash(dir: string): string {
  if (!existsSync(dir)) return 'absent';
  return createHash('sha256')
    .update(JSON.stringify(hashTree(dir)))
    .digest('hex');
}
