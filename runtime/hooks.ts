/**
 * Hooks on the requests of a transport, after ky's `beforeRequest` / `afterResponse` /
 * `beforeRetry` and fal's request middleware: `onRequest` sees (and may change) each attempt's
 * request, `onResponse` sees each response, `beforeRetry` sees each retry the SDK is about to make
 * and may veto it. Each option takes one function or an array; the functions run one after the
 * other, in the order given, each awaited, but never past the call's `timeoutMs` or its `signal`: a
 * hook still pending then is no longer waited for, and the call fails with `TimeoutError` /
 * `AbortError` as it would in flight. A hook that throws ends the call with its error (no further
 * hook, no retry).
 *
 * The SDK's retry policy is decided first and hooks cannot widen it: `beforeRetry` is asked only
 * about retries the SDK would make anyway, so a generating POST whose outcome is unknown (a 5xx, a
 * reset or a timeout after it was sent) is never resent, whatever a hook returns.
 *
 * The hooks are run by `internal/hook-run.ts`, loaded with `import()` by the first call of a transport
 * that has hooks: a page whose transport has none does not carry it.
 */

import { SDKError } from './errors.ts';

/** One attempt's request as `onRequest` sees it. */
export interface HookRequest {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** The path under the base URL (path parameters encoded, no query). */
  readonly path: string;
  /** The full URL, query included. */
  readonly url: string;
  /**
   * The request's headers (`accept`, `content-type`, the client's and the call's `headers`). A hook
   * may set, change or delete them. The key's `authorization` header is added after the hooks run,
   * so no hook sees the key; an `authorization` a hook sets is sent only by a transport without `apiKey`.
   */
  readonly headers: Headers;
  /** The JSON body (undefined when none). A hook may replace it; it is serialised after the hooks ran. */
  body: unknown;
  /** 1 for the first attempt, 2 for the first retry, and so on. */
  readonly attempt: number;
}

/** What `onResponse` sees: each response received, of any status, before the SDK reads its body. */
export interface HookResponse {
  /** The attempt's request, as sent. */
  readonly request: Readonly<HookRequest>;
  /**
   * The response. Its body belongs to the SDK (it reads it next, or a stream does): read `status`
   * and `headers`, not the body.
   */
  readonly response: Response;
  /** Milliseconds from sending the attempt to its response headers. */
  readonly durationMs: number;
  /** The response's request id (see `REQUEST_ID_HEADERS`), if it has one. */
  readonly requestId: string | undefined;
}

/** What `beforeRetry` sees: an attempt failed and the SDK is about to retry it. */
export interface RetryContext {
  readonly request: { readonly method: 'GET' | 'POST' | 'DELETE'; readonly path: string };
  /** Why the attempt failed (`InternalServerError`, `RateLimitError`, `ConnectionError`, ...). */
  readonly error: Error;
  /** The number of the attempt that failed (1 = the first). */
  readonly attempt: number;
  /** How many retries `maxRetries` still allows, this one included (2 before the first retry of the default policy). */
  readonly retriesLeft: number;
  /** The server's `Retry-After` in milliseconds (429, 503), which the SDK waits at least. */
  readonly retryAfterMs: number | undefined;
}

/** Called before each attempt is sent: observe or change `request.headers` / `request.body`. */
export type OnRequestHook = (request: HookRequest) => void | Promise<void>;
/** Called when each attempt's response headers arrive (any status): observe it. */
export type OnResponseHook = (context: HookResponse) => void | Promise<void>;
/**
 * Called before each retry the SDK would make: return `false` to veto it (the call then fails with
 * `context.error`), or throw to end the call with your error. Any other return lets it happen.
 */
export type BeforeRetryHook = (context: RetryContext) => boolean | void | Promise<boolean | void>;

/** The hook options of `ClientOptions` (each one function or an array, run in order). */
export interface HookOptions {
  /** Before each attempt (see `OnRequestHook`). */
  onRequest?: OnRequestHook | readonly OnRequestHook[] | undefined;
  /** On each response (see `OnResponseHook`). */
  onResponse?: OnResponseHook | readonly OnResponseHook[] | undefined;
  /** Before each retry; may veto it (see `BeforeRetryHook`). */
  beforeRetry?: BeforeRetryHook | readonly BeforeRetryHook[] | undefined;
}

/** A transport's hooks as lists (empty when none). */
export interface Hooks {
  readonly onRequest: readonly OnRequestHook[];
  readonly onResponse: readonly OnResponseHook[];
  readonly beforeRetry: readonly BeforeRetryHook[];
}

/** The hook options, in the order their lists are checked: every member of `Hooks` (`satisfies`: one missing or extra is a compile error). */
const HOOK_NAMES = Object.keys({ onRequest: 0, onResponse: 0, beforeRetry: 0 } satisfies Record<
  keyof Hooks,
  0
>) as Array<keyof Hooks>;

/**
 * The hooks of `options` as frozen lists, or undefined when there are none (then the transport
 * does no hook work per call).
 * @throws SDKError when a hook option is neither a function nor an array of functions.
 */
export function resolveHooks(options: HookOptions): Hooks | undefined {
  const hooks = {} as Record<keyof Hooks, readonly unknown[]>;
  let count = 0;
  for (const name of HOOK_NAMES) {
    const value: unknown = options[name];
    const fns: unknown[] = value === undefined ? [] : Array.isArray(value) ? [...(value as unknown[])] : [value];
    for (const f of fns)
      if (typeof f !== 'function') throw new SDKError(`${name} must be a function or an array of functions`);
    count += fns.length;
    hooks[name] = Object.freeze(fns);
  }
  return count === 0 ? undefined : (Object.freeze(hooks) as Hooks);
}
