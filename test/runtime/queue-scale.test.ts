// The queue at scale against the queue as the service's docs say today: 200 generations through
// queue.run while the event stream drops every 300 ms end with 200 known outcomes; follow of ended
// ids after a restart returns at once with their URLs; follow of many ids uses one listener and one
// list; an id given twice gets one outcome per position.
import { describe, expect, it } from 'vitest';
import type { QueueRunOutcome } from '../../index.ts';
import { Client, QUEUE_MODES, useServers } from './helpers.ts';

const setup = useServers();
const FILE = /^http:\/\/127\.0\.0\.1:\d+\/files\/alice\/.+\.png$/;

/** Node's warnings emitted while `f` runs. */
async function warningsDuring<T>(f: () => Promise<T>): Promise<{ value: T; warnings: Error[] }> {
  const warnings: Error[] = [];
  const onWarning = (w: Error) => void warnings.push(w);
  process.on('warning', onWarning);
  try {
    const value = await f();
    await new Promise((r) => setTimeout(r, 10)); // warnings are emitted on the next tick
    return { value, warnings };
  } finally {
    process.off('warning', onWarning);
  }
}

describe('queue.run with the event stream dropped every 300 ms', () => {
  it('today: 200 generations end with 200 known outcomes, none lost', async () => {
    const { client, server } = await setup({
      workerDelayMs: 20,
      unrelatedEvents: false,
      // Spread over about 3 s, so that many end while the stream is down.
      decide: ({ index, params }) => ({
        outcome: String(params['prompt']).endsWith('[fail]') ? 'failed' : 'succeeded',
        delayMs: 50 + ((Number(String(params['prompt']).split(' ')[1]) * 7 + index * 131) % 3000),
        error: 'it failed',
      }),
    });
    const dropper = setInterval(() => server.dropEventStreams(), 300);
    try {
      const runs = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          client.queue.run(
            { model: 'flux-1-dev', prompt: `gen ${i}${i % 10 === 0 ? ' [fail]' : ''}`, num_generations: 4 },
            { timeoutMs: 60_000 },
          ),
        ),
      );
      const outcomes = runs.flat();
      const count = (status: string) => outcomes.filter((o) => o.status === status).length;
      expect(outcomes).toHaveLength(200);
      expect(new Set(outcomes.map((o) => o.generation_id)).size).toBe(200);
      expect({ succeeded: count('succeeded'), failed: count('failed'), lost: count('lost') }).toEqual({
        succeeded: 180,
        failed: 20,
        lost: 0,
      });
      for (const o of outcomes) {
        if (o.status === 'succeeded') expect(o.url).toMatch(FILE);
        if (o.status === 'failed') expect(o.error).toBe('it failed');
      }
      expect(server.count('GET', '/api/events')).toBeGreaterThan(2); // it did reconnect
    } finally {
      clearInterval(dropper);
    }
  }, 60_000);
});

