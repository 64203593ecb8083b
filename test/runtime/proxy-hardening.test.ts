// Hostile requests to the proxy (runtime/proxy/ behind the package's Node adapter,
// runtime/node/proxy-adapter.ts) over 127.0.0.1, with the local server as the service: requests a
// fetch Request cannot carry, aborted uploads and throwing callbacks get an answer and leave the host
// process running; DNS rebinding and scheme mismatches are refused; bodies are capped and their
// concurrency bounded; calls to the service time out; the event stream opens with a comment; the key
// never survives an error body's cut.
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createProxyHandler, SDKError } from '../../index.ts';
import { createNodeProxyListener } from '../../runtime/node/index.ts';
import { startServer, type LocalServer } from '../../fake-service/index.ts';
import { start, tsxArgs, until } from '../support/index.ts';
import { Client } from './helpers.ts';
import { closers, IMAGE, KEY, parse, PREFIX, raw, setup, sleep, stalledUpload, useClosers } from './proxy-helpers.ts';

useClosers();

describe('the proxy answers every request and its host process survives', () => {
  /** The proxy in a process of its own with Node's default handling of unhandled rejections (exit code 1). */
  async function proxyProcess(
    server: LocalServer,
  ): Promise<{ child: ChildProcess; url: string; port: number; stderr: () => string }> {
    const fixture = fileURLToPath(new URL('./proxy-host.fixture.ts', import.meta.url));
    const proxy = start(process.execPath, tsxArgs(fixture), {
      env: { PATH: process.env['PATH'] ?? '', PROXY_KEY: KEY, PROXY_BASE_URL: server.url },
    });
    closers.push(() => void proxy.child.kill());
    const url = (await proxy.waitFor('\n', { stream: 'stdout' })).trim();
    return { child: proxy.child, url, port: Number(new URL(url).port), stderr: proxy.stderr };
  }

  it(
    'TRACE, an absolute-form target, OPTIONS *, an aborted upload and a throwing authorize each get an answer; the process keeps serving',
    { timeout: 60_000 },
    async () => {
      const server = await startServer({ users: { [KEY]: { user: 'alice', orgs: [] } } });
      closers.push(() => server.close());
      const { child, url, port, stderr } = await proxyProcess(server);
      const host = `Host: 127.0.0.1:${port}\r\nConnection: close\r\n`;

      const trace = await raw(port, `TRACE ${PREFIX}/api/ai/queue HTTP/1.1\r\n${host}\r\n`);
      expect(trace.status).toBe(405);
      const absolute = await raw(port, `GET http://evil.example${PREFIX}/api/ai/queue HTTP/1.1\r\n${host}\r\n`);
      expect(absolute.status).toBe(400);
      const star = await raw(port, `OPTIONS * HTTP/1.1\r\n${host}\r\n`);
      expect(star.status).toBe(400);
      const aborted = stalledUpload(port, `${PREFIX}/api/ai/images/generate`, 100_000, 5_000);
      await sleep(100); // the proxy is reading the body
      aborted.destroy();
      const throwing = await fetch(`${url}${PREFIX}/api/ai/queue`, { headers: { 'x-throw': '1' } });
      expect(throwing.status).toBe(500);
      expect(await throwing.text()).not.toContain('exploded');

      // after all of that (and a moment for a stray rejection to end it) the same process still serves
      await sleep(200);
      const ok = await fetch(`${url}${PREFIX}/api/ai/queue`);
      expect(ok.status).toBe(200);
      expect(child.exitCode, stderr()).toBeNull();
      expect(stderr()).not.toMatch(/Unhandled|ERR_/);
      expect(server.count('POST', '/api/ai/images/generate')).toBe(0);
    },
  );

  it('an upload the caller aborts mid-body: the handler resolves with 499, nothing is forwarded', async () => {
    const { server, port, started, answers } = await setup();
    const socket = stalledUpload(port, `${PREFIX}/api/ai/images/generate`, 100_000, 1_000);
    await until(() => started() === 1);
    socket.destroy();
    await until(() => answers.length === 1);
    expect(answers[0]!.status).toBe(499);
    expect(server.requests).toHaveLength(0);
  });

  it('a body stream that fails (not the caller going away) is 400; a throwing authorize 500; a throwing allowedOrigins predicate 500', async () => {
    const server = await startServer({ users: { [KEY]: { user: 'alice', orgs: [] } } });
    closers.push(() => server.close());
    const failing = new ReadableStream<Uint8Array>({
      pull(c) {
        c.error(new Error('disk on fire'));
      },
    });
    const handler = createProxyHandler({ apiKey: KEY, baseUrl: server.url });
    const broken = await handler(
      new Request('http://localhost/api/ai/images/generate', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: failing,
        duplex: 'half',
      } as RequestInit),
    );
    expect(broken.status).toBe(400);
    const throwing = createProxyHandler({
      apiKey: KEY,
      baseUrl: server.url,
      authorize: () => Promise.reject(new Error('db down')),
    });
    expect((await throwing(new Request('http://localhost/api/ai/queue'))).status).toBe(500);
    const predicate = createProxyHandler({
      apiKey: KEY,
      baseUrl: server.url,
      allowedOrigins: () => {
        throw new Error('bad predicate');
      },
    });
    expect(
      (await predicate(new Request('http://localhost/api/ai/queue', { headers: { origin: 'https://app.example' } })))
        .status,
    ).toBe(500);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses bad options at creation', () => {
    expect(() => createProxyHandler({ apiKey: KEY, publicOrigin: 'app.example.com' })).toThrow(SDKError);
    expect(() => createProxyHandler({ apiKey: KEY, allowedOrigins: ['javascript:alert(1)'] })).toThrow(
      /allowedOrigins/,
    );
    expect(() => createProxyHandler({ apiKey: KEY, timeoutMs: 2 ** 31 })).toThrow(/timeoutMs/);
    expect(() => createProxyHandler({ apiKey: KEY, maxConcurrentBodies: 0 })).toThrow(/maxConcurrentBodies/);
    const handler = createProxyHandler({ apiKey: KEY });
    expect(() => createNodeProxyListener(handler, { origin: 'http://localhost:3000/api' })).toThrow(SDKError);
    expect(() => createNodeProxyListener(handler, { origin: 'localhost:3000' })).toThrow(SDKError);
    expect(() => createNodeProxyListener(handler, { origin: 'http://user:pw@localhost:3000' })).toThrow(SDKError);
    expect(() => createNodeProxyListener(handler, { origin: 'HTTP://LocalHost:80/' })).not.toThrow(); // an origin, spelled otherwise
    // the listener's declared parameter types accept Node's own request and response
    const server: http.Server = http.createServer(
      createNodeProxyListener(handler, { origin: 'http://localhost:3000' }),
    );
    expect(server.listenerCount('request')).toBe(1);
  });
});

