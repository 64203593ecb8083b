/**
 * The retry policy's pure parts: the jittered exponential delay (`backoffDelay`) and the
 * `Retry-After` header as milliseconds (`parseRetryAfterMs`). No server, no timer.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseRetryAfterMs } from '../../runtime/internal/retry-after.ts';
import { backoffDelay } from '../../runtime/internal/backoff.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('backoffDelay', () => {
  it('is base * 2^attempt with no jitter, and at most twice that with the largest jitter', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    expect([0, 1, 2, 3].map((a) => backoffDelay(a, 100, 60_000))).toEqual([100, 200, 400, 800]);
    vi.spyOn(Math, 'random').mockReturnValue(0.999_999);
    expect(backoffDelay(3, 100, 60_000)).toBe(1_600);
  });

  it('stays within [base * 2^attempt, 2 * base * 2^attempt] and never above the cap', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 600_000 }),
        (attempt, base, max) => {
          const d = backoffDelay(attempt, base, max);
          const low = base * 2 ** Math.min(attempt, 30);
          expect(Number.isFinite(d)).toBe(true);
          expect(d).toBeLessThanOrEqual(max);
          expect(d).toBeGreaterThanOrEqual(Math.min(max, Math.round(low)));
          expect(d).toBeLessThanOrEqual(Math.round(2 * low));
        },
      ),
    );
  });

  it('does not overflow for a very large attempt number: the cap holds', () => {
    expect(backoffDelay(1_000_000, 500, 30_000)).toBe(30_000);
    expect(backoffDelay(Number.MAX_SAFE_INTEGER, 1, 5)).toBe(5);
  });
});

describe('parseRetryAfterMs', () => {
  const now = Date.parse('2015-10-21T07:28:00Z');

  it('reads delta-seconds, fractional seconds included, as milliseconds', () => {
    expect(parseRetryAfterMs('120', now)).toBe(120_000);
    expect(parseRetryAfterMs('0', now)).toBe(0);
    expect(parseRetryAfterMs('1.5', now)).toBe(1_500);
    expect(parseRetryAfterMs(' 7 ', now)).toBe(7_000);
  });

  it('clamps a negative delay or a date in the past to 0', () => {
    expect(parseRetryAfterMs('-5', now)).toBe(0);
    expect(parseRetryAfterMs('Wed, 21 Oct 2015 07:27:00 GMT', now)).toBe(0);
  });

  it('reads an HTTP date as the time from `now` until it', () => {
    expect(parseRetryAfterMs('Wed, 21 Oct 2015 07:28:30 GMT', now)).toBe(30_000);
  });

  it('gives undefined for an absent, empty or unparsable header', () => {
    for (const v of [null, '', '   ', 'soon', 'Infinity', 'NaN'])
      expect(parseRetryAfterMs(v, now), String(v)).toBe(undefined);
  });

  it('maps any whole number of seconds to that many thousand milliseconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (s) => {
        expect(parseRetryAfterMs(String(s), now)).toBe(s * 1000);
      }),
    );
  });

  it('maps any date after `now` (to the second) to the milliseconds until it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (s) => {
        const header = new Date(now + s * 1000).toUTCString();
        expect(parseRetryAfterMs(header, now)).toBe(s * 1000);
      }),
    );
  });
});
