// Hooks (onRequest, onResponse, beforeRetry) over the local server: called in order for each
// attempt, able to change a request's headers, to veto a retry (no second request), unable to force
// one (a generating POST whose outcome is unknown is never resent), and unable to hold a call past
// its timeout or its signal by never settling.
import { describe, expect, it } from 'vitest';
import { flux1DevGenerateImage } from '../../generated/models/flux-1-dev.ts';
import {
  AbortError,
  createTransport,
  InternalServerError,
  OutcomeUnknownError,
  SDKError,
  TimeoutError,
  type HookRequest,
  type RetryContext,
} from '../../index.ts';
import { rejectionOf, useServers } from './helpers.ts';

const setup = useServers();

describe('hooks', () => {
  it('are called in order for each attempt; onRequest changes headers and never sees the key', async () => {
    const calls: string[] = [];
    const seen: HookRequest[] = [];
    const { client, server } = await setup(
      { recordHeaders: true, requestIds: true },
      {
        onRequest: [
          (r) => {
            calls.push(`request-a#${r.attempt}`);
            seen.push({ ...r, headers: new Headers(r.headers) });
            r.headers.set('x-hooked', `attempt-${r.attempt}`);
          },
          async (r) => {
            await new Promise((resolve) => setTimeout(resolve, 5));
            calls.push(`request-b#${r.attempt}:${r.headers.get('x-hooked')}`);
          },
        ],
        onResponse: ({ request, response, requestId, durationMs }) => {
          expect(durationMs).toBeGreaterThanOrEqual(0);
          calls.push(`response#${request.attempt}:${response.status}:${requestId}`);
        },
        beforeRetry: (ctx: RetryContext) => {
          calls.push(`retry#${ctx.attempt}:${ctx.error.name}:${ctx.retriesLeft}`);
        },
      },
    );
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: '503' });
    await expect(client.queue.list()).resolves.toEqual({ count: 0, generations: [] });
    expect(calls).toEqual([
      'request-a#1',
      'request-b#1:attempt-1',
      'response#1:503:req_1',
      'retry#1:InternalServerError:2',
      'request-a#2',
      'request-b#2:attempt-2',
      'response#2:200:req_2',
    ]);
    expect(server.requests.map((r) => r.headers?.['x-hooked'])).toEqual(['attempt-1', 'attempt-2']);
    expect(seen[0]).toMatchObject({
      method: 'GET',
      path: '/api/ai/queue',
      url: `${server.url}/api/ai/queue`,
      attempt: 1,
    });
    expect(seen.every((r) => !r.headers.has('authorization'))).toBe(true);
  });

  it('beforeRetry returning false vetoes the retry: the error, and no second request', async () => {
    const asked: RetryContext[] = [];
    const { client, server } = await setup({}, { beforeRetry: [(ctx) => void asked.push(ctx), () => false] });
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: '503' }); // 503, then 200
    const err = await rejectionOf(client.queue.list());
    expect(err).toBeInstanceOf(InternalServerError);
    expect((err as InternalServerError).status).toBe(503);
    expect(server.count('GET', '/api/ai/queue')).toBe(1);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ request: { method: 'GET', path: '/api/ai/queue' }, attempt: 1 });
  });

  it('a hook that throws ends the call with its error', async () => {
    const { client, server } = await setup(
      {},
      {
        beforeRetry: () => {
          throw new Error('stop here');
        },
      },
    );
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: '503' });
    expect((await rejectionOf(client.queue.list())).message).toBe('stop here');
    expect(server.count('GET', '/api/ai/queue')).toBe(1);
    const failing = createTransport({
      apiKey: 'test-key',
      baseUrl: server.url,
      onRequest: () => {
        throw new Error('not sent');
      },
    });
    expect((await rejectionOf(failing.request({ method: 'GET', path: '/api/ai/queue' }))).message).toBe('not sent');
    expect(server.count('GET', '/api/ai/queue')).toBe(1);
  });

  it('a generating POST whose outcome is unknown is not resent, even when beforeRetry would allow it', async () => {
    const asked: RetryContext[] = [];
    const { client, server } = await setup({}, { beforeRetry: (ctx) => (asked.push(ctx), true) });
    server.faults.add({ method: 'POST', path: '/api/ai/images/generate', kind: '500' }); // 500, then 200
    const err = await rejectionOf(client.images.generate({ model: 'flux-1-dev', prompt: 'a fox' }));
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect(server.count('POST', '/api/ai/images/generate')).toBe(1);
    expect(asked).toEqual([]); // never asked: the runtime decided there is no retry
    // A 429 (surely not processed) is a retry the runtime makes, so beforeRetry is asked about it.
    server.faults.add({ method: 'POST', path: '/api/ai/images/generate', kind: '429' });
    await expect(client.images.generate({ model: 'flux-1-dev', prompt: 'a fox' })).resolves.toHaveProperty('images');
    expect(asked.map((c) => c.error.name)).toEqual(['RateLimitError']);
  });

  it('createTransport takes them too (a per-model function through it); a non-function hook is refused', async () => {
    const { server } = await setup();
    const paths: string[] = [];
    const t = createTransport({
      apiKey: 'test-key',
      baseUrl: server.url,
      onRequest: (r) => void paths.push(`${r.method} ${r.path}`),
      onResponse: ({ response }) => void paths.push(String(response.status)),
    });
    await flux1DevGenerateImage(t, { prompt: 'a fox' });
    expect(paths).toEqual(['POST /api/ai/images/generate', '200']);
    expect(() => createTransport({ baseUrl: server.url, onRequest: 'nope' as never })).toThrow(
      new SDKError('onRequest must be a function or an array of functions'),
    );
  });

  it('onRequest may replace the body (sent as JSON after the hooks ran)', async () => {
    const { client, server } = await setup();
    const t = createTransport({
      apiKey: 'test-key',
      baseUrl: server.url,
      onRequest: (r) => {
        r.body = { ...(r.body as object), prompt: '' };
      },
    });
    // The server refuses an empty prompt: the hook's body was the one sent.
    expect((await rejectionOf(flux1DevGenerateImage(t, { prompt: 'a fox' }))).message).toBe('Prompt cannot be empty');
    await expect(client.images.generate({ model: 'flux-1-dev', prompt: 'a fox' })).resolves.toHaveProperty('images');
  });
});

