// The number options of a client: each checked at construction (a non-negative number; `Infinity` where it
// means no limit), the message naming the option, what it needs and what it got; defaults when absent.
import { describe, expect, it } from 'vitest';
import {
  createTransport,
  DEFAULT_EVENT_STREAM_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_RETRIES,
  DEFAULT_RETRY_BASE_DELAY_MS,
  DEFAULT_RETRY_MAX_DELAY_MS,
  DEFAULT_TIMEOUTS_MS,
  SDKError,
  type ClientOptions,
} from '../../runtime/index.ts';

type NumberOption =
  'timeoutMs' | 'maxRetries' | 'retryBaseDelayMs' | 'retryMaxDelayMs' | 'eventStreamIdleTimeoutMs' | 'maxResponseBytes';
const WITH_INFINITY: NumberOption[] = ['timeoutMs', 'maxRetries', 'eventStreamIdleTimeoutMs', 'maxResponseBytes'];
const FINITE_ONLY: NumberOption[] = ['retryBaseDelayMs', 'retryMaxDelayMs'];

const make = (options: ClientOptions) => createTransport({ baseUrl: 'http://127.0.0.1:9', ...options });
const thrown = (options: ClientOptions): unknown => {
  try {
    make(options);
  } catch (e) {
    return e;
  }
  return undefined;
};

describe('number options', () => {
  it.each([...WITH_INFINITY, ...FINITE_ONLY])('%s: a negative number, NaN or a string is refused by name', (name) => {
    const needs = WITH_INFINITY.includes(name) ? 'a non-negative number (or Infinity)' : 'a non-negative number';
    for (const [bad, shown] of [
      [-1, '-1'],
      [NaN, 'NaN'],
      ['5', '5'],
    ] as const) {
      const e = thrown({ [name]: bad });
      expect(e).toBeInstanceOf(SDKError);
      expect((e as Error).message).toBe(`${name} must be ${needs}, got ${shown}`);
    }
  });

  it.each(WITH_INFINITY)('%s accepts Infinity (no limit) and 0', (name) => {
    expect(make({ [name]: Infinity }).settings[name]).toBe(Infinity);
    expect(make({ [name]: 0 }).settings[name]).toBe(0);
  });

  it.each(FINITE_ONLY)('%s refuses Infinity', (name) => {
    expect((thrown({ [name]: Infinity }) as Error).message).toBe(`${name} must be a non-negative number, got Infinity`);
  });

  it('absent options take their defaults; timeoutMs set replaces the per-endpoint defaults', () => {
    const s = make({}).settings;
    expect(s).toMatchObject({
      maxRetries: DEFAULT_MAX_RETRIES,
      retryBaseDelayMs: DEFAULT_RETRY_BASE_DELAY_MS,
      retryMaxDelayMs: DEFAULT_RETRY_MAX_DELAY_MS,
      eventStreamIdleTimeoutMs: DEFAULT_EVENT_STREAM_IDLE_TIMEOUT_MS,
      maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
      endpointTimeoutsMs: DEFAULT_TIMEOUTS_MS,
    });
    const t = make({ timeoutMs: 1234, maxRetries: 0 }).settings;
    expect(t.timeoutMs).toBe(1234);
    expect(t.maxRetries).toBe(0);
    expect(t.endpointTimeoutsMs).toBeUndefined();
  });
});
