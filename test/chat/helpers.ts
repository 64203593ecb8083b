// Shared setup of the chat tests with real clients: the local server (knowing only KEY) on 127.0.0.1, and
// createProxyHandler in front of it served by a Node http server through the package's adapter
// (`createNodeProxyListener`). Each target is a base address of the chat API as a client of the widely
// used format takes it ("{base_url}/api/ai") and the API key that client sends.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { createProxyHandler } from '../../index.ts';
import { createNodeProxyListener } from '../../runtime/node/index.ts';
import { startServer, type LocalServer } from '../../fake-service/index.ts';

export const KEY = 'sk-chat-0123456789SECRET';

/** Where a client of the chat format is pointed. */
export interface ChatTarget {
  name: 'direct' | 'proxy';
  /** The base address of the chat API (`.../api/ai`). */
  baseURL: string;
  /** The SDK's `baseUrl` (the service root, or the proxy's prefix). */
  sdkBaseUrl: string;
  /** The key the client sends: the real one directly, a dummy one through the proxy (which drops it and adds its own). */
  apiKey: string;
}

/** A Node http server serving a fetch-style `handler` through the package's adapter (`oxen-inference-sdk/node`); resolves to its origin. */
async function serveHandler(
  handler: (request: Request) => Promise<Response>,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.on('request', createNodeProxyListener(handler, { origin: url }));
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url, close };
}

/** Start the local server and the proxy for the file (closed after it); returns the two targets, filled in by `beforeAll`. */
export function useTargets(): { targets: ChatTarget[]; server: () => LocalServer } {
  const targets: ChatTarget[] = [];
  let server: LocalServer | undefined;
  let proxy: { close: () => Promise<void> } | undefined;
  beforeAll(async () => {
    server = await startServer({ users: { [KEY]: { user: 'alice', orgs: [] } } });
    const p = await serveHandler(createProxyHandler({ apiKey: KEY, baseUrl: server.url, pathPrefix: '/api/oxen' }));
    proxy = p;
    targets.push(
      { name: 'direct', baseURL: `${server.url}/api/ai`, sdkBaseUrl: server.url, apiKey: KEY },
      { name: 'proxy', baseURL: `${p.url}/api/oxen/api/ai`, sdkBaseUrl: `${p.url}/api/oxen`, apiKey: 'not-the-key' },
    );
  });
  afterAll(async () => {
    await proxy?.close();
    await server?.close();
  });
  return { targets, server: () => server! };
}

/** The tool of the round trips: its JSON Schema parameters and its implementation. */
export const WEATHER_PARAMETERS: Record<string, unknown> = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
  additionalProperties: false,
};
export function weather(args: { city: string }): { city: string; temp_c: number } {
  return { city: args.city, temp_c: 21 };
}
/** The final text the local server answers once it has the tool result of `weather({ city })`. */
export function answerFor(city: string): string {
  return `Tool results: ${JSON.stringify(weather({ city }))}`;
}
