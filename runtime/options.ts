/**
 * The options of a client or transport (`ClientOptions`), their defaults, and how they are checked
 * when a client is constructed: the base URL (https, except to a loopback host), the numbers, and
 * the API key in a browser (refused unless `dangerouslyAllowBrowser`).
 */
import { DEFAULT_MAX_RESPONSE_BYTES, SDKError } from './errors.ts';
import { env, isBrowser } from './internal/env.ts';
import type { HookOptions } from './hooks.ts';
import type { Logger, LogLevel } from './log.ts';
import type { ValidatorSource } from './validation.ts';

/**
 * Options of `new Client(...)` and `createTransport(...)`. Times are in milliseconds, sizes in
 * bytes. The hooks `onRequest`, `onResponse` and `beforeRetry` are described in `HookOptions`.
 */
export interface ClientOptions extends HookOptions {
  /**
   * Bearer API key. Default: env `OXEN_API_KEY` (there is no environment in a browser). Never
   * logged, never kept on an inspectable property, and redacted from every error. In a browser it
   * is refused unless `dangerouslyAllowBrowser` is true: put it on a server, behind
   * `createProxyHandler`, and point `baseUrl` at that proxy instead. Required for the hosted
   * service (the default `baseUrl`, `https://hub.oxen.ai`) unless `headers` has an `Authorization`:
   * without one, construction throws `SDKError`. Another `baseUrl` (a proxy that adds the key, a
   * local server) works without one.
   */
  apiKey?: string | undefined;
  /**
   * Service base URL. Default: env `OXEN_BASE_URL`, then `https://hub.oxen.ai` (the spec's server).
   * Must be `https:`, except `http:` to a loopback host (`localhost`, `127.0.0.0/8`, `[::1]`); no
   * credentials, query or fragment. In a browser a relative URL (`/api/oxen`) is resolved against
   * the page. @throws SDKError at construction otherwise.
   */
  baseUrl?: string | undefined;
  /** The `fetch` to use. Default: the global `fetch`. */
  fetch?: typeof fetch | undefined;
  /**
   * Per-call timeout in milliseconds for every call of this client. Default: per endpoint
   * (`DEFAULT_TIMEOUTS_MS`): 1_200_000 (20 minutes) for `videos.generate`, which blocks up to 15
   * minutes; 300_000 (5 minutes) for `images.generate` / `images.edit` (typically 5 to 30 s);
   * 600_000 (10 minutes) for chat and every other call. A call's own `timeoutMs` wins over both.
   */
  timeoutMs?: number | undefined;
  /**
   * How many times a retryable call is retried (default 2, so at most 3 attempts). GET and DELETE
   * retry on connection errors, 429 and 5xx; a generating POST only on 429 or a refused connection.
   */
  maxRetries?: number | undefined;
  /** Base delay of the jittered exponential retry backoff, in milliseconds (default 500). */
  retryBaseDelayMs?: number | undefined;
  /**
   * Upper bound of one backoff delay, in milliseconds (default 10_000). A longer `Retry-After` is
   * still honoured when it fits in the call's remaining time; one longer than that (or than about
   * 24.8 days, the longest timer, for a call without a timeout) ends the call at once with the
   * `RateLimitError` (429) or `InternalServerError` (503), whose `Retry-After` says when to come back.
   */
  retryMaxDelayMs?: number | undefined;
  /**
   * An event stream (`events.stream`, and `queue.run`'s shared stream, which then reconnects) is
   * presumed dead when nothing, not even the server's keep-alive comment (sent every 15 s when
   * idle), arrived for this many milliseconds while it was being read. Default 45_000; 0 disables.
   */
  eventStreamIdleTimeoutMs?: number | undefined;
  /**
   * The largest response body the SDK reads, in bytes (and the largest single server-sent event):
   * beyond it the SDK stops reading and throws `ResponseTooLargeError`. Default 104_857_600
   * (100 MiB): room for a `b64_json` video of about 75 MB; ask for `response_format: 'url'` for
   * larger media.
   */
  maxResponseBytes?: number | undefined;
  /**
   * Extra headers sent with every request. Every value (and a value without its auth scheme, such
   * as `Bearer `) is a secret of this client, redacted from its errors and log lines like the key,
   * except the values of the standard headers of `PUBLIC_HEADERS` (`accept`, `content-type`,
   * `user-agent`, ...); a value under 4 characters is never printed but not searched for in text.
   */
  headers?: Record<string, string> | undefined;
  /**
   * How much to log: `'off'` (default), `'error'` (failed calls), `'warn'` (and each retry),
   * `'info'` (and each call: method, path, status, duration in ms, retries and why), `'debug'` (and
   * each attempt's headers and bodies). Default: env `OXEN_LOG`, else `'off'`. The key and the
   * values of the client's, the call's and the hooks' headers (but the standard ones of
   * `PUBLIC_HEADERS`) never appear in a line, whatever the level.
   * @throws SDKError at construction for another value.
   */
  logLevel?: LogLevel | undefined;
  /** Where log lines go: any object with console's `debug`, `info`, `warn`, `error` (default the global `console`). */
  logger?: Logger | undefined;
  /**
   * Where `queue.enqueue` / `queue.run` find a model's compiled validator (the generated `Client`
   * supplies the snapshot's, loaded lazily per model).
   */
  validators?: ValidatorSource | undefined;
  /**
   * Allow an `apiKey` in a browser (default false). A key in a page is visible to every visitor of
   * that page: use it only for local tools, or when every visitor may hold the key.
   */
  dangerouslyAllowBrowser?: boolean | undefined;
}

