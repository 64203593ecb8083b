// Shared setup of the drift and refresh tests: temporary copies of the repository's specs/ (never the
// real specs/ or generated/), programmatic edits of model files, a file-tree hash, and a runner for
// the scripts as child processes (asynchronous: the local server runs in this process).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const REPO_SPECS = path.join(REPO, 'specs');

/** A distinctive fake API key: the tests assert it never appears in any output or written file. */
export const FAKE_KEY = 'sk-FAKE-drift-7f3c9a1e5b2d48c6';
export const SERVER_USERS = { [FAKE_KEY]: { user: 'alice' } };

const made: string[] = [];

/** A fresh temporary directory, removed by `cleanupTemp`. */
export function tempDir(prefix = 'drift-test-'): string {
  const d = mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(d);
  return d;
}

/** Remove every directory `tempDir` made. */
export function cleanupTemp(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** Copy the repository's specs/ into `<dir>/specs` (and its generated/ into `<dir>/generated` when asked). Returns the specs copy. */
export function copySpecs(dir: string, options: { generated?: boolean } = {}): string {
  const specs = path.join(dir, 'specs');
  cpSync(REPO_SPECS, specs, { recursive: true });
  if (options.generated) cpSync(path.join(REPO, 'generated'), path.join(dir, 'generated'), { recursive: true });
  return specs;
}

/** A model object as an editable value. */
export type ModelObject = Record<string, unknown> & { id: string };

/** Parse `<modelsDir>/<id>.json`. */
export function readModel(modelsDir: string, id: string): ModelObject {
  return JSON.parse(readFileSync(path.join(modelsDir, `${id}.json`), 'utf8')) as ModelObject;
}

/** Write a model object to `<id>.json` (default its own id), pretty-printed like the snapshot or minified to exercise re-indenting. */
export function writeModel(
  modelsDir: string,
  obj: ModelObject,
  options: { minified?: boolean; file?: string } = {},
): void {
  const file = path.join(modelsDir, `${options.file ?? obj.id}.json`);
  writeFileSync(file, options.minified ? JSON.stringify(obj) : `${JSON.stringify(obj, null, 2)}\n`);
}

/** The request schema of a model object, whichever field holds it. */
export function schemaOf(
  obj: ModelObject,
): { properties: Record<string, Record<string, unknown>>; required: string[] } & Record<string, unknown> {
  return (obj['request_schema'] ?? obj['json_request_schema']) as never;
}

/** Edit one model file of `modelsDir` in place. */
export function editModel(modelsDir: string, id: string, edit: (obj: ModelObject) => void): void {
  const obj = readModel(modelsDir, id);
  edit(obj);
  writeModel(modelsDir, obj, { file: id });
}

/** The ids of `<specsDir>/models.json`. */
export function readList(specsDir: string): string[] {
  return JSON.parse(readFileSync(path.join(specsDir, 'models.json'), 'utf8')) as string[];
}

/** Write `<specsDir>/models.json` like the snapshot (2 spaces, trailing newline). */
export function writeList(specsDir: string, ids: string[]): void {
  writeFileSync(path.join(specsDir, 'models.json'), `${JSON.stringify(ids, null, 2)}\n`);
}

/** sha256 of every file under `dir`, by relative path (sorted): compare before/after for byte identity. */
export function hashTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true, recursive: true });
  } catch {
    return out;
  }
  for (const e of entries
    .filter((x) => x.isFile())
    .sort((a, b) => (path.join(a.parentPath, a.name) < path.join(b.parentPath, b.name) ? -1 : 1))) {
    const full = path.join(e.parentPath, e.name);
    out[path.relative(dir, full)] = createHash('sha256').update(readFileSync(full)).digest('hex');
  }
  return out;
}

/** Every file under `dir` that contains `needle` (relative paths). */
export function filesContaining(dir: string, needle: string): string[] {
  const hits: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    const full = path.join(e.parentPath, e.name);
    if (readFileSync(full).includes(needle)) hits.push(path.relative(dir, full));
  }
  return hits;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Run `scripts/<script>` with tsx as a child process, in the repository, with `OXEN_API_KEY` and
 * `OXEN_BASE_URL` removed from the environment unless given in `env`.
 */
export function runScript(
  script: string,
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 60_000,
): Promise<RunResult> {
  const base = { ...process.env };
  delete base['OXEN_API_KEY'];
  delete base['OXEN_BASE_URL'];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO, 'scripts', script), ...args], {
      cwd: REPO,
      env: { ...base, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} ${args.join(' ')} did not finish in ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
