/**
 * Logging of calls: levels, the logger a transport writes to, and the redaction of what it writes.
 *
 * A transport with `logLevel: 'off'` (the default) holds no `CallLog` at all: the hot path tests one
 * `undefined` and builds no string. Levels, each including the ones before it:
 * - `error`: a call that failed (method, path, status or error, duration, attempts, request id);
 * - `warn`: each retry (after what, attempt number);
 * - `info`: each call that succeeded (method, path, status, duration in ms, retries and why);
 * - `debug`: each attempt's request and response, headers and bodies, redacted.
 *
 * Redaction, whatever the level: the values of `authorization`, `proxy-authorization`, `cookie`,
 * `set-cookie`, `x-api-key` and `api-key` headers are replaced by `***` by header name (as
 * openai-node does), and the transport's own key and secret header values are replaced by
 * `[REDACTED]` wherever they appear in a logged string. Long strings in bodies (a `b64_json`
 * image) are cut to 1,000 characters.
 */
import { SDKError, truncate } from './errors.ts';
import { env } from './env.ts';

/** How much a transport logs: `off` (nothing), `error`, `warn`, `info`, `debug` (each includes the ones before it). */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/**
 * Where log lines go: any object with console's `debug`, `info`, `warn` and `error` methods
 * (`console`, pino, winston, ...). Each line is called as `logger[level](message, details?)`: a
 * one-line message starting with `oxen-inference-sdk:`, and at `debug` a plain object of details.
 */
export interface Logger {
  debug(message: string, ...rest: unknown[]): void;
  info(message: string, ...rest: unknown[]): void;
  warn(message: string, ...rest: unknown[]): void;
  error(message: string, ...rest: unknown[]): void;
}

/** The default `logLevel`: nothing is logged unless asked for (errors reach the caller anyway). */
export const DEFAULT_LOG_LEVEL: LogLevel = 'off';

const LEVELS: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };

/** Header names whose values never appear in a log line (compared in lower case). */
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
const MAX_LOGGED_DEPTH = 8;

/** Milliseconds since `started` (a `performance.now()`), rounded to 0.1 ms. */
export function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}

/**
 * The level of a transport: `logLevel`, else env `OXEN_LOG`, else `DEFAULT_LOG_LEVEL`.
 * @throws SDKError for a level that is not one of `off`, `error`, `warn`, `info`, `debug`.
 */
export function resolveLogLevel(level: LogLevel | undefined): LogLevel {
  const fromEnv = env('OXEN_LOG');
  const value = level ?? (fromEnv === undefined ? DEFAULT_LOG_LEVEL : fromEnv.trim().toLowerCase());
  if (!Object.prototype.hasOwnProperty.call(LEVELS, value)) {
    throw new SDKError(
      `${level === undefined ? 'OXEN_LOG' : 'logLevel'} must be one of off, error, warn, info, debug; got ${JSON.stringify(String(value).slice(0, 40))}`,
    );
  }
  return value as LogLevel;
}

/**
 * A transport's log: the logger, the level, and what to redact. Exists only when the level is not
 * `off`; its methods are called only after checking `enabled(level)`, so that no line is built
 * for a level that is off.
 */
export class CallLog {
  private readonly threshold: number;
  /** Replaces the secrets; a closure, so that inspecting the log never shows them. */
  private readonly redactor: (text: string) => string;
  /** This log with more secrets (a closure over the transport's, for the same reason). */
  private readonly derive: (extra: readonly string[]) => CallLog;

  constructor(
    readonly level: Exclude<LogLevel, 'off'>,
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
    const extra: string[] = [];
    const add = (value: string, name: string) => {
      if (!REDACTED_HEADER_NAMES.has(name.toLowerCase())) return;
      extra.push(value, value.replace(/^\s*(Bearer|Basic|Token)\s+/i, ''));
    };
    if (headers instanceof Headers) headers.forEach(add);
    else for (const [k, v] of Object.entries(headers)) add(String(v), k);
    return extra.length === 0 ? this : this.derive(extra);
  }

  /** Whether lines of `level` are written. */
  enabled(level: Exclude<LogLevel, 'off'>): boolean {
    return LEVELS[level] <= this.threshold;
  }

  /** Write one line (the message and every string in `details` redacted). */
  write(level: Exclude<LogLevel, 'off'>, message: string, details?: Record<string, unknown>): void {
    if (!this.enabled(level)) return;
    const line = `${PREFIX} ${this.redact(message)}`;
    try {
      if (details === undefined) this.logger[level](line);
      else this.logger[level](line, this.value(details, 0));
    } catch {
      /* a failing logger must not fail the call */
    }
  }

  /** `text` with the transport's secrets replaced by `[REDACTED]`. */
  redact(text: string): string {
    return this.redactor(text);
  }

  /** Headers as a plain object, secret headers (by name) shown as `***`, other values redacted. */
  headers(headers: Headers | Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    const add = (value: string, name: string) => {
      const k = name.toLowerCase();
      out[k] = REDACTED_HEADER_NAMES.has(k) ? '***' : this.redact(truncate(value, MAX_LOGGED_STRING));
    };
    if (headers instanceof Headers) headers.forEach(add);
    else for (const [k, v] of Object.entries(headers)) add(String(v), k);
    return out;
  }

  /** A copy of a JSON-like value for a log line: strings redacted and cut, depth bounded. */
  private value(v: unknown, depth: number): unknown {
    if (typeof v === 'string') return this.redact(truncate(v, MAX_LOGGED_STRING));
    if (v === null || typeof v !== 'object') return v;
    if (depth >= MAX_LOGGED_DEPTH) return '[…]';
    if (Array.isArray(v)) return v.map((x) => this.value(x, depth + 1));
    if (v instanceof Headers) return this.headers(v);
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[this.redact(k)] = this.value(x, depth + 1);
    return out;
  }
}

/**
 * The log of a transport, or undefined when its level is `off` (then nothing is built per call).
 * @param secrets the key and the secret header values of the transport, replaced in every line.
 * @throws SDKError for a bad level (see `resolveLogLevel`) or a `logger` without the four methods.
 */
export function createCallLog(
  level: LogLevel | undefined,
  logger: Logger | undefined,
  secrets: ReadonlyArray<string | undefined>,
): CallLog | undefined {
  const resolved = resolveLogLevel(level);
  if (resolved === 'off') return undefined;
  const target = logger ?? (globalThis as { console?: Logger }).console;
  if (!target || !(['debug', 'info', 'warn', 'error'] as const).every((m) => typeof target[m] === 'function')) {
    throw new SDKError('logger must be an object with debug, info, warn and error methods (like console)');
  }
  return new CallLog(resolved, target, secrets);
}
