// Should the retries' module fail to load (a page whose network dropped before it fetched that
// chunk), a call that would have been retried fails with its first attempt's error, as when no
// retry is left: nothing is resent.
import { describe, expect, it, vi } from 'vitest';
import { InternalServerError } from '../../index.ts';
import { rejectionOf, useServers } from './helpers.ts';

vi.mock('../../runtime/internal/retry-loop.ts', () => {
  throw new TypeError('Failed to fetch dynamically imported module');
});

const setup = useServers();

describe('the retry loop cannot be loaded', () => {
  it("a GET answered 503 fails with that attempt's InternalServerError, sent once", async () => {
    const { client, server } = await setup();
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: '503' });
    const err = await rejectionOf(client.queue.list());
    expect(err).toBeInstanceOf(InternalServerError);
    expect(server.count('GET', '/api/ai/queue')).toBe(1);
  });
});
