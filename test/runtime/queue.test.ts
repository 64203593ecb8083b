// The queue end to end: enqueue/list/get/cancel, client-side validation, and queue.run's
// outcomes (succeeded, failed, cancelled, lost), stream drops, shared connection, races,
// timeouts and aborts.
import { describe, expect, it } from 'vitest';
import {
  AbortError,
  NotFoundError,
  QueueRunAbortError,
  QueueRunTimeoutError,
  RuntimeClient,
  TimeoutError,
  ValidationError,
  type QueueRunOutcome,
  type QueueRunProgress,
} from '../../index.ts';
import { until } from '../support/index.ts';
import { Client, compileValidator, rejectionOf, useServers } from './helpers.ts';

const setup = useServers();

describe('enqueue, list, get, cancel', () => {
  it('a processing generation is listed and readable; after cancel, get and cancel are 404', async () => {
    const { client } = await setup();
    const { generations } = await client.queue.enqueue({
      model: 'google-veo-3-1',
      prompt: 'waves [hold]',
      duration: 4,
      num_generations: 2,
    });
    expect(generations).toHaveLength(2);
    expect(generations.every((g) => g.status === 'processing')).toBe(true);
    const id = generations[0]!.generation_id;
    const listed = await client.queue.list({ model: 'google-veo-3-1' });
    expect(listed.count).toBe(2);
    const g = await client.queue.get(id);
    expect(g).toMatchObject({
      generation_id: id,
      model: 'google-veo-3-1',
      media_type: 'video',
      duration: 4,
      prompt: 'waves [hold]',
    });
    expect(await client.queue.cancel(id)).toEqual({ status: 'success', generation_id: id });
    for (const call of [client.queue.get(id), client.queue.cancel(id)]) {
      const err = await rejectionOf(call);
      expect(err).toBeInstanceOf(NotFoundError);
      expect((err as NotFoundError).body).toMatchObject({
        error: { type: 'resource_not_found' },
        status: 'error',
        status_message: 'resource_not_found',
      });
    }
    expect((await client.queue.list()).count).toBe(1);
  });

  it('get is 404 after the generation succeeded', async () => {
    const { client } = await setup();
    const [outcome] = await client.queue.run({ model: 'flux-1-dev', prompt: 'fox' });
    expect(outcome!.status).toBe('succeeded');
    const err = await rejectionOf(client.queue.get(outcome!.generation_id));
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as NotFoundError).status).toBe(404);
  });
});

