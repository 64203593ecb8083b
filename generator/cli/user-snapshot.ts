/**
 * The user's snapshot (`<out>/specs/models.json`, `<out>/specs/models/<id>.json`) changed all or
 * nothing: `add` (fetched, or `--from` a saved file), `remove` and `refresh` of the CLI
 * (`cli/index.ts`). The same parts as this repository's refresh (`refresh/fetch.ts`,
 * `refresh/checks.ts`, `refresh/apply.ts`, the drift report), with the user target's generate.
 *
 * The whole read-modify-write holds the lock of `<out>` (`output/lock.ts`): two changes at once run
 * one after the other, and neither drops the other's models. Nothing is written until the new
 * snapshot is fetched, checked, staged in a temporary copy (in the run's own temporary folder,
 * removed on every exit, SIGINT and SIGTERM included) and proved to generate there; the proof's
 * output (named exactly as the real run names it) and the snapshot are then swapped in together.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { diffSnapshots } from '../drift/index.ts';
import { readSnapshot } from '../drift/snapshot.ts';
import type { Snapshot } from '../drift/types.ts';
import { SpecError } from '../errors.ts';
import type { GenerateResult } from '../index.ts';
import { checkModel } from '../stages/load.ts';
import { applyPlan, commitPlan, copyTree, planChanges, readCurrent, type SnapshotPlan } from '../refresh/apply.ts';
import { withLock } from '../output/lock.ts';
import { checkOwnedOutput, type Target } from '../output/target.ts';
import { treeDigest, type HeldLock } from '../output/tree-commit.ts';
import { checkBaseUrl, checkModelId, DEFAULT_REFRESH_BASE_URL, RefreshError } from '../refresh/checks.ts';
import { fetchModels, type FetchedModel, type FetchOptions } from '../refresh/fetch.ts';
import type { RefreshResult } from '../refresh/index.ts';
import { reindentJson } from '../refresh/reindent-json.ts';
import { MAX_JSON_DEPTH } from '../stages/schema-check.ts';
import { byCodeUnits as byName } from '../order.ts';
import { specFile } from '../stages/name.ts';

/** How the user's snapshot is named inside `<out>` (headers and messages; `cli.ts` says the same). */
export const USER_SPECS = 'specs';

/** Options of `updateSnapshot`. Times in milliseconds. */
export interface UpdateOptions extends Pick<
  FetchOptions,
  'concurrency' | 'timeoutMs' | 'maxRetries' | 'progress' | 'progressLabel' | 'stream' | 'fetch' | 'whileInFlight'
> {
  /** The output directory (absolute); the snapshot is its `specs/`. */
  out: string;
  /** How `out` is named in messages (relative to the working directory). */
  outLabel: string;
  /** Ids to fetch and add. */
  add?: readonly string[];
  /** Saved model-details files to add (offline). */
  from?: readonly string[];
  /** Ids to remove. */
  remove?: readonly string[];
  /** Re-fetch every id of the snapshot. */
  all?: boolean;
  /** Default env `OXEN_BASE_URL`, then https://hub.oxen.ai. */
  baseUrl?: string;
  /** Default env `OXEN_API_KEY`; needed only when something is fetched. */
  apiKey?: string;
  /** The user target (where its files go, which folders it owns: `Target.managed`). */
  target: Target;
  /** Replace `<out>` even when it holds no manifest of this generator (see `GenerateOptions.force`). */
  force?: boolean;
  /** Where the lock's messages go (waiting for another run, taking over a stale lock). */
  log?: (line: string) => void;
  /** The user target's generate over a specs directory (writes nothing with `check`; `reuse`: see `GenerateOptions.reuse`). */
  generate: (o: { specsDir: string; check: boolean; reuse?: boolean }) => Promise<GenerateResult>;
}

/** What an update did: what a refresh reports (paths relative to `<out>/specs`), without its timings. */
export type UpdateResult = Omit<RefreshResult, 'timings'>;

