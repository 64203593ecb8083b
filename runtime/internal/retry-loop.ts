/**
 * The retries of a call whose first attempt failed, driven by p-retry (counting, backoff, limits), and
 * the part of the policy that reads the server's `Retry-After`. `retry-policy.ts` loads this module, and
 * p-retry with it, with a dynamic `import()` only once a first attempt failed in a way its policy
 * retries, so that a bundle of a call that succeeds at once carries neither. It imports nothing of the
 * runtime a page loads first (a bundler would split what it shares with the caller into one more chunk,
 * loaded by every page; `hook-run.ts` is loaded on demand too): `afterFailedAttempt` hands it what it needs
 * in a `RetryRun`. Internal: not exported by the package.
 */
import pRetry from 'p-retry';
import type { RetryContext } from '../hooks.ts';
import type { HttpResult, RetryPolicy } from '../request.ts';
import { bounded } from './hook-run.ts';

/** What the retries of one call need from `afterFailedAttempt` (`retry-policy.ts`). */
export interface RetryRun {
  /** How many times a failed attempt may be retried. */
  readonly retries: number;
  /** The call's timeout in milliseconds (`Infinity` or 0: none), and when it started (`performance.now()`). */
  readonly timeoutMs: number;
  readonly started: number;
  /** Bounds of one backoff delay, in milliseconds. */
  readonly minDelayMs: number;
  readonly maxDelayMs: number;
  /** The longest wait a timer honours (`MAX_TIMER_MS` of `timer.ts`, about 24.8 days). */
  readonly maxTimerMs: number;
  /** The call's signal: it ends every attempt and every delay. */
  readonly signal: AbortSignal;
  /** Method and path of the request (for the `beforeRetry` hooks). */
  readonly request: RetryContext['request'];
  /** One more attempt of the request. */
  attempt(): Promise<HttpResult>;
  /** The policy of `retry-policy.ts`: whether `error` may be retried (`isRetryable`). */
  isRetryable(error: unknown): boolean;
  /** The server's `Retry-After` of `error`, in milliseconds, if any (`retryAfterOf` of `retry-policy.ts`). */
  retryAfterOf(error: unknown): number | undefined;
  /** The `beforeRetry` hooks (and the log), if any. */
  readonly beforeRetry: RetryPolicy['beforeRetry'];
}

/**
 * Whether `error` is retried with `retriesLeft` retries left: the policy says so, and a `Retry-After`
 * longer than the call's remaining time (or than `maxTimerMs`, about 24.8 days, the longest timer) is
 * not honoured: the call fails now with that error.
 */
function willRetry(run: RetryRun, error: unknown, retriesLeft: number, after: number | undefined): boolean {
  if (retriesLeft <= 0 || !run.isRetryable(error)) return false;
  const timed = Number.isFinite(run.timeoutMs) && run.timeoutMs > 0;
  const remainingMs = timed ? run.timeoutMs - (performance.now() - run.started) : Infinity;
  return after === undefined || after < Math.min(remainingMs, run.maxTimerMs);
}

/**
 * Asked after each failed attempt while retries are left: whether to retry (the policy, then the
 * `beforeRetry` hooks), having waited out the server's `Retry-After` when it says yes.
 */
async function decide(run: RetryRun, error: Error, retriesLeft: number, attempt: number): Promise<boolean> {
  const retryAfterMs = run.retryAfterOf(error);
  let retrying = willRetry(run, error, retriesLeft, retryAfterMs);
  if (retrying && run.beforeRetry)
    // (awaited only until the call's signal ends: p-retry does not race the hooks with it)
    retrying = await bounded(
      run.beforeRetry({ request: run.request, error, attempt, retriesLeft, retryAfterMs }),
      run.signal,
    );
  if (retrying && retryAfterMs) await wait(retryAfterMs, run.signal);
  return retrying;
}

/**
 * Wait `ms`, rejecting with the signal's reason when it aborts first. One `setTimeout` is exact:
 * `willRetry` honours no `Retry-After` of `maxTimerMs` or more.
 */
function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    signal.throwIfAborted();
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The retries after `first`, the first attempt's error: handed to p-retry as its attempt 1, so
 * that counting, backoff and limits are its own.
 * @returns the result of the attempt that succeeded.
 * @throws the last attempt's error, the signal's reason when it ended a delay, or what a hook threw.
 */
export async function retryAfterFirst(run: RetryRun, first: unknown): Promise<HttpResult> {
  // A first error whose Retry-After is not honoured is thrown as it is, without asking the beforeRetry hooks.
  if (first instanceof Error && !willRetry(run, first, run.retries, run.retryAfterOf(first))) throw first;
  let retrying = false; // the decision of onFailedAttempt, read by shouldRetry
  return pRetry((attemptNumber) => (attemptNumber === 1 ? Promise.reject(first) : run.attempt()), {
    retries: run.retries,
    factor: 2,
    // p-retry hands its delays to setTimeout: kept within what a timer honours.
    minTimeout: Math.min(run.minDelayMs, run.maxTimerMs),
    maxTimeout: Math.min(run.maxDelayMs, run.maxTimerMs),
    randomize: true,
    signal: run.signal,
    onFailedAttempt: async ({ error, retriesLeft, attemptNumber }) => {
      retrying = await decide(run, error, retriesLeft, attemptNumber);
    },
    // p-retry calls this only while retries are left (same `retriesLeft` as onFailedAttempt saw).
    shouldRetry: () => retrying,
  });
}
