// The server-side proxy handler (runtime/proxy/handler.ts) over 127.0.0.1: a Node http server serving the
// handler through the package's adapter (createNodeProxyListener) in front of the local server, and
// the SDK pointed at the proxy with no key: an image, queue.run over the event stream, a streamed chat, refused paths
// and methods, dropped caller credentials, CORS, and a key that never comes back.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createProxyHandler, NotFoundError, RuntimeClient, SDKError, type ProxyOptions } from '../../index.ts';
import { createNodeProxyListener } from '../../runtime/node/index.ts';
import { startServer, type LocalServer } from '../../fake-service/index.ts';
import { until } from '../support/index.ts';
import { Client } from './helpers.ts';

const KEY = 'sk-proxy-0123456789SECRET';
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

/** A Node http server serving `handler` through the package's adapter (`oxen-inference-sdk/node`), its origin fixed to its own address. */
async function serveHandler(handler: (request: Request) => Promise<Response>): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.on('request', createNodeProxyListener(handler, { origin }));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return origin;
}

/** The local server (knowing only KEY), a proxy in front of it at /api/oxen, and a keyless client of the proxy. */
async function setup(
  proxy: Partial<ProxyOptions> = {},
): Promise<{ server: LocalServer; proxyUrl: string; client: Client; sent: Headers[] }> {
  const server = await startServer({ workerDelayMs: 20, users: { [KEY]: { user: 'alice', orgs: [] } } });
  closers.push(() => server.close());
  const sent: Headers[] = [];
  const observe: typeof fetch = (input, init) => {
    sent.push(new Headers(init?.headers));
    return fetch(input, init);
  };
  const proxyUrl = await serveHandler(
    createProxyHandler({ apiKey: KEY, baseUrl: server.url, pathPrefix: '/api/oxen', fetch: observe, ...proxy }),
  );
  const client = new Client({ baseUrl: `${proxyUrl}/api/oxen`, retryBaseDelayMs: 10 });
  return { server, proxyUrl, client, sent };
}

