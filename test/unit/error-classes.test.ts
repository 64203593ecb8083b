/**
 * The answers' error classes (`runtime/error-classes.ts`) and the retry policy read from an error's
 * status: what holds without the failure path's module. No server.
 */
import { describe, expect, it } from 'vitest';
import { APIError, ConnectionError, TimeoutError } from '../../runtime/errors.ts';
import { InternalServerError, OutcomeUnknownError, RateLimitError } from '../../runtime/error-classes.ts';
import { withBodyInfo } from '../../runtime/internal/failure.ts';
import { isRetryable } from '../../runtime/internal/retry-policy.ts';
import { imagesGenerate, queueEnqueue } from '../../runtime/operations.ts';

describe('OutcomeUnknownError.from', () => {
  const cause = new InternalServerError('boom', { status: 500 });
  it("hints at queue.list() for queue.enqueue's path", () => {
    const err = OutcomeUnknownError.from(queueEnqueue, cause, 'server_error');
    expect(err.message).toContain('client.queue.list()');
  });
  it('gives the general hint for any other path', () => {
    const err = OutcomeUnknownError.from(imagesGenerate, cause, 'server_error');
    expect(err.message).not.toContain('queue.list');
    expect(err.message).toContain('Check whether it took effect');
  });
});

describe('isRetryable (the policy, from the status)', () => {
  it('retries a 429 of either class, for any method, but not one whose type names credits', () => {
    expect(isRetryable(new RateLimitError('slow down', { status: 429 }), false)).toBe(true);
    expect(isRetryable(new APIError('slow down', { status: 429 }), false)).toBe(true);
    const credits = withBodyInfo(new APIError('no credits', { status: 429 }), { type: 'insufficient_credits' });
    expect(isRetryable(credits, true)).toBe(false);
  });
  it('retries a 5xx and a 408 only when idempotent', () => {
    for (const status of [500, 503, 408]) {
      expect(isRetryable(new APIError('x', { status }), true), String(status)).toBe(true);
      expect(isRetryable(new APIError('x', { status }), false), String(status)).toBe(false);
    }
  });
  it('retries a connection error when idempotent or surely not sent; never a timeout, a 4xx, a 3xx or a foreign error', () => {
    expect(isRetryable(new ConnectionError('reset'), true)).toBe(true);
    expect(isRetryable(new ConnectionError('reset'), false)).toBe(false);
    expect(isRetryable(new ConnectionError('refused', { notSent: true }), false)).toBe(true);
    expect(isRetryable(new TimeoutError('late'), true)).toBe(false);
    expect(isRetryable(new APIError('x', { status: 404 }), true)).toBe(false);
    expect(isRetryable(new APIError('x', { status: 307 }), true)).toBe(false);
    expect(isRetryable(new Error('other'), true)).toBe(false);
  });
});
