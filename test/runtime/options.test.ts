// The options of a client checked at construction: the number options (a non-negative number; `Infinity`
// where it means no limit), the message naming the option, what it needs and what it got; defaults when
// absent. The API key: none for the hosted service is refused (nothing sent); a proxy needs none.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '../../index.ts';
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

describe('the API key', () => {
  const saved = { key: process.env['OXEN_API_KEY'], base: process.env['OXEN_BASE_URL'] };
  beforeEach(() => {
    delete process.env['OXEN_API_KEY'];
    delete process.env['OXEN_BASE_URL'];
  });
  afterEach(() => {
    for (const [name, value] of [
      ['OXEN_API_KEY', saved.key],
      ['OXEN_BASE_URL', saved.base],
    ] as const)
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
  });

  /** A fetch that counts its calls: a refused client must send nothing. */
  let sent = 0;
  const counting: typeof fetch = () => {
    sent++;
    return Promise.resolve(new Response('{}'));
  };
  const makers = {
    Client: (o: ClientOptions) => new Client({ fetch: counting, ...o }),
    createTransport: (o: ClientOptions) => createTransport({ fetch: counting, ...o }),
  };

  it.each(Object.entries(makers))(
    '%s: no key and the hosted service (the default baseUrl, or it given) is refused at construction, naming OXEN_API_KEY and apiKey',
    (_, make) => {
      sent = 0;
      const hosted: ClientOptions[] = [
        {},
        { apiKey: '' },
        { baseUrl: 'https://hub.oxen.ai/' },
        { baseUrl: 'https://HUB.oxen.ai/api' },
        { headers: { 'x-trace': '1' } },
      ];
      for (const options of hosted) {
        const e = (() => {
          try {
            make(options);
          } catch (err) {
            return err;
          }
          return undefined;
        })();
        expect(e, JSON.stringify(options)).toBeInstanceOf(SDKError);
        expect((e as Error).message).toBe('No API key for https://hub.oxen.ai: set OXEN_API_KEY or pass apiKey');
      }
      process.env['OXEN_BASE_URL'] = 'https://hub.oxen.ai';
      expect(() => make({})).toThrow(/OXEN_API_KEY/);
      expect(sent).toBe(0);
    },
  );

  it.each(Object.entries(makers))(
    '%s: a key (option, environment or Authorization header) or another baseUrl (a proxy, a local server) needs none',
    (_, make) => {
      expect(make({ apiKey: 'k' }).settings.baseUrl).toBe('https://hub.oxen.ai');
      expect(make({ headers: { Authorization: 'Bearer k' } }).settings.baseUrl).toBe('https://hub.oxen.ai');
      for (const baseUrl of ['https://app.example.com/api/oxen', 'http://127.0.0.1:9', 'https://hub.oxen.ai.example'])
        expect(make({ baseUrl }).settings.baseUrl).toBe(baseUrl);
      process.env['OXEN_BASE_URL'] = 'http://localhost:8080';
      expect(make({}).settings.baseUrl).toBe('http://localhost:8080');
      process.env['OXEN_API_KEY'] = 'from-env';
      expect(make({ baseUrl: 'https://hub.oxen.ai' }).settings.baseUrl).toBe('https://hub.oxen.ai');
    },
  );
});
