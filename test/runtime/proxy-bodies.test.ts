// Request bodies through the proxy: forwarded byte for byte whatever their size
// and framing, held in about their own size (blocks; a large body is sent as a stream of them rather
// than copied), and read within bodyTimeoutMs: an upload that trickles in (a byte at a time) gets 408
// and frees its slot among maxConcurrentBodies. The memory test runs the proxy in a process of its own
// and compares its peak resident set with the bodies it holds.
import { createHash, randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createProxyHandler, type ProxyOptions } from '../../index.ts';
import { createNodeProxyListener } from '../../runtime/node/index.ts';
import { start, tsxArgs } from '../support/index.ts';
import { closers, IMAGE, KEY, listen, parse, sleep, useClosers } from './proxy-helpers.ts';

useClosers();
const MiB = 1024 * 1024;
const GENERATE = '/api/oxen/api/ai/images/generate';

/** A stand-in service that answers each POST, `holdMs` after its body ended, with the body's length and SHA-256. */
function hashingService(holdMs = 0) {
  let received = 0;
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const hash = createHash('sha256');
    let n = 0;
    req.on('data', (d: Buffer) => {
      hash.update(d);
      n += d.length;
    });
    req.on('end', () => {
      received++;
      const body = JSON.stringify({ n, sha: hash.digest('hex'), length: req.headers['content-length'] ?? null });
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(body), holdMs);
    });
  };
  return { listener, received: () => received };
}

/** The proxy behind the Node adapter in front of `service`; `seen` records what the handler passed to fetch. */
async function proxyTo(service: http.RequestListener, options: Partial<ProxyOptions> = {}) {
  const upstream = await listen(service);
  const seen: Array<{ body: unknown; length: string | null }> = [];
  const recording: typeof fetch = (input, init) => {
    seen.push({ body: init?.body, length: new Headers(init?.headers).get('content-length') });
    return fetch(input, init);
  };
  const handler = createProxyHandler({
    apiKey: KEY,
    baseUrl: upstream.url,
    pathPrefix: '/api/oxen',
    fetch: recording,
    ...options,
  });
  const front = await listen();
  front.server.on('request', createNodeProxyListener(handler, { origin: front.url }));
  return { handler, url: front.url, port: front.port, seen };
}

/** POST `body` with Node's http: with its Content-Length, or chunked in pieces of random sizes. */
function upload(url: string, body: Buffer, chunked: boolean): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { 'content-type': 'application/json' };
    if (chunked) headers['transfer-encoding'] = 'chunked';
    else headers['content-length'] = body.length;
    const req = http.request(url, { method: 'POST', headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    if (!chunked) return void req.end(body);
    let at = 0;
    const next = (): void => {
      if (at >= body.length) return void req.end();
      const n = 1 + Math.floor(Math.random() * 200_000);
      req.write(body.subarray(at, at + n), next);
      at += n;
    };
    next();
  });
}

describe('bodies are forwarded whole, from the blocks they were read into', () => {
  it('every size up to maxRequestBytes, declared or chunked, arrives byte for byte with its length; one byte more is 413', async () => {
    const service = hashingService();
    const max = 3 * MiB + 7;
    const { url, seen } = await proxyTo(service.listener, { maxRequestBytes: max });
    const sizes = [1, 16 * 1024 + 1, MiB, MiB + 1, 2 * MiB + 12_345, max];
    for (const chunked of [false, true]) {
      for (const size of sizes) {
        const body = randomBytes(size);
        const res = await upload(`${url}${GENERATE}`, body, chunked);
        expect(res.status, `${size} bytes${chunked ? ', chunked' : ''}`).toBe(200);
        expect(JSON.parse(res.text)).toEqual({
          n: size,
          sha: createHash('sha256').update(body).digest('hex'),
          length: String(size),
        });
      }
      expect((await upload(`${url}${GENERATE}`, randomBytes(max + 1), chunked)).status).toBe(413);
    }
    expect(service.received()).toBe(2 * sizes.length);
    // up to 1 MiB a Blob (copied once); larger, a stream of the blocks read, with the length declared
    for (const { body, length } of seen) {
      const size = Number(length ?? (body as Blob).size);
      if (size <= MiB) expect(body, `${size}`).toBeInstanceOf(Blob);
      else {
        expect(body, `${size}`).toBeInstanceOf(ReadableStream);
        expect(length).toBe(String(size));
      }
    }
  });
});

describe('bodyTimeoutMs', () => {
  it('an upload of a byte at a time: 408 after bodyTimeoutMs, nothing forwarded, and its slot is free for the next POST', async () => {
    const service = hashingService();
    const { url, port } = await proxyTo(service.listener, { bodyTimeoutMs: 600, maxConcurrentBodies: 1 });
    const socket = net.connect(port, '127.0.0.1');
    closers.push(() => void socket.destroy());
    let got = '';
    socket.on('data', (d) => (got += d.toString('latin1')));
    socket.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(
      `POST ${GENERATE} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
    );
    const started = Date.now();
    const trickle = setInterval(() => socket.writable && socket.write(' '), 100);
    closers.push(() => clearInterval(trickle));
    // meanwhile the one slot is taken
    await sleep(200);
    expect((await upload(`${url}${GENERATE}`, Buffer.from(IMAGE), false)).status).toBe(503);
    await closed; // the proxy answers and closes the connection
    clearInterval(trickle);
    const answer = parse(got);
    expect(answer.status).toBe(408);
    expect(answer.body).toContain('did not arrive within 600 ms');
    expect(Date.now() - started).toBeLessThan(20_000); // not Node's own request timeout (300 s)
    expect(service.received()).toBe(0);
    expect((await upload(`${url}${GENERATE}`, Buffer.from(IMAGE), false)).status).toBe(200);
  });

  it('a fetch handler’s body stream that never ends: 408', async () => {
    const { handler } = await proxyTo(hashingService().listener, { bodyTimeoutMs: 300 });
    const endless = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('{'));
      },
    });
    const res = await handler(
      new Request(`http://localhost${GENERATE}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: endless,
        duplex: 'half',
      } as RequestInit),
    );
    expect(res.status).toBe(408);
  });
});

describe('memory', () => {
  it(
    'bodies held at once take about their own size: the peak resident set grows by less than 1.35 times the bodies held',
    { timeout: 120_000 },
    async () => {
      const service = hashingService(1_500); // answers late: every body is held at once
      const upstream = await listen(service.listener);
      const fixture = fileURLToPath(new URL('./proxy-memory.fixture.ts', import.meta.url));
      const proxy = start(process.execPath, tsxArgs(fixture), {
        env: { PATH: process.env['PATH'] ?? '', PROXY_BASE_URL: upstream.url },
      });
      closers.push(() => void proxy.child.kill());
      const origin = (await proxy.waitFor('\n', { stream: 'stdout' })).trim();
      const count = 24;
      const size = 6 * MiB;
      const body = randomBytes(size);
      expect((await upload(`${origin}${GENERATE}`, body, false)).status).toBe(200); // warm
      await sleep(200);
      const base = Number(await (await fetch(`${origin}/__reset`)).text());
      const answers = await Promise.all(
        Array.from({ length: count }, (_, i) => upload(`${origin}${GENERATE}`, body, i % 4 === 3)),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(count).fill(200));
      const peak = Number(await (await fetch(`${origin}/__peak`)).text());
      const ratio = (peak - base) / (count * size);
      expect(ratio, `peak ${(peak / MiB).toFixed(0)} MiB, from ${(base / MiB).toFixed(0)} MiB`).toBeLessThan(1.35);
    },
  );
});