describe('origins: checked against the proxy’s public origin, never against the Host header', () => {
  it('refuses a DNS-rebinding page (its own Host and Origin) and an https Origin on the http proxy', async () => {
    const { server, port, proxyUrl } = await setup();
    const rebind = `rebind.evil.example:${port}`;
    const post = (headers: string) =>
      raw(
        port,
        `POST ${PREFIX}/api/ai/images/generate HTTP/1.1\r\n${headers}Content-Type: application/json\r\nContent-Length: ${IMAGE.length}\r\nConnection: close\r\n\r\n${IMAGE}`,
      );
    // refused for its Host (proxy-hosts.test.ts) before its Origin is looked at
    expect((await post(`Host: ${rebind}\r\nOrigin: http://${rebind}\r\n`)).status).toBe(421);
    // a page on another port or scheme of the proxy's host: refused for its Origin
    expect((await post(`Host: 127.0.0.1:${port}\r\nOrigin: http://127.0.0.1:1\r\n`)).status).toBe(403);
    expect((await post(`Host: 127.0.0.1:${port}\r\nOrigin: ${proxyUrl.replace('http:', 'https:')}\r\n`)).status).toBe(
      403,
    );
    expect(server.requests).toHaveLength(0);
    expect((await post(`Host: 127.0.0.1:${port}\r\nOrigin: ${proxyUrl}\r\n`)).status).toBe(200);
  });

  it('with publicOrigin: a Host it does not name is 421 (a rebinding GET carries no Origin); request.url’s origin is not trusted', async () => {
    const { server, port, proxyUrl } = await setup({ publicOrigin: ['https://app.example', 'http://127.0.0.1:1'] });
    const get = (host: string) =>
      raw(port, `GET ${PREFIX}/api/ai/queue HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    expect((await get(`rebind.evil.example:${port}`)).status).toBe(421);
    expect((await get('app.example')).status).toBe(200);
    expect((await get('APP.example:443')).status).toBe(200); // the same host, spelled otherwise
    // a framework that builds request.url from the Host header: the Origin is compared with publicOrigin only
    const handler = createProxyHandler({ apiKey: KEY, baseUrl: server.url, publicOrigin: 'https://app.example' });
    const forged = await handler(
      new Request('http://rebind.evil.example/api/ai/queue', { headers: { origin: 'http://rebind.evil.example' } }),
    );
    expect(forged.status).toBe(403);
    const scheme = await handler(
      new Request('https://app.example/api/ai/queue', {
        headers: { origin: 'http://app.example', host: 'app.example' },
      }),
    );
    expect(scheme.status).toBe(403);
    const own = await handler(
      new Request('https://app.example/api/ai/queue', {
        headers: { origin: 'https://app.example', host: 'app.example' },
      }),
    );
    expect(own.status).toBe(200);
    expect(server.count('GET', '/api/ai/queue')).toBe(3);
    expect(proxyUrl).not.toBe('https://app.example');
  });

  it('allowedOrigins adds origins: the proxy’s own origin stays allowed; an unlisted one is 403', async () => {
    const { proxyUrl } = await setup({ allowedOrigins: ['https://app.example'] });
    const call = (origin: string) =>
      fetch(`${proxyUrl}${PREFIX}/api/ai/images/generate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: IMAGE,
      });
    expect((await call(proxyUrl)).status).toBe(200);
    const listed = await call('https://app.example');
    expect(listed.status).toBe(200);
    expect(listed.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect((await call('http://app.example')).status).toBe(403);
    expect((await call('https://evil.example')).status).toBe(403);
  });
});