/** The service's server as `specs/openapi.yaml` names it. */
export const DEFAULT_BASE_URL = 'https://hub.oxen.ai';
/** Default per-call timeout of the calls without their own (`DEFAULT_TIMEOUTS_MS`): 10 minutes, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 600_000;

/** The endpoint groups whose default timeout is their own: chat completions, the synchronous image endpoints, synchronous video generation. */
export type TimedEndpoint = 'chat' | 'images' | 'videos';

/**
 * Default timeouts per endpoint group, in milliseconds, each longer than the longest time the
 * description gives for it: `videos` 1_200_000 (20 minutes; `POST /api/ai/videos/generate` blocks
 * 1 to 15 minutes), `images` 300_000 (5 minutes; typically 5 to 30 seconds), `chat` 600_000 (10
 * minutes; the description gives no time; a stream's timeout covers the whole stream). Used unless
 * the client's `timeoutMs` or the call's `timeoutMs` is set.
 */
export const DEFAULT_TIMEOUTS_MS: Readonly<Record<TimedEndpoint, number>> = Object.freeze({
  chat: 600_000,
  images: 300_000,
  videos: 1_200_000,
});
/** Default number of retries of a retryable call. */
export const DEFAULT_MAX_RETRIES = 2;
/** Default base delay of the retry backoff, in milliseconds. */
export const DEFAULT_RETRY_BASE_DELAY_MS = 500;
/** Default upper bound of one retry delay, in milliseconds. */
export const DEFAULT_RETRY_MAX_DELAY_MS = 10_000;
/** Default silence after which an event stream is presumed dead: three keep-alive intervals (45 s). */
export const DEFAULT_EVENT_STREAM_IDLE_TIMEOUT_MS = 45_000;
// The default largest response body read (100 MiB) is defined beside the errors it bounds, so that the
// chat accumulator (loaded on demand) takes it without loading this module.
export { DEFAULT_MAX_RESPONSE_BYTES };

/**
 * True for `localhost`, `127.0.0.0/8` and `::1`. Not for a subdomain of `localhost`
 * (`evil.localhost`): a resolver may send that name through DNS to any address.
 */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost') return true;
  if (h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  const v4 = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  return v4 !== null && v4.slice(1).every((n) => Number(n) <= 255);
}

/**
 * Check and normalise a base URL (no trailing slash).
 * @throws SDKError when it is not a URL, not `https:` (or `http:` to a loopback host), or carries
 * credentials, a query or a fragment.
 */
export function checkBaseUrl(raw: string): string {
  let url: URL;
  try {
    const page = isBrowser() ? (globalThis as { location?: { href?: string } }).location?.href : undefined;
    url = page ? new URL(raw, page) : new URL(raw);
  } catch {
    throw new SDKError(`baseUrl ${JSON.stringify(raw.slice(0, 200))} is not a valid absolute URL`);
  }
  const shown = `${url.protocol}//${url.host}${url.pathname}`;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new SDKError(`baseUrl ${JSON.stringify(shown)} must use https: (got ${url.protocol})`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new SDKError(
      `baseUrl ${JSON.stringify(shown)} must use https: plain http: would send the API key and your data unencrypted; http: is allowed only to a loopback host (localhost, 127.0.0.1, [::1])`,
    );
  }
  if (url.username !== '' || url.password !== '')
    throw new SDKError(`baseUrl must not contain credentials (user:password@); pass apiKey instead`);
  if (url.search !== '' || url.hash !== '')
    throw new SDKError(`baseUrl ${JSON.stringify(shown)} must not have a query or a fragment`);
  return url.href.replace(/\/+$/, '');
}

/** The number options: name, default, and whether `Infinity` is allowed (no limit). */
const NUMBER_OPTIONS = [
  ['timeoutMs', DEFAULT_TIMEOUT_MS, true],
  ['maxRetries', DEFAULT_MAX_RETRIES, true],
  ['retryBaseDelayMs', DEFAULT_RETRY_BASE_DELAY_MS, false],
  ['retryMaxDelayMs', DEFAULT_RETRY_MAX_DELAY_MS, false],
  ['eventStreamIdleTimeoutMs', DEFAULT_EVENT_STREAM_IDLE_TIMEOUT_MS, true],
  ['maxResponseBytes', DEFAULT_MAX_RESPONSE_BYTES, true],
] as const;
type NumberOption = (typeof NUMBER_OPTIONS)[number][0];

