// Should the failure path's module (runtime/internal/failure.ts, with the answers' error classes of
// runtime/error-classes.ts) fail to load (a page whose network dropped before it fetched that chunk), a
// call that fails still rejects with an `APIError` (a `ConnectionError` for a network failure) with its
// status and request id, a message of the SDK's own (no text of the server, no key) and the load
// failure as `cause`: not the class its status means, which that module holds. The retry decisions,
// made from the status, stay those of the policy.
import { describe, expect, it, vi } from 'vitest';
import { APIError, ConnectionError, OutcomeUnknownError } from '../../index.ts';
import { rejectionOf, useServers } from './helpers.ts';

vi.mock('../../runtime/internal/failure.ts', () => {
  throw new TypeError('Failed to fetch dynamically imported module');
});

const setup = useServers();
const KEY = 'test-key';

/** The error's message (the SDK's own, `own`) and its JSON form hold neither the key nor `serverText`. */
function expectNoServerText(err: Error, serverText: string, own = /could not load the module/): void {
  for (const shown of [err.message, JSON.stringify(err)]) {
    expect(shown).not.toContain(KEY);
    expect(err.message).not.toContain(serverText);
  }
  expect(err.message).toMatch(own);
}

/** `err` is an `APIError` of no subclass (the subclasses' module did not load), the load failure its `cause`. */
function expectPlainAPIError(err: Error, status: number): void {
  expect(err).toBeInstanceOf(APIError);
  expect(Object.getPrototypeOf(err)).toBe(APIError.prototype);
  expect((err as APIError).status).toBe(status);
  expect(err.cause).toBeInstanceOf(Error);
  expect(
    String((err.cause as Error).message) + String(((err.cause as Error).cause as Error | undefined)?.message),
  ).toMatch(/Failed to fetch dynamically imported module/);
}

describe('the failure path cannot be loaded', () => {
  it('a 400 echoing the key rejects with an APIError, its status and request id, no server text, no key', async () => {
    const { client, server } = await setup({ requestIds: true });
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: 'echo-key' });
    const err = await rejectionOf(client.queue.list());
    expectPlainAPIError(err, 400);
    const api = err as APIError;
    expect(api.requestId).toMatch(/^req_\d+$/);
    expectNoServerText(err, 'Bearer');
    expect(api.body).toBeUndefined();
    expect(server.count('GET', '/api/ai/queue')).toBe(1);
  });

  it('a 404 rejects with an APIError of status 404 (not resent)', async () => {
    const { client, server } = await setup();
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: '404' });
    const err = await rejectionOf(client.queue.list());
    expectPlainAPIError(err, 404);
    expectNoServerText(err, 'not found');
    expect(server.count('GET', '/api/ai/queue')).toBe(1);
  });

  it('a GET answered 503 then 200 is retried as the policy says, and succeeds', async () => {
    const { client, server } = await setup();
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: '503' });
    await expect(client.queue.list()).resolves.toBeDefined();
    expect(server.count('GET', '/api/ai/queue')).toBe(2);
  });

  it('a generating POST answered 500 rejects with an APIError of status 500, sent once (never resent)', async () => {
    const { client, server } = await setup();
    server.faults.add({ method: 'POST', path: '/api/ai/images/generate', kind: '500' });
    const err = await rejectionOf(client.images.generate({ model: 'flux-2-pro', prompt: 'a fox' }));
    expect(err).not.toBeInstanceOf(OutcomeUnknownError);
    expectPlainAPIError(err, 500);
    expectNoServerText(err, 'Internal server error');
    expect(server.count('POST', '/api/ai/images/generate')).toBe(1);
  });

  it('a generating POST answered 429 then 200 is retried as the policy says (the server did not process it)', async () => {
    const { client, server } = await setup();
    server.faults.add({ method: 'POST', path: '/api/ai/images/generate', kind: '429' });
    await expect(client.images.generate({ model: 'flux-2-pro', prompt: 'a fox' })).resolves.toBeDefined();
    expect(server.count('POST', '/api/ai/images/generate')).toBe(2);
  });

  it('a redirect rejects with an APIError of status 307 (never followed)', async () => {
    const { client, server } = await setup();
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: 'redirect', status: 307 });
    const err = await rejectionOf(client.queue.list());
    expectPlainAPIError(err, 307);
    expectNoServerText(err, '/elsewhere');
  });

  it('a success answer whose body is not JSON (echoing the key) rejects with an APIError of status 200', async () => {
    const { client, server } = await setup();
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: 'echo-key-invalid-json' });
    const err = await rejectionOf(client.queue.list());
    expectPlainAPIError(err, 200);
    expectNoServerText(err, 'Bearer');
  });

  it('a connection reset rejects with ConnectionError (notSent false)', async () => {
    const { client, server } = await setup({}, { maxRetries: 0 });
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: 'reset' });
    const err = await rejectionOf(client.queue.list());
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as ConnectionError).notSent).toBe(false);
    expect((err as APIError).status).toBeUndefined();
    expectNoServerText(err, 'socket', /^GET \/api\/ai\/queue failed without a response$/);
  });
});
