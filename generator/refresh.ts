/**
 * Stage 2, refresh (only with `npm run generate -- --refresh`, `--add <id>`, `--remove <id>`):
 * fetch `GET {baseUrl}/api/ai/models/{id}` for the listed ids through the SDK's own runtime client
 * (its retries: connection errors, 429 and 5xx with jittered backoff honouring `Retry-After`),
 * with bounded concurrency and a progress display, check every object with `checkModel`, and
 * replace the snapshot and `generated/` all or nothing.
 *
 * All or nothing: every failure is collected (one reason per id) and reported together, and then
 * nothing is written. On success the new snapshot is staged in a temporary copy of the specs
 * directory, proved to generate there (`generate({ check: true })`), compared with the current
 * one (the drift report), and only then moved into place and generated for real; if anything fails
 * after the first write, every snapshot file and every file under `generated/` is restored.
 *
 * The API key goes only into the `Authorization` header of the runtime client: it is never
 * written, logged or put in an error message (reasons are redacted as defence in depth, and a
 * response that contains the key is refused rather than written).
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import cliProgress from 'cli-progress';
import pLimit from 'p-limit';
import { Client } from '../runtime/client.ts';
import { APIError, ConnectionError, NotFoundError, TimeoutError } from '../runtime/errors.ts';
import { encodePath } from '../runtime/http.ts';
import { diffSnapshots, readSnapshot, type DriftReport, type Snapshot } from './drift.ts';
import { SpecError } from './errors.ts';
import type { GenerateOptions, GenerateResult } from './index.ts';
import { checkModel } from './load.ts';
import { REPO_ROOT, specsLabel } from './paths.ts';

/** The repository root (this file is `<root>/generator/refresh.ts`). */

/** The service's server (`specs/openapi.yaml`); overridden by `OXEN_BASE_URL` or `--base-url`. */
export const DEFAULT_REFRESH_BASE_URL = 'https://hub.oxen.ai';
/** Defaults of the fetch phase. Times in milliseconds. */
export const REFRESH_DEFAULTS = { concurrency: 8, timeoutMs: 30_000, maxRetries: 3, retryBaseDelayMs: 500 } as const;

/** One id that could not be refreshed and why (the reason never contains the API key). */
export interface FetchFailure {
  id: string;
  reason: string;
}

/**
 * A refresh that did not happen: bad options (no key, refused base URL, unknown id, ...), failed
 * fetches (`failures`, one per id, sorted by id), or a new snapshot that does not generate.
 * When thrown, nothing was written (or everything written was restored: see `restored`).
 */
export class RefreshError extends Error {
  override name = 'RefreshError';
  constructor(
    message: string,
    /** Every id that failed, with its reason; empty for errors that are not about one model. */
    readonly failures: FetchFailure[] = [],
    /** True when files had been written and were restored to their previous bytes. */
    readonly restored = false,
  ) {
    super(message);
  }
}

/** How progress is shown: a cli-progress bar, one plain line per model, or nothing. `auto`: a bar when the stream is a TTY, else lines. */
export type ProgressMode = 'auto' | 'bar' | 'lines' | 'none';

/** Options of the fetch phase. Times in milliseconds. */
export interface FetchOptions {
  /** Service base URL; `http://` only to a loopback host (see `checkBaseUrl`). */
  baseUrl: string;
  /** Bearer API key (required). */
  apiKey: string;
  /** Requests in flight at once (default 8). */
  concurrency?: number;
  /** Time limit of one model's fetch, every retry and backoff delay included (default 30_000). */
  timeoutMs?: number;
  /** Retries of one model's fetch after a connection error, 429 or 5xx (default 3). */
  maxRetries?: number;
  /** Base delay of the runtime's jittered exponential backoff (default 500). */
  retryBaseDelayMs?: number;
  /** Progress display (default `auto`), written to `stream` (default `process.stderr`). */
  progress?: ProgressMode;
  stream?: NodeJS.WritableStream & { isTTY?: boolean };
  /** How a model's snapshot file is named in messages (default `specs/models/<id>.json`). */
  fileLabel?: (id: string) => string;
  /** The `fetch` used by the runtime client (default the global one). */
  fetch?: typeof fetch;
}