describe('queue.follow of ended generations after a restart', () => {
  it('today: returns at once, each with its URL or error, after one list and one read of each (16 at once, one listener)', async () => {
    const { client: before, server } = await setup({
      decide: ({ params }) =>
        String(params['prompt']).includes('[fail]')
          ? { outcome: 'failed', delayMs: 5, error: 'no luck' }
          : { outcome: 'succeeded', delayMs: 5 },
    });
    const ids: string[] = [];
    for (const prompt of ['a', 'b [fail]', 'c', 'd'])
      ids.push(
        ...(await before.queue.enqueue({ model: 'flux-1-dev', prompt, num_generations: 4 })).generations.map(
          (g) => g.generation_id,
        ),
      );
    await new Promise((r) => setTimeout(r, 100)); // every one ended while nobody followed
    expect(server.queue.list()).toEqual([]);

    const after = new Client({ apiKey: 'test-key', baseUrl: server.url });
    const t0 = performance.now();
    const { value: outcomes, warnings } = await warningsDuring(() =>
      Promise.resolve(after.queue.follow(ids, { timeoutMs: 10_000 })),
    );
    expect(performance.now() - t0).toBeLessThan(5_000); // no grace period, no timeout: the service said how each ended
    expect(outcomes.map((o) => o.status)).toEqual(
      ['succeeded', 'failed', 'succeeded', 'succeeded'].flatMap((s) => [s, s, s, s]),
    );
    for (const o of outcomes) {
      if (o.status === 'succeeded') expect(o).toMatchObject({ url: expect.stringMatching(FILE), model: 'flux-1-dev' });
      else expect(o).toMatchObject({ status: 'failed', error: 'no luck', media_type: 'image' });
    }
    expect(server.count('GET', /^\/api\/ai\/queue$/)).toBe(1);
    expect(server.count('GET', /^\/api\/ai\/queue\//)).toBe(16);
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  });

  it('today: many ended ones are read from the lists of ended generations, not one by one', async () => {
    const { server } = await setup({ decide: () => ({ outcome: 'hold' }) });
    const ids = server.queue.add(40);
    ids.forEach((id, n) => server.queue.complete(id, n % 4 === 0 ? 'failed' : 'succeeded', 'no luck'));
    const after = new Client({ apiKey: 'test-key', baseUrl: server.url });
    const outcomes = await after.queue.follow(ids, { timeoutMs: 10_000 });
    expect(outcomes.filter((o) => o.status === 'succeeded')).toHaveLength(30);
    expect(outcomes.filter((o) => o.status === 'failed')).toHaveLength(10);
    expect(server.count('GET', /^\/api\/ai\/queue$/)).toBe(4); // the active ones, then succeeded, failed, cancelled
    expect(server.count('GET', /^\/api\/ai\/queue\//)).toBe(0);
  });
});

describe.each(QUEUE_MODES)('queue.follow of many ids (%s queue)', (queueMode) => {
  it('an id given twice gets one outcome per position, the same outcome at each, with its position as index', async () => {
    const { client, server } = await setup({ queueMode, decide: () => ({ outcome: 'hold' }) });
    const [a, b] = (
      await client.queue.enqueue({ model: 'flux-1-dev', prompt: 'x', num_generations: 2 })
    ).generations.map((g) => g.generation_id);
    const settled: QueueRunOutcome[] = [];
    const follow = client.queue.follow([a!, b!, a!], {
      onProgress: (p) => {
        if (p.type === 'following') {
          expect(p.generation_ids).toEqual([a, b]);
          server.queue.complete(a!, 'succeeded');
          server.queue.complete(b!, 'failed', 'nope');
        }
      },
    });
    for await (const o of follow) settled.push(o);
    const outcomes = await follow;
    expect(outcomes.map((o) => [o.generation_id, o.index, o.status])).toEqual([
      [a, 0, 'succeeded'],
      [b, 1, 'failed'],
      [a, 2, 'succeeded'],
    ]);
    expect(outcomes[2]).toEqual({ ...outcomes[0], index: 2 });
    expect(settled.map((o) => o.generation_id).sort()).toEqual([a, b].sort()); // each distinct id once
  });

  it('10,000 pending ids: one list, no read of any (also after half their events were missed), no MaxListenersExceededWarning', async () => {
    const { client, server } = await setup({ queueMode, decide: () => ({ outcome: 'hold' }) });
    const ids = server.queue.add(10_000);
    expect(ids).toHaveLength(10_000);
    let listedBeforeEnd = -1;
    let readBeforeEnd = -1;
    const { value: outcomes, warnings } = await warningsDuring(() =>
      Promise.resolve(
        client.queue.follow(ids, {
          onProgress: (p) => {
            if (p.type !== 'processing' || p.generation_id !== ids.at(-1)) return;
            listedBeforeEnd = server.count('GET', /^\/api\/ai\/queue$/);
            readBeforeEnd = server.count('GET', /^\/api\/ai\/queue\//);
            // Every id was listed (active): end them all; half of the events miss the stream.
            for (const [n, id] of ids.entries()) {
              if (n === ids.length / 2) server.dropEventStreams();
              server.queue.complete(id, 'succeeded');
            }
          },
          timeoutMs: 60_000,
        }),
      ),
    );
    expect(outcomes).toHaveLength(10_000);
    expect([listedBeforeEnd, readBeforeEnd]).toEqual([1, 0]);
    // The missed ones: 0.224.2's list shows they are gone; today's lists of ended generations say how each ended.
    expect(server.count('GET', /^\/api\/ai\/queue\//)).toBe(0);
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    const counts = new Map<string, number>();
    for (const o of outcomes) counts.set(o.status, (counts.get(o.status) ?? 0) + 1);
    if (queueMode === 'today') expect(counts).toEqual(new Map([['succeeded', 10_000]]));
    else expect((counts.get('succeeded') ?? 0) + (counts.get('lost') ?? 0)).toBe(10_000);
  }, 120_000);
});