describe('createProxyHandler', () => {
  it('forwards an image call with the key added; the caller sends none', async () => {
    const { client, server, sent } = await setup();
    const res = await client.images.generate({ model: 'flux-1-dev', prompt: 'a fox' });
    expect(res.images).toHaveLength(1);
    expect(server.count('POST', '/api/ai/images/generate')).toBe(1);
    expect(sent[0]!.get('authorization')).toBe(`Bearer ${KEY}`);
  });

  it('drops the caller’s Authorization and cookies (and any other header)', async () => {
    const { proxyUrl, sent } = await setup();
    const client = new RuntimeClient({
      baseUrl: `${proxyUrl}/api/oxen`,
      apiKey: 'attacker-key',
      headers: { cookie: 'session=abc', 'x-forwarded-for': '1.2.3.4' },
    });
    await client.models.retrieve('flux-1-dev');
    const h = sent[0]!;
    expect(h.get('authorization')).toBe(`Bearer ${KEY}`);
    expect(h.get('cookie')).toBeNull();
    expect(h.get('x-forwarded-for')).toBeNull();
    expect([...h.keys()].sort()).toEqual(['accept', 'authorization']);
  });

  it('queue.run follows generations over the proxied event stream (streamed through, not buffered)', async () => {
    const { client, server } = await setup();
    const outcomes = await client.queue.run(
      { model: 'flux-1-dev', prompt: 'x', num_generations: 2 },
      { timeoutMs: 10_000 },
    );
    expect(outcomes.map((o) => o.status)).toEqual(['succeeded', 'succeeded']);
    // An endless stream: an event reaches the client only if the proxy passes bytes through as they come.
    const stream = await client.events.connect();
    const it = stream[Symbol.asyncIterator]();
    const next = it.next();
    await until(() => server.count('GET', '/api/events') === 2);
    server.emit('alice', 'media_generation_completed', {
      generation_id: 'g-live',
      status: 'failed',
      media_type: 'image',
      error: 'e',
    });
    expect((await next).value).toMatchObject({
      event: 'media_generation_completed',
      data: { generation_id: 'g-live' },
    });
    stream.close();
  });

  it('streams a chat completion chunk by chunk', async () => {
    const { client } = await setup();
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'one two three' }],
      stream: true,
    });
    const parts: string[] = [];
    for await (const chunk of stream) parts.push(chunk.choices[0]?.delta.content ?? '');
    expect(parts.join('')).toBe('Echo: one two three');
    expect(parts.length).toBeGreaterThan(1);
  });

  it('passes the service’s errors through (typed by the SDK)', async () => {
    const { client } = await setup();
    const err = await client.untyped.images.generate({ model: 'no-such-model', prompt: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as Error).message).toBe('Model not found: no-such-model');
  });

  it('forwards the catalog and the fine-tune operations of the operations table, with their query parameters', async () => {
    const { server } = await setup();
    const urls: string[] = [];
    const proxyUrl = await serveHandler(
      createProxyHandler({
        apiKey: KEY,
        baseUrl: server.url,
        fetch: (input, init) => {
          urls.push(String(input));
          return fetch(input, init);
        },
      }),
    );
    const client = new Client({ baseUrl: proxyUrl, retryBaseDelayMs: 10 });
    expect((await client.models.search('flux')).data.length).toBeGreaterThan(0);
    expect((await client.models.list({ developer_name: 'openai' })).data.length).toBeGreaterThan(0);
    const repo = { namespace: 'alice', repo_name: 'data' };
    const { fine_tune } = await client.fineTunes.create(repo, {
      resource: 'main/t.parquet',
      base_model: 'flux-1-dev',
      script_type: 'image_generation',
      training_params: { caption_column: 'c', image_column: 'i' },
    });
    await client.fineTunes.run({ ...repo, id: fine_tune.id });
    expect((await client.fineTunes.retrieve({ ...repo, id: fine_tune.id })).fine_tune.status).toBe('running');
    // only the query parameters the description lists for the operation are passed on
    const stray = await fetch(`${proxyUrl}/api/ai/models/search?search=kling&admin=1`);
    expect(stray.status).toBe(200);
    expect(urls.map((u) => new URL(u).search)).toEqual([
      '?search=flux',
      '?developer_name=openai',
      '',
      '',
      '',
      '?search=kling',
    ]);
  });

  it('refuses other paths (404), other methods (405 with Allow), unsafe path parameters (400), and paths outside its prefix', async () => {
    const { proxyUrl, server } = await setup();
    const call = (method: string, path: string) => fetch(`${proxyUrl}${path}`, { method });
    expect((await call('GET', '/api/oxen/api/admin')).status).toBe(404);
    expect((await call('GET', '/api/oxen/files/alice/x.png')).status).toBe(404);
    expect((await call('GET', '/api/ai/queue')).status).toBe(404); // not under the prefix
    const put = await call('PUT', '/api/oxen/api/ai/queue');
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('POST, GET');
    expect((await call('POST', '/api/oxen/api/ai/models/flux-1-dev')).status).toBe(405);
    expect((await call('GET', '/api/oxen/api/ai/models/%252e%252e')).status).toBe(400);
    expect((await call('GET', '/api/oxen/api/ai/queue/a%2Fb')).status).toBe(400);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a non-JSON POST body (415) and a cross-site Origin when no allowedOrigins is set (403)', async () => {
    const { proxyUrl, server } = await setup();
    const form = await fetch(`${proxyUrl}/api/oxen/api/ai/images/generate`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{"model":"flux-1-dev","prompt":"x"}',
    });
    expect(form.status).toBe(415);
    const crossSite = await fetch(`${proxyUrl}/api/oxen/api/ai/images/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: '{"model":"flux-1-dev","prompt":"x"}',
    });
    expect(crossSite.status).toBe(403);
    const sameSite = await fetch(`${proxyUrl}/api/oxen/api/ai/images/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: proxyUrl },
      body: '{"model":"flux-1-dev","prompt":"x"}',
    });
    expect(sameSite.status).toBe(200);
    expect(server.count('POST', '/api/ai/images/generate')).toBe(1);
  });

  it('CORS with allowedOrigins: preflight 204 for an allowed origin, Access-Control-Allow-Origin on its responses; others 403', async () => {
    const { proxyUrl } = await setup({ allowedOrigins: ['https://app.example'] });
    const pre = await fetch(`${proxyUrl}/api/oxen/api/ai/queue`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(pre.headers.get('access-control-allow-methods')).toBe('POST, GET, OPTIONS');
    expect(pre.headers.get('access-control-allow-headers')).toContain('content-type');
    const res = await fetch(`${proxyUrl}/api/oxen/api/ai/queue`, { headers: { origin: 'https://app.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(res.headers.get('access-control-expose-headers')).toContain('Retry-After');
    const other = await fetch(`${proxyUrl}/api/oxen/api/ai/queue`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example' },
    });
    expect(other.status).toBe(403);
  });

  it('never returns the key: an error body and header echoing it are redacted or dropped', async () => {
    const { proxyUrl, server } = await setup();
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: 'echo-key' });
    const res = await fetch(`${proxyUrl}/api/oxen/api/ai/queue`);
    const text = await res.text();
    expect(res.status).toBe(400);
    expect(text).toContain('[REDACTED]');
    expect(text).not.toContain(KEY);
    expect([...res.headers.values()].join('\n')).not.toContain(KEY);
    expect(res.headers.get('x-echo-authorization')).toBeNull();
  });

  it('authorize: false refuses with 401 before anything is forwarded', async () => {
    const { proxyUrl, server } = await setup({ authorize: (req) => req.headers.get('x-app-session') === 'ok' });
    expect((await fetch(`${proxyUrl}/api/oxen/api/ai/queue`)).status).toBe(401);
    expect((await fetch(`${proxyUrl}/api/oxen/api/ai/queue`, { headers: { 'x-app-session': 'ok' } })).status).toBe(200);
    expect(server.count('GET', '/api/ai/queue')).toBe(1);
  });

  it('refuses to be created without a key, or with a plain-http non-loopback service', () => {
    const saved = process.env['OXEN_API_KEY'];
    delete process.env['OXEN_API_KEY'];
    try {
      expect(() => createProxyHandler({})).toThrow(SDKError);
    } finally {
      if (saved !== undefined) process.env['OXEN_API_KEY'] = saved;
    }
    expect(() => createProxyHandler({ apiKey: KEY, baseUrl: 'http://hub.example' })).toThrow(/https/);
  });
});
