/**
 * The lines a transport logs and their redaction, loaded on demand (see `log.ts`): only a
 * transport whose `logLevel` is not `off` loads this module.
 *
 * Redaction, whatever the level: a request header's value is shown only for the names of
 * `PUBLIC_HEADERS` (`accept`, `content-type`, `user-agent`, ...), every other one (the client's,
 * the call's, a hook's, `authorization`) as `***`, whatever its length; a response header's value
 * is shown but for `set-cookie` and the credential names of `REDACTED_HEADER_NAMES` (as openai-node
 * does); and the call's secrets (the key, the client's, the call's and the hooks' header values) are
 * replaced by `[REDACTED]` wherever they appear in a logged string, in any form (`Redactor`), since a
 * server may echo them. Long strings in bodies (a `b64_json` image) are cut to 1,000 characters,
 * after redaction (a secret across the cut is replaced whole).
 */
// Types only: a value import of a module the transport also loads (or loads on demand, as
// `redact.ts`) would make a bundler split that module into a chunk shared with this one, and the
// page's first load would grow. `PUBLIC_HEADERS` is handed in by `log.ts`.
import type { APIError } from '../errors.ts';
import type { RetryContext } from '../hooks.ts';
import type { Logger, LogLevel } from '../log.ts';
import type { Redactor } from '../redact.ts';

type Level = Exclude<LogLevel, 'off'>;
/** What a line says about a request. */
interface RequestLike {
  method: string;
  path: string;
  stream?: boolean | undefined;
}

const LEVELS: Record<Level, number> = { error: 1, warn: 2, info: 3, debug: 4 };

/** Response header names whose values never appear in a log line (compared in lower case). */
export const REDACTED_HEADER_NAMES: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'api-key',
]);

const PREFIX = 'oxen-inference-sdk:';
const MAX_LOGGED_STRING = 1_000;
/**
 * `text` redacted with `r` and cut to `MAX_LOGGED_STRING` characters, saying how much was cut (as
 * `truncate` of `errors.ts`). Only the part kept is scanned, with `Redactor.cutText` (a secret
 * across the cut is replaced whole), so a huge string costs no more than a short one.
 */
const shown = (r: Redactor | undefined, text: string): string =>
  text.length <= MAX_LOGGED_STRING
    ? (r?.text(text) ?? text)
    : `${r ? r.cutText(text.slice(0, MAX_LOGGED_STRING)) : text.slice(0, MAX_LOGGED_STRING)}… [${text.length - MAX_LOGGED_STRING} more characters]`;
/** Milliseconds since `started` (as `elapsed` of `hooks.ts`). */
const since = (started: number): number => Math.round((performance.now() - started) * 10) / 10;
/** The error's fields an `APIError` has (read by shape; see the imports). */
const apiFields = (err: unknown): Partial<Pick<APIError, 'status' | 'requestId'>> =>
  err !== null && typeof err === 'object' ? err : {};

const MAX_LOGGED_DEPTH = 8;

/** `503 InternalServerError`, `ConnectionError`: what an error was, for a log line. */
export function describe(err: unknown): string {
  const { status } = apiFields(err);
  const name = err instanceof Error ? err.name : typeof err;
  return typeof status === 'number' ? `${status} ${name}` : name;
}

/**
 * A transport's log: the logger, the level, and what to redact. Lines of a level that is off are
 * never built (every method checks the level first).
 */
export class CallLog {
  private readonly threshold: number;

  /**
   * @param publicHeaders the request header names whose values are shown (`PUBLIC_HEADERS` of `redact.ts`).
   * @param redactor the secrets replaced in every line (a `Redactor` shows none of them when inspected); none when undefined.
   */
  constructor(
    readonly level: Level,
    private readonly logger: Logger,
    private readonly publicHeaders: ReadonlySet<string>,
    private readonly redactor?: Redactor,
  ) {
    this.threshold = LEVELS[level];
  }

  /** This log redacting with `redactor` (a call's: the transport's secrets and the call's own); itself when it already does. */
  redacting(redactor: Redactor | undefined): CallLog {
    return redactor === this.redactor ? this : new CallLog(this.level, this.logger, this.publicHeaders, redactor);
  }

  /** Whether lines of `level` are written. */
  enabled(level: Level): boolean {
    return LEVELS[level] <= this.threshold;
  }

  /** Write one line (the message and every string in `details` redacted). A failing logger is ignored. */
  write(level: Level, message: string, details?: Record<string, unknown>): void {
    if (!this.enabled(level)) return;
    const line = `${PREFIX} ${this.redactor?.text(message) ?? message}`;
    try {
      if (details === undefined) this.logger[level](line);
      else this.logger[level](line, this.value(details, 0));
    } catch {
      /* a failing logger must not fail the call */
    }
  }

  /** `debug`: an attempt about to be sent. */
  request(
    req: RequestLike,
    url: string,
    attempt: number,
    headers: Headers | Record<string, string>,
    body: unknown,
  ): void {
    if (this.enabled('debug'))
      this.write('debug', `request ${req.method} ${url} (attempt ${attempt})`, {
        headers: this.headers(headers, this.publicHeaders),
        ...(body === undefined ? {} : { body }),
      });
  }

