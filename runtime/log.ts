/**
 * Logging options: the levels, the logger a transport writes to, and how a transport gets its log.
 * What the lines say and how they are redacted is in `log-lines.ts`, loaded with `import()` only
 * by a transport whose level is not `off`: with logging off (the default) a transport holds no log,
 * the hot path tests one `undefined` and builds no string, and a bundle loads none of it at start.
 *
 * Levels, each including the ones before it:
 * - `error`: a call that failed (method, path, duration, retries, request id, the error);
 * - `warn`: each retry (after what, attempt number), and a retry vetoed by a hook;
 * - `info`: each call that succeeded (method, path, status, duration in ms, retries and why);
 * - `debug`: each attempt's request and response, headers and bodies, redacted: a request header's
 *   value is shown only for the names of `PUBLIC_HEADERS` (`accept`, `content-type`, ...), every
 *   other one as `***`.
 */
import { SDKError } from './errors.ts';
import { env } from './internal/env.ts';
import { loadRedaction } from './internal/lazy.ts';
import type { CallLog } from './internal/log-lines.ts';

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

const LEVEL_NAMES: readonly LogLevel[] = ['off', 'error', 'warn', 'info', 'debug'];

/**
 * The level of a transport: `logLevel`, else env `OXEN_LOG`, else `DEFAULT_LOG_LEVEL`.
 * @throws SDKError for a level that is not one of `off`, `error`, `warn`, `info`, `debug`.
 */
export function resolveLogLevel(level: LogLevel | undefined): LogLevel {
  const fromEnv = env('OXEN_LOG');
  const value = level ?? (fromEnv === undefined ? DEFAULT_LOG_LEVEL : fromEnv.trim().toLowerCase());
  if (!LEVEL_NAMES.includes(value as LogLevel)) {
    throw new SDKError(
      `${level === undefined ? 'OXEN_LOG' : 'logLevel'} must be one of ${LEVEL_NAMES.join(', ')}; got ${JSON.stringify(String(value).slice(0, 40))}`,
    );
  }
  return value as LogLevel;
}

/**
 * The log of a transport, or undefined when its level is `off`. The log's module (and `redact.ts`)
 * is loaded now (separate chunks in a bundle); each logged call awaits it, so no line is lost or reordered. Should
 * that module fail to load (a chunk a page could not fetch), the transport logs nothing and its
 * calls go on.
 * Each call's lines are redacted of the call's secrets (`CallLog.redacting`).
 * @throws SDKError for a bad level (see `resolveLogLevel`) or a `logger` without the four methods.
 */
export function loadCallLog(
  level: LogLevel | undefined,
  logger: Logger | undefined,
): Promise<CallLog | undefined> | undefined {
  const resolved = resolveLogLevel(level);
  if (resolved === 'off') return undefined;
  const target = logger ?? (globalThis as { console?: Logger }).console;
  if (!target || !(['debug', 'info', 'warn', 'error'] as const).every((m) => typeof target[m] === 'function')) {
    throw new SDKError('logger must be an object with debug, info, warn and error methods (like console)');
  }
  return Promise.all([import('./internal/log-lines.ts'), loadRedaction()]).then(
    ([{ CallLog }, { PUBLIC_HEADERS }]) => new CallLog(resolved, target, PUBLIC_HEADERS),
    () => undefined,
  );
}
