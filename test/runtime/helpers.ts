// Shared setup of the runtime end-to-end tests: a local server on 127.0.0.1 and an SDK client
// pointed at it (no fetch mocks). Small delays keep the suite fast.
import { readFile } from 'node:fs/promises';
import { afterEach } from 'vitest';
import { Client } from '../../index.ts';
import type { ClientOptions, SchemaSource } from '../../runtime/index.ts';
import { startServer, type LocalServer, type LocalServerOptions } from '../server/index.ts';

export { Client };

/** Close every server a test started. Call once at the top of each test file. */
export function useServers(): (serverOptions?: LocalServerOptions, clientOptions?: ClientOptions) => Promise<{ server: LocalServer; client: Client }> {
  const servers: LocalServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  return async (serverOptions = {}, clientOptions = {}) => {
    const server = await startServer({ workerDelayMs: 20, ...serverOptions });
    servers.push(server);
    const client = new Client({ apiKey: 'test-key', baseUrl: server.url, retryBaseDelayMs: 10, retryMaxDelayMs: 100, ...clientOptions });
    return { server, client };
  };
}

/** A schema source reading the snapshot files directly (`specs/models/<id>.json`), for the runtime client. */
export const specsSchemas: SchemaSource = async (model) => {
  try {
    const raw = JSON.parse(await readFile(new URL(`../../specs/models/${model}.json`, import.meta.url), 'utf8')) as Record<string, unknown>;
    return (raw['request_schema'] ?? raw['json_request_schema'] ?? null) as Record<string, unknown> | null;
  } catch {
    return undefined;
  }
};

/** Wait until `cond()` is true (polling every 5 ms), or fail after `ms`. */
export async function until(cond: () => boolean, ms = 3_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejectionOf(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}
