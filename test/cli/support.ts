/**
 * Helpers of the CLI tests: both tarballs of a release (packed once per run: `packedTarballs`,
 * test/support/packed.ts), installed into a fresh project, run the installed bin, and
 * fingerprint a directory (to prove that a failed command wrote nothing).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { hashTree, REPO_ROOT, run, type RunResult } from '../support/index.ts';
import { installTarball, npmEnv } from '../package/helpers.ts';
import type { PackedPair } from '../../scripts/lib/pack.ts';
export { packedTarballs } from '../support/packed.ts';

/** Installs both tarballs (`packedTarballs()`) into `<dir>` (a new ES module project) from the npm cache where it can. */
export async function installBoth(dir: string, tarballs: PackedPair): Promise<void> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'user-project', version: '0.0.0', private: true, type: 'module' }, null, 2),
  );
  const r = await run(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--no-package-lock',
      tarballs.sdk.tarball,
      tarballs.codegen.tarball,
    ],
    { cwd: dir, env: npmEnv() },
  );
  if (r.code !== 0) throw new Error(`npm install of the tarballs failed (exit ${r.code}):\n${r.stdout}\n${r.stderr}`);
}
export { installTarball };

/** Runs the installed `oxen-inference-codegen` in `project` with `env` added (no OXEN_* from the outer environment). */
export function codegen(project: string, args: string[], env: Record<string, string> = {}): Promise<RunResult> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OXEN_')));
  return run(path.join(project, 'node_modules', '.bin', 'oxen-inference-codegen'), args, {
    cwd: project,
    env: { ...base, NO_COLOR: '1', ...env },
    timeoutMs: 120_000,
  });
}

/** Compiles the project of `config` (a tsconfig file) with the repository's TypeScript. @returns tsc's exit code and output. */
export function tsc(config: string): Promise<RunResult> {
  return run(
    process.execPath,
    [path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', config, '--pretty', 'false'],
    { cwd: path.dirname(config) },
  );
}

/** One sha256 over every file under `dir` (path and bytes; see `hashTree`), or 'absent'. */
export function treeHash(dir: string): string {
  if (!existsSync(dir)) return 'absent';
  return createHash('sha256')
    .update(JSON.stringify(hashTree(dir)))
    .digest('hex');
}
