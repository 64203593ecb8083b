// Retries, timeouts and aborts, counted at the server: GET/DELETE are retried on 5xx, 429 and
// connection errors; a generating POST is retried only on 429 or a refused connection, and any
// other failure is an OutcomeUnknownError after exactly one send.
import { describe, expect, it } from 'vitest';
import {
  AbortError,
  APIError,
  ConnectionError,
  InternalServerError,
  OutcomeUnknownError,
  RateLimitError,
  TimeoutError,
} from '../../index.ts';
import { startServer } from '../../fake-service/index.ts';
import { Client, rejectionOf, useServers } from './helpers.ts';

const setup = useServers();

describe('idempotent requests (GET, DELETE)', () => {
  it('a GET is retried after 503 until it succeeds', async () => {
    const { client, server } = await setup();
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: '503', times: 2 });
    const res = await client.queue.list();
    expect(res).toEqual({ count: 0, generations: [] });
    expect(server.count('GET', /^\/api\/ai\/queue$/)).toBe(3);
  });

  it('a GET after 429 waits at least Retry-After before retrying', async () => {
    const { client, server } = await setup();
    server.faults.add({ method: 'GET', path: '/api/ai/models/*', kind: '429', retryAfterSeconds: 1 });
    const t0 = performance.now();
    const model = await client.models.retrieve('flux-1-dev');
    const elapsed = performance.now() - t0;
    expect(model.id).toBe('flux-1-dev');
    expect(server.count('GET', '/api/ai/models/flux-1-dev')).toBe(2);
    expect(elapsed).toBeGreaterThanOrEqual(990);
  });

  it('retries stop after maxRetries (client option and per call) with the last error', async () => {
    const { server } = await setup();
    const client = new Client({ apiKey: 'test-key', baseUrl: server.url, retryBaseDelayMs: 5, maxRetries: 1 });
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: '500', times: Infinity });
    const err = await rejectionOf(client.queue.list());
    expect(err).toBeInstanceOf(InternalServerError);
    expect(err.message).toBe('Internal server error');
    expect(server.count('GET', '/api/ai/queue')).toBe(2);
    await rejectionOf(client.queue.list({}, { maxRetries: 3 }));
    expect(server.count('GET', '/api/ai/queue')).toBe(2 + 4);
  });

  it('a DELETE is retried after a connection reset', async () => {
    const { client, server } = await setup();
    const { generations } = await client.queue.enqueue({ model: 'flux-1-dev', prompt: 'hold [hold]' });
    const id = generations[0]!.generation_id;
    server.faults.add({ method: 'DELETE', path: `/api/ai/queue/${id}`, kind: 'reset' });
    await expect(client.queue.cancel(id)).resolves.toEqual({ status: 'success', generation_id: id });
    expect(server.count('DELETE', `/api/ai/queue/${id}`)).toBe(2);
  });

  it('invalid JSON on a GET is an APIError (not retried)', async () => {
    const { client, server } = await setup();
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: 'invalid-json' });
    const err = await rejectionOf(client.queue.list());
    expect(err).toBeInstanceOf(APIError);
    expect(err.message).toContain('Invalid JSON');
    expect(server.count('GET', '/api/ai/queue')).toBe(1);
  });
});

