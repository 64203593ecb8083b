/**
 * Running a transport's hooks (`hooks.ts`): each awaited in order, but never past the call's signal. Loaded
 * with `import()` by the first call of a transport that has hooks (and by the retries, which bound the
 * `beforeRetry` hooks), so that a page whose transport has none does not carry it. It imports nothing of
 * the runtime (a bundler would split what it shares with the caller into one more chunk). Should it fail
 * to load, the call fails with the loader's error (no hook is skipped). Internal: not exported by the package.
 */
import type { HookRequest, HookResponse, Hooks, RetryContext } from '../hooks.ts';
import type { HttpRequest } from '../request.ts';
import type { CallLog } from './log-lines.ts';

/** Milliseconds since `started` (a `performance.now()`), rounded to 0.1 ms: `HookResponse.durationMs`. */
export function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}

/**
 * `value` (a hook's result) awaited until `signal` aborts: then rejects with the signal's reason,
 * so that a hook that never settles does not hold the call past its timeout or its caller's signal.
 */
export function bounded<T>(value: T | PromiseLike<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.throwIfAborted();
    signal.addEventListener('abort', abort, { once: true });
    Promise.resolve(value)
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', abort));
  });
}

/** Run `hooks` (one of a transport's lists) on `context`, in order, each awaited until `signal` aborts (`bounded`). Throws what a hook throws. */
export async function runHooks<C>(
  hooks: readonly ((context: C) => void | Promise<void>)[],
  context: C,
  signal: AbortSignal,
): Promise<void> {
  for (const hook of hooks) await bounded(hook(context), signal);
}

/** Run the `beforeRetry` hooks in order: false as soon as one vetoes. Throws what a hook throws. */
export async function runBeforeRetry(hooks: Hooks | undefined, context: RetryContext): Promise<boolean> {
  if (!hooks) return true;
  for (const hook of hooks.beforeRetry) if ((await hook(context)) === false) return false;
  return true;
}

/**
 * The `onRequest` hooks' turn of an attempt (`Http.send`): the `HookRequest` of `req` (sent to `url` with
 * `headers` and `body`, attempt number `attempt`), after the hooks, which may change its headers and body.
 * A hook that the call's signal ended (one that never settles included) fails the attempt with `fail`'s
 * error (a `TimeoutError` or `AbortError`); what a hook throws otherwise is thrown as it is.
 */
export async function onRequest(
  hooks: Hooks,
  req: HttpRequest,
  url: string,
  headers: Record<string, string>,
  attempt: number,
  signal: AbortSignal,
  fail: (err: unknown) => Promise<Error>,
): Promise<HookRequest> {
  const request: HookRequest = {
    method: req.method,
    path: req.path,
    url,
    headers: new Headers(headers),
    body: req.body,
    attempt,
  };
  try {
    await runHooks(hooks.onRequest, request, signal);
  } catch (err) {
    throw signal.aborted ? await fail(err) : err;
  }
  return request;
}

/**
 * The `onResponse` hooks' turn of an attempt (none: nothing), once the response headers arrived: the hooks
 * are given `request`, `response`, `requestId` and the `durationMs` since `started` (a `performance.now()`).
 * When a hook fails, the response body is released and the error is `fail`'s if the call's signal ended it,
 * else what the hook threw.
 */
export async function onResponse(
  hooks: Hooks,
  request: HookRequest,
  response: Response,
  requestId: string | undefined,
  started: number,
  signal: AbortSignal,
  fail: (err: unknown) => Promise<Error>,
): Promise<void> {
  if (hooks.onResponse.length === 0) return;
  const context: HookResponse = { request, response, durationMs: elapsed(started), requestId };
  try {
    await runHooks(hooks.onResponse, context, signal);
  } catch (err) {
    void response.body?.cancel().catch(() => undefined);
    throw signal.aborted ? await fail(err) : err;
  }
}

/**
 * A call's `RetryPolicy.beforeRetry` (`HttpTransport.retryPolicy`): runs the `beforeRetry` hooks (when
 * `hooks` has any), then logs the retry (or its veto) on `log` when logging is on; a retry made is pushed
 * on `retries` (the errors the call's log line names). Resolves to whether the retry is made.
 */
export async function beforeRetry(
  hooks: Hooks | undefined,
  logging: Promise<CallLog | undefined> | undefined,
  context: RetryContext,
  retries: unknown[] | undefined,
): Promise<boolean> {
  const ok = await runBeforeRetry(hooks, context);
  const log = logging && (await logging);
  if (log) {
    log.retry(context, !ok);
    if (ok) retries?.push(context.error);
  }
  return ok;
}
