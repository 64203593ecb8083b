/**
 * Stage 2, refresh: fetch the model objects of the listed ids from the service, check them, and
 * replace the snapshot and the generated output all or nothing. The one snapshot change of both
 * targets: this repository's `npm run generate -- --refresh`, `--add <id>`, `--remove <id>`
 * (`packageTarget`: `specs/` and `generated/`), and `add`, `remove`, `refresh` of
 * `oxen-inference-codegen` (`cli/user-snapshot.ts` configures it for a user's `<out>`).
 *
 * All or nothing: every failure is collected (one reason per id) and reported together, and then
 * nothing is written. A model of the snapshot whose details answer 404 is not a failure: the
 * service no longer serves it, so it is kept as it was (its code still compiles), reported as a
 * breaking change, and the other models are refreshed. On success the new snapshot is staged in a temporary copy of the specs
 * directory, proved to generate there (`generate({ check: true })`), its output checked for the
 * API key, compared with the current one (the drift report), and only then committed: the specs
 * directory and `generated/` are swapped in together under the generator's lock and journal
 * (`output/lock.ts`, `output/tree-commit.ts`), so a reader sees both old or both new, even after
 * `kill -9`. The lock is held from reading the current snapshot to the commit: two snapshot
 * changes at once run one after the other, and neither drops the other's models.
 *
 * The parts, one file each: `checks.ts` (base URL, ids, numbers, `RefreshError`, key
 * redaction), `fetch.ts` (the fetch phase), `progress.ts` (its progress display),
 * `reindent-json.ts` (the snapshot text as sent), `apply.ts` (plan, staging, commit and
 * restore). This file runs them in order and re-exports their public API.
 *
 * The API key goes only into the `Authorization` header of the runtime client: it is never
 * written, logged or put in an error message.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { diffSnapshots } from '../drift/index.ts';
import { readSnapshot } from '../drift/snapshot.ts';
import type { DriftReport, Snapshot } from '../drift/types.ts';
import type { GenerateOptions, GenerateResult } from '../index.ts';
import { REPO_ROOT, specsLabel } from '../paths.ts';
import { commitPlan, planChanges, readCurrent, readIfExists, stageSnapshot } from './apply.ts';
import { treeDigest } from '../output/tree-commit.ts';
import {
  checkBaseUrl,
  checkModelId,
  DEFAULT_REFRESH_BASE_URL,
  keyInOutput,
  redactor,
  RefreshError,
  type FetchFailure,
} from './checks.ts';
import { fetchModels, type FetchedModel, type FetchOptions } from './fetch.ts';
import { withLock } from '../output/lock.ts';
import { isInside } from '../output/run-state.ts';
import {
  checkOwnedOutput,
  packageTarget,
  RUNTIME_OPERATIONS_FILE,
  writesRuntime,
  type Target,
} from '../output/target.ts';
import { SpecError } from '../errors.ts';
import { showControls } from '../escape.ts';

export {
  checkBaseUrl,
  checkModelId,
  DEFAULT_REFRESH_BASE_URL,
  redactor,
  RefreshError,
  type FetchFailure,
} from './checks.ts';
import { byCodeUnits } from '../order.ts';
import { specFile } from '../stages/name.ts';
export { fetchModels, REFRESH_DEFAULTS, type FetchedModel, type FetchOptions, type FetchResult } from './fetch.ts';
export type { ProgressMode } from './progress.ts';
export { reindentJson } from './reindent-json.ts';

/**
 * Options of `refresh`. Times in milliseconds. The fetch settings (`concurrency`, `timeoutMs`,
 * `maxRetries`, `retryBaseDelayMs`, `progress`, `stream`: where progress and status lines go,
 * default `process.stderr`) are those of `FetchOptions`.
 */
export interface RefreshOptions extends Pick<
  FetchOptions,
  | 'concurrency'
  | 'timeoutMs'
  | 'maxRetries'
  | 'retryBaseDelayMs'
  | 'progress'
  | 'progressLabel'
  | 'stream'
  | 'whileInFlight'
