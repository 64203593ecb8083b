// Bounds the runtime keeps whatever the server or the caller sends: one server-sent event is
// bounded by the bytes since the last event, comments included; a path parameter that is empty,
// `.` or `..` never moves a request; a delay beyond setTimeout's limit (Retry-After: 1e9, a
// timeout of weeks) never overflows into a 1 ms wait; a subdomain of localhost is not loopback.
// On 127.0.0.1 with the local server's fault switches.
import { describe, expect, it } from 'vitest';
import {
  APIError,
  createTransport,
  RateLimitError,
  ResponseTooLargeError,
  RuntimeClient,
  SDKError,
} from '../../index.ts';
import { bytesAfterLastBlankLine, sseBatches } from '../../runtime/streaming/sse.ts';
import { MAX_TIMER_MS } from '../../runtime/internal/timer.ts';
import { until } from '../support/index.ts';
import { Client, rejectionOf, useServers } from './helpers.ts';

const setup = useServers();
const MiB = 1024 * 1024;

describe('one server-sent event is bounded by the bytes since the last event, comments included', () => {
  it('an event whose data lines are interleaved with comments ends the events stream with ResponseTooLargeError, having read little', async () => {
    const { server } = await setup();
    const client = new Client({ apiKey: 'test-key', baseUrl: server.url, maxResponseBytes: MiB });
    server.faults.add({ method: 'GET', path: '/api/events', kind: 'sse-interleaved', bytes: 256 * MiB });
    const stream = client.events.stream({ allEvents: true });
    const err = await rejectionOf(
      (async () => {
        for await (const _ of stream) void _;
      })(),
    );
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect((err as ResponseTooLargeError).limitBytes).toBe(MiB);
    const entry = server.requests.find((r) => r.path === '/api/events')!;
    await until(() => entry.closedEarly === true);
    expect(entry.bytesSent!).toBeLessThan(16 * MiB); // the reader stopped near the cap, not at 256 MiB
  });

  it('the same event in a chat stream', async () => {
    const { server } = await setup();
    const client = new Client({ apiKey: 'test-key', baseUrl: server.url, maxResponseBytes: MiB });
    server.faults.add({ method: 'POST', path: '/api/ai/chat/completions', kind: 'sse-interleaved', bytes: 256 * MiB });
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
    });
    const err = await rejectionOf(
      (async () => {
        for await (const _ of stream) void _;
      })(),
    );
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    const entry = server.requests.find((r) => r.path === '/api/ai/chat/completions')!;
    await until(() => entry.closedEarly === true);
    expect(entry.bytesSent!).toBeLessThan(16 * MiB);
  });

  it('keep-alive comments between events (each ended by a blank line) add up to more than the cap without ending the stream', async () => {
    const { server } = await setup({ keepAliveMs: 2 });
    const client = new Client({ apiKey: 'test-key', baseUrl: server.url, maxResponseBytes: 400 });
    const seen: string[] = [];
    const reading = (async () => {
      for await (const ev of client.events.stream({ allEvents: true })) {
        seen.push(ev.event);
        break;
      }
    })();
    await until(() => server.count('GET', '/api/events') === 1);
    await new Promise((r) => setTimeout(r, 300)); // ~100 keep-alives of ~14 bytes: several times the cap
    server.emit('alice', 'note', 'after the keep-alives');
    await reading;
    expect(seen).toEqual(['note']);
  });

  it('finds the end of the last event in a chunk (LF, CR and CR LF line endings, and across two chunks)', () => {
    const bytes = (s: string) => new TextEncoder().encode(s);
    expect(bytesAfterLastBlankLine(bytes('data: a\n\ndata: b'), undefined)).toBe(7);
    expect(bytesAfterLastBlankLine(bytes('data: a\r\n\r\ndata: bc'), undefined)).toBe(8);
    expect(bytesAfterLastBlankLine(bytes('data: a\r\rx'), undefined)).toBe(1);
    expect(bytesAfterLastBlankLine(bytes('data: a\r\ndata: b\n: c\n'), undefined)).toBe(-1);
    expect(bytesAfterLastBlankLine(bytes('\ndata: b'), 0x0a)).toBe(7);
    expect(bytesAfterLastBlankLine(bytes('\ndata: b'), 0x61)).toBe(-1);
  });

  it('yields the events each chunk completed as one batch (none for a chunk that completed none), then those before an event too large', async () => {
    const body = (chunks: string[]) =>
      new ReadableStream<Uint8Array>({
        start(c) {
          for (const s of chunks) c.enqueue(new TextEncoder().encode(s));
          c.close();
        },
      });
    const request = { method: 'GET', path: '/api/events' };
    const batches: string[][] = [];
    for await (const batch of sseBatches(body(['data: a\n\ndata: b\n\nda', 'ta: c', '\n\n: keep-alive\n\n']), {
      request,
    }))
      batches.push(batch.map((m) => m.data));
    expect(batches).toEqual([['a', 'b'], ['c']]);

    const seen: string[][] = [];
    const err = await rejectionOf(
      (async () => {
        for await (const batch of sseBatches(body(['data: a\n\ndata: ' + 'x'.repeat(64)]), {
          request,
          maxEventBytes: 32,
        }))
          seen.push(batch.map((m) => m.data));
      })(),
    );
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect(seen).toEqual([['a']]);
  });
});

