// Every transition of the shared /api/events connection (CONNECTION_TABLE in
// runtime/queue/states.ts), driven through SharedEventStream with a fake opener and fake timers:
// no server. The end-to-end tests of the same behaviour are in test/runtime/.
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APIError, ConnectionError } from '../../runtime/errors.ts';
import { SharedEventStream, type SharedEventListener } from '../../runtime/queue/shared-event-stream.ts';
import { CONNECTION_TABLE, FLAP_MS, MAX_QUICK_FLAPS, type ConnectionState } from '../../runtime/queue/states.ts';
import type { EventStream } from '../../runtime/streaming/event-stream.ts';
import type { ServerEvent } from '../../runtime/types.ts';

const BASE_MS = 100; // backoff base: a first delay is 100 to 200 ms
const taken = new Set<(typeof CONNECTION_TABLE)[number]>();

/** A connection whose events, end and failure the test decides. */
class FakeStream {
  closed = false;
  private queue: Array<ServerEvent | Error | 'end'> = [];
  private wake: (() => void) | undefined;
  push(item: ServerEvent | Error | 'end'): void {
    this.queue.push(item);
    this.wake?.();
  }
  close(): void {
    this.closed = true;
    this.push('end');
  }
  async forEach(onEvent: (e: ServerEvent) => void): Promise<void> {
    for await (const e of this) onEvent(e);
  }
  async *[Symbol.asyncIterator](): AsyncGenerator<ServerEvent> {
    for (;;) {
      const item = this.queue.shift();
      if (item === undefined) {
        await new Promise<void>((r) => (this.wake = r));
        continue;
      }
      if (item === 'end') return;
      if (item instanceof Error) throw item;
      yield item;
    }
  }
}

/** The stream under test, its attempts (each resolved or failed by the test) and what its listener was told. */
function harness() {
  const attempts: Array<{ signal: AbortSignal; open: (s: FakeStream) => void; fail: (e: unknown) => void }> = [];
  const told: string[] = [];
  const rows: Array<[ConnectionState, ConnectionState]> = [];
  const stream = new SharedEventStream(
    {
      open: (signal) =>
        new Promise<EventStream<ServerEvent>>((resolve, reject) =>
          attempts.push({ signal, open: (s) => resolve(s as unknown as EventStream<ServerEvent>), fail: reject }),
        ),
      baseDelayMs: BASE_MS,
      maxDelayMs: 10_000,
    },
    {
      trace: (from, row) => {
        taken.add(row);
        rows.push([from, row.to]);
      },
    },
  );
  const listener: SharedEventListener = {
    onEvent: (e) => told.push(`event ${e.data.generation_id}`),
    onUp: (i) => told.push(`up ${i.epoch}${i.reconnected ? ' reconnected' : ''}`),
    onDown: (e) => told.push(`down ${(e as Error).name}`),
    onConnectError: (e, i) => told.push(`connect error ${i.consecutiveFailures}${i.fatal ? ' fatal' : ''}`),
  };
  return { stream, attempts, told, rows, listener };
}