/** One fetched and checked model. */
export interface FetchedModel {
  id: string;
  /** The parsed model object, keys in the server's order. */
  raw: unknown;
  /**
   * What the snapshot file holds: the JSON text as the server sent it, re-indented with 2 spaces
   * (`reindentJson`: keys, numbers and strings as sent), and a trailing newline.
   */
  text: string;
}

/** Outcome of the fetch phase: every id is in exactly one of the two. */
export interface FetchResult {
  /** By id, in the order of the ids given. */
  models: Map<string, FetchedModel>;
  /** Sorted by id. */
  failures: FetchFailure[];
}

/** True for a loopback host name as the WHATWG URL parser normalises it (127.0.0.0/8, localhost, ::1). */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === 'localhost' || h === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * Check a base URL: `https:` to any host, `http:` only to a loopback host (plain HTTP would send
 * the API key in clear text). Returns it without trailing slashes.
 * @throws RefreshError for anything else (malformed, other scheme, `http:` to another host, credentials in the URL).
 */
export function checkBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new RefreshError(`base URL ${JSON.stringify(baseUrl)} is not a valid URL`);
  }
  if (url.username || url.password) throw new RefreshError('base URL must not contain credentials (the API key is read from OXEN_API_KEY)');
  if (url.protocol === 'https:') return baseUrl.replace(/\/+$/, '');
  if (url.protocol === 'http:') {
    if (isLoopbackHost(url.hostname)) return baseUrl.replace(/\/+$/, '');
    throw new RefreshError(`refusing plain http:// to ${url.hostname}: the API key would be sent in clear text; use https:// (http:// is allowed only for 127.0.0.0/8, localhost and ::1)`);
  }
  throw new RefreshError(`base URL must be https:// (or http:// to a loopback host), got ${url.protocol}//`);
}

/**
 * Check a model id given on the command line: it names a file, so no slash, backslash or control
 * character, and not `.` or `..` (the same rule as `specs/models.json` in `load`).
 * @throws RefreshError naming the id.
 */
export function checkModelId(id: string): string {
  // eslint-disable-next-line no-control-regex
  if (id === '' || id === '.' || id === '..' || /[/\\\u0000-\u001f\u007f]/.test(id)) throw new RefreshError(`invalid model id ${JSON.stringify(id)}: an id names a file, so it cannot be empty, . or .., or contain a slash or control character`);
  return id;
}

function redactor(key: string): (s: string) => string {
  return (s) => (key.length >= 4 ? s.split(key).join('[REDACTED]') : s);
}

function positiveInt(name: string, v: number | undefined, dflt: number, min = 1): number {
  if (v === undefined) return dflt;
  if (!Number.isInteger(v) || v < min) throw new RefreshError(`${name} must be an integer >= ${min}, got ${v}`);
  return v;
}

function failureReason(err: unknown, attempts: number, timeoutMs: number): string {
  const tries = attempts > 1 ? ` (${attempts} attempts)` : '';
  if (err instanceof SpecError) return `invalid model object at ${err.pointer || '/'}: ${err.problem}`;
  if (err instanceof TimeoutError) return `timed out after ${timeoutMs} ms${tries}`;
  if (err instanceof NotFoundError) return `HTTP 404: ${err.message} (not found)`;
  if (err instanceof ConnectionError) return `connection failed: ${err.message}${tries}`;
  if (err instanceof APIError) {
    if (err.status !== undefined && err.status >= 200 && err.status < 300) return `invalid JSON in the response (HTTP ${err.status})`;
    return `HTTP ${err.status ?? '?'}: ${err.message}${tries}`;
  }
  return err instanceof Error ? err.message : String(err);
}

/** Shows progress of the fetch phase; see `ProgressMode`. */
class Progress {
  private bar: cliProgress.SingleBar | undefined;
  private done = 0;
  private failed = 0;
  constructor(
    private readonly mode: Exclude<ProgressMode, 'auto'>,
    private readonly total: number,
    private readonly stream: NodeJS.WritableStream,
  ) {
    if (mode === 'bar') {
      this.bar = new cliProgress.SingleBar(
        { stream, format: 'refresh [{bar}] {value}/{total} models | {failed} failed | {duration_formatted}', hideCursor: true, clearOnComplete: false },
        cliProgress.Presets.shades_classic,
      );
      this.bar.start(total, 0, { failed: 0 });
    }
  }
  tick(id: string, reason?: string): void {
    this.done++;
    if (reason !== undefined) this.failed++;
    if (this.bar) this.bar.update(this.done, { failed: this.failed });
    else if (this.mode === 'lines') this.stream.write(`refresh: [${this.done}/${this.total}] ${reason === undefined ? `ok      ${id}` : `FAILED  ${id}: ${reason}`}\n`);
  }
  stop(): void {
    this.bar?.stop();
  }
}

