/**
 * The retries of a call whose first attempt failed, driven by p-retry (counting, backoff, limits).
 * `retry.ts` loads this module, and p-retry with it, with a dynamic `import()` only once a first
 * attempt failed in a way its policy retries, so that a bundle of a call that succeeds at once
 * carries neither. It imports nothing of the runtime (a bundler would split what it shares with
 * the caller into one more chunk). Internal: not exported by the package.
 */
import pRetry from 'p-retry';
import type { HttpResult } from '../request.ts';

/** What the retries of one call need from `sendWithRetries` (`retry.ts`). */
export interface RetryRun {
  /** How many times a failed attempt may be retried. */
  readonly retries: number;
  /** Bounds of one backoff delay, in milliseconds (within what a timer honours). */
  readonly minDelayMs: number;
  readonly maxDelayMs: number;
  /** The call's signal: it ends every attempt and every delay. */
  readonly signal: AbortSignal;
  /** One more attempt of the request. */
  attempt(): Promise<HttpResult>;
  /**
   * Asked after each failed attempt while retries are left: whether to retry (the policy, then
   * the `beforeRetry` hooks), having waited out the server's `Retry-After` when it says yes.
   */
  decide(error: Error, retriesLeft: number, attemptNumber: number): Promise<boolean>;
}

/**
 * The retries after `first`, the first attempt's error: handed to p-retry as its attempt 1, so
 * that counting, backoff and limits are its own.
 * @returns the result of the attempt that succeeded.
 * @throws the last attempt's error, the signal's reason when it ended a delay, or what a hook threw.
 */
export function retryAfterFirst(run: RetryRun, first: unknown): Promise<HttpResult> {
  let retrying = false; // the decision of onFailedAttempt, read by shouldRetry
  return pRetry((attemptNumber) => (attemptNumber === 1 ? Promise.reject(first) : run.attempt()), {
    retries: run.retries,
    factor: 2,
    minTimeout: run.minDelayMs,
    maxTimeout: run.maxDelayMs,
    randomize: true,
    signal: run.signal,
    onFailedAttempt: async ({ error, retriesLeft, attemptNumber }) => {
      retrying = await run.decide(error, retriesLeft, attemptNumber);
    },
    // p-retry calls this only while retries are left (same `retriesLeft` as onFailedAttempt saw).
    shouldRetry: () => retrying,
  });
}
