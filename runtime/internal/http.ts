/**
 * The HTTP layer: one attempt of one request (a path parameter is encoded by `operation.ts`). Bearer auth,
 * JSON bodies, redirects refused, response bodies read with a size cap, the response shape checked, and
 * failures mapped to error classes. Uses only `fetch`, `AbortController`, `Headers`, `ReadableStream` and `TextDecoder`
 * (Node 20+, Deno, Bun, browsers).
 */
import { AbortError, APIError, ConnectionError, requestIdOf, TimeoutError } from '../errors.ts';
import { isBrowser } from './env.ts';
import type { HookRequest, Hooks } from '../hooks.ts';
import { loadCallLog, type Logger, type LogLevel } from '../log.ts';
import type { CallLog } from './log-lines.ts';
import { loadHookRun, loadRedaction, sharedLoad } from './lazy.ts';
import { readText } from './read-limited.ts';
import type { HttpRequest, HttpResult } from '../request.ts';
// `redact.ts` is loaded on demand (`lazy.ts`): a transport without any secret (a page that calls a proxy) never loads it.
import type { Redactor } from '../redact.ts';

/**
 * The failure path (`failure.ts`, with the error classes of `error-classes.ts`: error messages, the
 * server's message of an error body, network failures, `OutcomeUnknownError`), loaded with `import()`
 * when an attempt failed, so that a call that succeeds loads none of it. Resolves to `{ cause }` (the
 * loader's error) when it cannot be loaded (a page that lost its network), and is tried again on the
 * next failure.
 */
const loadFailureModule = sharedLoad(() => import('./failure.ts'));
export const loadFailures = (): Promise<typeof import('./failure.ts') | { cause: unknown }> =>
  loadFailureModule().catch((cause: unknown) => ({ cause }));

/**
 * The error of an answer when `failure.ts` could not be loaded (`cause`, the loader's error): an
 * `APIError` with the status, the headers (so `requestId`) and a message of the SDK's own, no text of
 * the server. Its class is `APIError` whatever the status (the subclasses are in the module that failed to load).
 */
function unexplained(
  res: Response,
  request: { method: string; path: string },
  redactor: Redactor | undefined,
  cause: unknown,
): APIError {
  return new APIError(
    `${request.method} ${request.path} answered ${res.status} (the SDK could not load the module that reads failed answers)`,
    { status: res.status || undefined, headers: res.headers, request, redactor, cause },
  );
}

/** Whether `req` may be resent after a failure whose outcome is unknown. */
export function isIdempotent(req: HttpRequest): boolean {
  return req.idempotent ?? req.method !== 'POST';
}

/** Why an attempt may have ended early: the call's timeout or the caller's signal. */
export interface AttemptContext {
  timedOut: () => boolean;
  userSignal?: AbortSignal | undefined;
  /** Attempts made so far in this call: `send` counts them here (hooks and logs show the number). */
  attempt?: number | undefined;
  /** The call's secrets (the transport's and the call's own header values; see `Http.redactorFor`); undefined when none. */
  redactor?: Redactor | undefined;
  /** Whether the last attempt's request was handed to `fetch` (false while its `onRequest` hooks run). `send` sets it. */
  sent?: boolean | undefined;
}

/** What a transport's HTTP layer is made of. The key and the headers are kept private (see `Http`). */
export interface HttpConfig {
  apiKey: string | undefined;
  baseUrl: string;
  fetch: typeof fetch;
  headers: Record<string, string>;
  /** The largest success body read, in bytes. */
  maxResponseBytes: number;
  /** How much to log (see `LogLevel`; default env `OXEN_LOG`, else off). */
  logLevel?: LogLevel | undefined;
  /** Where to log (default `console`). */
  logger?: Logger | undefined;
  /** The transport's hooks, or undefined for none. */
  hooks?: Hooks | undefined;
}

/**
 * Sends requests for a transport. `send` makes exactly one attempt; retries are decided by the
 * caller (see `retry.ts`). The API key and the fixed headers are held in `#private` fields, out
 * of reach of `util.inspect`, `JSON.stringify` and logging, never on a property.
 */
