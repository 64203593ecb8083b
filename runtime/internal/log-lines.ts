/**
 * The lines a transport logs and their redaction, loaded on demand (see `log.ts`): only a
 * transport whose `logLevel` is not `off` loads this module.
 *
 * Redaction, whatever the level: the values of `authorization`, `proxy-authorization`, `cookie`,
 * `set-cookie`, `x-api-key` and `api-key` headers are replaced by `***` by header name (as
 * openai-node does), and the transport's key, its secret header values and a call's own ones are
 * replaced by `[REDACTED]` wherever they appear in a logged string (a server may echo them). Long
 * strings in bodies (a `b64_json` image) are cut to 1,000 characters.
 */
// Types only: a value import of a module the transport also loads would make a bundler split that
// module into a chunk shared with this one, and the page's first load would grow.
import type { APIError } from '../errors.ts';
import type { RetryContext } from '../hooks.ts';
import type { Logger, LogLevel } from '../log.ts';

type Level = Exclude<LogLevel, 'off'>;
/** What a line says about a request. */
interface RequestLike {
  method: string;
  path: string;
  stream?: boolean | undefined;
}

const LEVELS: Record<Level, number> = { error: 1, warn: 2, info: 3, debug: 4 };

/** Header names whose values never appear in a log line (compared in lower case). */
export const REDACTED_HEADER_NAMES: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'api-key',
]);

/** `text` cut to `max` characters, saying how much was cut (as `truncate` of `errors.ts`). */
const cut = (text: string, max: number): string =>
  text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters]`;
/** Milliseconds since `started` (as `elapsed` of `hooks.ts`). */
const since = (started: number): number => Math.round((performance.now() - started) * 10) / 10;
/** The error's fields an `APIError` has (read by shape; see the imports). */
const apiFields = (err: unknown): Partial<Pick<APIError, 'status' | 'requestId'>> =>
  err !== null && typeof err === 'object' ? err : {};

const PREFIX = 'oxen-inference-sdk:';
const MAX_LOGGED_STRING = 1_000;
const MAX_LOGGED_DEPTH = 8;

/** `503 InternalServerError`, `ConnectionError`: what an error was, for a log line. */
export function describe(err: unknown): string {
  const { status } = apiFields(err);
  const name = err instanceof Error ? err.name : typeof err;
  return typeof status === 'number' ? `${status} ${name}` : name;
}

/** The values of the secret headers (by name) of `headers`, with and without their scheme (`Bearer `). */
function secretValuesOf(headers: Headers | Record<string, string>): string[] {
  const out: string[] = [];
  const add = (value: string, name: string) => {
    if (REDACTED_HEADER_NAMES.has(name.toLowerCase()))
      out.push(value, value.replace(/^\s*(Bearer|Basic|Token)\s+/i, ''));
  };
  if (headers instanceof Headers) headers.forEach(add);
  else for (const [k, v] of Object.entries(headers)) add(String(v), k);
  return out;
}

/**
 * A transport's log: the logger, the level, and what to redact. Lines of a level that is off are
 * never built (every method checks the level first).
 */
export class CallLog {
  private readonly threshold: number;
  /** Replaces the secrets; a closure, so that inspecting the log never shows them. */
  private readonly redactor: (text: string) => string;
  /** This log with more secrets (a closure over the transport's, for the same reason). */
  private readonly derive: (extra: readonly string[]) => CallLog;

  constructor(
    readonly level: Level,
    private readonly logger: Logger,
    secrets: ReadonlyArray<string | undefined>,
  ) {
    this.threshold = LEVELS[level];
    const own = [...secrets];
    this.derive = (extra) => new CallLog(level, logger, [...own, ...extra]);
    const forms = new Set<string>();
    for (const s of secrets) {
      if (typeof s !== 'string' || s.length < 4) continue;
      forms.add(s);
      forms.add(JSON.stringify(s).slice(1, -1));
      try {
        forms.add(encodeURIComponent(s));
      } catch {
        /* a lone surrogate: no URI form */
      }
    }
    // Longest first, so that a secret containing another is replaced whole.
    const sorted = [...forms].sort((a, b) => b.length - a.length);
    this.redactor = (text) => {
      let out = text;
      for (const s of sorted) if (out.includes(s)) out = out.split(s).join('[REDACTED]');
      return out;
    };
  }

  /**
   * This log, also redacting the secret header values of `headers` (a call's own `authorization` or
   * `cookie`, given per call or set by a hook). Itself when there are none.
   */
  withSecretsOf(headers: Headers | Record<string, string>): CallLog {
    const extra = secretValuesOf(headers);
    return extra.length === 0 ? this : this.derive(extra);
  }

  /** Whether lines of `level` are written. */
  enabled(level: Level): boolean {
    return LEVELS[level] <= this.threshold;
  }

  /** Write one line (the message and every string in `details` redacted). A failing logger is ignored. */
  write(level: Level, message: string, details?: Record<string, unknown>): void {
    if (!this.enabled(level)) return;
    const line = `${PREFIX} ${this.redactor(message)}`;
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
        headers: this.headers(headers),
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
   * `call` writes its line; `req.headers` (the call's own) are redacted like the transport's
   * secrets. `idOf` reads a response's request id. Resolves or rejects as `send` does.
   */
  async around<R extends { response: Response }>(
    req: RequestLike & { headers?: Record<string, string> | undefined },
    idOf: (headers: Headers) => string | undefined,
    send: (retries: unknown[]) => Promise<R>,
  ): Promise<R> {
    const log = req.headers ? this.withSecretsOf(req.headers) : this;
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

  /** Headers as a plain object, secret headers (by name) shown as `***`, other values redacted. */
  headers(headers: Headers | Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    const add = (value: string, name: string) => {
      const k = name.toLowerCase();
      out[k] = REDACTED_HEADER_NAMES.has(k) ? '***' : this.redactor(cut(value, MAX_LOGGED_STRING));
    };
    if (headers instanceof Headers) headers.forEach(add);
    else for (const [k, v] of Object.entries(headers)) add(String(v), k);
    return out;
  }

  /** A copy of a JSON-like value for a log line: strings redacted and cut, depth bounded. */
  private value(v: unknown, depth: number): unknown {
    if (typeof v === 'string') return this.redactor(cut(v, MAX_LOGGED_STRING));
    if (v === null || typeof v !== 'object') return v;
    if (depth >= MAX_LOGGED_DEPTH) return '[…]';
    if (Array.isArray(v)) return v.map((x) => this.value(x, depth + 1));
    if (v instanceof Headers) return this.headers(v);
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[this.redactor(k)] = this.value(x, depth + 1);
    return out;
  }
}
