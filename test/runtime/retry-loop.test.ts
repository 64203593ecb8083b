// The retries are loaded on demand (runtime/internal/retry-loop.ts, with p-retry): a call that succeeds at
// once, or fails in a way its policy does not retry, never loads them; a retried call does. The policy
// (runtime/internal/retry-policy.ts) is loaded by the first failed attempt, never by a call that succeeds.
import { describe, expect, it, vi } from 'vitest';
import { NotFoundError, OutcomeUnknownError } from '../../index.ts';
import { rejectionOf, useServers } from './helpers.ts';

const loads = vi.hoisted(() => ({ count: 0, policy: 0 }));
vi.mock('../../runtime/internal/retry-loop.ts', async (importOriginal) => {
  loads.count++;
  return importOriginal();
});
vi.mock('../../runtime/internal/retry-policy.ts', async (importOriginal) => {
  loads.policy++;
  return importOriginal();
});

const setup = useServers();

describe('the retry loop is loaded only when a call is retried', () => {
  it('not for a call that succeeds at once, nor for an error the policy does not retry', async () => {
    const { client, server } = await setup();
    await client.queue.list();
    await client.images.generate({ model: 'flux-1-dev', prompt: 'a fox' });
    expect(loads.policy).toBe(0);
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: '404' });
    expect(await rejectionOf(client.queue.list())).toBeInstanceOf(NotFoundError);
    // a generating POST answered 500 is never resent: its OutcomeUnknownError is decided without the loop
    server.faults.add({ method: 'POST', path: '/api/ai/images/generate', kind: '500' });
    expect(await rejectionOf(client.images.generate({ model: 'flux-1-dev', prompt: 'a fox' }))).toBeInstanceOf(
      OutcomeUnknownError,
    );
    expect(loads.count).toBe(0);
    expect(loads.policy).toBe(1);
  });

  it('for a GET answered 503, which is then retried and succeeds', async () => {
    const { client, server } = await setup();
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: '503' });
    await expect(client.queue.list()).resolves.toEqual({ count: 0, generations: [] });
    expect(server.count('GET', '/api/ai/queue')).toBe(2);
    expect(loads.count).toBe(1);
  });
});
