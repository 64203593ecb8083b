// Shared setup of the proxy's hostile-request tests (proxy-*.test.ts): the local server, the proxy in
// front of it behind the package's Node adapter on 127.0.0.1, and raw HTTP/1.1 over TCP for what a
// fetch cannot send (a forged Host, a stalled upload). Every server and socket is closed after each test.
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { createProxyHandler, type ProxyOptions } from '../../index.ts';
import { createNodeProxyListener } from '../../runtime/node/index.ts';
import { startServer, type LocalServer, type LocalServerOptions } from '../../fake-service/index.ts';

export const KEY = 'sk-proxy-hardening-7Q2mZ9xWv4LpR8';
export const PREFIX = '/api/oxen';
export const IMAGE = JSON.stringify({ model: 'flux-1-dev', prompt: 'a fox' });
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Run after each test (servers, sockets, child processes). Call `useClosers()` once per test file. */
export const closers: Array<() => Promise<void> | void> = [];
export function useClosers(): void {
  afterEach(async () => {
    await Promise.all(closers.splice(0).map(async (c) => c()));
  });
}

/** Serve `listener` on 127.0.0.1 (port 0); closed after the test. */
export async function listen(
  listener?: http.RequestListener,
): Promise<{ server: http.Server; url: string; port: number }> {
  const server = http.createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { server, url: `http://127.0.0.1:${port}`, port };
}

export interface Proxy {
  server: LocalServer;
  proxyUrl: string;
  port: number;
  /** How many requests reached the handler. */
  started(): number;
  /** The Responses the handler resolved with, in order. */
  answers: Response[];
}

/** The local server (knowing KEY), the proxy in front of it at PREFIX behind the Node adapter (origin fixed to its own address). */
export async function setup(proxy: Partial<ProxyOptions> = {}, serverOptions: LocalServerOptions = {}): Promise<Proxy> {
  const server = await startServer({
    workerDelayMs: 20,
    users: { [KEY]: { user: 'alice', orgs: [] } },
    ...serverOptions,
  });
  closers.push(() => server.close());
  const handler = createProxyHandler({ apiKey: KEY, baseUrl: server.url, pathPrefix: PREFIX, ...proxy });
  let started = 0;
  const answers: Response[] = [];
  const counted = async (request: Request): Promise<Response> => {
    started++;
    const response = await handler(request);
    answers.push(response);
    return response;
  };
  const front = await listen();
  front.server.on('request', createNodeProxyListener(counted, { origin: front.url }));
  return { server, proxyUrl: front.url, port: front.port, started: () => started, answers };
}

export interface RawAnswer {
  status: number;
  head: string;
  body: string;
}

/** Send `text` as is over TCP and read the answer until the server closes the connection. */
export function raw(port: number, text: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let got = '';
    socket.on('data', (d) => (got += d.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve(parse(got)));
    socket.write(text);
  });
}

export function parse(text: string): RawAnswer {
  const end = text.indexOf('\r\n\r\n');
  const head = end < 0 ? text : text.slice(0, end);
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), head, body: end < 0 ? '' : text.slice(end + 4) };
}

/** A socket that sent the head of a POST and `sent` bytes of its declared body, then stalls. */
export function stalledUpload(port: number, path: string, declared: number, sent = 10): net.Socket {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n${'{'.padEnd(sent, ' ')}`,
  );
  closers.push(() => void socket.destroy());
  return socket;
}
