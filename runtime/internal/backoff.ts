/**
 * The retry policy's two rules that the shared event stream's reconnections (`queue/shared-event-stream.ts`)
 * follow: a module of their own, so that neither a page that never follows generations nor the first call's
 * modules carry them (a bundler puts a module that a lazily loaded one uses beside the first call's code when
 * they share a file). Internal: not exported by the package.
 */
import { APIError } from '../errors.ts';

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