/** A saved model-details object (`--from`), checked as a fetched one is. @throws SpecError naming the file. */
async function readSaved(file: string): Promise<FetchedModel> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new SpecError(file, undefined, '', `cannot read: ${(err as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    if (err instanceof RangeError)
      throw new SpecError(
        file,
        undefined,
        '',
        `nested too deeply to parse (more than ${MAX_JSON_DEPTH} levels are not supported)`,
      );
    throw new SpecError(file, undefined, '', `malformed JSON: ${(err as Error).message}`);
  }
  const id = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>)['id'] : undefined;
  if (typeof id !== 'string' || id === '')
    throw new SpecError(file, undefined, '/id', 'expected a model-details object with a string `id`');
  checkModel(raw, id, file);
  return { id, raw, text: `${reindentJson(text.trim())}\n` };
}

/** Stage the snapshot with the plan applied in `<tmp>/specs` (an empty one when `specsDir` does not exist yet). */
async function stage(specsDir: string, plan: SnapshotPlan, tmp: string): Promise<string> {
  const staged = path.join(tmp, USER_SPECS);
  if (existsSync(specsDir)) await copyTree(specsDir, staged);
  await mkdir(path.join(staged, 'models'), { recursive: true });
  if (!existsSync(path.join(staged, 'models.json'))) await writeFile(path.join(staged, 'models.json'), '[]\n');
  await applyPlan(staged, plan);
  return staged;
}

/**
 * Change the user's snapshot and regenerate `<out>`, all or nothing (see the module comment).
 * @throws RefreshError (no key, refused base URL, bad or unknown ids, failed fetches: all of them,
 * a wrong key: once; a listed model's 404 alone is no failure: `notServed`, kept and reported) or SpecError (file, model, JSON pointer) for an untrusted model object or a
 * snapshot that does not generate; nothing is written then.
 */
export async function updateSnapshot(options: UpdateOptions): Promise<UpdateResult> {
  const specsDir = path.join(options.out, USER_SPECS);
  const fileLabel = (id: string) => `${options.outLabel}/${USER_SPECS}/${specFile(id)}`;
  const add = [...new Set((options.add ?? []).map(checkModelId))];
  const remove = [...new Set((options.remove ?? []).map(checkModelId))];
  const saved = await Promise.all((options.from ?? []).map(readSaved));
  const fromIds = saved.map((m) => m.id);
  const both = [...add, ...fromIds].filter((id) => remove.includes(id));
  if (both.length > 0) throw new RefreshError(`cannot both add and remove ${both.join(', ')}`);
  const twice = fromIds.filter((id, i) => fromIds.indexOf(id) !== i || add.includes(id));
  if (twice.length > 0) throw new RefreshError(`${twice[0]} is given twice (as an id to fetch or in two --from files)`);
  return withLock(
    options.out,
    (lock) => changeSnapshot(lock, options, { specsDir, fileLabel, add, remove, saved }),
    options.log ? { log: options.log } : {},
  );
}

/** The read-modify-write of `updateSnapshot`, holding the lock of `<out>`. */
async function changeSnapshot(
  lock: HeldLock,
  options: UpdateOptions,
  given: {
    specsDir: string;
    fileLabel: (id: string) => string;
    add: string[];
    remove: string[];
    saved: FetchedModel[];
  },
): Promise<UpdateResult> {
  const { specsDir, fileLabel, add, remove, saved } = given;
  const fromIds = saved.map((m) => m.id);
  await checkOwnedOutput(options.out, options.target, { force: options.force ?? false });
  const exists = existsSync(path.join(specsDir, 'models.json'));
  const current: { ids: string[]; valid: Snapshot } = exists
    ? await readCurrent(specsDir, `${options.outLabel}/${USER_SPECS}`)
    : { ids: [], valid: { label: USER_SPECS, ids: [], models: new Map() } };
  for (const id of remove)
    if (!current.ids.includes(id))
      throw new RefreshError(
        `cannot remove ${id}: it is not in ${fileLabel(id).replace(/models\/[^/]*$/, 'models.json')}`,
      );
  if (options.all && current.ids.length === 0 && add.length === 0)
    throw new RefreshError(
      `nothing to refresh: ${options.outLabel}/${USER_SPECS}/models.json lists no model (add one with \`add <id>\`)`,
    );
  const newIds = [...new Set([...current.ids.filter((id) => !remove.includes(id)), ...add, ...fromIds])].sort(byName);
  const toFetch = options.all
    ? [...new Set([...current.ids, ...add])].filter((id) => !fromIds.includes(id)).sort(byName)
    : add;

  let baseUrl: string | undefined;
  let notServed: string[] = [];
  const fetched: FetchedModel[] = [...saved];
  if (toFetch.length > 0) {
    const apiKey = options.apiKey ?? process.env['OXEN_API_KEY'] ?? '';
    if (!apiKey)
      throw new RefreshError(
        `OXEN_API_KEY is not set: fetching ${toFetch.length === 1 ? toFetch[0] : `${toFetch.length} models`} needs an API key (export OXEN_API_KEY=...)`,
      );
    baseUrl = checkBaseUrl(options.baseUrl ?? (process.env['OXEN_BASE_URL'] || DEFAULT_REFRESH_BASE_URL));
    const r = await fetchModels(toFetch, {
      baseUrl,
      apiKey,
      fileLabel,
      ...(options.stream ? { stream: options.stream } : {}),
      ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
      ...(options.progress !== undefined ? { progress: options.progress } : {}),
      ...(options.progressLabel !== undefined ? { progressLabel: options.progressLabel } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.whileInFlight ? { whileInFlight: options.whileInFlight } : {}),
    }).catch((err: unknown) => {
      if (err instanceof RefreshError && err.authFailure)
        throw new RefreshError(`nothing was written: ${err.message}`, err.failures, false, true);
      throw err;
    });
    // A listed model whose details answer 404 is no longer served: kept, reported (breaking).
    notServed = r.failures.filter((f) => f.notFound && current.ids.includes(f.id)).map((f) => f.id);
    if (r.failures.length > notServed.length) {
      const width = Math.max(...r.failures.map((f) => f.id.length));
      throw new RefreshError(
        `nothing was written: ${r.failures.length} of ${toFetch.length} model${toFetch.length === 1 ? '' : 's'} failed:\n${r.failures.map((f) => `  ${f.id.padEnd(width)}  ${f.reason}`).join('\n')}`,
        r.failures,
      );
    }
    fetched.push(...r.models.values());
  }

  const plan = await planChanges(specsDir, { listText: `${JSON.stringify(newIds, null, 2)}\n`, fetched, remove });
  const tmp = await lock.tempDir(); // removed with the lock, also on SIGINT and SIGTERM
  const specsDigest = await treeDigest(specsDir);
  const staged = await stage(specsDir, plan, tmp);
  // The proof: the staged snapshot generates (named as the real one: `specs`), writing nothing.
  const proof = await options.generate({ specsDir: staged, check: true, reuse: true });
  const report = diffSnapshots(
    current.valid,
    {
      ...(await readSnapshot(staged, USER_SPECS)),
      label: baseUrl ? `${USER_SPECS} refreshed from ${baseUrl}` : `${USER_SPECS} (updated)`,
    },
    { notServed },
  );
  // Commit: the snapshot and the proof's output (no second generate) together, journaled.
  const result = {
    ...proof,
    ...(await commitPlan(lock, specsDir, staged, proof.files, specsDigest, options.target.managed)),
  };
  return {
    baseUrl,
    fetched: toFetch,
    added: [...add, ...fromIds].filter((id) => !current.ids.includes(id)).sort(byName),
    removed: remove,
    notServed,
    written: [...plan]
      .filter(([, t]) => t !== null)
      .map(([rel]) => rel)
      .sort(byName),
    deleted: [...plan]
      .filter(([, t]) => t === null)
      .map(([rel]) => rel)
      .sort(byName),
    generate: result,
    report,
  };
}