const flush = () => vi.advanceTimersByTimeAsync(0);
const event = (id: string): ServerEvent => ({
  event: 'media_generation_completed',
  data: { generation_id: id, status: 'failed', media_type: 'image', error: 'x' },
});
const unavailable = () => new APIError('Service unavailable', { status: 503 });

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the connection table', () => {
  it('idle -> connecting on the first subscriber; connecting -> up when the attempt opens; events flow', async () => {
    const h = harness();
    expect(h.stream.connectionState).toBe('idle');
    const leave = h.stream.subscribe(h.listener);
    expect([h.stream.connectionState, h.stream.state, h.attempts.length]).toEqual(['connecting', 'connecting', 1]);
    const conn = new FakeStream();
    h.attempts[0]!.open(conn);
    await flush();
    expect([h.stream.connectionState, h.stream.epoch]).toEqual(['up', 1]);
    conn.push(event('g1'));
    await flush();
    expect(h.told).toEqual(['up 1', 'event g1']);
    leave();
    expect(h.rows).toEqual([
      ['idle', 'connecting'],
      ['connecting', 'up'],
      ['up', 'idle'],
    ]);
  });

  it('a second subscriber does not connect again; unsubscribe of the last one: up -> idle, the connection closed', async () => {
    const h = harness();
    const a = h.stream.subscribe(h.listener);
    const b = h.stream.subscribe({ ...h.listener });
    const conn = new FakeStream();
    h.attempts[0]!.open(conn);
    await flush();
    a();
    expect([h.stream.connectionState, conn.closed]).toEqual(['up', false]);
    b();
    expect([h.stream.connectionState, h.stream.state, conn.closed]).toEqual(['idle', 'idle', true]);
    expect(h.attempts).toHaveLength(1);
  });

  it('unsubscribe while connecting: -> idle, the attempt aborted and its late answer ignored', async () => {
    const h = harness();
    h.stream.subscribe(h.listener)();
    expect([h.stream.connectionState, h.attempts[0]!.signal.aborted]).toEqual(['idle', true]);
    const late = new FakeStream();
    h.attempts[0]!.open(late);
    await flush();
    expect([h.stream.connectionState, late.closed, h.told]).toEqual(['idle', true, []]);
  });

  it('connecting -> waiting on a failed attempt (backoff), waiting -> connecting when the delay ends', async () => {
    const h = harness();
    h.stream.subscribe(h.listener);
    h.attempts[0]!.fail(unavailable());
    await flush();
    expect([h.stream.connectionState, h.stream.state, h.told]).toEqual(['waiting', 'connecting', ['connect error 1']]);
    await vi.advanceTimersByTimeAsync(BASE_MS - 1); // a first delay is at least BASE_MS
    expect(h.attempts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(BASE_MS + 1); // and under 2 * BASE_MS
    expect([h.stream.connectionState, h.attempts.length]).toEqual(['connecting', 2]);
  });

  it('unsubscribe while waiting: -> idle, the delay cancelled', async () => {
    const h = harness();
    const leave = h.stream.subscribe(h.listener);
    h.attempts[0]!.fail(unavailable());
    await flush();
    leave();
    await vi.advanceTimersByTimeAsync(10 * BASE_MS);
    expect([h.stream.connectionState, h.attempts.length]).toEqual(['idle', 1]);
  });

  it('connecting -> stopped on a fatal answer (401): subscribers told, nothing tried; restart -> connecting', async () => {
    const h = harness();
    h.stream.subscribe(h.listener);
    h.attempts[0]!.fail(new APIError('Missing or invalid API key', { status: 401 }));
    await flush();
    expect([h.stream.connectionState, h.stream.state, h.told]).toEqual(['stopped', 'idle', ['connect error 1 fatal']]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(h.attempts).toHaveLength(1);
    h.stream.restart();
    expect([h.stream.connectionState, h.attempts.length]).toEqual(['connecting', 2]);
    h.attempts[1]!.open(new FakeStream());
    await flush();
    expect(h.told.at(-1)).toBe('up 1'); // a new session: not "reconnected"
  });

  it('a subscriber joining a stopped stream restarts it; the last one leaving a stopped stream: -> idle', async () => {
    const h = harness();
    const leave = h.stream.subscribe(h.listener);
    h.attempts[0]!.fail(new APIError('Forbidden', { status: 403 }));
    await flush();
    leave();
    expect(h.stream.connectionState).toBe('idle');
    const h2 = harness();
    h2.stream.subscribe(h2.listener);
    h2.attempts[0]!.fail(new APIError('Forbidden', { status: 403 }));
    await flush();
    h2.stream.subscribe({ ...h2.listener });
    expect([h2.stream.connectionState, h2.attempts.length]).toEqual(['connecting', 2]);
  });

  it('up -> connecting at once when the connection drops (not quick): down told, then up again, reconnected', async () => {
    const h = harness();
    h.stream.subscribe(h.listener);
    const first = new FakeStream();
    h.attempts[0]!.open(first);
    await flush();
    await vi.advanceTimersByTimeAsync(FLAP_MS); // a connection that lasted: not a flap
    first.push(new ConnectionError('reset'));
    await flush();
    expect([h.stream.connectionState, h.attempts.length, first.closed]).toEqual(['connecting', 2, true]);
    h.attempts[1]!.open(new FakeStream());
    await flush();
    expect(h.told).toEqual(['up 1', 'down ConnectionError', 'up 2 reconnected']);
  });

  it('after a drop the first failed attempt is retried at once (connecting -> connecting), the second backs off', async () => {
    const h = harness();
    h.stream.subscribe(h.listener);
    const first = new FakeStream();
    h.attempts[0]!.open(first);
    await flush();
    first.push('end'); // the server closed it
    await flush();
    h.attempts[1]!.fail(unavailable());
    await flush();
    expect([h.stream.connectionState, h.attempts.length]).toEqual(['connecting', 3]);
    h.attempts[2]!.fail(unavailable());
    await flush();
    expect([h.stream.connectionState, h.stream.state]).toEqual(['waiting', 'down']);
    expect(h.told.slice(-2)).toEqual(['connect error 1', 'connect error 2']);
    await vi.advanceTimersByTimeAsync(2 * BASE_MS);
    expect(h.attempts).toHaveLength(4);
  });

  it(`up -> waiting on the ${MAX_QUICK_FLAPS}th drop in a row within ${FLAP_MS} ms of opening (flapping), then backs off`, async () => {
    const h = harness();
    h.stream.subscribe(h.listener);
    for (let n = 1; n <= MAX_QUICK_FLAPS; n++) {
      const conn = new FakeStream();
      h.attempts[n - 1]!.open(conn);
      await flush();
      conn.push('end');
      await flush();
      expect(h.stream.connectionState).toBe(n < MAX_QUICK_FLAPS ? 'connecting' : 'waiting');
    }
    expect(h.attempts).toHaveLength(MAX_QUICK_FLAPS);
    await vi.advanceTimersByTimeAsync(2 * BASE_MS);
    expect([h.stream.connectionState, h.attempts.length]).toEqual(['connecting', MAX_QUICK_FLAPS + 1]);
  });

  it('an event a state has no row for is ignored (a late drop of a replaced connection, a timer after leaving)', async () => {
    const h = harness();
    const leave = h.stream.subscribe(h.listener);
    const conn = new FakeStream();
    h.attempts[0]!.open(conn);
    await flush();
    leave();
    conn.push(new ConnectionError('reset')); // after close: not a drop of the current connection
    await flush();
    expect([h.stream.connectionState, h.told]).toEqual(['idle', ['up 1']]);
  });
});

afterAll(() => {
  // Each row of the table was taken by the tests above.
  expect(CONNECTION_TABLE.filter((row) => !taken.has(row))).toEqual([]);
});