export class Http {
  // (`#private` members: a minifier shortens their names, never those of properties and methods)
  /**
   * The transport's log (its module loads on demand), or undefined when logging is off: nothing is built per call then.
   * @internal
   */
  declare readonly log: Promise<CallLog | undefined> | undefined;
  /** The base URL, without a trailing slash. */
  readonly #baseUrl: string;
  /** The largest success body read, in bytes. */
  readonly #maxResponseBytes: number;
  /** The transport's hooks, or undefined when there are none. */
  readonly #hooks: Hooks | undefined;
  readonly #fetch: typeof fetch;
  readonly #apiKey: string | undefined;
  readonly #headers: Record<string, string>;
  /** This transport's own secrets (see `redactorFor`), once made. */
  #redactor: Redactor | undefined;

  constructor(config: HttpConfig) {
    this.#baseUrl = config.baseUrl.replace(/\/+$/, '');
    this.#maxResponseBytes = config.maxResponseBytes;
    this.#fetch = config.fetch;
    this.#hooks = config.hooks;
    this.#apiKey = config.apiKey;
    this.#headers = { ...config.headers };
    this.log = loadCallLog(config.logLevel, config.logger);
  }

  /**
   * The secrets of a call, which its errors and log lines are redacted of: this transport's (the API
   * key and every value of its `headers` but those of `PUBLIC_HEADERS`, also without an auth scheme
   * such as `Bearer `), `base`'s, and the secret values of `headers` (the call's own, or those a hook
   * set). Loads `redact.ts` on first use; undefined (nothing loaded) when there is no secret at all.
   * The redactor shows none of its secrets.
   * @throws the loader's error when `redact.ts` cannot be loaded.
   */
  async redactorFor(headers?: Record<string, string>, base?: Redactor): Promise<Redactor | undefined> {
    const some = (h: Record<string, string> | undefined) => !!h && Object.keys(h).length > 0;
    if (!base && !this.#apiKey && !some(this.#headers) && !some(headers)) return undefined;
    const { Redactor, headerSecrets } = await loadRedaction();
    base ??= this.#redactor ??= new Redactor([this.#apiKey, ...headerSecrets(this.#headers)]);
    return headers ? base.with(headerSecrets(headers)) : base;
  }

  /** The full URL of a request. */
  #url(req: HttpRequest): string {
    const query = req.query
      ? Object.entries(req.query).filter((e): e is [string, string | number] => e[1] !== undefined)
      : [];
    if (query.length === 0) return this.#baseUrl + req.path;
    const url = new URL(this.#baseUrl + req.path);
    for (const [k, v] of query) url.searchParams.set(k, String(v));
    return url.toString();
  }

  /** Request headers without the key: the transport's, the call's, then `accept` and `content-type`. */
  #headersOf(req: HttpRequest): Record<string, string> {
    const h: Record<string, string> = { ...this.#headers };
    if (req.headers) for (const [k, v] of Object.entries(req.headers)) h[k.toLowerCase()] = String(v);
    h['accept'] = req.stream ? 'text/event-stream' : 'application/json';
    if (req.body !== undefined) h['content-type'] = 'application/json';
    return h;
  }

  /**
   * One attempt. Resolves to the parsed JSON body with the `Response` (for `stream`, the unread
   * Response). Runs the `onRequest` hooks before sending and the `onResponse` hooks when the
   * response headers arrive, each awaited only until `signal` aborts; logs the attempt at `debug`.
   * Errors and log lines are redacted with `why.redactor` and the header values the hooks set.
   * @throws APIError subclasses for error statuses; `RedirectError` for a 3xx (never followed);
   * `InvalidResponseError` for an empty, non-JSON or misshapen success body;
   * `ResponseTooLargeError` beyond `maxResponseBytes`; `ConnectionError` when no response came
   * (`notSent` tells whether the request surely never left); `TimeoutError` / `AbortError` when
   * the signal ended it (a hook that never settles included); whatever a hook throws.
   */
  async send(req: HttpRequest, signal: AbortSignal, why: AttemptContext): Promise<HttpResult> {
    const request = { method: req.method, path: req.path };
    let redactor = why.redactor;
    const attempt = (why.attempt = (why.attempt ?? 0) + 1);
    why.sent = false;
    const hooks = this.#hooks;
    let log = this.log && (await this.log);
    const url = this.#url(req);
    let headers = this.#headersOf(req);
    let body = req.body;
    let hookRequest: HookRequest | undefined;
    if (hooks) {
      hookRequest = await (
        await loadHookRun()
      ).onRequest(hooks, req, url, headers, attempt, signal, (err) => failure(err, request, why, 'request', redactor));
      headers = Object.fromEntries(hookRequest.headers);
      body = hookRequest.body;
      // A hook's own header values (a token it adds) are secrets of this attempt.
      redactor = await this.redactorFor(headers, redactor);
    }
    const apiKey = this.#apiKey;
    if (apiKey) headers['authorization'] = `Bearer ${apiKey}`;
    const started = log || hooks ? performance.now() : 0;
    log = log?.redacting(redactor);
    log?.request(req, url, attempt, headers, body);
    why.sent = true;
    let res: Response;
    try {
      res = await this.#fetch(url, {
        method: req.method,
        headers,
        body: body === undefined ? null : JSON.stringify(body),
        signal,
        redirect: 'manual',
      });
    } catch (err) {
      const error = await failure(err, request, why, 'request', redactor);
      log?.noResponse(req, attempt, started, error);
      throw error;
    }
    if (hooks)
      // (`hook-run.ts` is loaded already, by the onRequest hooks' turn)
      await (
        await loadHookRun()
      ).onResponse(hooks, hookRequest!, res, requestIdOf(res.headers, redactor), started, signal, (err) =>
        failure(err, request, why, 'body', redactor),
      );
    if (res.ok && req.stream) {
      log?.response(req, res, attempt, started, undefined);
      return { data: res, response: res, text: undefined, redactor }; // a stream: the caller reads it
    }
    let read: { text: string } | undefined;
    if (res.ok) {
      // The common case: read (capped) and parse the body.
      try {
        read = await readText(res, this.#maxResponseBytes, false);
      } catch (err) {
        throw await failure(err, request, why, 'body', redactor);
      }
      if (read) {
        const text = read.text;
        log?.response(req, res, attempt, started, text);
        try {
          const data: unknown = JSON.parse(text);
          if (data !== null && req.expect?.(data) === undefined) return { data, response: res, text, redactor };
        } catch {
          /* not JSON: failure.ts says so */
        }
      }
    }
    // An unusable success body, an error status or a redirect: `failure.ts` reads (an error body) and classifies it.
    const f = await loadFailures();
    if ('cause' in f) {
      if (!res.ok) {
        void res.body?.cancel().catch(() => undefined);
        log?.response(req, res, attempt, started, undefined);
      }
      throw unexplained(res, request, redactor, f.cause);
    }
    throw await f.failedAnswer(res, request, redactor, {
      read,
      limit: this.#maxResponseBytes,
      expect: req.expect,
      signal,
      bodyError: (err) => failure(err, request, why, 'body', redactor),
      logged: (text) => log?.response(req, res, attempt, started, text),
    });
  }
}

/**
 * Classify a thrown fetch/body error: abort by the user, timeout, or connection failure (see
 * `connectionError` of `failure.ts`, loaded on demand; should it fail to load, a `ConnectionError`
 * whose message says only that no response came, with `notSent` false). The error (and `err` in
 * its cause chain) is redacted with `redactor`, the transport's secrets.
 */
export async function failure(
  err: unknown,
  request: { method: string; path: string },
  why: AttemptContext,
  phase: 'request' | 'body',
  redactor?: Redactor,
): Promise<Error> {
  if (err instanceof APIError || err instanceof AbortError) return err;
  const what = `${request.method} ${request.path}`;
  // (an AbortError carries no request: SDKError's constructor reads only cause and redactor)
  const init = { request, cause: err, redactor };
  if (why.timedOut()) return new TimeoutError(`${what} timed out`, init);
  if (why.userSignal?.aborted) return new AbortError(`${what} was aborted`, init);
  const f = await loadFailures();
  return 'cause' in f
    ? new ConnectionError(`${what} failed without a response`, { ...init, notSent: false })
    : f.connectionError(err, phase, init, isBrowser());
}
