// The runtime's defences against a faulty or hostile service, one test (or more) each, on 127.0.0.1 with the local server's
// fault switches: redirects are never followed, https is required off loopback, the API key never
// leaks into an error or an inspected client, response sizes are capped and messages bounded, a
// repeated generation id does not hang queue.run, a silent event stream ends, the shared stream
// reconnects at once after a drop, and empty or null bodies are typed errors. Every generating POST
// is counted at the server: never sent twice.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  APIError,
  ConnectionError,
  createTransport,
  InternalServerError,
  InvalidResponseError,
  OutcomeUnknownError,
  RedirectError,
  ResponseTooLargeError,
  RuntimeClient,
  SDKError,
  DEFAULT_MAX_RESPONSE_BYTES,
} from '../../index.ts';
import { MAX_MESSAGE_CHARS } from '../../runtime/errors.ts';
import { startServer } from '../../fake-service/index.ts';
import { until } from '../support/index.ts';
import { Client, rejectionOf, useServers } from './helpers.ts';

const setup = useServers();
const KEY = 'sk-live-0123456789abcdefSECRET';

/** Every string form of an error and of its cause chain that a user could log. */
function renderings(err: unknown): string[] {
  const out: string[] = [];
  let e: unknown = err;
  for (let depth = 0; e !== undefined && depth < 6; depth++) {
    out.push(inspect(e, { showHidden: true, depth: Infinity }), String(e));
    if (e instanceof Error) {
      out.push(e.message, e.stack ?? '');
      try {
        out.push(JSON.stringify(e));
      } catch {
        /* not serialisable: nothing to show */
      }
    }
    if (e instanceof APIError) {
      out.push(JSON.stringify(e.body) ?? '', typeof e.body === 'string' ? e.body : '');
      e.headers?.forEach((v, k) => out.push(`${k}: ${v}`));
    }
    e = e instanceof Error ? e.cause : undefined;
  }
  return out;
}

function expectNoKey(err: unknown, key = KEY): void {
  for (const text of renderings(err)) expect(text).not.toContain(key);
}

describe('redirects are never followed', () => {
  it.each([301, 302, 303, 307, 308])(
    'a %i answering a generating POST is a RedirectError naming the Location; the target is never requested',
    async (status) => {
      const { client, server } = await setup();
      server.faults.add({
        method: 'POST',
        path: '/api/ai/images/generate',
        kind: 'redirect',
        status,
        location: '/api/ai/queue',
      });
      const err = await rejectionOf(client.images.generate({ model: 'flux-1-dev', prompt: 'x' }));
      expect(err).toBeInstanceOf(RedirectError);
      expect((err as RedirectError).status).toBe(status);
      expect((err as RedirectError).location).toBe('/api/ai/queue');
      expect(err.message).toContain('/api/ai/queue');
      expect(err.message).toContain('does not follow redirects');
      expect(server.count('POST', '/api/ai/images/generate')).toBe(1);
      expect(server.count('*', '/api/ai/queue')).toBe(0);
    },
  );

  it('a cross-origin redirect reaches nothing at the other origin (no prompt, no Authorization); a GET redirect is not retried', async () => {
    const { client, server } = await setup();
    const other = await startServer();
    try {
      server.faults.add({
        method: 'POST',
        path: '/api/ai/queue',
        kind: 'redirect',
        status: 307,
        location: `${other.url}/api/ai/queue`,
      });
      const err = await rejectionOf(client.queue.enqueue({ model: 'flux-1-dev', prompt: 'x' }));
      expect(err).toBeInstanceOf(RedirectError);
      expect((err as RedirectError).location).toBe(`${other.url}/api/ai/queue`);
      expect(other.requests).toHaveLength(0);
      server.faults.add({
        method: 'GET',
        path: '/api/ai/models/*',
        kind: 'redirect',
        status: 301,
        location: `${other.url}/api/ai/models/flux-1-dev`,
      });
      expect(await rejectionOf(client.models.retrieve('flux-1-dev'))).toBeInstanceOf(RedirectError);
      expect(server.count('GET', '/api/ai/models/')).toBe(1);
      expect(other.requests).toHaveLength(0);
    } finally {
      await other.close();
    }
  });
});