describe('a hook that never settles', () => {
  const never = () => new Promise<never>(() => undefined);

  it('onRequest: the call ends with TimeoutError at its timeoutMs (a POST too: not sent, so not OutcomeUnknownError), or AbortError', async () => {
    const { server } = await setup();
    const t = createTransport({ apiKey: 'test-key', baseUrl: server.url, onRequest: never });
    const get = await rejectionOf(t.request({ method: 'GET', path: '/api/ai/queue' }, { timeoutMs: 100 }));
    expect(get).toBeInstanceOf(TimeoutError);
    const post = await rejectionOf(flux1DevGenerateImage(t, { prompt: 'a fox' }, { timeoutMs: 100 }));
    expect(post).toBeInstanceOf(TimeoutError);
    expect(post).not.toBeInstanceOf(OutcomeUnknownError);
    const controller = new AbortController();
    const aborted = rejectionOf(t.request({ method: 'GET', path: '/api/ai/queue' }, { signal: controller.signal }));
    setTimeout(() => controller.abort(), 50);
    expect(await aborted).toBeInstanceOf(AbortError);
    expect(server.requests).toHaveLength(0); // nothing was sent
  });

  it('onResponse: TimeoutError for a GET; for a generating POST that was answered, OutcomeUnknownError (timeout)', async () => {
    const { server } = await setup();
    const t = createTransport({ apiKey: 'test-key', baseUrl: server.url, onResponse: never });
    expect(await rejectionOf(t.request({ method: 'GET', path: '/api/ai/queue' }, { timeoutMs: 100 }))).toBeInstanceOf(
      TimeoutError,
    );
    const post = await rejectionOf(flux1DevGenerateImage(t, { prompt: 'a fox' }, { timeoutMs: 200 }));
    expect(post).toBeInstanceOf(OutcomeUnknownError);
    expect((post as OutcomeUnknownError).reason).toBe('timeout');
    expect(server.count('POST', '/api/ai/images/generate')).toBe(1);
  });

  it('beforeRetry: the call ends with TimeoutError at its timeoutMs, or AbortError when its signal aborts; no retry is sent', async () => {
    const { client, server } = await setup({}, { beforeRetry: never });
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: '503', times: 2 });
    expect(await rejectionOf(client.queue.list({}, { timeoutMs: 200 }))).toBeInstanceOf(TimeoutError);
    const controller = new AbortController();
    const aborted = rejectionOf(client.queue.list({}, { signal: controller.signal }));
    setTimeout(() => controller.abort(), 100);
    expect(await aborted).toBeInstanceOf(AbortError);
    expect(server.count('GET', '/api/ai/queue')).toBe(2); // one attempt each, no retry
  });
});
