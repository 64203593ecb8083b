/**
 * A call's requests under the retry policy (`retry-policy.ts`, which says what it is): the first attempt
 * is made here, and the policy's module is loaded with `import()` only when that attempt failed, so that a
 * call that succeeds at once loads none of it (nor the retries, `retry-loop.ts` with p-retry, which that
 * module loads only for a failure it retries). Should it fail to load (a page that lost its network), the
 * call fails with the first attempt's error.
 */
import type { AttemptContext, Http } from './http.ts';
import type { HttpRequest, HttpResult, RetryPolicy } from '../request.ts';
import type { CallScope } from '../scope.ts';

/**
 * Send `req` with the retry policy, within `scope` (its signal ends every attempt and delay).
 * Resolves to the last attempt's `HttpResult`: the parsed JSON body (or the unread `Response` for
 * `req.stream`) with its `Response`.
 * @throws the last attempt's error (`APIError` subclasses, `ConnectionError`), `TimeoutError` /
 * `AbortError` when the scope ended, or `OutcomeUnknownError` for a generating POST whose
 * outcome is unknown (see `afterFailedAttempt` of `retry-policy.ts`).
 */
export async function sendWithRetries(
  http: Http,
  req: HttpRequest,
  scope: CallScope,
  policy: RetryPolicy,
): Promise<HttpResult> {
  const why: AttemptContext = { timedOut: scope.timedOut, userSignal: scope.userSignal, redactor: scope.redactor };
  try {
    return await http.send(req, scope.signal, why);
  } catch (first) {
    let after: typeof import('./retry-policy.ts');
    try {
      after = await import('./retry-policy.ts');
    } catch {
      throw first; // the policy's chunk could not be loaded: no retry
    }
    return after.afterFailedAttempt(http, req, scope, policy, why, first);
  }
}