describe('path parameters that are empty, "." or ".." are refused before sending', () => {
  const bad = ['', '.', '..', '%2e', '%2E%2e', '%252e%252e'];

  it.each(bad)(
    '%j: queue.get, queue.cancel, models.retrieve, fineTunes.create and fineTunes.tokenize throw SDKError; nothing reaches the server',
    async (value) => {
      const { client, server } = await setup();
      const calls: Array<[string, () => Promise<unknown>]> = [
        ['generation_id', () => client.queue.get(value)],
        ['generation_id', () => client.queue.cancel(value)],
        ['id', () => client.models.retrieve(value)],
        [
          'namespace',
          () =>
            client.fineTunes.create({ namespace: value, repo_name: 'repo' }, {
              resource: 'main/train.jsonl',
              base_model: 'm',
              script_type: 'text_generation',
              training_params: {},
            } as never),
        ],
        [
          'repo_name',
          () =>
            client.fineTunes.create({ namespace: 'alice', repo_name: value }, {
              resource: 'main/train.jsonl',
              base_model: 'm',
              script_type: 'text_generation',
              training_params: {},
            } as never),
        ],
        ['id', () => client.fineTunes.tokenize({ namespace: 'alice', repo_name: 'repo', id: value })],
        ['repo_name', () => client.fineTunes.tokenize({ namespace: 'alice', repo_name: value, id: 'ft1' })],
      ];
      for (const [name, call] of calls) {
        const err = await rejectionOf(call());
        expect(err).toBeInstanceOf(SDKError);
        expect(err).not.toBeInstanceOf(APIError);
        expect(err.message).toContain(name);
        expect(err.message).toContain('"."');
      }
      expect(server.requests).toHaveLength(0);
    },
  );

  it('ids with dots and encoded characters that are not "." or ".." are sent, encoded as one segment', async () => {
    const { client, server } = await setup();
    for (const id of ['...', '.hidden', 'a.b', '%zz']) await rejectionOf(client.queue.get(id));
    expect(server.requests.map((r) => r.path)).toEqual([
      '/api/ai/queue/...',
      '/api/ai/queue/.hidden',
      '/api/ai/queue/a.b',
      '/api/ai/queue/%25zz',
    ]);
  });
});

describe('delays beyond the timer limit never overflow into a 1 ms wait', () => {
  it.each([300, 0])(
    'Retry-After: 1e9 (timeoutMs %i): the call fails at once with the RateLimitError, after one request and no burst',
    async (timeoutMs) => {
      const { client, server } = await setup();
      server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: '429', retryAfterSeconds: 1e9, times: Infinity });
      const err = await rejectionOf(client.queue.list({}, { timeoutMs, maxRetries: 5 }));
      expect(err).toBeInstanceOf(RateLimitError);
      expect((err as RateLimitError).retryAfterMs).toBe(1e12);
      await new Promise((r) => setTimeout(r, 300)); // a 1 ms retry loop would have sent many more by now
      expect(server.count('GET', '/api/ai/queue')).toBe(1);
    },
  );

  it('a Retry-After within the remaining time is still honoured (one retry, then success)', async () => {
    const { client, server } = await setup();
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: '429', retryAfterSeconds: 0.05 });
    await expect(client.queue.list({}, { timeoutMs: 5_000 })).resolves.toEqual({ count: 0, generations: [] });
    expect(server.count('GET', '/api/ai/queue')).toBe(2);
  });

  it(`a timeoutMs beyond ${MAX_TIMER_MS} ms does not end the call at once`, async () => {
    const { server } = await setup();
    for (const timeoutMs of [MAX_TIMER_MS + 1, 2 ** 32, 1e12]) {
      const client = new Client({ apiKey: 'test-key', baseUrl: server.url, timeoutMs });
      await expect(client.models.retrieve('flux-1-dev')).resolves.toMatchObject({ id: 'flux-1-dev' });
      const t = createTransport({ apiKey: 'test-key', baseUrl: server.url });
      await expect(t.request({ method: 'GET', path: '/api/ai/queue' }, { timeoutMs })).resolves.toEqual({
        count: 0,
        generations: [],
      });
    }
  });

  it('an eventStreamIdleTimeoutMs beyond the timer limit does not end the events stream at once', async () => {
    const { server } = await setup({ keepAliveMs: 60_000 });
    const client = new Client({ apiKey: 'test-key', baseUrl: server.url, eventStreamIdleTimeoutMs: 2 ** 32 });
    const seen: string[] = [];
    const reading = (async () => {
      for await (const ev of client.events.stream({ allEvents: true })) {
        seen.push(ev.event);
        break;
      }
    })();
    await until(() => server.count('GET', '/api/events') === 1);
    await new Promise((r) => setTimeout(r, 100)); // silent: an overflowed idle timer would have fired
    server.emit('alice', 'note', 'still open');
    await reading;
    expect(seen).toEqual(['note']);
  });
});

describe('loopback hosts for http:', () => {
  it.each([
    'http://evil.localhost',
    'http://evil.localhost:3000/api',
    'http://a.b.localhost',
    'http://localhost.evil.example',
  ])('%s is not loopback: refused with an SDKError', (baseUrl) => {
    expect(() => new RuntimeClient({ baseUrl })).toThrow(SDKError);
    expect(() => createTransport({ baseUrl })).toThrow(/must use https/);
  });

  it.each(['http://localhost', 'http://LOCALHOST:3000', 'http://127.0.0.1:8080', 'http://[::1]:1'])(
    '%s is loopback',
    (baseUrl) => {
      expect(createTransport({ baseUrl }).settings.baseUrl).toBe(new URL(baseUrl).href.replace(/\/$/, ''));
    },
  );
});
