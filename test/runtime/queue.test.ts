// The queue end to end, against the queue as the service's docs say today and as 0.224.2 says:
// enqueue/list/get/cancel, client-side validation, and queue.run's outcomes (succeeded, failed,
// cancelled, lost), stream drops, shared connection, races, timeouts and aborts.
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
import { QUEUE_MODES, compileValidator, rejectionOf, useServers } from './helpers.ts';

const setup = useServers();

describe.each(QUEUE_MODES)('enqueue, list, get, cancel (%s queue)', (queueMode) => {
  const today = queueMode === 'today';

  it('an active generation is listed and readable; after cancel, get says cancelled (today) or 404 (0.224.2)', async () => {
    const { client } = await setup({ queueMode });
    const { generations } = await client.queue.enqueue({
      model: 'google-veo-3-1',
      prompt: 'waves [hold]',
      duration: 4,
      num_generations: 2,
    });
    expect(generations).toHaveLength(2);
    expect(generations.every((g) => g.status === (today ? 'queued' : 'processing'))).toBe(true);
    const id = generations[0]!.generation_id;
    const listed = await client.queue.list({ model: 'google-veo-3-1' });
    expect(listed.count).toBe(2);
    const g = await client.queue.get(id);
    expect(g).toMatchObject({
      generation_id: id,
      [today ? 'model_name' : 'model']: 'google-veo-3-1',
      media_type: 'video',
      duration: 4,
      prompt: 'waves [hold]',
    });
    expect(await client.queue.cancel(id)).toEqual({ status: 'success', generation_id: id });
    if (today) {
      expect(await client.queue.get(id)).toMatchObject({ status: 'cancelled', result_url: null });
      expect(await client.queue.cancel(id)).toEqual({ status: 'success', generation_id: id }); // no effect
      expect((await client.queue.list({ status: 'cancelled' })).generations.map((x) => x.generation_id)).toEqual([id]);
    } else {
      for (const call of [client.queue.get(id), client.queue.cancel(id)]) {
        const err = await rejectionOf(call);
        expect(err).toBeInstanceOf(NotFoundError);
        expect((err as NotFoundError).body).toMatchObject({
          error: { type: 'resource_not_found' },
          status: 'error',
          status_message: 'resource_not_found',
        });
      }
    }
    expect((await client.queue.list()).count).toBe(1);
  });

  it('after the generation succeeded, get gives its result_url (today) or 404 (0.224.2)', async () => {
    const { client } = await setup({ queueMode });
    const [outcome] = await client.queue.run({ model: 'flux-1-dev', prompt: 'fox' });
    expect(outcome!.status).toBe('succeeded');
    if (today) {
      const g = await client.queue.get(outcome!.generation_id);
      expect(g).toMatchObject({
        status: 'succeeded',
        result_url: (outcome as { url: string }).url,
        error_message: null,
      });
      return;
    }
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

describe.each(QUEUE_MODES)('queue.run (%s queue)', (queueMode) => {
  const today = queueMode === 'today';

  it('resolves one outcome per generation: succeeded, failed, lost (vanished), cancelled', async () => {
    const { client } = await setup({
      queueMode,
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
    const { client, server } = await setup({ queueMode, unrelatedEvents: true, workerDelayMs: 60 });
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
    const { client, server } = await setup({ queueMode, decide: () => ({ outcome: 'succeeded', delayMs: 0 }) });
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

  it('after a stream drop: finished while down -> succeeded from the service (today) or lost (missed_event, 0.224.2); finished after reconnect -> succeeded', async () => {
    const { client, server } = await setup({ queueMode, decide: () => ({ outcome: 'hold' }) });
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
    if (today) {
      // The check after the reconnect reads it: succeeded, its result_url as the outcome's url.
      expect(outcomes[0]).toMatchObject({ status: 'succeeded', model: 'flux-1-dev', media_type: 'image' });
      expect((outcomes[0] as { url: string }).url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\/alice\/.+\.png$/);
    } else expect(outcomes[0]).toMatchObject({ status: 'lost', reason: 'missed_event' });
    expect(outcomes[1]).toMatchObject({ status: 'succeeded' });
    expect(progress).toContain('stream_down');
    expect(progress).toContain('stream_up');
    expect(server.count('GET', '/api/events')).toBe(2);
  });

  it('reconciles with one queue.list per namespace and model (not a GET per generation), and falls back to queue.get when a list fails', async () => {
    const { client, server } = await setup({ queueMode, decide: () => ({ outcome: 'hold' }) });
    let ids: string[] = [];
    const run = client.queue.run(
      { model: 'flux-1-dev', prompt: 'x', num_generations: 4, target_namespace: 'acme' },
      { lostGraceMs: 30, onProgress: (p) => p.type === 'enqueued' && (ids = p.generation_ids) },
    );
    await until(() => ids.length === 4);
    server.dropEventStreams();
    server.queue.complete(ids[0]!, 'succeeded'); // while down: missed
    await until(() => server.count('GET', /^\/api\/ai\/queue$/) >= 1);
    // No GET of a listed generation; today the one that left the list is read (0.224.2's list
    // items carry no status: the service drops ended generations, so it is gone at once).
    const reads = () => server.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/api/ai/queue/'));
    if (today) await until(() => reads().length === 1);
    expect(reads().map((r) => r.path)).toEqual(today ? [`/api/ai/queue/${ids[0]}`] : []);
    // The next list fails (a body of the wrong shape): each pending generation is asked on its own.
    server.faults.add({ method: 'GET', path: '/api/ai/queue', kind: 'wrong-shape', times: Infinity });
    await until(() => client.queue.eventStream.state === 'up');
    server.dropEventStreams();
    await until(() => server.count('GET', /^\/api\/ai\/queue\//) >= 3);
    for (const id of ids.slice(1)) server.queue.complete(id, 'failed', 'nope');
    const outcomes = await run;
    expect(outcomes.map((o) => o.status)).toEqual([today ? 'succeeded' : 'lost', 'failed', 'failed', 'failed']);
    if (!today) expect(outcomes[0]).toMatchObject({ reason: 'missed_event' });
  });

  it('concurrent runs share one /api/events connection, closed after the last run', async () => {
    const { client, server } = await setup({ queueMode });
    const runs = await Promise.all(
      [1, 2, 3].map((n) => client.queue.run({ model: 'flux-1-dev', prompt: `p${n}`, num_generations: n })),
    );
    expect(runs.map((r) => r.length)).toEqual([1, 2, 3]);
    expect(runs.flat().every((o) => o.status === 'succeeded')).toBe(true);
    expect(server.count('GET', '/api/events')).toBe(1);
    expect(client.queue.eventStream.subscribers).toBe(0);
    expect(client.queue.eventStream.state).toBe('idle');
  });

  // Today's docs name no expiry.
  it.runIf(!today)('a generation that expires (24 h) without event resolves lost', async () => {
    const { client, server } = await setup({ queueMode, decide: () => ({ outcome: 'hold' }) });
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
    const { client } = await setup({ queueMode, decide: () => ({ outcome: 'vanish', delayMs: 10 }) });
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
      queueMode,
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
    const { client } = await setup({ queueMode, decide: () => ({ outcome: 'hold' }) });
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
    const { client, server } = await setup({ queueMode });
    server.faults.add({ method: 'POST', path: '/api/ai/queue', kind: '500-after-enqueue' });
    const err = await rejectionOf(client.queue.run({ model: 'flux-1-dev', prompt: 'x [hold]' }));
    expect(err.name).toBe('OutcomeUnknownError');
    expect(err.message).toContain('queue.list');
    expect(server.count('POST', '/api/ai/queue')).toBe(1);
    expect((await client.queue.list()).count).toBe(1);
  });
});
