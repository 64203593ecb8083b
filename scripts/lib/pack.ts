/**
 * The package as `npm pack` ships it, installed into a fresh project as a user would: used by the
 * package tests (test/package/) and `npm run bench:typecheck`.
 *
 * The tarball is packed from a copy of the working tree (node_modules linked, not copied), so that the
 * build the pack runs (`prepack` → `npm run build`) never rewrites the repository's own `dist/` while
 * other tests or people use it.
 */
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../generator/paths.ts';
import { run } from './process.ts';

/** Not copied into the pack directory: installed or built things, and the repository's own state. */
const NOT_COPIED = new Set(['node_modules', '.git', 'dist', '.tmp', 'coverage', 'docs/api']);

/** An environment for npm child processes: no update check, no audit, no funding message, no colour. */
export function npmEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    NO_COLOR: '1',
    ...extra,
  };
}

/** npm's command on this platform. */
function npmCommand(): string {
  return process.platform === 'win32' ? 'npm.cmd' : 'npm';
}

export interface PackResult {
  /** Absolute path of the `.tgz`. */
  tarball: string;
  /** Paths inside the package (`package.json`, `dist/index.js`, ...), sorted. */
  files: string[];
  /** The package.json that was packed. */
  manifest: { name: string; version: string; dependencies?: Record<string, string> };
}

export interface PackOptions {
  /** The tree to pack (default: this repository's working tree). */
  from?: string;
  /** Runs on the copy before the pack (e.g. to regenerate it from other specs). */
  prepare?: (sourceDir: string) => Promise<void>;
}

/**
 * Copies the working tree into `<root>/source` (node_modules linked) and runs `npm pack` there, so the
 * `prepack` build runs as it would for a publish. Throws with npm's output when the pack fails.
 */
export async function packPackage(root: string, options: PackOptions = {}): Promise<PackResult> {
  const from = options.from ?? REPO_ROOT;
  const source = path.join(root, 'source');
  cpSync(from, source, {
    recursive: true,
    filter: (file) => {
      const relative = path.relative(from, file).split(path.sep).join('/');
      return relative === '' || (!NOT_COPIED.has(relative) && !relative.endsWith('.tgz'));
    },
  });
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(source, 'node_modules'), 'dir');
  await options.prepare?.(source);
  const out = path.join(root, 'tarball');
  mkdirSync(out);
  const result = await run(npmCommand(), ['pack', '--json', '--pack-destination', out], { cwd: source, env: npmEnv() });
  if (result.code !== 0) throw new Error(`npm pack failed (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
  // npm prints the prepack script's output before the JSON array on stdout
  const json = result.stdout.slice(result.stdout.lastIndexOf('\n[') + 1);
  const [info] = JSON.parse(json) as Array<{ filename: string; files: Array<{ path: string }> }>;
  if (!info) throw new Error(`npm pack printed no result:\n${result.stdout}`);
  const manifest = JSON.parse(readFileSync(path.join(source, 'package.json'), 'utf8')) as PackResult['manifest'];
  return { tarball: path.join(out, info.filename), files: info.files.map((f) => f.path).sort(), manifest };
}

/**
 * Installs the tarball into `<dir>` (a new private project) as a user would, from the npm cache when it
 * can (`--prefer-offline`: after `npm ci` the package's dependencies are in the cache).
 */
export async function installTarball(dir: string, tarball: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'consumers', version: '0.0.0', private: true }, null, 2),
  );
  const result = await run(
    npmCommand(),
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--no-package-lock', tarball],
    {
      cwd: dir,
      env: npmEnv(),
    },
  );
  if (result.code !== 0)
    throw new Error(`npm install of the tarball failed (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
}
