// queue.follow after a restart (a new client follows ids another client enqueued), against the
// queue as the service's docs say today and as 0.224.2 says, its async iteration, and a wrapped
// transport sharing the inner transport's state: one /api/events connection and the record of
// cancellations.
import { describe, expect, it } from 'vitest';
import { flux1DevRun } from '../../generated/models/flux-1-dev.ts';
import {
  QueueRunAbortError,
  SDKError,
  cancelGeneration,
  followGenerations,
  type QueueRunOutcome,
  type QueueRunProgress,
  type Transport,
} from '../../index.ts';
import { until } from '../support/index.ts';
import { Client, QUEUE_MODES, rejectionOf, useServers } from './helpers.ts';

const setup = useServers();

/** A transport that delegates to `inner` and records each request, as the wrapper of docs/queue.md does. */
function wrap(inner: Transport, seen: string[]): Transport {
  return {
    settings: inner.settings,
    state: inner.state,
    request: (req, options) => {
      seen.push(`${req.method} ${req.path}`);
      return inner.request(req, options);
    },
    openStream: (req, options, connectOnly) => {
      seen.push(`${req.method} ${req.path}`);
      return inner.openStream(req, options, connectOnly);
    },
  };
}

describe('a wrapped transport', () => {
  it('shares the inner transport’s event connection and sees cancellations made through it', async () => {
    const { client, server } = await setup({ decide: () => ({ outcome: 'hold' }) });
    const seen: string[] = [];
    const wrapped = wrap(client, seen);
    let first: string[] = [];
    const runA = flux1DevRun(wrapped, { prompt: 'a' }, { onEnqueued: (ids) => void (first = ids) });
    await until(() => first.length === 1);
    const runB = flux1DevRun(
      wrapped,
      { prompt: 'b' },
      {
        onEnqueued: async (ids) => {
          await cancelGeneration(client, first[0]!); // through the inner transport
          server.queue.complete(ids[0]!, 'succeeded');
        },
      },
    );
    const runC = client.queue.run(
      { model: 'flux-1-dev', prompt: 'c' },
      { onEnqueued: (ids) => server.queue.complete(ids[0]!, 'failed', 'c failed') },
    );
    const [a, b, c] = await Promise.all([runA, runB, runC]);
    expect(a[0]).toMatchObject({ status: 'cancelled', generation_id: first[0] });
    expect(b[0]).toMatchObject({ status: 'succeeded' });
    expect(c[0]).toMatchObject({ status: 'failed', error: 'c failed' });
    expect(server.count('GET', '/api/events')).toBe(1);
    expect(seen.filter((r) => r === 'POST /api/ai/queue')).toHaveLength(2);
    expect(seen).toContain('GET /api/events'); // the wrapper's first run opened the shared connection
    expect(wrapped.state.eventStream.state).toBe('idle');
  });

  it('a wrapper without state is refused before anything is sent, saying how to pass it on', async () => {
    const { client, server } = await setup({ decide: () => ({ outcome: 'hold' }) });
    const stateless = {
      settings: client.settings,
      request: client.request.bind(client),
      openStream: client.openStream.bind(client),
    } as unknown as Transport;
    const err = await rejectionOf(cancelGeneration(stateless, 'some-id'));
    expect(err).toBeInstanceOf(SDKError);
    expect(err.message).toContain('state: inner.state');
    expect(await rejectionOf(flux1DevRun(stateless, { prompt: 'x' }))).toBeInstanceOf(SDKError);
    expect(server.requests).toHaveLength(0);
  });
});

