// GET /api/events: typed completion events, other event types passed through, keep-alive comments
// skipped, abort; and the shared stream's connection retries.
import { describe, expect, it } from 'vitest';
import { AbortError, ConnectionError, isMediaGenerationCompleted, type AnyServerEvent } from '../../index.ts';
import { until } from '../support/index.ts';
import { Client, rejectionOf, useServers } from './helpers.ts';

const setup = useServers();

describe('events.stream', () => {
  it('yields media_generation_completed events by default, typed so that comparing event.event narrows data', async () => {
    const { client, server } = await setup({ keepAliveMs: 20 });
    const ac = new AbortController();
    const seen: Array<{ id: string; status: string }> = [];
    const reading = (async () => {
      for await (const event of client.events.stream({ signal: ac.signal })) {
        // The queue docs' code (docs/queue.md): compiles only if the comparison narrows `event.data`.
        if (event.event === 'media_generation_completed')
          seen.push({ id: event.data.generation_id, status: event.data.status });
        if (seen.length === 2) break;
      }
    })();
    await until(() => server.count('GET', '/api/events') === 1);
    server.emit('alice', 'deployment_updated', { deployment_id: 'd1', status: 'running' });
    server.emit('alice', 'media_generation_completed', {
      generation_id: 'g1',
      status: 'succeeded',
      media_type: 'image',
      model: 'flux-1-dev',
      url: 'https://x/y.png',
    });
    server.emit('alice', 'note', 'plain text');
    server.emit('alice', 'media_generation_completed', {
      generation_id: 'g2',
      status: 'failed',
      media_type: 'image',
      error: 'boom',
    });
    await reading;
    expect(seen).toEqual([
      { id: 'g1', status: 'succeeded' },
      { id: 'g2', status: 'failed' },
    ]);
  });

  it('allEvents: yields every event type (keep-alive comments skipped), others passed through with data parsed', async () => {
    const { client, server } = await setup({ keepAliveMs: 20 });
    const ac = new AbortController();
    const seen: AnyServerEvent[] = [];
    const reading = (async () => {
      for await (const ev of client.events.stream({ signal: ac.signal, allEvents: true })) {
        seen.push(ev);
        if (seen.length === 3) break;
      }
    })();
    await until(() => server.count('GET', '/api/events') === 1);
    await new Promise((r) => setTimeout(r, 120)); // several keep-alive comments
    server.emit('alice', 'deployment_updated', { deployment_id: 'd1', status: 'running' });
    server.emit('bob', 'media_generation_completed', {
      generation_id: 'other-user',
      status: 'failed',
      media_type: 'image',
      error: 'x',
    });
    server.emit('alice', 'media_generation_completed', {
      generation_id: 'g1',
      status: 'succeeded',
      media_type: 'image',
      model: 'flux-1-dev',
      url: 'https://x/y.png',
    });
    server.emit('alice', 'note', 'plain text');
    await reading;
    expect(seen.map((e) => e.event)).toEqual(['deployment_updated', 'media_generation_completed', 'note']);
    const done = seen[1]!;
    expect(isMediaGenerationCompleted(done)).toBe(true);
    expect(isMediaGenerationCompleted(seen[0]!)).toBe(false);
    if (!isMediaGenerationCompleted(done)) throw new Error('not narrowed');
    expect(done.data.status).toBe('succeeded');
    expect(done.data.status === 'succeeded' && done.data.url).toBe('https://x/y.png');
    expect(seen[0]!.data).toEqual({ deployment_id: 'd1', status: 'running' });
    expect(seen[2]!.data).toBe('plain text');
  });

  it('connect() resolves once the stream is connected, so no event emitted after it is missed; an abort ends it', async () => {
    const { client, server } = await setup({ keepAliveMs: 20 });
    const ac = new AbortController();
    const stream = await client.events.connect({ signal: ac.signal });
    server.emit('alice', 'media_generation_completed', {
      generation_id: 'g2',
      status: 'failed',
      media_type: 'video',
      error: 'boom',
    });
    const it = stream[Symbol.asyncIterator]();
    const first = await it.next();
    expect(first.value).toEqual({
      event: 'media_generation_completed',
      data: { generation_id: 'g2', status: 'failed', media_type: 'video', error: 'boom' },
    });
    setTimeout(() => ac.abort(), 30);
    const err = await rejectionOf(it.next());
    expect(err).toBeInstanceOf(AbortError);
  });

  it('a dropped stream ends the iteration with ConnectionError', async () => {
    const { client, server } = await setup({ keepAliveMs: 1_000 });
    const stream = await client.events.connect();
    setTimeout(() => server.dropEventStreams(), 20);
    const err = await rejectionOf(
      (async () => {
        for await (const _ of stream) void _;
      })(),
    );
    expect(err).toBeInstanceOf(ConnectionError);
  });
});

describe('the shared stream of queue.run', () => {
  it('retries connecting to /api/events (503, reset) before enqueueing', async () => {
    const { client, server } = await setup();
    server.faults.add({ method: 'GET', path: '/api/events', kind: '503' });
    server.faults.add({ method: 'GET', path: '/api/events', kind: 'reset' });
    const outcomes = await client.queue.run({ model: 'flux-1-dev', prompt: 'x' });
    expect(outcomes[0]!.status).toBe('succeeded');
    expect(server.count('GET', '/api/events')).toBe(3);
    expect(server.count('POST', '/api/ai/queue')).toBe(1);
  });

  it('gives up after maxRetries when the stream cannot connect, without enqueueing', async () => {
    const { client, server } = await setup();
    server.faults.add({ method: 'GET', path: '/api/events', kind: '503', times: Infinity });
    const err = await rejectionOf(client.queue.run({ model: 'flux-1-dev', prompt: 'x' }, { maxRetries: 1 }));
    expect(err.name).toBe('InternalServerError');
    expect(server.count('GET', '/api/events')).toBe(2);
    expect(server.count('POST', '/api/ai/queue')).toBe(0);
  });

  it('reconnects when the stream goes silent (no keep-alive) for eventStreamIdleTimeoutMs', async () => {
    const { server } = await setup({ keepAliveMs: 60_000, decide: () => ({ outcome: 'hold' }) });
    const client = new Client({
      apiKey: 'test-key',
      baseUrl: server.url,
      retryBaseDelayMs: 10,
      eventStreamIdleTimeoutMs: 80,
    });
    let id = '';
    const progress: string[] = [];
    const outcomes = await client.queue.run(
      { model: 'flux-1-dev', prompt: 'x' },
      {
        onProgress: (p) => {
          progress.push(p.type);
          if (p.type === 'enqueued') id = p.generation_ids[0]!;
          // Completed the moment a fresh connection is up (well within the 80 ms of silence allowed).
          if (p.type === 'stream_up' && id) server.queue.complete(id, 'succeeded');
        },
      },
    );
    expect(outcomes[0]!.status).toBe('succeeded');
    expect(progress).toContain('stream_down');
    expect(server.count('GET', '/api/events')).toBeGreaterThanOrEqual(2); // the silent stream was replaced
  });
});
