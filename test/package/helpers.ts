/**
 * Helpers of the package tests: pack the package as `npm pack` ships it, install the tarball into a
 * fresh project, and compile TypeScript consumers of it with the strictest flags.
 *
 * The tarball is packed from a copy of the working tree (node_modules linked, not copied), so that the
 * build the pack runs (`prepack` → `npm run build`) never rewrites the repository's own `dist/` while
 * other tests or people use it. Everything lives under one temporary directory per test file
 * (`tempDir` of test/support/, which also runs the child processes).
 */
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT, run } from '../support/index.ts';

export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const TSC = path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

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

/** The flags of the strictest consumer we promise to compile under. */
export const STRICT_FLAGS = {
  strict: true,
  skipLibCheck: false,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noPropertyAccessFromIndexSignature: true,
  noImplicitOverride: true,
  noEmit: true,
  target: 'ES2022',
  lib: ['ES2022', 'DOM', 'DOM.Iterable'],
  // no @types/node: the package's declarations must need nothing beyond the web platform's globals
  types: [] as string[],
} as const;

export type ResolutionKind = 'nodenext' | 'node16' | 'bundler';

/**
 * Writes a TypeScript consumer project in `<consumersDir>/ts-<kind>` (the installed package is found in
 * `<consumersDir>/node_modules`): `nodenext` is an ES module package, `node16` a CommonJS package,
 * `bundler` uses `moduleResolution: bundler`. `files` maps file names to their contents.
 */
export function writeTsProject(consumersDir: string, kind: ResolutionKind, files: Record<string, string>): string {
  const dir = path.join(consumersDir, `ts-${kind}`);
  mkdirSync(dir, { recursive: true });
  const module = {
    nodenext: { module: 'NodeNext', moduleResolution: 'NodeNext' },
    node16: { module: 'Node16', moduleResolution: 'Node16' },
    bundler: { module: 'ESNext', moduleResolution: 'Bundler' },
  }[kind];
  const type = kind === 'node16' ? 'commonjs' : 'module';
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `ts-${kind}`, private: true, type }, null, 2));
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { ...STRICT_FLAGS, ...module }, include: ['*.ts'] }, null, 2),
  );
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

export interface Diagnostic {
  /** The file as tsc prints it (relative to the project, or a path into node_modules). */
  file: string;
  line: number;
  code: string;
  message: string;
}

/** Compiles a project with the repository's TypeScript and returns every diagnostic. */
export async function compile(projectDir: string): Promise<{ diagnostics: Diagnostic[]; output: string }> {
  const result = await run(process.execPath, [TSC, '-p', projectDir, '--pretty', 'false'], { cwd: projectDir });
  const output = (result.stdout + result.stderr).trim();
  const diagnostics: Diagnostic[] = [];
  for (const line of output.split('\n')) {
    const m = /^(.+?)\((\d+),\d+\): error (TS\d+): (.*)$/.exec(line);
    if (m) diagnostics.push({ file: m[1]!, line: Number(m[2]), code: m[3]!, message: m[4]! });
    else if (/error TS\d+/.test(line))
      diagnostics.push({ file: '', line: 0, code: /TS\d+/.exec(line)![0], message: line });
  }
  if (result.code !== 0 && diagnostics.length === 0)
    diagnostics.push({ file: '', line: 0, code: 'exit', message: output || `tsc exited ${result.code}` });
  return { diagnostics, output };
}

/** One line per diagnostic, for an assertion message that shows what failed. */
export function formatDiagnostics(diagnostics: Diagnostic[]): string {
  return diagnostics.map((d) => `${d.file}:${d.line}: ${d.code} ${d.message}`).join('\n');
}