describe('https is required except for loopback hosts', () => {
  const refused = [
    'http://example.com',
    'http://10.0.0.1:8080',
    'ftp://hub.oxen.ai',
    'javascript:alert(1)',
    'file:///etc/passwd',
    'not a url',
    'https://user:pw@hub.oxen.ai',
    'https://hub.oxen.ai/?q=1',
  ];
  it.each(refused)('refuses %s at construction (Client and createTransport) with a clear SDKError', (baseUrl) => {
    for (const make of [
      () => new RuntimeClient({ apiKey: KEY, baseUrl }),
      () => createTransport({ apiKey: KEY, baseUrl }),
    ]) {
      const err = (() => {
        try {
          make();
        } catch (e) {
          return e as Error;
        }
        throw new Error('expected a refusal');
      })();
      expect(err).toBeInstanceOf(SDKError);
      expect(err.message).toMatch(/baseUrl/);
      expect(err.message).not.toContain(KEY);
    }
  });

  it.each([
    'https://hub.oxen.ai',
    'http://127.0.0.1:1',
    'http://127.8.9.10',
    'http://localhost:3000/',
    'http://[::1]:8080',
    'https://example.com/api/oxen',
  ])('accepts %s', (baseUrl) => {
    expect(new RuntimeClient({ apiKey: KEY, baseUrl }).settings.baseUrl).toBe(baseUrl.replace(/\/$/, ''));
    expect(createTransport({ apiKey: KEY, baseUrl }).settings.baseUrl).toBe(baseUrl.replace(/\/$/, ''));
  });

  it('refuses bad numbers by name', () => {
    expect(() => new RuntimeClient({ baseUrl: 'http://127.0.0.1:1', maxResponseBytes: -1 })).toThrow(
      /maxResponseBytes/,
    );
    expect(() => new RuntimeClient({ baseUrl: 'http://127.0.0.1:1', timeoutMs: Number.NaN })).toThrow(/timeoutMs/);
  });
});

describe('the API key never leaks', () => {
  const keyed = () => setup({ users: { [KEY]: { user: 'alice', orgs: [] } } }, { apiKey: KEY });

  it('an error response echoing the key (body and headers): message, stack, body, headers, toString, JSON, inspect', async () => {
    const { client, server } = await keyed();
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: 'echo-key' });
    const err = await rejectionOf(client.queue.list());
    expect(err).toBeInstanceOf(APIError);
    expect((err as APIError).status).toBe(400);
    expect(err.message).toContain('[REDACTED]');
    expect((err as APIError).headers?.get('x-echo-authorization')).toBe('Bearer [REDACTED]');
    expectNoKey(err);
  });

  it('a success body echoing the key that is not JSON: the parser error in the cause chain is redacted too', async () => {
    const { client, server } = await keyed();
    server.faults.add({ method: 'POST', path: '/api/ai/images/generate', kind: 'echo-key-invalid-json' });
    const err = await rejectionOf(client.images.generate({ model: 'flux-1-dev', prompt: 'x' }));
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect(err.cause).toBeInstanceOf(InvalidResponseError);
    expect((err.cause as Error).cause).toBeInstanceOf(SyntaxError);
    expectNoKey(err);
    expect(server.count('POST', '/api/ai/images/generate')).toBe(1);
  });

  it('a chat-stream error event echoing the key', async () => {
    const { client, server } = await keyed();
    server.faults.add({ method: 'POST', path: '/api/ai/chat/completions', kind: 'echo-key-stream' });
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
    expect(err).toBeInstanceOf(APIError);
    expect(err.message).toBe('Upstream rejected Authorization: Bearer [REDACTED]');
    expectNoKey(err);
  });

  it('inspecting the client or a transport, even with showHidden and unlimited depth, never shows the key', async () => {
    const { client } = await keyed();
    await client.queue.list(); // a used client
    for (const text of [
      inspect(client, { showHidden: true }),
      inspect(client, { showHidden: true, depth: Infinity }),
      JSON.stringify(client.settings),
    ]) {
      expect(text).not.toContain(KEY);
    }
    const t = createTransport({
      apiKey: KEY,
      baseUrl: 'http://127.0.0.1:1',
      headers: { 'x-api-key': 'other-secret-value' },
    });
    const shown = inspect(t, { showHidden: true, depth: Infinity });
    expect(shown).not.toContain(KEY);
    expect(shown).not.toContain('other-secret-value');
  });

  it('connection errors and timeouts carry no key either', async () => {
    const { server } = await keyed();
    server.faults.add({ method: 'POST', path: '/api/ai/images/generate', kind: 'hang' });
    const client = new Client({ apiKey: KEY, baseUrl: server.url });
    const err = await rejectionOf(client.images.generate({ model: 'flux-1-dev', prompt: 'x' }, { timeoutMs: 100 }));
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expectNoKey(err);
  });
});

