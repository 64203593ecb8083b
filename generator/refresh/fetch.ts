/**
 * Refresh, the fetch phase: `GET {baseUrl}/api/ai/models/{id}` for each id through the SDK's own
 * runtime client (its retries: connection errors, 429 and 5xx with jittered backoff honouring
 * `Retry-After`), with bounded concurrency (p-limit) and a progress display; every object is
 * checked with `checkModel` and kept as the text the server sent, re-indented. Nothing is written.
 *
 * The API key goes only into the `Authorization` header of the runtime client: reasons are
 * redacted as defence in depth, and a response that contains the key is refused.
 */
import pLimit from 'p-limit';
import { Client } from '../../runtime/client.ts';
import { APIError, ConnectionError, TimeoutError } from '../../runtime/errors.ts';
import { NotFoundError, ResponseTooLargeError } from '../../runtime/error-classes.ts';
import { operationRequest } from '../../runtime/internal/operation.ts';
import { modelsRetrieve } from '../../runtime/operations.ts';
import { readLimited } from '../../runtime/internal/read-limited.ts';
import { byCodeUnits } from '../order.ts';
import { SpecError } from '../errors.ts';
import { checkModel } from '../stages/load.ts';
import { MAX_MODEL_BYTES } from '../stages/schema-check.ts';
import {
  checkBaseUrl,
  keyPointer,
  positiveInt,
  redactor,
  REFRESH_DEFAULTS,
  RefreshError,
  type FetchFailure,
} from './checks.ts';
import { Progress, type ProgressMode } from './progress.ts';
import { reindentJson } from './reindent-json.ts';
import { specFile } from '../stages/name.ts';

export { REFRESH_DEFAULTS };

