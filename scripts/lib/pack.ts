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
const NOT_COPIED = new Set(['node_modules', '.git', 'dist', '.tmp', 'coverage', 'docs/api', 'generator/dist']);

/** Whether the pack copies `relative` (repository-relative, `/`-separated) from the working tree. */
export function copiedForPack(relative: string): boolean {
  return relative === '' || (!NOT_COPIED.has(relative) && !relative.endsWith('.tgz'));
}

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

/** Copies `from` into `<root>/source` with node_modules linked to the repository's; @returns the copy. */
async function copyTree(root: string, options: PackOptions): Promise<string> {
  const from = options.from ?? REPO_ROOT;
  const source = path.join(root, 'source');
  cpSync(from, source, {
    recursive: true,
    filter: (file) => copiedForPack(path.relative(from, file).split(path.sep).join('/')),
  });
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(source, 'node_modules'), 'dir');
  await options.prepare?.(source);
  return source;
}

/** Runs `npm pack` with `args` in `source` into `<root>/tarball`; @returns npm's JSON report (one entry per package). */
async function npmPack(
  root: string,
  source: string,
  args: string[],
): Promise<Array<{ name: string; filename: string; files: Array<{ path: string }> }>> {
  const out = path.join(root, 'tarball');
  mkdirSync(out);
  const result = await run(npmCommand(), ['pack', ...args, '--json', '--pack-destination', out], {
    cwd: source,
    env: npmEnv(),
  });
  if (result.code !== 0) throw new Error(`npm pack failed (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
  // npm prints the prepack scripts' output before the JSON array on stdout
  const infos = JSON.parse(result.stdout.slice(result.stdout.lastIndexOf('\n[') + 1)) as Array<{
    name: string;
    filename: string;
    files: Array<{ path: string }>;
  }>;
  if (infos.length === 0) throw new Error(`npm pack printed no result:\n${result.stdout}`);
  return infos.map((i) => ({ ...i, filename: path.join(out, i.filename) }));
}

/** The result of one package of a pack report, with the package.json that was packed from `dir`. */
function packResult(info: { filename: string; files: Array<{ path: string }> }, dir: string): PackResult {
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as PackResult['manifest'];
  return { tarball: info.filename, files: info.files.map((f) => f.path).sort(), manifest };
}

/**
 * Copies the working tree into `<root>/source` (node_modules linked) and runs `npm pack` there, so the
 * `prepack` build runs as it would for a publish. Throws with npm's output when the pack fails.
 */
export async function packPackage(root: string, options: PackOptions = {}): Promise<PackResult> {
  const source = await copyTree(root, options);
  const [info] = await npmPack(root, source, []);
  return packResult(info!, source);
}

/** The SDK's and the generator's packs of one release. */
export interface PackedPair {
  sdk: PackResult;
  codegen: PackResult;
}

/**
 * Packs both packages as a release does (`npm pack --workspaces --include-workspace-root`, each
 * package's `prepack` build included) from a copy of the working tree made as `packPackage` makes it.
 * Throws with npm's output when the pack fails or leaves a package out.
 */
export async function packPackages(root: string, options: PackOptions = {}): Promise<PackedPair> {
  const source = await copyTree(root, options);
  const infos = await npmPack(root, source, ['--workspaces', '--include-workspace-root']);
  const of = (name: string, dir: string) => {
    const info = infos.find((i) => i.name === name);
    if (!info) throw new Error(`npm pack made no ${name} tarball`);
    return packResult(info, dir);
  };
  return {
    sdk: of('oxen-inference-sdk', source),
    codegen: of('oxen-inference-codegen', path.join(source, 'generator')),
  };
}

/**
 * Installs the tarball (or tarballs, in one `npm install`) into `<dir>` (a new private project) as a user
 * would, from the npm cache when it can (`--prefer-offline`: after `npm ci` the package's dependencies are
 * in the cache).
 */
export async function installTarball(dir: string, tarball: string | readonly string[]): Promise<void> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'consumers', version: '0.0.0', private: true }, null, 2),
  );
  const result = await run(
    npmCommand(),
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--no-package-lock', ...[tarball].flat()],
    {
      cwd: dir,
      env: npmEnv(),
    },
  );
  if (result.code !== 0)
    throw new Error(`npm install of the tarball failed (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
}