describe('response size cap and bounded messages', () => {
  it(`defaults to ${DEFAULT_MAX_RESPONSE_BYTES} bytes (100 MiB)`, async () => {
    const { client } = await setup();
    expect(client.settings.maxResponseBytes).toBe(100 * 1024 * 1024);
  });

  it.each([false, true])(
    'a body beyond maxResponseBytes (chunked: %s) stops the read early with ResponseTooLargeError; a GET is not retried',
    async (chunked) => {
      const { server } = await setup();
      const client = new Client({ apiKey: 'test-key', baseUrl: server.url, maxResponseBytes: 1024 * 1024 });
      const total = 64 * 1024 * 1024;
      server.faults.add({ method: 'GET', path: '/api/ai/models/*', kind: 'large-body', bytes: total, chunked });
      const err = await rejectionOf(client.models.retrieve('flux-1-dev'));
      expect(err).toBeInstanceOf(ResponseTooLargeError);
      expect((err as ResponseTooLargeError).limitBytes).toBe(1024 * 1024);
      expect(err.message).toContain('maxResponseBytes');
      await until(() => server.requests[0]!.closedEarly === true);
      expect(server.requests[0]!.bytesSent!).toBeLessThan(total / 2); // the client did not read it all
      expect(server.count('GET', '/api/ai/models/')).toBe(1);
    },
  );

  it('a generating POST answered beyond the cap: OutcomeUnknownError (invalid_response) caused by ResponseTooLargeError, sent once', async () => {
    const { server } = await setup();
    const client = new Client({ apiKey: 'test-key', baseUrl: server.url, maxResponseBytes: 256 * 1024 });
    server.faults.add({
      method: 'POST',
      path: '/api/ai/images/generate',
      kind: 'large-body',
      bytes: 8 * 1024 * 1024,
      chunked: true,
    });
    const err = await rejectionOf(
      client.images.generate({ model: 'flux-1-dev', prompt: 'x', response_format: 'b64_json' }),
    );
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect((err as OutcomeUnknownError).reason).toBe('invalid_response');
    expect(err.cause).toBeInstanceOf(ResponseTooLargeError);
    expect(server.count('POST', '/api/ai/images/generate')).toBe(1);
  });

  it('an event beyond the cap ends events.stream with ResponseTooLargeError', async () => {
    const { server } = await setup({ keepAliveMs: 60_000 });
    const client = new Client({ apiKey: 'test-key', baseUrl: server.url, maxResponseBytes: 64 * 1024 });
    const stream = await client.events.connect();
    server.emit('alice', 'media_generation_completed', {
      generation_id: 'g',
      status: 'failed',
      media_type: 'image',
      error: 'x'.repeat(1024 * 1024),
    });
    const err = await rejectionOf(
      (async () => {
        for await (const _ of stream) void _;
      })(),
    );
    expect(err).toBeInstanceOf(ResponseTooLargeError);
  });

  it(`a huge error message is cut to ${MAX_MESSAGE_CHARS} characters, and the body kept is bounded`, async () => {
    const { server } = await setup();
    const client = new Client({ apiKey: 'test-key', baseUrl: server.url, maxRetries: 0 });
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: 'huge-error', bytes: 5_000_000 });
    const err = await rejectionOf(client.queue.list());
    expect(err).toBeInstanceOf(InternalServerError);
    expect(err.message.length).toBeLessThan(MAX_MESSAGE_CHARS + 100);
    expect(err.message).toMatch(/more characters\]$/);
    expect(JSON.stringify((err as APIError).body).length).toBeLessThan(70_000);
    expect(inspect(err).length).toBeLessThan(10_000);
  });
});