/** Options of the fetch phase. Times in milliseconds. */
export interface FetchOptions {
  /** Service base URL; `http://` only to a loopback host (see `checkBaseUrl`). */
  baseUrl: string;
  /** Bearer API key (required). */
  apiKey: string;
  /**
   * Requests in flight at once.
   * @default 8
   */
  concurrency?: number;
  /**
   * Time limit of one model's fetch, every retry and backoff delay included.
   * @default 30_000
   * @unit milliseconds
   */
  timeoutMs?: number;
  /**
   * Retries of one model's fetch after a connection error, 429 or 5xx.
   * @default 3
   */
  maxRetries?: number;
  /**
   * Base delay of the runtime's jittered exponential backoff.
   * @default 500
   * @unit milliseconds
   */
  retryBaseDelayMs?: number;
  /** Progress display (default `auto`), written to `stream` (default `process.stderr`). */
  progress?: ProgressMode;
  /** What progress lines start with (default `refresh`): the command that fetches. */
  progressLabel?: string;
  stream?: NodeJS.WritableStream & { isTTY?: boolean };
  /** How a model's snapshot file is named in messages (default `specs/models/<id>.json`). */
  fileLabel?: (id: string) => string;
  /** The `fetch` used by the runtime client (default the global one). */
  fetch?: typeof fetch;
  /**
   * Called once, when the first model has arrived (the others are in flight then): synchronous
   * work for this thread that would otherwise wait for the network (the CLI loads TypeScript).
   */
  whileInFlight?: () => void;
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

function failureReason(err: unknown, attempts: number, timeoutMs: number): string {
  const tries = attempts > 1 ? ` (${attempts} attempts)` : '';
  if (err instanceof SpecError) return `invalid model object at ${err.pointer || '/'}: ${err.problem}`;
  if (err instanceof ResponseTooLargeError)
    return `the answer is too large: over ${err.limitBytes} bytes (decompressed), the most a model object may have`;
  if (err instanceof TimeoutError) return `timed out after ${timeoutMs} ms${tries}`;
  if (err instanceof NotFoundError) return `HTTP 404: ${err.message} (not found)`;
  if (err instanceof ConnectionError) return `connection failed: ${err.message}${tries}`;
  if (err instanceof APIError) {
    if (err.status !== undefined && err.status >= 200 && err.status < 300)
      return `invalid JSON in the response (HTTP ${err.status})`;
    return `HTTP ${err.status ?? '?'}: ${err.message}${tries}`;
  }
  return err instanceof Error ? err.message : String(err);
}

/** Whether an error is the service refusing the key (401) or its permissions (403): no other model can succeed then. */
function isAuthFailure(err: unknown): err is APIError {
  return err instanceof APIError && (err.status === 401 || err.status === 403);
}

/**
 * Fetch and check the model objects of `ids` (the fetch+check phase of a refresh). Never throws
 * for a model: each id ends in `models` or in `failures` (HTTP error after retries, timeout,
 * invalid JSON, 404, invalid model object, id mismatch), except on the first 401 or 403: the key
 * is wrong or lacks permission for every model, so the requests in flight are cancelled, no other
 * is sent, and a `RefreshError` says so once (`authFailure` set; its `failures` name the id).
 * @throws RefreshError for bad options (base URL refused, empty key, bad numbers) and on a 401 or 403.
 */
export async function fetchModels(ids: readonly string[], options: FetchOptions): Promise<FetchResult> {
  const baseUrl = checkBaseUrl(options.baseUrl);
  if (!options.apiKey) throw new RefreshError('no API key: set OXEN_API_KEY');
  const concurrency = positiveInt('concurrency', options.concurrency, REFRESH_DEFAULTS.concurrency);
  const timeoutMs = positiveInt('timeoutMs', options.timeoutMs, REFRESH_DEFAULTS.timeoutMs);
  const maxRetries = positiveInt('maxRetries', options.maxRetries, REFRESH_DEFAULTS.maxRetries, 0);
  const retryBaseDelayMs = positiveInt(
    'retryBaseDelayMs',
    options.retryBaseDelayMs,
    REFRESH_DEFAULTS.retryBaseDelayMs,
    0,
  );
  const fileLabel = options.fileLabel ?? ((id: string) => `specs/${specFile(id)}`);
  const redact = redactor(options.apiKey);
  const stream = options.stream ?? process.stderr;
  const mode = options.progress ?? 'auto';
  const progress = new Progress(
    mode === 'auto' ? (stream.isTTY ? 'bar' : 'lines') : mode,
    ids.length,
    stream,
    options.progressLabel,
  );

  // Counts the attempts of each URL (to say in a failure how often the runtime tried) and keeps the
  // text of each successful answer. The body is read here, decompressed, at most MAX_MODEL_BYTES + 1
  // bytes (a compression bomb stops there), and handed on as a plain body: beyond the cap the
  // runtime's own `maxResponseBytes` check (set to the cap) refuses it as too large.
  const attempts = new Map<string, number>();
  const bodies = new Map<string, string>();
  const baseFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const countingFetch: typeof fetch = (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    attempts.set(url, (attempts.get(url) ?? 0) + 1);
    return baseFetch(input, init).then(async (res) => {
      if (!res.ok || !res.body) return res;
      const { bytes = new Uint8Array(0) } = await readLimited(res.body, MAX_MODEL_BYTES + 1, true);
      if (bytes.byteLength <= MAX_MODEL_BYTES) bodies.set(url, new TextDecoder().decode(bytes));
      const headers = new Headers(res.headers);
      headers.delete('content-encoding');
      headers.delete('content-length');
      return new Response(bytes, { status: res.status, statusText: res.statusText, headers });
    });
  };
  const client = new Client({
    apiKey: options.apiKey,
    baseUrl,
    fetch: countingFetch,
    timeoutMs,
    maxRetries,
    retryBaseDelayMs,
    maxResponseBytes: MAX_MODEL_BYTES,
  });
  // the URL the runtime fetches for a request without query (what `countingFetch` keys by)
  const urlOf = (req: { path: string }) => client.settings.baseUrl + req.path;
  const limit = pLimit(concurrency);
  let whileInFlight = options.whileInFlight;
  const models = new Map<string, FetchedModel>();
  const failures: FetchFailure[] = [];
  // The first 401/403 stops the run: later tasks are not started, requests in flight are aborted.
  const stop = new AbortController();
  let authFailure: { id: string; status: number; message: string } | undefined;

  try {
    const results = await Promise.all(
      ids.map((id) =>
        limit(async (): Promise<FetchedModel | FetchFailure | undefined> => {
          if (stop.signal.aborted) return undefined;
          const req = operationRequest(modelsRetrieve, { id });
          try {
            const raw = await client.request<unknown>(req, { timeoutMs, signal: stop.signal });
            checkModel(raw, id, fileLabel(id));
            // The runtime parsed the body; the snapshot keeps the text as sent, only re-indented.
            const sent = bodies.get(urlOf(req));
            bodies.delete(urlOf(req));
            const text = `${sent === undefined ? JSON.stringify(raw, null, 2) : reindentJson(sent.trim())}\n`;
            if (options.apiKey.length >= 4 && text.includes(options.apiKey))
              throw new Error('the response contains the API key; refusing to write it to the snapshot');
            // the parsed strings too: a JSON escape (`\u0073k-...`) hides the key from the text, not from the output
            const at = keyPointer(raw, options.apiKey);
            if (at !== undefined)
              throw new Error(
                `the model object contains the API key (in the string at ${at}); refusing to write it to the snapshot or the generated code`,
              );
            progress.tick(id);
            if (whileInFlight) setImmediate(whileInFlight);
            whileInFlight = undefined;
            return { id, raw, text };
          } catch (err) {
            bodies.delete(urlOf(req));
            if (stop.signal.aborted) return undefined; // cancelled after another model's 401/403
            if (isAuthFailure(err)) {
              authFailure = { id, status: err.status!, message: redact.text(err.message) };
              stop.abort();
              return undefined;
            }
            const reason = redact.text(failureReason(err, attempts.get(urlOf(req)) ?? 1, timeoutMs));
            progress.tick(id, reason);
            return err instanceof NotFoundError ? { id, reason, notFound: true } : { id, reason };
          }
        }),
      ),
    );
    for (const r of results) {
      if (r === undefined) continue;
      if ('reason' in r) failures.push(r);
      else models.set(r.id, r);
    }
  } finally {
    progress.stop();
  }
  if (authFailure) {
    const { id, status, message } = authFailure;
    const what = status === 401 ? 'rejected the API key (HTTP 401)' : 'denied the API key access (HTTP 403)';
    throw new RefreshError(
      `the service ${what} when fetching ${id}: ${message}. Check OXEN_API_KEY (and --base-url); stopped at the first ${status}, so no other model was fetched`,
      [{ id, reason: `HTTP ${status}: ${message}` }],
      false,
      true,
    );
  }
  failures.sort((a, b) => byCodeUnits(a.id, b.id));
  return { models, failures };
}