describe('generating POSTs', () => {
  it('500 after enqueue: sent exactly once, OutcomeUnknownError says so, and the generation exists in queue.list', async () => {
    const { client, server } = await setup();
    server.faults.add({ method: 'POST', path: '/api/ai/queue', kind: '500-after-enqueue' });
    const err = await rejectionOf(client.queue.enqueue({ model: 'flux-1-dev', prompt: 'a fox [hold]' }));
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect((err as OutcomeUnknownError).reason).toBe('server_error');
    expect((err as OutcomeUnknownError).status).toBe(500);
    expect(err.message).toMatch(/outcome of POST \/api\/ai\/queue is unknown/);
    expect(err.message).toContain('queue.list');
    expect(server.count('POST', '/api/ai/queue')).toBe(1);
    const listed = await client.queue.list();
    expect(listed.count).toBe(1);
    expect(listed.generations[0]!.prompt).toBe('a fox [hold]');
  });

  it('a POST answered 429 is retried (it was not processed)', async () => {
    const { client, server } = await setup();
    server.faults.add({ method: 'POST', path: '/api/ai/queue', kind: '429' });
    const res = await client.queue.enqueue({ model: 'flux-1-dev', prompt: 'x', num_generations: 2 });
    expect(res.generations).toHaveLength(2);
    expect(server.count('POST', '/api/ai/queue')).toBe(2);
    // ...but not forever: the 429 survives maxRetries.
    server.faults.add({ method: 'POST', path: '/api/ai/images/generate', kind: '429', times: Infinity });
    const err = await rejectionOf(client.images.generate({ model: 'flux-1-dev', prompt: 'x' }, { maxRetries: 2 }));
    expect(err).toBeInstanceOf(RateLimitError);
    expect(server.count('POST', '/api/ai/images/generate')).toBe(3);
  });

  it('a reset on a POST is not resent', async () => {
    const { client, server } = await setup();
    server.faults.add({ method: 'POST', path: '/api/ai/images/generate', kind: 'reset' });
    const err = await rejectionOf(client.images.generate({ model: 'flux-1-dev', prompt: 'x' }));
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect((err as OutcomeUnknownError).reason).toBe('connection');
    expect((err as OutcomeUnknownError).cause).toBeInstanceOf(ConnectionError);
    expect(err.message).toContain('did not resend');
    expect(server.count('POST', '/api/ai/images/generate')).toBe(1);
  });

  it('a 503 on a POST is not resent', async () => {
    const { client, server } = await setup();
    server.faults.add({ method: 'POST', path: '/api/ai/chat/completions', kind: '503', retryAfterSeconds: 0 });
    const err = await rejectionOf(
      client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] }),
    );
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect(err.message).toContain('503');
    expect(server.count('POST', '/api/ai/chat/completions')).toBe(1);
  });

  it('a POST whose connection was refused (nothing sent) is retried, and succeeds once the server is up', async () => {
    // Find a free port, keep it closed for the first attempt, then start the server on it.
    const probe = await startServer();
    const port = probe.port;
    await probe.close();
    const client = new Client({
      apiKey: 'test-key',
      baseUrl: `http://127.0.0.1:${port}`,
      retryBaseDelayMs: 150,
      maxRetries: 5,
    });
    const pending = client.images.generate({ model: 'flux-1-dev', prompt: 'x' });
    await new Promise((r) => setTimeout(r, 40)); // the first attempt is refused meanwhile; the retry waits >= 150 ms
    const server = await startServer({ port });
    try {
      const res = await pending;
      expect(res.images).toHaveLength(1);
      expect(server.count('POST', '/api/ai/images/generate')).toBe(1);
    } finally {
      await server.close();
    }
    // With nothing listening at all: a ConnectionError that says nothing was sent (not OutcomeUnknownError).
    const err = await rejectionOf(
      new Client({
        apiKey: 'test-key',
        baseUrl: `http://127.0.0.1:${port}`,
        retryBaseDelayMs: 5,
        maxRetries: 1,
      }).images.generate({ model: 'flux-1-dev', prompt: 'x' }),
    );
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as ConnectionError).notSent).toBe(true);
  });

  it('invalid JSON answering a POST is an OutcomeUnknownError (not resent)', async () => {
    const { client, server } = await setup();
    server.faults.add({ method: 'POST', path: '/api/ai/queue', kind: 'invalid-json' });
    const err = await rejectionOf(client.queue.enqueue({ model: 'flux-1-dev', prompt: 'x' }));
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect((err as OutcomeUnknownError).reason).toBe('invalid_response');
    expect(server.count('POST', '/api/ai/queue')).toBe(1);
  });
});

describe('timeouts and aborts', () => {
  it('a hanging GET ends with TimeoutError after timeoutMs', async () => {
    const { client, server } = await setup();
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: 'hang' });
    const t0 = performance.now();
    const err = await rejectionOf(client.queue.list({}, { timeoutMs: 150 }));
    expect(err).toBeInstanceOf(TimeoutError);
    expect(performance.now() - t0).toBeLessThan(1_500);
    expect(server.count('GET', '/api/ai/queue')).toBe(1);
  });

  it('the timeout covers retries and their delays', async () => {
    const { server } = await setup();
    const client = new Client({ apiKey: 'test-key', baseUrl: server.url, retryBaseDelayMs: 100, maxRetries: 50 });
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: '503', times: Infinity });
    const t0 = performance.now();
    const err = await rejectionOf(client.queue.list({}, { timeoutMs: 400 }));
    expect(err).toBeInstanceOf(TimeoutError);
    expect(performance.now() - t0).toBeLessThan(1_500);
    expect(server.count('GET', '/api/ai/queue')).toBeGreaterThan(1);
  });

  it('a slow body ends with TimeoutError', async () => {
    const { client, server } = await setup();
    server.faults.add({ method: 'GET', path: '/api/ai/models/*', kind: 'slow-body', delayMs: 2_000 });
    const err = await rejectionOf(client.models.retrieve('flux-1-dev', {}, { timeoutMs: 150 }));
    expect(err).toBeInstanceOf(TimeoutError);
  });

  it('a hanging generating POST that times out is an OutcomeUnknownError (reason timeout)', async () => {
    const { client, server } = await setup();
    server.faults.add({ method: 'POST', path: '/api/ai/images/generate', kind: 'hang' });
    const err = await rejectionOf(client.images.generate({ model: 'flux-1-dev', prompt: 'x' }, { timeoutMs: 150 }));
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect((err as OutcomeUnknownError).reason).toBe('timeout');
    expect((err as OutcomeUnknownError).cause).toBeInstanceOf(TimeoutError);
    expect(server.count('POST', '/api/ai/images/generate')).toBe(1);
  });

  it('an abort ends a call with AbortError', async () => {
    const { client, server } = await setup();
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: 'hang' });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const err = await rejectionOf(client.queue.list({}, { signal: ac.signal }));
    expect(err).toBeInstanceOf(AbortError);
    expect(err).not.toBeInstanceOf(TimeoutError);
  });
});