describe('queue.run never hangs on a repeated generation id', () => {
  it('an enqueue answer listing an id twice: each distinct generation followed once, one outcome each', async () => {
    const { client, server } = await setup();
    server.faults.add({ method: 'POST', path: '/api/ai/queue', kind: 'duplicate-ids' });
    const outcomes = await client.queue.run(
      { model: 'flux-1-dev', prompt: 'x', num_generations: 2 },
      { timeoutMs: 10_000 },
    );
    expect(outcomes.map((o) => o.status)).toEqual(['succeeded', 'succeeded']);
    expect(new Set(outcomes.map((o) => o.generation_id)).size).toBe(2);
    expect(outcomes.map((o) => o.index)).toEqual([0, 1]);
    expect(server.count('POST', '/api/ai/queue')).toBe(1);
  });
});

describe('a silent event stream', () => {
  it('events.stream ends with ConnectionError after eventStreamIdleTimeoutMs without even a keep-alive', async () => {
    const { server } = await setup({ keepAliveMs: 60_000 });
    const client = new Client({ apiKey: 'test-key', baseUrl: server.url, eventStreamIdleTimeoutMs: 100 });
    const err = await rejectionOf(
      (async () => {
        for await (const _ of client.events.stream()) void _;
      })(),
    );
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.message).toContain('silent for more than 100 ms');
  });

  it('keep-alive comments keep it open', async () => {
    // a comment every 20 ms against an idle limit of 500 ms (a loaded machine may hold a timer back
    // by a few hundred ms); the stream outlives two idle limits, then the caller aborts it
    const { server } = await setup({ keepAliveMs: 20 });
    const client = new Client({ apiKey: 'test-key', baseUrl: server.url, eventStreamIdleTimeoutMs: 500 });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 1_200);
    const err = await rejectionOf(
      (async () => {
        for await (const _ of client.events.stream({ signal: ac.signal })) void _;
      })(),
    );
    expect(err.name).toBe('AbortError');
  });
});

describe('the shared event stream reconnects at once after a drop', () => {
  it('a stream dropped every 200 ms is reconnected after each drop even with a long retry backoff, and most outcomes arrive', async () => {
    // A retry backoff of 5 s: if a drop waited for it, the reconnections below could not happen in time.
    const { server } = await setup({
      decide: ({ index, params }) => ({
        outcome: 'succeeded',
        delayMs: 50 + ((Number(String(params['prompt']).slice(1)) * 4 + index) % 40) * 40,
      }),
    });
    const client = new Client({
      apiKey: 'test-key',
      baseUrl: server.url,
      retryBaseDelayMs: 5_000,
      retryMaxDelayMs: 5_000,
    });
    const drops = 8;
    let dropped = 0;
    const timer = setInterval(() => {
      if (dropped < drops) {
        server.dropEventStreams();
        dropped++;
      }
    }, 200);
    try {
      const runs = await Promise.all(
        Array.from({ length: 25 }, (_, i) =>
          client.queue.run(
            { model: 'flux-1-dev', prompt: `p${i}`, num_generations: 4 },
            { reconcileIntervalMs: 60_000, lostGraceMs: 50, timeoutMs: 20_000 },
          ),
        ),
      );
      await until(() => dropped === drops, 5_000);
      const outcomes = runs.flat();
      const succeeded = outcomes.filter((o) => o.status === 'succeeded').length;
      expect(outcomes).toHaveLength(100);
      expect(
        outcomes.every((o) => o.status === 'succeeded' || (o.status === 'lost' && o.reason === 'missed_event')),
      ).toBe(true);
      // the shared stream reconnects at once after a drop, so most generations see their event
      expect(succeeded).toBeGreaterThanOrEqual(60);
      expect(server.count('GET', '/api/events')).toBeGreaterThanOrEqual(2);
    } finally {
      clearInterval(timer);
    }
  });

  it('each drop of an established connection is followed by a new connection without the backoff delay', async () => {
    const { server } = await setup({ decide: () => ({ outcome: 'hold' }) });
    const client = new Client({
      apiKey: 'test-key',
      baseUrl: server.url,
      retryBaseDelayMs: 5_000,
      retryMaxDelayMs: 5_000,
    });
    const ac = new AbortController();
    const run = client.queue.run(
      { model: 'flux-1-dev', prompt: 'x' },
      { signal: ac.signal, reconcileIntervalMs: 60_000 },
    );
    try {
      await until(() => client.queue.eventStream.state === 'up');
      for (let i = 1; i <= 4; i++) {
        await new Promise((r) => setTimeout(r, 120)); // > the 100 ms a connection must last not to count as a flap
        server.dropEventStreams();
        await until(() => server.count('GET', '/api/events') === i + 1, 2_000); // the backoff would take >= 5 s
      }
    } finally {
      ac.abort();
      await run.catch(() => undefined);
    }
  });
});