describe('bounded bodies, concurrency and time', () => {
  it('an oversized body is refused (413) without being read: declared, or streamed without a length', async () => {
    const { server, port } = await setup({ maxRequestBytes: 1024 * 1024 });
    const declared = await raw(
      port,
      `POST ${PREFIX}/api/ai/images/generate HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${500 * 1024 * 1024}\r\n\r\n{`,
    );
    expect(declared.status).toBe(413);

    // chunked: keep sending until the answer comes; the proxy must answer long before it all went out
    const total = 256 * 1024 * 1024;
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    closers.push(() => void socket.destroy());
    let got = '';
    const answered = new Promise<void>((resolve) =>
      socket.on('data', (d) => {
        got += d.toString('latin1');
        if (got.includes('\r\n\r\n')) resolve();
      }),
    );
    socket.write(
      `POST ${PREFIX}/api/ai/images/generate HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    const chunk = `10000\r\n${' '.repeat(0x10000)}\r\n`;
    let sent = 0;
    let done = false;
    void answered.then(() => (done = true));
    while (!done && sent < total) {
      await Promise.race([new Promise((r) => socket.write(chunk, r)), answered]);
      sent += 0x10000;
    }
    expect(parse(got).status).toBe(413);
    expect(sent).toBeLessThan(total / 4);
    expect(server.requests).toHaveLength(0);
  });

  it('beyond maxConcurrentBodies POSTs at once: 503 with Retry-After, nothing forwarded; the slot frees when one ends', async () => {
    const { server, port, proxyUrl, started } = await setup({ maxConcurrentBodies: 2 });
    const held = [
      stalledUpload(port, `${PREFIX}/api/ai/images/generate`, 10_000),
      stalledUpload(port, `${PREFIX}/api/ai/images/generate`, 10_000),
    ];
    await until(() => started() === 2);
    const post = () =>
      fetch(`${proxyUrl}${PREFIX}/api/ai/images/generate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: IMAGE,
      });
    const busy = await post();
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(server.requests).toHaveLength(0);
    // GETs hold no body and are not counted
    expect((await fetch(`${proxyUrl}${PREFIX}/api/ai/queue`)).status).toBe(200);
    held[0]!.destroy();
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await post()).status;
      if (status !== 200) await sleep(20);
    }
    expect(status).toBe(200);
  });

  it('a service that never sends headers: 504 after timeoutMs', async () => {
    const { server, proxyUrl } = await setup({ timeoutMs: 200 });
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: 'hang' });
    const res = await fetch(`${proxyUrl}${PREFIX}/api/ai/queue`);
    expect(res.status).toBe(504);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe('gateway_timeout');
  });

  it('a body that stops half-way is cut at timeoutMs; the event stream outlives timeoutMs', async () => {
    const { server, proxyUrl } = await setup({ timeoutMs: 300 });
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: 'slow-body', delayMs: 20_000 });
    const res = await fetch(`${proxyUrl}${PREFIX}/api/ai/queue`);
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();

    const client = new Client({ baseUrl: `${proxyUrl}${PREFIX}`, retryBaseDelayMs: 10 });
    const stream = await client.events.connect();
    const it = stream[Symbol.asyncIterator]();
    const next = it.next();
    await sleep(900); // three times timeoutMs
    server.emit('alice', 'media_generation_completed', {
      generation_id: 'g-late',
      status: 'failed',
      media_type: 'image',
      error: 'e',
    });
    expect((await next).value).toMatchObject({ data: { generation_id: 'g-late' } });
    stream.close();
  });
});

