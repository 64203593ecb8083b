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
 * The first attempt and the policy (what is retried, what a failure becomes) are here; the
 * retries themselves (`retry-loop.ts`, with p-retry: the `beforeRetry` hooks and the `Retry-After`
 * wait before each one) are loaded with a dynamic `import()` once a first attempt failed in a way
 * the policy retries. Should that module fail to load (a page that
 * lost its network), the call fails with the first attempt's error, as when no retry is left.
 */
import {
  AbortError,
  APIError,
  ConnectionError,
  OutcomeUnknownError,
  type OutcomeUnknownReason,
  parseRetryAfterMs,
  RateLimitError,
  RedirectError,
  TimeoutError,
} from '../errors.ts';
import { bounded } from '../hooks.ts';
import { type AttemptContext, type Http, isIdempotent } from './http.ts';
import type { HttpRequest, HttpResult, RetryPolicy } from '../request.ts';
import type { RetryRun } from './retry-loop.ts';
import type { CallScope } from '../scope.ts';
import { MAX_TIMER_MS, sleep } from './timer.ts';

export { sleep };

/** Whether `err` (from one attempt of `req`) may be retried under the policy of this module. */
export function isRetryable(err: unknown, idempotent: boolean): boolean {
  if (err instanceof RateLimitError) return true; // 429: the server did not process it
  if (err instanceof ConnectionError) return idempotent || err.notSent;
  if (!idempotent) return false;
  return (
    err instanceof APIError &&
    !(err instanceof TimeoutError) &&
    err.status !== undefined &&
    (err.status >= 500 || err.status === 408)
  );
}

/** The server's `Retry-After` of an error response (429 or 503), in milliseconds, if any. */
export function retryAfterOf(err: unknown): number | undefined {
  return err instanceof APIError && err.status !== undefined
    ? parseRetryAfterMs(err.headers?.get('retry-after') ?? null)
    : undefined;
}

/** A 4xx other than 408/429: retrying cannot help. */
export function isFatalStatus(err: unknown): boolean {
  return (
    err instanceof APIError &&
    err.status !== undefined &&
    err.status >= 400 &&
    err.status < 500 &&
    err.status !== 408 &&
    err.status !== 429
  );
}

/** A jittered exponential delay: `base * 2^attempt * random[1, 2)`, capped at `max` (ms). */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, Math.round(baseMs * 2 ** Math.min(attempt, 30) * (1 + Math.random())));
}

/**
 * Send `req` with the retry policy, within `scope` (its signal ends every attempt and delay).
 * Resolves to the last attempt's `HttpResult`: the parsed JSON body (or the unread `Response` for
 * `req.stream`) with its `Response`.
 * @throws the last attempt's error (`APIError` subclasses, `ConnectionError`), `TimeoutError` /
 * `AbortError` when the scope ended, or `OutcomeUnknownError` for a generating POST whose
 * outcome is unknown.
 */
export async function sendWithRetries(
  http: Http,
  req: HttpRequest,
  scope: CallScope,
  policy: RetryPolicy,
): Promise<HttpResult> {
  const idempotent = isIdempotent(req);
  const request = { method: req.method, path: req.path };
  const what = `${req.method} ${req.path}`;
  let inFlight = false; // an attempt whose outcome the server may know is in progress
  const timed = Number.isFinite(scope.timeoutMs) && scope.timeoutMs > 0;
  const started = timed ? performance.now() : 0;
  const why: AttemptContext = { timedOut: scope.timedOut, userSignal: scope.userSignal, redactor: scope.redactor };
  // After these the server surely did not process the request: a timeout during the next delay is a plain timeout.
  const notProcessed = (err: unknown) =>
    err instanceof RateLimitError ||
    err instanceof RedirectError ||
    (err instanceof ConnectionError && err.notSent) ||
    (err instanceof APIError && err.status !== undefined && err.status < 500 && err.status >= 400);
  const willRetry = (error: unknown, retriesLeft: number): boolean => {
    if (retriesLeft <= 0 || !isRetryable(error, idempotent)) return false;
    // A Retry-After longer than the time left (or than any timer, ~24.8 days) is not honoured: fail now with that error.
    const after = retryAfterOf(error);
    const remainingMs = timed ? scope.timeoutMs - (performance.now() - started) : Infinity;
    return after === undefined || after < Math.min(remainingMs, MAX_TIMER_MS);
  };
  const run: RetryRun = {
    retries: policy.maxRetries,
    // p-retry hands its delays to setTimeout: kept within what a timer honours.
    minDelayMs: Math.min(policy.baseDelayMs, MAX_TIMER_MS),
    maxDelayMs: Math.min(policy.maxDelayMs, MAX_TIMER_MS),
    signal: scope.signal,
    request,
    async attempt() {
      inFlight = true;
      try {
        const result = await http.send(req, scope.signal, why);
        inFlight = false;
        return result;
      } catch (err) {
        // (an attempt that ended while its onRequest hooks ran was never sent)
        if (notProcessed(err) || !why.sent) inFlight = false;
        throw err;
      }
    },
    willRetry,
    retryAfterOf,
    // Honour Retry-After (429, 503): the loop waits that long first; p-retry's own (short) backoff follows.
    // The hooks are awaited only until the scope ends (p-retry does not race them with its signal).
    beforeRetry: policy.beforeRetry && ((context) => bounded(policy.beforeRetry!(context), scope.signal)),
  };

  try {
    // Most calls succeed at once: the retries (`retry-loop.ts`, with p-retry) are loaded only when
    // the first attempt failed in a way the policy may retry.
    try {
      return await run.attempt();
    } catch (first) {
      // Decided here as p-retry would decide it: a scope that ended says why (below), and an error
      // the policy does not retry is thrown as it is, without asking the beforeRetry hooks.
      scope.signal.throwIfAborted();
      if (first instanceof Error && !willRetry(first, policy.maxRetries)) throw first;
      let loop: typeof import('./retry-loop.ts');
      try {
        loop = await import('./retry-loop.ts');
      } catch {
        throw first; // the retries' chunk could not be loaded (a page that lost its network): no retry
      }
      return await loop.retryAfterFirst(run, first);
    }
  } catch (err) {
    let error: unknown = err;
    if (!(error instanceof APIError) && !(error instanceof AbortError)) {
      // p-retry rejects with the signal's reason when the scope ends during a delay.
      error = scope.signal.aborted ? scope.endError(what, err) : err;
    }
    if (!idempotent && error instanceof APIError && !(error instanceof OutcomeUnknownError)) {
      const status = error.status ?? 0;
      const reason: OutcomeUnknownReason | false =
        error instanceof TimeoutError
          ? inFlight && 'timeout'
          : error instanceof ConnectionError
            ? !error.notSent && 'connection'
            : status >= 500
              ? 'server_error'
              : status >= 200 && status < 300 && 'invalid_response';
      if (reason) throw OutcomeUnknownError.from(request, error, reason);
    }
    throw error;
  }
}