describe('validation before enqueue', () => {
  it('wrong enum, typo and missing required: one ValidationError with a pointer each; nothing sent', async () => {
    const { client, server } = await setup();
    const err = await rejectionOf(
      client.untyped.queue.enqueue({ model: 'flux-1-dev', aspect_ratio: '5:4', guidnace: 3 }),
    );
    expect(err).toBeInstanceOf(ValidationError);
    const issues = (err as ValidationError).issues;
    expect(issues.map((i) => i.pointer).sort()).toEqual(['/aspect_ratio', '/guidnace', '/prompt']);
    expect(issues.find((i) => i.pointer === '/aspect_ratio')!.message).toContain('"16:9"');
    expect(err.message).toContain('/guidnace');
    expect((err as ValidationError).model).toBe('flux-1-dev');
    expect(server.count('POST', '/api/ai/queue')).toBe(0);
  });

  it('queue.run validates too, and checks num_generations 1..4', async () => {
    const { client, server } = await setup();
    const err = await rejectionOf(
      client.untyped.queue.run({ model: 'google-veo-3-1', prompt: 'x', duration: 5, num_generations: 5 }),
    );
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).issues.map((i) => i.pointer).sort()).toEqual(['/duration', '/num_generations']);
    expect(server.count('GET', '/api/events')).toBe(0);
    expect(server.count('POST', '/api/ai/queue')).toBe(0);
  });

  it('SDK fields are not model parameters: model, response_format, target_namespace, num_generations pass', async () => {
    const { client } = await setup();
    const res = await client.queue.enqueue({
      model: 'flux-1-dev',
      prompt: 'x',
      response_format: 'url',
      target_namespace: 'acme',
      num_generations: 4,
    });
    expect(res.generations).toHaveLength(4);
  });

  it('validate: false sends anyway; the service accepts it and the generation fails later', async () => {
    const { client, server } = await setup();
    const outcomes = await client.untyped.queue.run(
      { model: 'flux-1-dev', prompt: 'x', aspect_ratio: '5:4' },
      { validate: false },
    );
    expect(server.count('POST', '/api/ai/queue')).toBe(1);
    expect(outcomes[0]).toMatchObject({ status: 'failed', media_type: 'image' });
    expect((outcomes[0] as { error: string }).error).toContain('/aspect_ratio');
  });

  it('the runtime client validates with any validator source; unknown models and null validators get only the queue-field checks', async () => {
    const { server } = await setup();
    const kontext = compileValidator({
      type: 'object',
      properties: {
        model: { type: 'string' },
        prompt: { type: 'string' },
        input_image: { type: 'string', pattern: '^https?://' },
        seed: { type: 'integer' },
      },
      required: ['prompt'],
      additionalProperties: false,
    });
    const rt = new RuntimeClient({
      apiKey: 'test-key',
      baseUrl: server.url,
      validators: async (model) => (model === 'flux-kontext-dev' ? kontext : model === 'flux-1-dev' ? null : undefined),
    });
    const err = await rejectionOf(
      rt.queue.enqueue({ model: 'flux-kontext-dev', prompt: 'x', input_image: 'not a uri', seed: 1.5 }),
    );
    expect((err as ValidationError).issues.map((i) => i.pointer).sort()).toEqual(['/input_image', '/seed']);
    const unknown = await rejectionOf(
      rt.queue.enqueue({ model: 'model-newer-than-snapshot', prompt: 'x', anything: 1 }),
    );
    expect(unknown).toBeInstanceOf(NotFoundError); // validation skipped; the service answered
    expect(unknown.message).toBe('Model not found: model-newer-than-snapshot');
    // No validator (null): only model and num_generations are checked.
    const tooMany = await rejectionOf(rt.queue.enqueue({ model: 'flux-1-dev', prompt: 'x', num_generations: 7 }));
    expect((tooMany as ValidationError).issues).toEqual([
      { pointer: '/num_generations', message: 'must be an integer from 1 to 4', keyword: 'maximum' },
    ]);
    expect(server.count('POST', '/api/ai/queue')).toBe(1);
  });

  it('validators are loaded once per model and a failed load is asked again', async () => {
    const { server } = await setup();
    const strict = compileValidator({
      type: 'object',
      properties: { model: { type: 'string' }, prompt: { type: 'string' } },
      required: ['prompt'],
      additionalProperties: false,
    });
    let loads = 0;
    let fail = true;
    const rt = new RuntimeClient({
      apiKey: 'test-key',
      baseUrl: server.url,
      validators: async () => {
        loads++;
        if (fail) throw new Error('chunk failed to load');
        return strict;
      },
    });
    expect((await rejectionOf(rt.queue.enqueue({ model: 'flux-1-dev', prompt: 'x' }))).message).toBe(
      'chunk failed to load',
    );
    fail = false;
    for (let i = 0; i < 3; i++)
      expect(await rejectionOf(rt.queue.enqueue({ model: 'flux-1-dev', prompt: 'x', extra: i }))).toBeInstanceOf(
        ValidationError,
      );
    expect(loads).toBe(2);
    expect(server.count('POST', '/api/ai/queue')).toBe(0);
  });
});