describe('the event stream and the key', () => {
  it('the event stream’s first bytes (a comment) arrive before any event from the service', async () => {
    const { proxyUrl } = await setup({}, { keepAliveMs: 60_000 });
    const first = await new Promise<{ type: string | undefined; text: string }>((resolve, reject) => {
      const req = http.get(`${proxyUrl}${PREFIX}/api/events`, (res) => {
        res.once('data', (d: Buffer) => {
          resolve({ type: res.headers['content-type'], text: d.toString('utf8') });
          req.destroy();
        });
      });
      req.on('error', reject);
    });
    expect(first.type).toContain('text/event-stream');
    expect(first.text.startsWith(': connected\n\n')).toBe(true);
  });

  it('no part of the key survives an error body cut across it', async () => {
    const { proxyUrl } = await setup();
    const generate = (model: string) =>
      fetch(`${proxyUrl}${PREFIX}/api/ai/images/generate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model, prompt: 'x' }),
      });
    // where the model name lands in the service's 404 body, then a name that puts the key across the 64 KiB cut
    const probe = await (await generate('PROBE-NAME')).text();
    const at = probe.indexOf('PROBE-NAME');
    expect(at).toBeGreaterThan(0);
    const cut = 65_536;
    const padding = 'p'.repeat(cut - at - Math.floor(KEY.length / 2));
    const res = await generate(padding + KEY);
    const text = await res.text();
    expect(res.status).toBe(404);
    expect(text).toContain(padding.slice(0, 1_000));
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(cut);
    for (let i = 0; i + 4 <= KEY.length; i++)
      expect(text, `key fragment ${KEY.slice(i, i + 4)}`).not.toContain(KEY.slice(i, i + 4));
  });
});
