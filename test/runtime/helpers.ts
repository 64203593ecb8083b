// Shared setup of the runtime end-to-end tests: a local server on 127.0.0.1 and an SDK client
// pointed at it (no fetch mocks). Small delays keep the suite fast. What every test area uses
// (`until`, child processes, temporary directories) is in test/support/.
import { inspect } from 'node:util';
import { Ajv } from 'ajv';
import { afterEach, expect } from 'vitest';
import { APIError, Client, RedirectError } from '../../index.ts';
import type { ClientOptions, CompiledValidator } from '../../runtime/index.ts';
import { startServer, type LocalServer, type LocalServerOptions } from '../../fake-service/index.ts';

export { Client };

/**
 * The two queues the SDK must work against (`LocalServerOptions.queueMode`): as the service's docs
 * say today (the local server's default) and as the API description 0.224.2 says.
 */
export const QUEUE_MODES = ['today', '0.224.2'] as const;

/** Close every server a test started. Call once at the top of each test file. */
export function useServers(): (
  serverOptions?: LocalServerOptions,
  clientOptions?: ClientOptions,
) => Promise<{ server: LocalServer; client: Client }> {
  const servers: LocalServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  return async (serverOptions = {}, clientOptions = {}) => {
    const server = await startServer({ workerDelayMs: 20, ...serverOptions });
    servers.push(server);
    const client = new Client({
      apiKey: 'test-key',
      baseUrl: server.url,
      retryBaseDelayMs: 10,
      retryMaxDelayMs: 100,
      ...clientOptions,
    });
    return { server, client };
  };
}

/**
 * A validator compiled at test time with ajv (a devDependency; the SDK itself ships none), for
 * tests of the runtime with a hand-made validator source.
 */
export function compileValidator(schema: Record<string, unknown>): CompiledValidator {
  return new Ajv({ allErrors: true, strict: false }).compile(schema);
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

/** Every string form of an error and of its cause chain that a user could log or send. */
export function renderings(err: unknown): string[] {
  const out: string[] = [];
  let e: unknown = err;
  for (let depth = 0; e !== undefined && depth < 6; depth++) {
    out.push(inspect(e, { showHidden: true, depth: Infinity }), inspect(e), String(e));
    if (e instanceof Error) {
      out.push(e.message, e.stack ?? '', JSON.stringify(e));
    }
    if (e instanceof APIError) {
      out.push(typeof e.body === 'string' ? e.body : (JSON.stringify(e.body) ?? ''));
      e.headers?.forEach((v, k) => out.push(`${k}: ${v}`));
    }
    if (e instanceof RedirectError) out.push(e.location ?? '');
    e = e instanceof Error ? e.cause : undefined;
  }
  return out;
}

/** The pieces of `secret` of `n` characters or more (all its substrings of length n). */
export function pieces(secret: string, n = 4): string[] {
  const out: string[] = [];
  for (let i = 0; i + n <= secret.length; i++) out.push(secret.slice(i, i + n));
  return out;
}

/** Fails when any rendering of `err` holds 4 characters in a row of `secret`. */
export function expectNoPiece(err: unknown, secret: string): void {
  const texts = renderings(err);
  for (const text of texts)
    for (const p of pieces(secret)) expect(text, `a piece ${JSON.stringify(p)} of the secret`).not.toContain(p);
}
