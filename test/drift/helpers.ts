// Shared setup of the drift and refresh tests: temporary copies of the repository's specs/ (never the
// real specs/ or generated/), programmatic edits of model files, and a runner for the scripts as child
// processes (asynchronous: the local server runs in this process). The repository root, file-tree
// hashes and the child-process runner itself are in test/support/.
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, run, runGenerate, runTsx, tempDir, type RunResult } from '../support/index.ts';
import { tempSpecs } from '../generator/helpers.ts';

export const REPO_SPECS = path.join(REPO_ROOT, 'specs');

/** A distinctive fake API key: the tests assert it never appears in any output or written file. */
export const FAKE_KEY = 'sk-FAKE-drift-7f3c9a1e5b2d48c6';
export const SERVER_USERS = { [FAKE_KEY]: { user: 'alice' } };

const made: Array<{ remove(): void }> = [];

/** A fresh temporary directory, removed by `cleanupTemp`. */
export function scratchDir(prefix = 'drift-test-'): string {
  const d = tempDir(prefix);
  made.push(d);
  return d.dir;
}

/** Remove every directory `scratchDir` made. */
export function cleanupTemp(): void {
  for (const d of made.splice(0)) d.remove();
}

/** Copy the repository's specs/ into `<dir>/specs` (and its generated/ into `<dir>/generated` when asked). Returns the specs copy. */
export function copySpecs(dir: string, options: { generated?: boolean } = {}): string {
  const specs = path.join(dir, 'specs');
  cpSync(REPO_SPECS, specs, { recursive: true });
  if (options.generated) cpSync(path.join(REPO_ROOT, 'generated'), path.join(dir, 'generated'), { recursive: true });
  return specs;
}

/**
 * A scratch output root holding a small snapshot, `<dir>/specs` (the repository's openapi.yaml and the
 * models `ids`), and the `generated/` it makes there, for the tests whose subject is not the snapshot's
 * size: a run there rebuilds only what it changes. (A copy of the repository's generated/ in a scratch
 * folder names its specs by another path in every file's header, so a run there rebuilds every file.)
 */
export async function smallWorkspace(ids: readonly string[]): Promise<{ dir: string; specs: string }> {
  const t = await tempSpecs([...ids]);
  made.push({ remove: () => void t.cleanup() });
  const { generate } = await import('../../generator/index.ts');
  await generate({ specsDir: t.specsDir, outRoot: t.root });
  return { dir: t.root, specs: t.specsDir };
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

/**
 * Run `scripts/<script>` as a child process, in the repository, with `OXEN_API_KEY` and
 * `OXEN_BASE_URL` removed from the environment unless given in `env`: `generate.ts` and `drift.ts` as
 * `npm run generate` and `npm run drift` run them (precompiled: scripts/lib/precompiled.mjs), any other
 * script with tsx.
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
  const options = { env: { ...base, ...env }, timeoutMs };
  if (script === 'generate.ts') return runGenerate(args, options);
  if (script === 'drift.ts')
    return run(process.execPath, [path.join(REPO_ROOT, 'scripts', 'run-drift.mjs'), ...args], options);
  return runTsx(path.join('scripts', script), args, options);
}
