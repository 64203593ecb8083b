/**
 * The user's snapshot (`<out>/specs/models.json`, `<out>/specs/models/<id>.json`) changed all or
 * nothing: `add` (fetched, or `--from` a saved file), `remove` and `refresh` of the CLI
 * (`cli/index.ts`). The change is this repository's refresh (`refresh()` of `refresh/index.ts`: the
 * lock, fetch, staging, proof, drift report and journaled commit), with the user target; this file
 * adds what only the CLI has: saved model-details files (`--from`).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { SpecError } from '../errors.ts';
import type { GenerateResult } from '../index.ts';
import { checkModel } from '../stages/load.ts';
import type { Target } from '../output/target.ts';
import type { HeldLock } from '../output/tree-commit.ts';
import { checkModelId, RefreshError } from '../refresh/checks.ts';
import type { FetchedModel, FetchOptions } from '../refresh/fetch.ts';
import { refresh, type RefreshResult } from '../refresh/index.ts';
import { reindentJson } from '../refresh/reindent-json.ts';
import { MAX_JSON_DEPTH } from '../stages/schema-check.ts';

/** How the user's snapshot is named inside `<out>` (headers and messages; `index.ts` says the same). */
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
  /**
   * The user target's generate over a specs directory (writes nothing with `check`; `reuse`, `lock`: see
   * `GenerateOptions`).
   */
  generate: (o: { specsDir: string; check: boolean; reuse?: boolean; lock?: HeldLock }) => Promise<GenerateResult>;
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

/**
 * Change the user's snapshot and regenerate `<out>`, all or nothing: `refresh()` of
 * `refresh/index.ts` (the one snapshot change, this repository's too) with the user target.
 * @throws RefreshError (no key, refused base URL, bad or unknown ids, failed fetches: all of them,
 * a wrong key: once; a listed model's 404 alone is no failure: `notServed`, kept and reported) or
 * SpecError (file, model, JSON pointer) for an untrusted model object or a snapshot that does not
 * generate; nothing is written then.
 */
export async function updateSnapshot(options: UpdateOptions): Promise<UpdateResult> {
  const add = [...new Set((options.add ?? []).map(checkModelId))];
  const saved = await Promise.all((options.from ?? []).map(readSaved));
  const fromIds = saved.map((m) => m.id);
  const twice = fromIds.filter((id, i) => fromIds.indexOf(id) !== i || add.includes(id));
  if (twice.length > 0) throw new RefreshError(`${twice[0]} is given twice (as an id to fetch or in two --from files)`);
  const { generate, out, outLabel, from: _from, add: _add, ...rest } = options;
  const { timings: _timings, ...result } = await refresh({
    ...rest,
    add,
    saved,
    specsDir: path.join(out, USER_SPECS),
    outRoot: out,
    label: `${outLabel}/${USER_SPECS}`,
    generate: (o) =>
      generate({
        specsDir: o.specsDir ?? path.join(out, USER_SPECS),
        check: o.check ?? false,
        ...(o.reuse !== undefined ? { reuse: o.reuse } : {}),
        ...(o.lock ? { lock: o.lock } : {}),
      }),
  });
  return result;
}