describe('queue.run', () => {
  it('resolves one outcome per generation: succeeded, failed, lost (vanished), cancelled', async () => {
    const { client } = await setup({
      decide: ({ index }) =>
        index === 0
          ? { outcome: 'succeeded', delayMs: 40 }
          : index === 1
            ? { outcome: 'failed', delayMs: 20, error: 'the model crashed' }
            : index === 2
              ? { outcome: 'vanish', delayMs: 20 }
              : { outcome: 'hold' },
    });
    const progress: QueueRunProgress[] = [];
    const outcomes = await client.queue.run(
      { model: 'google-veo-3-1', prompt: 'a boat', duration: 4, num_generations: 4 },
      {
        reconcileIntervalMs: 60,
        lostGraceMs: 30,
        onProgress: (p) => {
          progress.push(p);
          if (p.type === 'enqueued') void client.queue.cancel(p.generation_ids[3]!);
        },
      },
    );
    expect(outcomes.map((o) => o.status)).toEqual(['succeeded', 'failed', 'lost', 'cancelled']);
    expect(outcomes.map((o) => o.index)).toEqual([0, 1, 2, 3]);
    const [ok, failed, lost] = outcomes as [
      QueueRunOutcome & { url: string; model: string; media_type: string },
      QueueRunOutcome & { error: string },
      QueueRunOutcome & { reason: string },
    ];
    expect(ok.url).toMatch(/\.mp4$/);
    expect(ok.model).toBe('google-veo-3-1');
    expect(ok.media_type).toBe('video');
    expect(failed.error).toBe('the model crashed');
    expect(lost.reason).toBe('vanished');
    expect(progress[0]).toEqual({ type: 'subscribed' });
    expect(progress.filter((p) => p.type === 'settled')).toHaveLength(4);
    expect(progress.at(-1)).toMatchObject({ type: 'settled', settled: 4, total: 4 });
  });

  it('subscribes before it enqueues, and ignores unrelated event types and other generations', async () => {
    const { client, server } = await setup({ unrelatedEvents: true, workerDelayMs: 60 });
    const outcomes = await client.queue.run(
      { model: 'flux-1-dev', prompt: 'x' },
      {
        onProgress: (p) => {
          if (p.type === 'enqueued') {
            server.emit('alice', 'media_generation_completed', {
              generation_id: 'someone-else',
              status: 'failed',
              media_type: 'image',
              error: 'not ours',
            });
            server.emit('alice', 'deployment_updated', { generation_id: p.generation_ids[0], status: 'failed' });
          }
        },
      },
    );
    expect(outcomes[0]!.status).toBe('succeeded');
    const order = server.requests.map((r) => `${r.method} ${r.path}`);
    expect(order.indexOf('GET /api/events')).toBeLessThan(order.indexOf('POST /api/ai/queue'));
  });

  it('an event that arrives before the enqueue response is not lost', async () => {
    // The worker finishes at once; the enqueue response body is held back 150 ms (slow-body).
    const { client, server } = await setup({ decide: () => ({ outcome: 'succeeded', delayMs: 0 }) });
    server.faults.add({ method: 'POST', path: '/api/ai/queue', kind: 'slow-body', delayMs: 150 });
    const events: string[] = [];
    const outcomes = await client.queue.run(
      { model: 'flux-1-dev', prompt: 'x', num_generations: 2 },
      { reconcileIntervalMs: 60_000, lostGraceMs: 5_000, onEvent: (e) => events.push(e.status) },
    );
    expect(outcomes.map((o) => o.status)).toEqual(['succeeded', 'succeeded']);
    expect(events).toEqual(['succeeded', 'succeeded']);
    expect(server.count('GET', /^\/api\/ai\/queue\//)).toBe(0); // resolved from the buffered events, not by polling
  });

  it('after a stream drop: finished while down -> lost (missed_event); finished after reconnect -> succeeded', async () => {
    const { client, server } = await setup({ decide: () => ({ outcome: 'hold' }) });
    let ids: string[] = [];
    const progress: string[] = [];
    const run = client.queue.run(
      { model: 'flux-1-dev', prompt: 'x', num_generations: 2 },
      {
        lostGraceMs: 30,
        onProgress: (p) => {
          progress.push(p.type);
          if (p.type === 'enqueued') ids = p.generation_ids;
          if (p.type === 'stream_up') setTimeout(() => server.queue.complete(ids[1]!, 'succeeded'), 20);
        },
      },
    );
    await until(() => ids.length === 2);
    server.dropEventStreams();
    server.queue.complete(ids[0]!, 'succeeded'); // emitted while no stream is open: lost on the wire
    const outcomes = await run;
    expect(outcomes[0]).toMatchObject({ status: 'lost', reason: 'missed_event' });
    expect(outcomes[1]).toMatchObject({ status: 'succeeded' });
    expect(progress).toContain('stream_down');
    expect(progress).toContain('stream_up');
    expect(server.count('GET', '/api/events')).toBe(2);
  });

  it('reconciles with one queue.list per namespace and model (not a GET per generation), and falls back to queue.get when a list fails', async () => {
    const { client, server } = await setup({ decide: () => ({ outcome: 'hold' }) });
    let ids: string[] = [];
    const run = client.queue.run(
      { model: 'flux-1-dev', prompt: 'x', num_generations: 4, target_namespace: 'acme' },
      { lostGraceMs: 30, onProgress: (p) => p.type === 'enqueued' && (ids = p.generation_ids) },
    );
    await until(() => ids.length === 4);
    server.dropEventStreams();
    server.queue.complete(ids[0]!, 'succeeded'); // while down: missed
    await until(() => server.count('GET', /^\/api\/ai\/queue$/) >= 1);
    expect(server.count('GET', /^\/api\/ai\/queue\//)).toBe(0);
    // The next list fails (a body of the wrong shape): each pending generation is asked on its own.
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: 'wrong-shape', times: Infinity });
    await until(() => client.queue.eventStream.state === 'up');
    server.dropEventStreams();
    await until(() => server.count('GET', /^\/api\/ai\/queue\//) >= 3);
    for (const id of ids.slice(1)) server.queue.complete(id, 'failed', 'nope');
    const outcomes = await run;
    expect(outcomes.map((o) => o.status)).toEqual(['lost', 'failed', 'failed', 'failed']);
    expect(outcomes[0]).toMatchObject({ reason: 'missed_event' });
  });

  it('concurrent runs share one /api/events connection, closed after the last run', async () => {
    const { client, server } = await setup();
    const runs = await Promise.all(
      [1, 2, 3].map((n) => client.queue.run({ model: 'flux-1-dev', prompt: `p${n}`, num_generations: n })),
    );
    expect(runs.map((r) => r.length)).toEqual([1, 2, 3]);
    expect(runs.flat().every((o) => o.status === 'succeeded')).toBe(true);
    expect(server.count('GET', '/api/events')).toBe(1);
    expect(client.queue.eventStream.subscribers).toBe(0);
    expect(client.queue.eventStream.state).toBe('idle');
  });

  it('a generation that expires (24 h) without event resolves lost', async () => {
    const { client, server } = await setup({ decide: () => ({ outcome: 'hold' }) });
    const outcomes = await client.queue.run(
      { model: 'flux-1-dev', prompt: 'x' },
      {
        reconcileIntervalMs: 40,
        lostGraceMs: 20,
        onProgress: (p) => p.type === 'enqueued' && server.clock.advance(24 * 3600 * 1000),
      },
    );
    expect(outcomes[0]).toMatchObject({ status: 'lost', reason: 'vanished' });
  });

  it('a lostGraceMs beyond the timer limit (2^31 - 1 ms) is waited out, not cut to 1 ms', async () => {
    const { client } = await setup({ decide: () => ({ outcome: 'vanish', delayMs: 10 }) });
    const err = await rejectionOf(
      client.queue.run(
        { model: 'flux-1-dev', prompt: 'x' },
        { reconcileIntervalMs: 50, lostGraceMs: 2 ** 31 + 1_000, timeoutMs: 800 },
      ),
    );
    // The generation is gone, but its grace period has not run out: the run times out with it pending.
    expect(err).toBeInstanceOf(QueueRunTimeoutError);
    expect((err as QueueRunTimeoutError).settled).toEqual([]);
  });

  it('timeoutMs ends it with QueueRunTimeoutError carrying settled and pending', async () => {
    const { client } = await setup({
      decide: ({ index }) => (index === 0 ? { outcome: 'succeeded', delayMs: 10 } : { outcome: 'hold' }),
    });
    const t0 = performance.now();
    const err = await rejectionOf(
      client.queue.run({ model: 'flux-1-dev', prompt: 'x', num_generations: 2 }, { timeoutMs: 300 }),
    );
    expect(performance.now() - t0).toBeLessThan(2_000);
    expect(err).toBeInstanceOf(QueueRunTimeoutError);
    expect(err).toBeInstanceOf(TimeoutError);
    const e = err as QueueRunTimeoutError;
    expect(e.settled.map((o) => o.status)).toEqual(['succeeded']);
    expect(e.pending).toHaveLength(1);
    expect(client.queue.eventStream.state).toBe('idle');
  });

  it('an abort ends it with QueueRunAbortError', async () => {
    const { client } = await setup({ decide: () => ({ outcome: 'hold' }) });
    const ac = new AbortController();
    const err = await rejectionOf(
      client.queue.run(
        { model: 'flux-1-dev', prompt: 'x' },
        { signal: ac.signal, onProgress: (p) => p.type === 'enqueued' && ac.abort() },
      ),
    );
    expect(err).toBeInstanceOf(QueueRunAbortError);
    expect(err).toBeInstanceOf(AbortError);
    expect((err as QueueRunAbortError).pending).toHaveLength(1);
  });

  it('500 after enqueue: OutcomeUnknownError suggesting queue.list, sent once', async () => {
    const { client, server } = await setup();
    server.faults.add({ method: 'POST', path: '/api/ai/queue', kind: '500-after-enqueue' });
    const err = await rejectionOf(client.queue.run({ model: 'flux-1-dev', prompt: 'x [hold]' }));
    expect(err.name).toBe('OutcomeUnknownError');
    expect(err.message).toContain('queue.list');
    expect(server.count('POST', '/api/ai/queue')).toBe(1);
    expect((await client.queue.list()).count).toBe(1);
  });
});

describe('queue.run: onEnqueued, the early-event buffer, malformed events', () => {
  it('onEnqueued gets the ids and is awaited before waiting; events that arrive meanwhile are kept', async () => {
    const { client } = await setup({ decide: () => ({ outcome: 'succeeded', delayMs: 0 }) });
    const steps: string[] = [];
    const outcomes = await client.queue.run(
      { model: 'flux-1-dev', prompt: 'x', num_generations: 2 },
      {
        onEnqueued: async (ids) => {
          steps.push(`onEnqueued ${ids.length}`);
          await new Promise((r) => setTimeout(r, 150)); // the events arrive during this wait
          steps.push('persisted');
        },
        onProgress: (p) => p.type === 'enqueued' && steps.push('enqueued'),
      },
    );
    expect(steps).toEqual(['enqueued', 'onEnqueued 2', 'persisted']);
    expect(outcomes.map((o) => o.status)).toEqual(['succeeded', 'succeeded']);
  });

  it('an onEnqueued that throws ends the run with its error; the generations continue', async () => {
    const { client } = await setup({ decide: () => ({ outcome: 'hold' }) });
    const err = await rejectionOf(
      client.queue.run(
        { model: 'flux-1-dev', prompt: 'x' },
        { onEnqueued: () => Promise.reject(new Error('disk full')) },
      ),
    );
    expect(err.message).toBe('disk full');
    expect((await client.queue.list()).count).toBe(1);
    expect(client.queue.eventStream.state).toBe('idle');
  });

  it('the early-event buffer is bounded by count and size; a run whose events were dropped reconciles', async () => {
    const { RunCoordinator, MAX_EARLY_EVENTS, MAX_EARLY_EVENT_CHARS } =
      await import('../../runtime/queue/coordinator.ts');
    const hub = {
      epoch: 1,
      state: 'up',
      subscribe: () => () => undefined,
      restart: () => undefined,
    } as unknown as ConstructorParameters<typeof RunCoordinator>[0];
    const c = new RunCoordinator(hub);
    const event = (id: string, extra = '') => ({
      event: 'media_generation_completed' as const,
      data: {
        generation_id: id,
        status: 'succeeded' as const,
        url: `https://x/${extra}`,
        media_type: 'image',
        model: 'm',
      },
    });
    const { token } = c.beginEnqueue();
    for (let i = 0; i < MAX_EARLY_EVENTS + 500; i++) c.onEvent(event(`other-${i}`));
    expect(c.buffered.events).toBe(MAX_EARLY_EVENTS);
    const big = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 40; i++) c.onEvent(event(`big-${i}`, big));
    expect(c.buffered.chars).toBeLessThanOrEqual(MAX_EARLY_EVENT_CHARS);
    expect(c.endEnqueue(token)).toBe(false); // some events were dropped while this enqueue was in flight
    expect(c.buffered.events).toBe(0);
    // A later enqueue that saw no drop is complete.
    const second = c.beginEnqueue();
    c.onEvent(event('late'));
    expect(c.endEnqueue(second.token)).toBe(true);

    // End to end: the run's own event is pushed out of the buffer by a flood of large events
    // while the enqueue answer is held back (until the client dropped an event); the run then
    // reconciles at once instead of waiting, and resolves lost.
    const { machineryOf } = await import('../../runtime/queue/reconcile.ts');
    // Assigned once the server exists; the fetch and decide callbacks below read them later.
    // eslint-disable-next-line prefer-const
    let server: Awaited<ReturnType<typeof setup>>['server'] | undefined;
    // eslint-disable-next-line prefer-const
    let client: Client | undefined;
    const holdEnqueueAnswer: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (init?.method === 'POST' && String(input).endsWith('/api/ai/queue'))
        await until(() => machineryOf(client!).coordinator.buffered.dropped > 0, 20_000);
      return res;
    };
    const started = await setup(
      {
        decide: () => {
          setTimeout(() => {
            const error = 'x'.repeat(1024 * 1024);
            for (let i = 0; i < 17; i++)
              server!.emit('alice', 'media_generation_completed', {
                generation_id: `flood-${i}`,
                status: 'failed',
                media_type: 'image',
                error,
              });
          }, 20);
          return { outcome: 'succeeded', delayMs: 0 }; // its event comes first, then the flood
        },
      },
      { fetch: holdEnqueueAnswer },
    );
    server = started.server;
    client = started.client;
    const [outcome] = await client.queue.run(
      { model: 'flux-1-dev', prompt: 'x' },
      { reconcileIntervalMs: 60_000, lostGraceMs: 30 },
    );
    expect(outcome).toMatchObject({ status: 'lost', reason: 'missed_event' });
  });

  it('a succeeded event without a url string resolves lost (invalid_event), not a url of "undefined"', async () => {
    const { client, server } = await setup({ decide: () => ({ outcome: 'hold' }) });
    const outcomes = await client.queue.run(
      { model: 'flux-1-dev', prompt: 'x', num_generations: 2 },
      {
        onEnqueued: ([a, b]) => {
          server.emit('alice', 'media_generation_completed', {
            generation_id: a,
            status: 'succeeded',
            media_type: 'image',
            model: 'flux-1-dev',
          });
          server.emit('alice', 'media_generation_completed', {
            generation_id: b,
            status: 'succeeded',
            media_type: 'image',
            model: 'flux-1-dev',
            url: 42,
          });
        },
      },
    );
    expect(outcomes.map((o) => o.status)).toEqual(['lost', 'lost']);
    for (const o of outcomes) {
      expect(o).toMatchObject({ reason: 'invalid_event' });
      expect((o as { message: string }).message).toContain('has no url string');
      expect(JSON.stringify(o)).not.toContain('"url":"undefined"');
    }
  });
});
