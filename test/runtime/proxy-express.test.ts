// createNodeProxyListener mounted under a path by Express: Express strips the mount
// path from req.url and keeps the request's own in req.originalUrl; the listener reads that, so the
// handler's pathPrefix is the path browsers use, at any depth of routers. A body parser mounted before
// the proxy, or a pathPrefix that is not the mount path, gets an answer that says what to change.
import express from 'express';
import { describe, expect, it } from 'vitest';
import { createProxyHandler, type ProxyOptions } from '../../index.ts';
import { createNodeProxyListener } from '../../runtime/node/index.ts';
import { startServer, type LocalServer } from '../../fake-service/index.ts';
import { Client } from './helpers.ts';
import { closers, IMAGE, KEY, listen, useClosers } from './proxy-helpers.ts';

useClosers();

/** The local server, and an Express app on 127.0.0.1 that `mount` sets up with a listener of the proxy (its `pathPrefix` given). */
async function app(
  mount: (app: express.Express, listener: ReturnType<typeof createNodeProxyListener>) => void,
  options: Partial<ProxyOptions>,
): Promise<{ server: LocalServer; url: string }> {
  const server = await startServer({ workerDelayMs: 20, users: { [KEY]: { user: 'alice', orgs: [] } } });
  closers.push(() => server.close());
  const front = await listen();
  const handler = createProxyHandler({ apiKey: KEY, baseUrl: server.url, ...options });
  const application = express();
  mount(application, createNodeProxyListener(handler, { origin: front.url }));
  front.server.on('request', application);
  return { server, url: front.url };
}

const post = (url: string) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: IMAGE });

describe('createNodeProxyListener under Express', () => {
  it('app.use(path, listener) with pathPrefix set to that path: GET, POST and the SDK through it', async () => {
    const { server, url } = await app((a, listener) => a.use('/api/oxen', listener), { pathPrefix: '/api/oxen' });
    expect((await fetch(`${url}/api/oxen/api/ai/queue`)).status).toBe(200);
    expect((await post(`${url}/api/oxen/api/ai/images/generate`)).status).toBe(200);
    const client = new Client({ baseUrl: `${url}/api/oxen`, retryBaseDelayMs: 10 });
    const outcomes = await client.queue.run({ model: 'flux-1-dev', prompt: 'x' }, { timeoutMs: 10_000 });
    expect(outcomes.map((o) => o.status)).toEqual(['succeeded']);
    expect(server.count('POST', '/api/ai/images/generate')).toBe(1);
  });

  it('a router mounted in a router: the whole path browsers use is the pathPrefix', async () => {
    const { server, url } = await app(
      (a, listener) => {
        const router = express.Router();
        router.use('/oxen', listener);
        a.use('/api', router);
      },
      { pathPrefix: '/api/oxen' },
    );
    expect((await fetch(`${url}/api/oxen/api/ai/models/flux-1-dev`)).status).toBe(200);
    expect(server.count('GET', '/api/ai/models/flux-1-dev')).toBe(1);
  });

  it('a pathPrefix that is only the part after the mount path: 404 saying which pathPrefix the proxy has', async () => {
    const { server, url } = await app((a, listener) => a.use('/api/oxen', listener), { pathPrefix: '/oxen' });
    const res = await fetch(`${url}/api/oxen/api/ai/queue`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
      'No route for GET /api/oxen/api/ai/queue (this proxy serves the API\'s paths under pathPrefix "/oxen")',
    );
    expect(server.requests).toHaveLength(0);
  });

  it('express.json() mounted before the proxy: 500 saying to mount the proxy first, not a hang', async () => {
    const { server, url } = await app(
      (a, listener) => {
        a.use(express.json());
        a.use('/api/oxen', listener);
      },
      { pathPrefix: '/api/oxen', bodyTimeoutMs: 60_000 },
    );
    const res = await post(`${url}/api/oxen/api/ai/images/generate`);
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /mount the proxy before body parsers/,
    );
    expect(server.requests).toHaveLength(0);
  });
});