describe('empty or null success bodies', () => {
  it.each(['null-200', 'empty-200'] as const)(
    'models.retrieve answered %s: InvalidResponseError (not a TypeError), not retried',
    async (kind) => {
      const { client, server } = await setup();
      server.faults.add({ method: 'GET', path: '/api/ai/models/*', kind });
      const err = await rejectionOf(client.models.retrieve('flux-1-dev'));
      expect(err).toBeInstanceOf(InvalidResponseError);
      expect((err as InvalidResponseError).status).toBe(200);
      expect(err.message).toMatch(kind === 'null-200' ? /null/ : /empty body/);
      expect(server.count('GET', '/api/ai/models/')).toBe(1);
    },
  );

  it.each(['null-200', 'empty-200'] as const)(
    'a generating POST answered %s: OutcomeUnknownError (invalid_response), sent once; the generation exists',
    async (kind) => {
      const { client, server } = await setup();
      server.faults.add({ method: 'POST', path: '/api/ai/queue', kind });
      const err = await rejectionOf(client.queue.enqueue({ model: 'flux-1-dev', prompt: 'x [hold]' }));
      expect(err).toBeInstanceOf(OutcomeUnknownError);
      expect((err as OutcomeUnknownError).reason).toBe('invalid_response');
      expect(err.cause).toBeInstanceOf(InvalidResponseError);
      expect(err.message).toContain('queue.list');
      expect(server.count('POST', '/api/ai/queue')).toBe(1);
      expect((await client.queue.list()).count).toBe(1);
      server.faults.add({ method: 'POST', path: '/api/ai/images/generate', kind });
      const image = await rejectionOf(client.images.generate({ model: 'flux-1-dev', prompt: 'x' }));
      expect((image as OutcomeUnknownError).reason).toBe('invalid_response');
      expect(server.count('POST', '/api/ai/images/generate')).toBe(1);
    },
  );

  it('a success answer of the wrong shape: InvalidResponseError naming what was expected (for a POST, as the cause of OutcomeUnknownError)', async () => {
    const { client, server } = await setup();
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: 'wrong-shape' });
    const list = await rejectionOf(client.queue.list());
    expect(list).toBeInstanceOf(InvalidResponseError);
    expect(list.message).toContain('"generations" array');
    server.faults.add({ method: 'POST', path: '/api/ai/images/generate', kind: 'wrong-shape' });
    const err = await rejectionOf(client.images.generate({ model: 'flux-1-dev', prompt: 'x' }));
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect(err.cause).toBeInstanceOf(InvalidResponseError);
    expect((err.cause as Error).message).toContain('"images" array');
    expect(server.count('POST', '/api/ai/images/generate')).toBe(1);
  });
});