> {
  /** The specs directory (default `<repo>/specs`). */
  specsDir?: string;
  /** Where `generated/` lives (default the repository root). */
  outRoot?: string;
  /** Default: env `OXEN_BASE_URL`, then `https://hub.oxen.ai`. */
  baseUrl?: string;
  /** Default: env `OXEN_API_KEY`. Needed only when something is fetched. */
  apiKey?: string;
  /** Re-fetch every listed id (`--refresh`). Without it only the `add` ids are fetched. */
  all?: boolean;
  /** Ids to add to `models.json` (fetched; kept sorted, no duplicates). */
  add?: readonly string[];
  /** Ids to remove from `models.json`; their snapshot files are deleted. */
  remove?: readonly string[];
  /** Models to add as given (read from saved files, checked), not fetched. */
  saved?: readonly FetchedModel[];
  fetch?: typeof fetch;
  /** The generator to run (default `generate`); replaceable in tests to exercise the rollback. */
  generate?: (options: GenerateOptions) => Promise<GenerateResult>;
  /** Replace the target's output even when it holds no manifest of this generator (see `GenerateOptions.force`). */
  force?: boolean;
  /** Where the output goes (default `packageTarget`: `<outRoot>/generated`). */
  target?: Target;
  /** How messages name the specs directory (default its path relative to the repository). */
  label?: string;
  /** Where the lock's messages go (default the status lines of `stream`). */
  log?: (line: string) => void;
  /** Also produce `runtime/operations.ts` (`GenerateOptions.runtime`). @default whether `outRoot` is this repository (`writesRuntime`) */
  runtime?: boolean;
}

/** What a successful refresh did. Paths are relative to the specs directory. */
export interface RefreshResult {
  baseUrl: string | undefined;
  /** Ids fetched (sorted). */
  fetched: string[];
  /** Ids added to / removed from `models.json`. */
  added: string[];
  removed: string[];
  /**
   * Listed ids the service answered 404 for (sorted): no longer served, kept in the snapshot as
   * they were and reported as breaking (`model-removed`) until removed (`--remove <id>`).
   */
  notServed: string[];
  /** Snapshot files whose bytes changed (`models.json`, `models/<id>.json`), sorted. */
  written: string[];
  /** Snapshot files deleted (`--remove`), sorted. */
  deleted: string[];
  /** The final generate run. */
  generate: GenerateResult;
  /** Old snapshot vs new snapshot. */
  report: DriftReport;
  /** Milliseconds spent fetching+checking, proving the new snapshot generates, and in total. */
  timings: { fetchMs: number; proveMs: number; generateMs: number; totalMs: number };
}

function formatFailures(failures: FetchFailure[], total: number): string {
  const width = Math.max(...failures.map((f) => f.id.length));
  return `${failures.length} of ${total} model${total === 1 ? '' : 's'} failed:\n${failures.map((f) => `  ${f.id.padEnd(width)}  ${f.reason}`).join('\n')}`;
}

/**
 * Refresh the snapshot and regenerate, all or nothing (see the module comment).
 * @returns what was fetched, written and generated, and the drift report (old vs new snapshot).
 * @throws RefreshError when nothing was written: missing key, refused base URL, bad ids, one or
 * more failed models (`failures`, all of them; a listed model's 404 alone is not a failure, see
 * `RefreshResult.notServed`), a new snapshot that does not generate or whose output
 * would carry the API key (naming the model), or a specs directory changed by another run meanwhile;
 * or when the commit failed (`restored: true` when it failed before anything was moved; otherwise
 * the swap is rolled forward, now or by the next run).
 * Also SpecError when the current `models.json` cannot be read.
 */