/**
 * Pretty-print JSON text with 2-space indentation (the layout of `JSON.stringify(v, null, 2)`)
 * without re-serialising its values: keys stay in the order sent, and number and string literals
 * stay byte for byte as sent (`2.0` stays `2.0`, escapes stay escapes, big integers keep their digits).
 * @param text valid JSON (check with `JSON.parse` first; the output of invalid input is unspecified).
 * @returns the indented text, without a trailing newline.
 */
export function reindentJson(text: string): string {
  let out = '';
  let depth = 0;
  const nl = () => `\n${'  '.repeat(depth)}`;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (c === '{' || c === '[') {
      // An empty container stays on one line.
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j]!)) j++;
      if (text[j] === (c === '{' ? '}' : ']')) {
        out += c === '{' ? '{}' : '[]';
        i = j;
      } else {
        depth++;
        out += c + nl();
      }
    } else if (c === '}' || c === ']') {
      depth--;
      out += nl() + c;
    } else if (c === ',') out += `,${nl()}`;
    else if (c === ':') out += ': ';
    else if (c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r') out += c;
  }
  return out;
}

/**
 * Fetch and check the model objects of `ids` (the fetch+check phase of a refresh). Never throws
 * for a model: each id ends in `models` or in `failures` (HTTP error after retries, timeout,
 * invalid JSON, 404, invalid model object, id mismatch).
 * @throws RefreshError only for bad options (base URL refused, empty key, bad numbers).
 */
export async function fetchModels(ids: readonly string[], options: FetchOptions): Promise<FetchResult> {
  const baseUrl = checkBaseUrl(options.baseUrl);
  if (!options.apiKey) throw new RefreshError('no API key: set OXEN_API_KEY');
  const concurrency = positiveInt('concurrency', options.concurrency, REFRESH_DEFAULTS.concurrency);
  const timeoutMs = positiveInt('timeoutMs', options.timeoutMs, REFRESH_DEFAULTS.timeoutMs);
  const maxRetries = positiveInt('maxRetries', options.maxRetries, REFRESH_DEFAULTS.maxRetries, 0);
  const retryBaseDelayMs = positiveInt('retryBaseDelayMs', options.retryBaseDelayMs, REFRESH_DEFAULTS.retryBaseDelayMs, 0);
  const fileLabel = options.fileLabel ?? ((id: string) => `specs/models/${id}.json`);
  const redact = redactor(options.apiKey);
  const stream = options.stream ?? process.stderr;
  const mode = options.progress ?? 'auto';
  const progress = new Progress(mode === 'auto' ? (stream.isTTY ? 'bar' : 'lines') : mode, ids.length, stream);

  // Counts the attempts of each URL (to say in a failure how often the runtime tried) and keeps a
  // copy of each successful response (the runtime reads and parses the original).
  const attempts = new Map<string, number>();
  const bodies = new Map<string, Response>();
  const baseFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const countingFetch: typeof fetch = (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    attempts.set(url, (attempts.get(url) ?? 0) + 1);
    return baseFetch(input, init).then((res) => {
      if (res.ok) bodies.set(url, res.clone());
      return res;
    });
  };
  const client = new Client({ apiKey: options.apiKey, baseUrl, fetch: countingFetch, timeoutMs, maxRetries, retryBaseDelayMs });
  const limit = pLimit(concurrency);
  const models = new Map<string, FetchedModel>();
  const failures: FetchFailure[] = [];

  try {
    const results = await Promise.all(
      ids.map((id) =>
        limit(async (): Promise<FetchedModel | FetchFailure> => {
          const req = { method: 'GET' as const, path: `/api/ai/models/${encodePath(id)}` };
          try {
            const raw = await client.request<unknown>(req, { timeoutMs });
            checkModel(raw, id, fileLabel(id));
            // The runtime parsed the body; the snapshot keeps the text as sent, only re-indented.
            const sent = await bodies.get(client.http.url(req))?.text();
            bodies.delete(client.http.url(req));
            const text = `${sent === undefined ? JSON.stringify(raw, null, 2) : reindentJson(sent.trim())}\n`;
            if (options.apiKey.length >= 4 && text.includes(options.apiKey)) throw new Error('the response contains the API key; refusing to write it to the snapshot');
            progress.tick(id);
            return { id, raw, text };
          } catch (err) {
            bodies.delete(client.http.url(req));
            const reason = redact(failureReason(err, attempts.get(client.http.url(req)) ?? 1, timeoutMs));
            progress.tick(id, reason);
            return { id, reason };
          }
        }),
      ),
    );
    for (const r of results) {
      if ('reason' in r) failures.push(r);
      else models.set(r.id, r);
    }
  } finally {
    progress.stop();
  }
  failures.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { models, failures };
}

