/**
 * `Retry-After` (seconds or an HTTP date) in milliseconds: read by `RateLimitError.retryAfterMs`
 * (`error-classes.ts`) and by the retries (`retry-loop.ts`). It imports nothing, so that both, loaded on
 * demand, share it without sharing anything with a page's first load. Internal: not exported by the package.
 */

/**
 * Parse a `Retry-After` header (seconds or an HTTP date) to milliseconds from now.
 * Returns undefined when absent or unparsable.
 */
export function parseRetryAfterMs(value: string | null, now: number = Date.now()): number | undefined {
  if (value == null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
