// DNS rebinding: without publicOrigin the proxy serves only loopback hosts and IP
// literals, in the Host header and in request.url (which frameworks such as Next.js, Deno and Bun build
// from Host), as Vite's server.allowedHosts does; allowedHosts and publicOrigin name the others. A page
// on a name rebound to the server reads neither the event stream nor the queue, and gets no POST
// forwarded with the key.
import { describe, expect, it } from 'vitest';
import { createProxyHandler, SDKError, type ProxyOptions } from '../../index.ts';
import { startServer } from '../../fake-service/index.ts';
import { closers, IMAGE, KEY, PREFIX, raw, setup, useClosers } from './proxy-helpers.ts';

useClosers();

/** The proxy's error answer: status and message. */
async function refusal(res: Response): Promise<{ status: number; message: string }> {
  const body = (await res.json()) as { error: { message: string } };
  return { status: res.status, message: body.error.message };
}

describe('without publicOrigin: loopback hosts and IP literals only', () => {
  it('a rebinding page (its own name in Host, no Origin on a GET) reads neither /api/events nor the queue, and gets no POST forwarded', async () => {
    const { server, port } = await setup();
    const rebind = `rebind.evil.example:${port}`;
    const get = (path: string, host: string) =>
      raw(port, `GET ${PREFIX}${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    const events = await get('/api/events', rebind);
    expect(events.status).toBe(421);
    expect(events.body).not.toContain('event:');
    expect((await get('/api/ai/queue', rebind)).status).toBe(421);
    expect((await get('/api/ai/queue/g-1', rebind)).status).toBe(421);
    const post = await raw(
      port,
      `POST ${PREFIX}/api/ai/images/generate HTTP/1.1\r\nHost: ${rebind}\r\nContent-Type: application/json\r\nContent-Length: ${IMAGE.length}\r\nConnection: close\r\n\r\n${IMAGE}`,
    );
    expect(post.status).toBe(421);
    // the answer says how to serve a name
    const json = post.body.slice(post.body.indexOf('{'), post.body.lastIndexOf('}') + 1); // chunked
    const message = (JSON.parse(json) as { error: { message: string } }).error.message;
    expect(message).toContain('publicOrigin');
    expect(message).toContain('allowedHosts: ["rebind.evil.example"]');
    expect(server.requests).toHaveLength(0);
    // the same requests on the proxy's own address are served
    expect((await get('/api/ai/queue', `127.0.0.1:${port}`)).status).toBe(200);
    expect((await get('/api/ai/queue', `localhost:${port}`)).status).toBe(200);
    expect(server.count('GET', '/api/ai/queue')).toBe(2);
  });

  it('a framework that builds request.url from Host: a rebound name is refused there too, with or without a Host header', async () => {
    const server = await startServer({ users: { [KEY]: { user: 'alice', orgs: [] } } });
    closers.push(() => server.close());
    const handler = createProxyHandler({ apiKey: KEY, baseUrl: server.url });
    const call = (url: string, host?: string) =>
      handler(new Request(url, host === undefined ? {} : { headers: { host } }));
    const refused = [
      ['http://rebind.evil.example:3000/api/ai/queue', undefined],
      ['http://rebind.evil.example:3000/api/ai/queue', 'rebind.evil.example:3000'],
      ['http://localhost:3000/api/ai/queue', 'rebind.evil.example:3000'], // the Host, whatever the URL
      ['http://localhost.evil.example/api/ai/queue', undefined],
      ['http://127.0.0.1.nip.io/api/ai/queue', undefined],
      ['http://localhost:3000/api/ai/queue', 'evil.example@localhost:3000'], // not a host
      ['http://localhost:3000/api/ai/queue', ''],
    ] as const;
    for (const [url, host] of refused) {
      const { status, message } = await refusal(await call(url, host));
      expect(status, `${url} Host ${String(host)}`).toBe(421);
      expect(message).toMatch(/set publicOrigin/);
    }
    const served = [
      ['http://localhost:3000/api/ai/queue', 'localhost:3000'],
      ['http://LOCALHOST./api/ai/queue', undefined],
      ['http://app.localhost:5173/api/ai/queue', 'app.localhost:5173'],
      ['http://127.0.0.1:8080/api/ai/queue', '127.0.0.1:8080'],
      ['http://127.42.0.7/api/ai/queue', undefined],
      ['http://[::1]:3000/api/ai/queue', '[::1]:3000'],
      ['http://192.168.1.20:3000/api/ai/queue', '192.168.1.20:3000'], // an IP literal (a LAN address): no page is on it by name
    ] as const;
    for (const [url, host] of served) expect((await call(url, host)).status, `${url} Host ${String(host)}`).toBe(200);
    expect(server.count('GET', '/api/ai/queue')).toBe(served.length);
  });
});

describe('allowedHosts and publicOrigin serve other names', () => {
  async function handlerWith(options: Partial<ProxyOptions>) {
    const server = await startServer({ users: { [KEY]: { user: 'alice', orgs: [] } } });
    closers.push(() => server.close());
    const handler = createProxyHandler({ apiKey: KEY, baseUrl: server.url, ...options });
    return (host: string) => handler(new Request(`https://${host}/api/ai/queue`, { headers: { host } }));
  }

  it('allowedHosts: a listed name (any port), a leading dot for a domain and its subdomains; others still refused', async () => {
    const call = await handlerWith({ allowedHosts: ['app.example.com', '.example.org'] });
    for (const host of ['app.example.com', 'APP.example.com:8443', 'example.org', 'a.b.example.org', 'localhost'])
      expect((await call(host)).status, host).toBe(200);
    for (const host of ['example.com', 'app.example.com.evil.example', 'notexample.org'])
      expect((await call(host)).status, host).toBe(421);
  });

  it('allowedHosts: true serves any Host (the check is left to what is in front)', async () => {
    const call = await handlerWith({ allowedHosts: true });
    expect((await call('rebind.evil.example')).status).toBe(200);
  });

  it('publicOrigin: its hosts (and allowedHosts), not loopback; the message says to add the origin', async () => {
    const call = await handlerWith({ publicOrigin: 'https://app.example.com', allowedHosts: ['admin.example.com'] });
    expect((await call('app.example.com')).status).toBe(200);
    expect((await call('admin.example.com')).status).toBe(200);
    const { status, message } = await refusal(await call('localhost'));
    expect(status).toBe(421);
    expect(message).toMatch(/publicOrigin/);
  });

  it('refuses an allowedHosts entry that is not a host name at creation', () => {
    for (const bad of ['https://app.example.com', 'app.example.com:443', '*.example.com', '', 'a b'])
      expect(() => createProxyHandler({ apiKey: KEY, allowedHosts: [bad] }), bad).toThrow(SDKError);
    expect(() => createProxyHandler({ apiKey: KEY, allowedHosts: 'app.example.com' as never })).toThrow(/allowedHosts/);
  });
});
