/**
 * The retry policy of the SDK, on top of p-retry.
 *
 * - Idempotent requests (GET, DELETE) are retried on connection errors, 429 and 5xx, with
 *   jittered exponential backoff (`retryBaseDelayMs * 2^n * random[1, 2)`, capped at
 *   `retryMaxDelayMs`). After a 429 or 503 with `Retry-After`, the SDK waits at least that long,
 *   and fails at once with that error when the wait is longer than the call's remaining time, or
 *   than `MAX_TIMER_MS` (about 24.8 days) for a call without a timeout.
 * - A generating POST (chat, images, videos, queue enqueue, fine-tune create, tokenize) is retried
 *   only when the server surely did not process it: a 429, or a connection refused before any
 *   byte of the request was sent. Any other failure (5xx, reset, timeout while in flight, a
 *   success status with an unusable or too large body) becomes `OutcomeUnknownError`: never a
 *   second send. A redirect (`RedirectError`) is never retried nor followed.
 * - The call's timeout covers every attempt and every delay between attempts.
 *
 * `retry.ts` makes a call's first attempt and loads this module with `import()` only when it failed, so
 * that a call that succeeds loads none of it. Here is what a failure becomes (retried or not,
 * `OutcomeUnknownError`); the retries themselves (`retry-loop.ts`, with p-retry: the `beforeRetry` hooks
 * and the `Retry-After` wait before each one) are loaded with a further `import()` only once the policy
 * retries the failure. Should that module fail to load (a page that lost its network), the call fails
 * with the first attempt's error, as when no retry is left.
 */
import { AbortError, APIError, ConnectionError } from '../errors.ts';
import { type AttemptContext, type Http, isIdempotent, loadFailures } from './http.ts';
import type { HttpRequest, HttpResult, RetryPolicy } from '../request.ts';
import type { RetryRun } from './retry-loop.ts';
import type { CallScope } from '../scope.ts';
import { parseRetryAfterMs } from './retry-after.ts';
import { MAX_TIMER_MS } from './timer.ts';

/**
 * Whether `err` (from one attempt of a request, `idempotent` or not) may be retried under the policy of
 * this module, read from its status (and `notSent`), so that the decision is the same when the error
 * classes' module could not be loaded: a 429 (`RateLimitError`: the server did not process it; not a 429
 * whose error `type` names credits, an `InsufficientCreditsError`), a `ConnectionError` of an idempotent
 * request or one surely not sent, and for an idempotent request a 5xx or 408.
 */
export function isRetryable(err: unknown, idempotent: boolean): boolean {
  if (!(err instanceof APIError)) return false;
  if (err instanceof ConnectionError) return idempotent || err.notSent;
  const status = err.status ?? 0;
  return (status === 429 && !/credit/i.test(err.type ?? '')) || (idempotent && (status >= 500 || status === 408));
}

/** The server's `Retry-After` of an error answer (429 or 503), in milliseconds, if any. */
export function retryAfterOf(err: unknown): number | undefined {
  return err instanceof APIError && err.status !== undefined
    ? parseRetryAfterMs(err.headers?.get('retry-after') ?? null)
    : undefined;
}

/**
 * What a call's failed first attempt (`first`, thrown by `http.send` with `why`) becomes, under the policy:
 * the result of a retry that succeeded, or the error to throw (`sendWithRetries` of `retry.ts` calls this).
 * @throws the last attempt's error (`APIError` subclasses, `ConnectionError`), `TimeoutError` /
 * `AbortError` when the scope ended, or `OutcomeUnknownError` for a generating POST whose
 * outcome is unknown.
 */
export async function afterFailedAttempt(
  http: Http,
  req: HttpRequest,
  scope: CallScope,
  policy: RetryPolicy,
  why: AttemptContext,
  first: unknown,
): Promise<HttpResult> {
  const idempotent = isIdempotent(req);
  const request = { method: req.method, path: req.path };
  // After these the server surely did not process the request (a 3xx or 4xx answer, a connection surely not
  // made, an attempt that ended while its onRequest hooks ran, never sent): a timeout during the next delay
  // is a plain timeout.
  const surelyNotProcessed = (err: unknown) =>
    !why.sent ||
    (err instanceof APIError &&
      (err instanceof ConnectionError ? err.notSent : (err.status ?? 0) >= 300 && err.status! < 500));
  let inFlight = !surelyNotProcessed(first); // an attempt whose outcome the server may know is in progress
  const run: RetryRun = {
    retries: policy.maxRetries,
    minDelayMs: policy.baseDelayMs,
    maxDelayMs: policy.maxDelayMs,
    maxTimerMs: MAX_TIMER_MS,
    timeoutMs: scope.timeoutMs,
    started: performance.now(),
    signal: scope.signal,
    request,
    async attempt() {
      inFlight = true;
      try {
        const result = await http.send(req, scope.signal, why);
        inFlight = false;
        return result;
      } catch (err) {
        if (surelyNotProcessed(err)) inFlight = false;
        throw err;
      }
    },
    isRetryable: (error) => isRetryable(error, idempotent),
    retryAfterOf,
    beforeRetry: policy.beforeRetry,
  };

  try {
    // Decided here as p-retry would decide it: a scope that ended says why (below), and an error
    // the policy does not retry is thrown as it is, without asking the beforeRetry hooks.
    scope.signal.throwIfAborted();
    if (first instanceof Error && !(policy.maxRetries > 0 && isRetryable(first, idempotent))) throw first;
    let loop: typeof import('./retry-loop.ts');
    try {
      loop = await import('./retry-loop.ts');
    } catch {
      throw first; // the retries' chunk could not be loaded (a page that lost its network): no retry
    }
    return await loop.retryAfterFirst(run, first);
  } catch (err) {
    let error: unknown = err;
    if (!(error instanceof APIError) && !(error instanceof AbortError)) {
      // p-retry rejects with the signal's reason when the scope ends during a delay.
      error = scope.signal.aborted ? scope.endError(`${req.method} ${req.path}`, err) : err;
    }
    if (!idempotent && error instanceof APIError) {
      // A generating POST whose outcome is unknown is `OutcomeUnknownError` (the failure path's module;
      // should it not load, the error is thrown as it is).
      const f = await loadFailures();
      if (!('cause' in f)) error = f.outcomeOf(request, error, inFlight);
    }
    throw error;
  }
}