export async function refresh(options: RefreshOptions): Promise<RefreshResult> {
  const started = performance.now();
  const specsDir = path.resolve(options.specsDir ?? path.join(REPO_ROOT, 'specs'));
  const outRoot = path.resolve(options.outRoot ?? REPO_ROOT);
  // Loaded only when needed: the generator's dependencies take seconds to load, and a refresh that
  // fails on its options or its fetches should fail fast.
  const gen = options.generate ?? (async (o: GenerateOptions) => (await import('../index.ts')).generate(o));
  const stream = options.stream ?? process.stderr;
  const key = options.apiKey ?? process.env['OXEN_API_KEY'] ?? '';
  const redact = redactor(key);
  const say = (line: string) => void stream.write(`${showControls(redact.text(line))}\n`);
  const add = [...new Set((options.add ?? []).map(checkModelId))];
  const remove = [...new Set((options.remove ?? []).map(checkModelId))];
  const saved = options.saved ?? [];
  const savedIds = saved.map((m) => m.id);
  const both = [...add, ...savedIds].filter((id) => remove.includes(id));
  if (both.length > 0) throw new RefreshError(`cannot both add and remove ${both.join(', ')}`);
  if (!options.all && add.length === 0 && remove.length === 0 && saved.length === 0)
    throw new RefreshError('nothing to do: give --refresh, --add <id> or --remove <id>');
  const target = options.target ?? packageTarget;
  const label = options.label ?? specsLabel(specsDir);
  const tool = options.progressLabel ?? 'refresh';
  const runtime = options.runtime ?? writesRuntime(target, outRoot, REPO_ROOT);
  const outside = runtime ? [RUNTIME_OPERATIONS_FILE] : [];

  if (!isInside(outRoot, specsDir))
    throw new RefreshError(
      `the specs directory ${specsDir} must be inside the output root ${outRoot}: a refresh replaces both together`,
    );
  // the read-modify-write of the snapshot, whole, under the output root's lock (which first completes an interrupted
  // run)
  return withLock(
    outRoot,
    async (lock) => {
      await checkOwnedOutput(outRoot, target, { force: options.force ?? false });
      // a user's first `add` makes the snapshot
      const current: { ids: string[]; valid: Snapshot } = existsSync(path.join(specsDir, 'models.json'))
        ? await readCurrent(specsDir, label)
        : { ids: [], valid: { label, ids: [], models: new Map() } };
      const oldIds = current.ids;
      for (const id of remove) {
        if (!oldIds.includes(id) && (await readIfExists(path.join(specsDir, specFile(id)))) === null) {
          throw new RefreshError(
            `cannot remove ${id}: it is not listed in ${label}/models.json and has no snapshot file`,
          );
        }
      }
      if (options.all && oldIds.length === 0 && add.length === 0)
        throw new RefreshError(`nothing to refresh: ${label}/models.json lists no model`);
      const listChanges = add.length > 0 || remove.length > 0 || saved.length > 0;
      const newIds = listChanges
        ? [...new Set([...oldIds.filter((id) => !remove.includes(id)), ...add, ...savedIds])].sort(byCodeUnits)
        : oldIds;
      const toFetch = (options.all ? newIds : add).filter((id) => !savedIds.includes(id));

      // 1. Fetch and check (nothing written).
      let baseUrl: string | undefined;
      let fetched = new Map<string, FetchedModel>();
      let notServed: string[] = [];
      const t0 = performance.now();
      if (toFetch.length > 0) {
        const apiKey = key;
        if (!apiKey)
          throw new RefreshError(
            `OXEN_API_KEY is not set: fetching ${toFetch.length === 1 ? toFetch[0] : `${toFetch.length} models`} needs an API key (export OXEN_API_KEY=...)`,
          );
        baseUrl = checkBaseUrl(options.baseUrl ?? (process.env['OXEN_BASE_URL'] || DEFAULT_REFRESH_BASE_URL));
        say(`${tool}: fetching ${toFetch.length} model${toFetch.length === 1 ? '' : 's'} from ${baseUrl}`);
        const r = await fetchModels(toFetch, {
          baseUrl,
          apiKey,
          fileLabel: (id) => `${label}/${specFile(id)}`,
          stream,
          ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
          ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
          ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
          ...(options.retryBaseDelayMs !== undefined ? { retryBaseDelayMs: options.retryBaseDelayMs } : {}),
          ...(options.progress !== undefined ? { progress: options.progress } : {}),
          ...(options.progressLabel !== undefined ? { progressLabel: options.progressLabel } : {}),
          ...(options.whileInFlight ? { whileInFlight: options.whileInFlight } : {}),
          ...(options.fetch ? { fetch: options.fetch } : {}),
        }).catch((err: unknown) => {
          // A 401/403 ends the fetch phase early: say once that nothing was written.
          if (err instanceof RefreshError && err.authFailure)
            throw new RefreshError(`refresh failed, nothing was written: ${err.message}`, err.failures, false, true);
          throw err;
        });
        // A listed model whose details answer 404 is no longer served: kept as it is and reported
        // (breaking), the others refreshed. Any other failure still fails the whole refresh.
        notServed = r.failures.filter((f) => f.notFound && oldIds.includes(f.id)).map((f) => f.id);
        if (r.failures.length > notServed.length)
          throw new RefreshError(
            `refresh failed, nothing was written: ${formatFailures(r.failures, toFetch.length)}`,
            r.failures,
          );
        if (notServed.length > 0)
          say(
            `${tool}: ${notServed.length} model${notServed.length === 1 ? '' : 's'} no longer served (HTTP 404), kept in the snapshot: ${notServed.join(', ')}`,
          );
        fetched = r.models;
      }
      const fetchMs = performance.now() - t0;

      // 2. What changes in the specs directory.
      const plan = await planChanges(specsDir, {
        ...(listChanges ? { listText: `${JSON.stringify(newIds, null, 2)}\n` } : {}),
        fetched: [...saved, ...fetched.values()],
        remove,
      });

      // 3. Stage the new snapshot in a temporary copy (in the run's own folder, removed with the
      // lock) and prove it generates; compute the drift report.
      const tmp = await lock.tempDir();
      const specsDigest = await treeDigest(specsDir);
      const staged = await stageSnapshot(specsDir, plan, tmp);
      const t1 = performance.now();
      // With no snapshot change there is nothing to prove or swap: a plain generate. Otherwise the
      // proof run's output (`label` names the staged copy as the real specs, so it is exactly the
      // real run's) is what the commit writes.
      let proved: GenerateResult | undefined;
      if (plan.size > 0) {
        try {
          proved = await gen({ specsDir: staged, outRoot, check: true, reuse: true, label, target, runtime });
        } catch (err) {
          // a SpecError names file, model and pointer as they are: the caller says where
          if (err instanceof SpecError) throw err;
          throw new RefreshError(
            `refresh failed, nothing was written: the refreshed snapshot does not generate: ${err instanceof Error ? err.message : String(err)}`,
          );
        }
        const leak = keyInOutput(proved.files, key);
        if (leak) {
          const reason = `the generated ${leak.file} would contain the API key`;
          throw new RefreshError(
            `refresh failed, nothing was written: ${leak.model ? `model ${leak.model}: ` : ''}${reason}`,
            leak.model ? [{ id: leak.model, reason }] : [],
          );
        }
      }
      const proveMs = performance.now() - t1;
      const report = diffSnapshots(
        current.valid,
        {
          ...(await readSnapshot(staged, label)),
          label: baseUrl ? `${label} refreshed from ${baseUrl}` : `${label} (updated)`,
        },
        { notServed },
      );

      // 4. Commit: swap the staged specs and the proved generated/ in together (or generate plainly).
      const t2 = performance.now();
      const result = proved
        ? {
            ...proved,
            ...(await commitPlan(lock, specsDir, staged, proved.files, specsDigest, target.managed, outside)),
          }
        : await gen({ specsDir, outRoot, lock, label, target, runtime, ...(options.force ? { force: true } : {}) });
      const sorted = (xs: string[]) => xs.sort(byCodeUnits);
      return {
        baseUrl,
        fetched: sorted([...fetched.keys()]),
        added: sorted([...add, ...savedIds].filter((id) => !oldIds.includes(id))),
        removed: remove,
        notServed,
        written: sorted([...plan].filter(([, t]) => t !== null).map(([rel]) => rel)),
        deleted: sorted([...plan].filter(([, t]) => t === null).map(([rel]) => rel)),
        generate: result,
        report,
        timings: { fetchMs, proveMs, generateMs: performance.now() - t2, totalMs: performance.now() - started },
      };
    },
    { log: options.log ?? say },
  );
}