/**
 * Options of `refresh`. Times in milliseconds. The fetch settings (`concurrency`, `timeoutMs`,
 * `maxRetries`, `retryBaseDelayMs`, `progress`, `stream`: where progress and status lines go,
 * default `process.stderr`) are those of `FetchOptions`.
 */
export interface RefreshOptions extends Pick<FetchOptions, 'concurrency' | 'timeoutMs' | 'maxRetries' | 'retryBaseDelayMs' | 'progress' | 'stream'> {
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
  fetch?: typeof fetch;
  /** The generator to run (default `generate`); replaceable in tests to exercise the rollback. */
  generate?: (options: GenerateOptions) => Promise<GenerateResult>;
}

/** What a successful refresh did. Paths are relative to the specs directory. */
export interface RefreshResult {
  baseUrl: string | undefined;
  /** Ids fetched (sorted). */
  fetched: string[];
  /** Ids added to / removed from `models.json`. */
  added: string[];
  removed: string[];
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

async function readIfExists(file: string): Promise<Buffer | null> {
  try {
    return await readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Every file under `dir` (relative path -> bytes); null when `dir` does not exist. */
async function snapshotTree(dir: string): Promise<Map<string, Buffer> | null> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const files = entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
  const out = new Map<string, Buffer>();
  await Promise.all(files.map(async (f) => out.set(f, await readFile(path.join(dir, f)))));
  return out;
}

/** Put `dir` back to exactly `saved` (as returned by `snapshotTree`). */
async function restoreTree(dir: string, saved: Map<string, Buffer> | null): Promise<void> {
  if (saved === null) {
    await rm(dir, { recursive: true, force: true });
    return;
  }
  const now = (await snapshotTree(dir)) ?? new Map<string, Buffer>();
  for (const [f, bytes] of now) {
    const old = saved.get(f);
    if (old === undefined) await rm(path.join(dir, f), { force: true });
    else if (!old.equals(bytes)) await writeFile(path.join(dir, f), old);
  }
  for (const [f, bytes] of saved) {
    if (!now.has(f)) {
      await mkdir(path.dirname(path.join(dir, f)), { recursive: true });
      await writeFile(path.join(dir, f), bytes);
    }
  }
}

function formatFailures(failures: FetchFailure[], total: number): string {
  const width = Math.max(...failures.map((f) => f.id.length));
  return `${failures.length} of ${total} model${total === 1 ? '' : 's'} failed:\n${failures.map((f) => `  ${f.id.padEnd(width)}  ${f.reason}`).join('\n')}`;
}

/**
 * The current snapshot: the ids of `models.json` (which must be readable) and, for the drift
 * report, the model objects that are readable and valid (a broken file is what a refresh repairs,
 * so it is left out of the old side instead of failing the refresh).
 */
async function readCurrent(specsDir: string, label: string): Promise<{ ids: string[]; valid: Snapshot }> {
  const listFile = path.join(specsDir, 'models.json');
  let ids: unknown;
  try {
    ids = JSON.parse(await readFile(listFile, 'utf8'));
  } catch (err) {
    throw new SpecError(`${label}/models.json`, undefined, '', `cannot read: ${(err as Error).message}`);
  }
  if (!Array.isArray(ids) || !ids.every((i): i is string => typeof i === 'string')) throw new SpecError(`${label}/models.json`, undefined, '', 'expected a JSON array of model ids');
  const models = new Map<string, unknown>();
  await Promise.all(
    ids.map(async (id) => {
      try {
        const raw: unknown = JSON.parse(await readFile(path.join(specsDir, 'models', `${id}.json`), 'utf8'));
        checkModel(raw, id, `${label}/models/${id}.json`);
        models.set(id, raw);
      } catch {
        // missing, malformed or invalid: not part of the old side of the report
      }
    }),
  );
  return { ids, valid: { label, ids: ids.filter((id) => models.has(id)), models } };
}

/**
 * Refresh the snapshot and regenerate, all or nothing (see the module comment).
 * @returns what was fetched, written and generated, and the drift report (old vs new snapshot).
 * @throws RefreshError when nothing was written: missing key, refused base URL, bad ids, one or
 * more failed models (`failures`, all of them), or a new snapshot that does not generate; or, with
 * `restored: true`, when the final write or generate failed and the previous files were restored.
 * Also SpecError when the current `models.json` cannot be read.
 */
export async function refresh(options: RefreshOptions): Promise<RefreshResult> {
  const started = performance.now();
  const specsDir = path.resolve(options.specsDir ?? path.join(REPO_ROOT, 'specs'));
  const outRoot = path.resolve(options.outRoot ?? REPO_ROOT);
  // Loaded only when needed: the generator's dependencies take seconds to load, and a refresh that
  // fails on its options or its fetches should fail fast.
  const gen = options.generate ?? (async (o: GenerateOptions) => (await import('./index.ts')).generate(o));
  const stream = options.stream ?? process.stderr;
  const key = options.apiKey ?? process.env['OXEN_API_KEY'] ?? '';
  const say = (line: string) => void stream.write(`${redactor(key)(line)}\n`);
  const add = [...new Set((options.add ?? []).map(checkModelId))];
  const remove = [...new Set((options.remove ?? []).map(checkModelId))];
  const both = add.filter((id) => remove.includes(id));
  if (both.length > 0) throw new RefreshError(`cannot both add and remove ${both.join(', ')}`);
  if (!options.all && add.length === 0 && remove.length === 0) throw new RefreshError('nothing to do: give --refresh, --add <id> or --remove <id>');

  const label = specsLabel(specsDir);
  const current = await readCurrent(specsDir, label);
  const oldIds = current.ids;
  for (const id of remove) {
    if (!oldIds.includes(id) && (await readIfExists(path.join(specsDir, 'models', `${id}.json`))) === null) {
      throw new RefreshError(`cannot remove ${id}: it is not listed in ${label}/models.json and has no snapshot file`);
    }
  }
  const listChanges = add.length > 0 || remove.length > 0;
  const newIds = listChanges ? [...new Set([...oldIds.filter((id) => !remove.includes(id)), ...add])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) : oldIds;
  const toFetch = options.all ? newIds : add;

  // 1. Fetch and check (nothing written).
  let baseUrl: string | undefined;
  let fetched = new Map<string, FetchedModel>();
  const t0 = performance.now();
  if (toFetch.length > 0) {
    const apiKey = key;
    if (!apiKey) throw new RefreshError(`OXEN_API_KEY is not set: fetching ${toFetch.length === 1 ? toFetch[0] : `${toFetch.length} models`} needs an API key (export OXEN_API_KEY=...)`);
    baseUrl = checkBaseUrl(options.baseUrl ?? (process.env['OXEN_BASE_URL'] || DEFAULT_REFRESH_BASE_URL));
    say(`refresh: fetching ${toFetch.length} model${toFetch.length === 1 ? '' : 's'} from ${baseUrl}`);
    const r = await fetchModels(toFetch, {
      baseUrl,
      apiKey,
      fileLabel: (id) => `${label}/models/${id}.json`,
      stream,
      ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
      ...(options.retryBaseDelayMs !== undefined ? { retryBaseDelayMs: options.retryBaseDelayMs } : {}),
      ...(options.progress !== undefined ? { progress: options.progress } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    if (r.failures.length > 0) throw new RefreshError(`refresh failed, nothing was written: ${formatFailures(r.failures, toFetch.length)}`, r.failures);
    fetched = r.models;
  }
  const fetchMs = performance.now() - t0;

  // 2. What changes in the specs directory (relative path -> new bytes, or null to delete).
  const plan = new Map<string, string | null>();
  const listText = `${JSON.stringify(newIds, null, 2)}\n`;
  if (listChanges) {
    const old = await readIfExists(path.join(specsDir, 'models.json'));
    if (old?.toString('utf8') !== listText) plan.set('models.json', listText);
  }
  for (const [id, m] of fetched) {
    const old = await readIfExists(path.join(specsDir, 'models', `${id}.json`));
    if (old?.toString('utf8') !== m.text) plan.set(`models/${id}.json`, m.text);
  }
  for (const id of remove) if ((await readIfExists(path.join(specsDir, 'models', `${id}.json`))) !== null) plan.set(`models/${id}.json`, null);

  // 3. Stage the new snapshot in a temporary copy and prove it generates; compute the drift report.
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'inference-sdk-refresh-'));
  try {
    const staged = path.join(tmp, 'specs');
    await cp(specsDir, staged, { recursive: true });
    for (const [rel, text] of plan) {
      if (text === null) await rm(path.join(staged, rel), { force: true });
      else {
        await mkdir(path.dirname(path.join(staged, rel)), { recursive: true });
        await writeFile(path.join(staged, rel), text);
      }
    }
    const t1 = performance.now();
    try {
      // With no snapshot change there is nothing new to prove: the real run below is a plain generate.
      // `label` names the staged copy as the real specs, so the proof's output is the real run's and its formatting is reused from the output cache.
      if (plan.size > 0) await gen({ specsDir: staged, outRoot, check: true, label });
    } catch (err) {
      throw new RefreshError(`refresh failed, nothing was written: the refreshed snapshot does not generate: ${err instanceof Error ? err.message : String(err)}`);
    }
    const proveMs = performance.now() - t1;
    const report = diffSnapshots(current.valid, { ...(await readSnapshot(staged, label)), label: baseUrl ? `${label} refreshed from ${baseUrl}` : `${label} (updated)` });

    // 4. Commit: back up, move the files into place, generate for real; restore on any failure.
    const backups = new Map<string, Buffer | null>();
    for (const rel of plan.keys()) backups.set(rel, await readIfExists(path.join(specsDir, rel)));
    const generatedDir = path.join(outRoot, 'generated');
    const generatedBackup = await snapshotTree(generatedDir);
    const t2 = performance.now();
    let result: GenerateResult;
    try {
      const renames: Array<[string, string]> = [];
      try {
        for (const [rel, text] of plan) {
          if (text === null) continue;
          const target = path.join(specsDir, rel);
          const tmpFile = `${target}.tmp-refresh-${process.pid}`;
          await mkdir(path.dirname(target), { recursive: true });
          await writeFile(tmpFile, text);
          renames.push([tmpFile, target]);
        }
      } catch (err) {
        await Promise.all(renames.map(([t]) => rm(t, { force: true })));
        throw err;
      }
      for (const [tmpFile, target] of renames) await rename(tmpFile, target);
      for (const [rel, text] of plan) if (text === null) await rm(path.join(specsDir, rel), { force: true });
      result = await gen({ specsDir, outRoot });
    } catch (err) {
      let restoreProblem = '';
      try {
        for (const [rel, bytes] of backups) {
          const target = path.join(specsDir, rel);
          await rm(`${target}.tmp-refresh-${process.pid}`, { force: true });
          if (bytes === null) await rm(target, { force: true });
          else await writeFile(target, bytes);
        }
        await restoreTree(generatedDir, generatedBackup);
      } catch (e) {
        restoreProblem = ` (restoring failed too: ${(e as Error).message}; check ${label}/ and generated/ by hand)`;
      }
      throw new RefreshError(`refresh failed while writing; the previous snapshot and generated/ were restored${restoreProblem}: ${err instanceof Error ? err.message : String(err)}`, [], restoreProblem === '');
    }
    const sorted = (xs: string[]) => xs.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return {
      baseUrl,
      fetched: sorted([...fetched.keys()]),
      added: add.filter((id) => !oldIds.includes(id)),
      removed: remove,
      written: sorted([...plan].filter(([, t]) => t !== null).map(([rel]) => rel)),
      deleted: sorted([...plan].filter(([, t]) => t === null).map(([rel]) => rel)),
      generate: result,
      report,
      timings: { fetchMs, proveMs, generateMs: performance.now() - t2, totalMs: performance.now() - started },
    };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