describe.each(QUEUE_MODES)('queue.follow (%s queue)', (queueMode) => {
  const today = queueMode === 'today';

  it('after a restart, a new client follows the persisted ids to succeeded, failed, cancelled and lost (0.224.2: also the one that ended before)', async () => {
    const { client: before, server } = await setup({ queueMode, decide: () => ({ outcome: 'hold' }) });
    // The first process enqueues, persists the ids, and goes away.
    let saved: string[] = [];
    const ac = new AbortController();
    const err = await rejectionOf(
      before.queue.run(
        { model: 'flux-1-dev', prompt: 'x', num_generations: 4 },
        {
          signal: ac.signal,
          onEnqueued: (ids) => {
            saved = [...ids];
            ac.abort();
          },
        },
      ),
    );
    expect(err).toBeInstanceOf(QueueRunAbortError);
    const vanishing = (await before.queue.enqueue({ model: 'flux-1-dev', prompt: 'y' })).generations[0]!.generation_id;
    saved.push(vanishing);
    expect(saved).toHaveLength(5);
    // While nobody follows, one generation completes: its event (and its URL) is missed.
    server.queue.complete(saved[3]!, 'succeeded');

    const after = new Client({ apiKey: 'test-key', baseUrl: server.url, retryBaseDelayMs: 10, retryMaxDelayMs: 100 });
    const processing = new Set<string>();
    const progress: QueueRunProgress['type'][] = [];
    const follow = after.queue.follow(saved, {
      reconcileIntervalMs: 50,
      lostGraceMs: 30,
      onProgress: (p) => {
        progress.push(p.type);
        if (p.type !== 'processing' || processing.has(p.generation_id)) return;
        processing.add(p.generation_id);
        if (p.generation_id === saved[0]) server.queue.complete(p.generation_id, 'succeeded');
        if (p.generation_id === saved[1]) server.queue.complete(p.generation_id, 'failed', 'the model crashed');
        if (p.generation_id === saved[2]) void after.queue.cancel(p.generation_id);
        if (p.generation_id === saved[4]) server.queue.complete(p.generation_id, 'vanish');
      },
    });
    const settledOrder: QueueRunOutcome[] = [];
    for await (const outcome of follow) settledOrder.push(outcome);
    const outcomes = await follow;
    expect(outcomes.map((o) => o.generation_id)).toEqual(saved);
    expect(outcomes.map((o) => o.index)).toEqual([0, 1, 2, 3, 4]);
    expect(outcomes.map((o) => o.status)).toEqual([
      'succeeded',
      'failed',
      'cancelled',
      today ? 'succeeded' : 'lost',
      'lost',
    ]);
    const file = /^http:\/\/127\.0\.0\.1:\d+\/files\/alice\/.+\.png$/;
    expect((outcomes[0] as { url: string }).url).toMatch(file);
    expect(outcomes[1]).toMatchObject({ error: 'the model crashed' });
    // The one that ended while nobody followed: today the service still has it, with its URL.
    if (today) expect((outcomes[3] as { url: string }).url).toMatch(file);
    else {
      expect(outcomes[3]).toMatchObject({ reason: 'missed_event' });
      expect((outcomes[3] as { message: string }).message).toContain('no longer in the queue when it was followed');
    }
    expect(outcomes[4]).toMatchObject({ reason: 'vanished' });
    // The iteration yielded each outcome once, as it settled.
    expect(settledOrder.map((o) => o.generation_id).sort()).toEqual([...saved].sort());
    expect(progress[0]).toBe('subscribed');
    expect(progress[1]).toBe('following');
    // One queue.list for all ids; a queue.get only of those it does not show (today: the one that
    // had ended, and any that ended meanwhile; 0.224.2's items carry no status: not listed is gone).
    expect(server.count('GET', /^\/api\/ai\/queue$/)).toBeGreaterThanOrEqual(1);
    const reads = new Set(
      server.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/api/ai/queue/')).map((r) => r.path),
    );
    if (today) {
      expect(reads).toContain(`/api/ai/queue/${saved[3]}`);
      for (const path of reads) expect(saved.map((id) => `/api/ai/queue/${id}`)).toContain(path);
    } else expect(reads.size).toBe(0);
    expect(after.queue.eventStream.state).toBe('idle');
  });

  it('follows an id that a run of the same client follows too: both get the outcome', async () => {
    const { client, server } = await setup({ queueMode, decide: () => ({ outcome: 'hold' }) });
    let follow: Promise<QueueRunOutcome[]> | undefined;
    const run = client.queue.run(
      { model: 'flux-1-dev', prompt: 'x' },
      {
        onEnqueued: (ids) => {
          follow = Promise.resolve(client.queue.follow(ids));
          setTimeout(() => server.queue.complete(ids[0]!, 'succeeded'), 50);
        },
      },
    );
    const [viaRun] = await run;
    const [viaFollow] = await follow!;
    expect(viaRun).toMatchObject({ status: 'succeeded' });
    expect(viaFollow).toEqual(viaRun);
    expect(server.count('GET', '/api/events')).toBe(1);
  });

  it('leaving the iteration early stops following; timeouts and bad ids are errors', async () => {
    const { client, server } = await setup({ queueMode, decide: () => ({ outcome: 'hold' }) });
    const { generations } = await client.queue.enqueue({ model: 'flux-1-dev', prompt: 'x', num_generations: 2 });
    const ids = generations.map((g) => g.generation_id);
    const follow = followGenerations(client, ids, {
      onProgress: (p) => p.type === 'following' && server.queue.complete(ids[0]!, 'failed', 'nope'),
    });
    for await (const outcome of follow) {
      expect(outcome).toMatchObject({ generation_id: ids[0], status: 'failed' });
      break;
    }
    const stopped = await rejectionOf(Promise.resolve(follow));
    expect(stopped).toBeInstanceOf(QueueRunAbortError);
    expect((stopped as QueueRunAbortError).pending).toEqual([ids[1]]);
    await until(() => client.queue.eventStream.state === 'idle');

    const timedOut = await rejectionOf(Promise.resolve(client.queue.follow([ids[1]!], { timeoutMs: 150 })));
    expect(timedOut.name).toBe('QueueRunTimeoutError');
    expect(timedOut.message).toContain('queue.follow timed out');

    const before = server.requests.length;
    for (const bad of [['..'], [''], [42]] as unknown as string[][])
      expect(await rejectionOf(Promise.resolve(client.queue.follow(bad)))).toBeInstanceOf(SDKError);
    expect(await client.queue.follow([])).toEqual([]);
    expect(server.requests.length).toBe(before);
  });
});