  /** `debug`: an attempt that got no response. */
  noResponse(req: RequestLike, attempt: number, started: number, error: Error): void {
    if (this.enabled('debug'))
      this.write(
        'debug',
        `no response to ${req.method} ${req.path} (attempt ${attempt}) after ${since(started)} ms: ${error.name}: ${error.message}`,
      );
  }

  /** `debug`: an attempt's response: status, headers, and the body (parsed when JSON; `text` undefined when not read). */
  response(req: RequestLike, res: Response, attempt: number, started: number, text: string | undefined): void {
    if (!this.enabled('debug')) return;
    let body: unknown = text === undefined ? '(not read: a stream or a redirect)' : text;
    if (text !== undefined) {
      try {
        body = JSON.parse(text);
      } catch {
        /* not JSON: the text, cut */
      }
    }
    this.write(
      'debug',
      `response ${res.status} to ${req.method} ${req.path} (attempt ${attempt}) in ${since(started)} ms`,
      { headers: this.headers(res.headers), body },
    );
  }

  /** `warn`: a retry about to be made, or vetoed by a `beforeRetry` hook. */
  retry(context: RetryContext, vetoed: boolean): void {
    const { request, error, attempt, retriesLeft } = context;
    if (vetoed)
      this.write(
        'warn',
        `${request.method} ${request.path}: a beforeRetry hook vetoed the retry after ${describe(error)} (attempt ${attempt})`,
      );
    else
      this.write(
        'warn',
        `retrying ${request.method} ${request.path} after ${describe(error)} (attempt ${attempt} failed; ${retriesLeft} ${retriesLeft === 1 ? 'retry' : 'retries'} left)`,
      );
  }

  /**
   * `info` for a call that succeeded with `status`, `error` for one that failed with `error`: method,
   * path, duration, retries and why (`retries`: the error each retry followed), request id.
   */
  call(
    req: RequestLike,
    started: number,
    retries: readonly unknown[],
    outcome: { status: number; requestId: string | undefined } | { error: unknown },
  ): void {
    const failed = 'error' in outcome;
    if (!this.enabled(failed ? 'error' : 'info')) return;
    const requestId = failed ? apiFields(outcome.error).requestId : outcome.requestId;
    const head = failed ? 'failed' : `${outcome.status}${req.stream ? ' (stream)' : ''}`;
    const why =
      retries.length === 0
        ? ''
        : `; ${retries.length} ${retries.length === 1 ? 'retry' : 'retries'} (after ${retries.map(describe).join(', ')})`;
    const id = requestId === undefined ? '' : `; request id ${requestId}`;
    const tail = failed
      ? `: ${describe(outcome.error)}: ${outcome.error instanceof Error ? outcome.error.message : String(outcome.error)}`
      : '';
    this.write(
      failed ? 'error' : 'info',
      `${req.method} ${req.path} ${head} in ${since(started)} ms${why}${id}${tail}`,
    );
  }

  /**
   * One call, logged: `send` makes it (collecting in `retries` the error each retry followed), then
   * `call` writes its line, redacted with `redactor` (the call's secrets: the transport's and the
   * call's own header values). `idOf` reads a response's request id. Resolves or rejects as `send` does.
   */
  async around<R extends { response: Response }>(
    req: RequestLike,
    redactor: Redactor | undefined,
    idOf: (headers: Headers) => string | undefined,
    send: (retries: unknown[]) => Promise<R>,
  ): Promise<R> {
    const log = this.redacting(redactor);
    const started = performance.now();
    const retries: unknown[] = [];
    try {
      const result = await send(retries);
      log.call(req, started, retries, { status: result.response.status, requestId: idOf(result.response.headers) });
      return result;
    } catch (error) {
      log.call(req, started, retries, { error });
      throw error;
    }
  }

  /**
   * Headers as a plain object, values redacted; shown as `***`: with `shownNames` (a request's
   * headers), every header not named there, else (a response's) those of `REDACTED_HEADER_NAMES`.
   */
  headers(headers: Headers | Record<string, string>, shownNames?: ReadonlySet<string>): Record<string, string> {
    const out: Record<string, string> = {};
    const add = (value: string, name: string) => {
      const k = name.toLowerCase();
      out[k] = (shownNames ? !shownNames.has(k) : REDACTED_HEADER_NAMES.has(k)) ? '***' : shown(this.redactor, value);
    };
    if (headers instanceof Headers) headers.forEach(add);
    else for (const [k, v] of Object.entries(headers)) add(String(v), k);
    return out;
  }

  /** A copy of a JSON-like value for a log line: strings redacted and cut, depth bounded. */
  private value(v: unknown, depth: number): unknown {
    if (typeof v === 'string') return shown(this.redactor, v);
    if (v === null || typeof v !== 'object') return v;
    if (depth >= MAX_LOGGED_DEPTH) return '[…]';
    if (Array.isArray(v)) return v.map((x) => this.value(x, depth + 1));
    if (v instanceof Headers) return this.headers(v);
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[this.redactor?.text(k) ?? k] = this.value(x, depth + 1);
    return out;
  }
}