/** The number options, each given (checked: a non-negative number) or its default. @throws SDKError naming the option. */
function numbers(options: ClientOptions): Record<NumberOption, number> {
  const out = {} as Record<NumberOption, number>;
  for (const [name, fallback, infinite] of NUMBER_OPTIONS) {
    const value = options[name];
    // (NaN fails `>= 0`)
    if (value !== undefined && !(typeof value === 'number' && value >= 0 && (infinite || value < Infinity))) {
      throw new SDKError(
        `${name} must be a non-negative number${infinite ? ' (or Infinity)' : ''}, got ${String(value)}`,
      );
    }
    out[name] = value ?? fallback;
  }
  return out;
}

/** The settings of a transport, resolved from its `ClientOptions`. Times in milliseconds, sizes in bytes. */
export interface TransportSettings {
  /** The service base URL, without a trailing slash (checked: https, or http to a loopback host). */
  baseUrl: string;
  /** Default per-call timeout (of the calls without their own in `endpointTimeoutsMs`). */
  timeoutMs: number;
  /**
   * Default timeouts of the endpoint groups that have their own (`DEFAULT_TIMEOUTS_MS`), or
   * undefined: `timeoutMs` for every call (the client's `timeoutMs` was set).
   */
  endpointTimeoutsMs?: Readonly<Record<TimedEndpoint, number>> | undefined;
  /** How many times a retryable call is retried. */
  maxRetries: number;
  /** Base delay of the jittered exponential retry backoff. */
  retryBaseDelayMs: number;
  /** Upper bound of one backoff delay (a longer `Retry-After` is still honoured). */
  retryMaxDelayMs: number;
  /** An event stream silent for this long (no event, no keep-alive) is presumed dead; 0 disables. */
  eventStreamIdleTimeoutMs: number;
  /** The largest response body (and the largest server-sent event) read. */
  maxResponseBytes: number;
}

/** The options as a transport uses them: defaults applied, base URL and numbers checked; the settings plus the key, `fetch` and headers. */
export interface ResolvedOptions extends TransportSettings {
  apiKey: string | undefined;
  fetch: typeof fetch;
  headers: Record<string, string>;
}

/**
 * Apply the defaults (environment variables where there is an environment) and check the options.
 * @throws SDKError for a bad `baseUrl` or number, for a missing `fetch`, for an `apiKey` in a
 * browser without `dangerouslyAllowBrowser: true`, and for no key (no `apiKey`, no `OXEN_API_KEY`,
 * no `authorization` header) with the hosted service's base URL (`DEFAULT_BASE_URL`).
 */
export function resolveOptions(options: ClientOptions): ResolvedOptions {
  const apiKey = options.apiKey ?? env('OXEN_API_KEY');
  if (apiKey !== undefined && typeof apiKey !== 'string') throw new SDKError('apiKey must be a string');
  if (apiKey !== undefined && apiKey !== '' && isBrowser() && options.dangerouslyAllowBrowser !== true) {
    throw new SDKError(
      'An apiKey was given in a browser, where every visitor of the page can read it. Keep the key on a server: serve createProxyHandler() there and point baseUrl at it with no apiKey. ' +
        'If every visitor may hold this key (e.g. a local tool), pass dangerouslyAllowBrowser: true.',
    );
  }
  const baseUrl = checkBaseUrl(options.baseUrl ?? env('OXEN_BASE_URL') ?? DEFAULT_BASE_URL);
  const f = options.fetch ?? (typeof globalThis.fetch === 'function' ? globalThis.fetch.bind(globalThis) : undefined);
  if (typeof f !== 'function') throw new SDKError('No fetch: this runtime has no global fetch; pass options.fetch');
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(options.headers ?? {})) headers[k.toLowerCase()] = String(v);
  // Every endpoint of the hosted service needs a key: fail here, not with a 401 after a prompt was sent.
  // Another base URL (a proxy that adds the key, a local server) may need none.
  // (`baseUrl` is checked: the hosted service is `DEFAULT_BASE_URL` or a path under it.)
  if (!apiKey && !headers['authorization'] && `${baseUrl}/`.startsWith(`${DEFAULT_BASE_URL}/`))
    throw new SDKError(`No API key for ${DEFAULT_BASE_URL}: set OXEN_API_KEY or pass apiKey`);
  return {
    apiKey: apiKey === '' ? undefined : apiKey,
    baseUrl,
    fetch: f,
    headers,
    ...numbers(options),
    endpointTimeoutsMs: options.timeoutMs === undefined ? DEFAULT_TIMEOUTS_MS : undefined,
  };
}
