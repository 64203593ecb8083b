// Every transition of a followed generation (GENERATION_TABLE in runtime/queue/states.ts), driven
// through Run with fake ports, and the Reconciler's checks (one list per query, spaced; reads of
// what a list does not show; the lists of ended generations) with fake list/get functions, on fake
// timers: no server. The end-to-end tests of the same behaviour are in test/runtime/.
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NotFoundError } from '../../runtime/error-classes.ts';
import type { QueueRunOptions, QueueRunOutcome, QueueRunProgress } from '../../runtime/queue/outcomes.ts';
import { Reconciler, type ReconcilerDeps } from '../../runtime/queue/reconcile.ts';
import { MIN_CHECK_SPACING_MS, Run, type RunPorts } from '../../runtime/queue/run-state.ts';
import { TrackedIndex, type Tracked } from '../../runtime/queue/tracked.ts';
import { GENERATION_TABLE, type GenerationState } from '../../runtime/queue/states.ts';
import { SYSTEM_CLOCK } from '../../runtime/queue/clock.ts';
import type { Generation, QueueListParams } from '../../runtime/types.ts';

const taken = new Set<(typeof GENERATION_TABLE)[number]>();
const GRACE_MS = 500;

/** A run following `ids` (states `waiting`, gaps as given), its ports' records and its progress. */
function harness(ids: string[], o: { gap?: boolean; followed?: boolean; options?: QueueRunOptions } = {}) {
  const cancelled = new Set<string>();
  const gets: string[] = [];
  const progress: QueueRunProgress[] = [];
  const ports: RunPorts = {
    clock: SYSTEM_CLOCK,
    index: new TrackedIndex(),
    get: (_run, g) => void gets.push(g.id),
    wasCancelled: (id) => cancelled.has(id),
    trace: (_g, _from, row) => void taken.add(row),
  };
  const run = new Run({ lostGraceMs: GRACE_MS, onProgress: (p) => progress.push(p), ...o.options }, 2, ports);
  run.followed = o.followed === true;
  run.enqueuedAt = Date.now();
  ids.forEach((id, index) => run.track(id, index, o.gap === true));
  const g = (id = ids[0]!): Tracked => ports.index.find(id, run)!;
  const outcome = (id = ids[0]!): QueueRunOutcome | undefined => ports.index.find(id, run)?.outcome;
  return { run, g, outcome, cancelled, gets, progress };
}

/** Put `g` in `state` through the table's own transitions. */
function reach(run: Run, g: Tracked, state: GenerationState): void {
  if (state === 'waiting') return;
  run.apply(g, 'check');
  if (state === 'getting') run.apply(g, 'not_listed');
  if (state === 'grace') run.apply(g, 'gone');
  expect(g.state).toBe(state);
}

const succeeded = (id: string) =>
  ({ generation_id: id, status: 'succeeded', media_type: 'image', model: 'm', url: 'https://x/o.png' }) as const;
const PENDING: GenerationState[] = ['waiting', 'listing', 'getting', 'grace'];

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the generation table', () => {
  it.each(PENDING)('%s -> settled on its completion event (onEvent told; the grace timer stopped)', async (state) => {
    const events: unknown[] = [];
    const h = harness(['a'], { options: { lostGraceMs: GRACE_MS, onEvent: (e) => events.push(e) } });
    reach(h.run, h.g(), state);
    h.run.apply(h.g(), 'completed', { data: succeeded('a') });
    expect(h.outcome()).toEqual({
      generation_id: 'a',
      index: 0,
      status: 'succeeded',
      url: 'https://x/o.png',
      media_type: 'image',
      model: 'm',
    });
    expect(events).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2 * GRACE_MS);
    expect(h.progress.filter((p) => p.type === 'settled')).toHaveLength(1);
    expect(h.run.done).toBe(true);
  });

  it.each(PENDING)('%s -> settled cancelled when cancelled through this transport', (state) => {
    const h = harness(['a']);
    reach(h.run, h.g(), state);
    h.run.apply(h.g(), 'cancelled_here');
    expect(h.outcome()).toEqual({ generation_id: 'a', index: 0, status: 'cancelled' });
  });

  it.each(PENDING)('%s: stays in its state on stream_down, its event now possibly missed (gap)', (state) => {
    const h = harness(['a']);
    reach(h.run, h.g(), state);
    h.run.apply(h.g(), 'stream_down');
    expect([h.g().state, h.g().gap]).toEqual([state, true]);
  });

  it('waiting -> listing on a check; listing/getting -> waiting when active, seen (gap closed only if the stream stayed up)', async () => {
    const h = harness(['a', 'b'], { gap: true });
    await vi.advanceTimersByTimeAsync(1_234);
    for (const [id, state, continuous] of [
      ['a', 'listing', true],
      ['b', 'getting', false],
    ] as const) {
      reach(h.run, h.g(id), state);
      h.run.apply(h.g(id), 'active', { answer: { generation_id: id, status: 'processing' }, continuous });
      expect([h.g(id).state, h.g(id).seen, h.g(id).gap]).toEqual(['waiting', true, !continuous]);
    }
    expect(h.progress).toEqual([
      { type: 'processing', generation_id: 'a', index: 0, elapsedMs: 1_234 },
      { type: 'processing', generation_id: 'b', index: 1, elapsedMs: 1_234 },
    ]);
  });

  it('listing/getting -> settled from an ended answer: result_url, error_message, cancelled; no URL is lost (invalid_event)', () => {
    const h = harness(['a', 'b', 'c', 'd']);
    const answers: Record<string, Generation> = {
      a: {
        generation_id: 'a',
        status: 'succeeded',
        result_url: 'https://x/a.png',
        model_name: 'm',
        media_type: 'image',
      },
      b: { generation_id: 'b', status: 'failed', error_message: 'no luck', result_url: null, media_type: 'video' },
      c: { generation_id: 'c', status: 'cancelled', result_url: null },
      d: { generation_id: 'd', status: 'succeeded', result_url: null },
    };
    for (const [id, state] of [
      ['a', 'listing'],
      ['b', 'getting'],
      ['c', 'listing'],
      ['d', 'getting'],
    ] as const) {
      reach(h.run, h.g(id), state);
      h.run.apply(h.g(id), 'ended', { answer: answers[id] });
    }
    expect(h.run.tracked.map((g) => g.outcome)).toEqual([
      { generation_id: 'a', index: 0, status: 'succeeded', url: 'https://x/a.png', media_type: 'image', model: 'm' },
      { generation_id: 'b', index: 1, status: 'failed', error: 'no luck', media_type: 'video' },
      { generation_id: 'c', index: 2, status: 'cancelled' },
      expect.objectContaining({ generation_id: 'd', status: 'lost', reason: 'invalid_event' }),
    ]);
    expect((h.outcome('d') as { message: string }).message).toContain('no result_url string');
  });

  it('listing -> getting (a read sent) when not listed or when the list failed; getting -> waiting when the read failed', () => {
    const h = harness(['a', 'b']);
    reach(h.run, h.g('a'), 'listing');
    h.run.apply(h.g('a'), 'not_listed');
    reach(h.run, h.g('b'), 'listing');
    h.run.apply(h.g('b'), 'check_failed');
    expect([h.g('a').state, h.g('b').state, h.gets]).toEqual(['getting', 'getting', ['a', 'b']]);
    h.run.apply(h.g('a'), 'check_failed');
    expect(h.g('a').state).toBe('waiting');
  });

  it('listing/getting -> settled cancelled when gone after a cancel through this transport', () => {
    const h = harness(['a', 'b']);
    h.cancelled.add('a').add('b');
    reach(h.run, h.g('a'), 'listing');
    h.run.apply(h.g('a'), 'gone');
    reach(h.run, h.g('b'), 'getting');
    h.run.apply(h.g('b'), 'gone');
    expect([h.outcome('a')?.status, h.outcome('b')?.status]).toEqual(['cancelled', 'cancelled']);
  });

  it('listing/getting -> grace when gone; grace -> settled lost after lostGraceMs (vanished: the stream stayed up)', async () => {
    const h = harness(['a', 'b']);
    reach(h.run, h.g('a'), 'grace'); // gone from a list
    h.run.apply(h.g('b'), 'check');
    h.run.apply(h.g('b'), 'check_failed');
    h.run.apply(h.g('b'), 'gone'); // 404 on a read
    expect(h.g('b').state).toBe('grace');
    await vi.advanceTimersByTimeAsync(GRACE_MS - 1);
    expect(h.run.settled).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    for (const id of ['a', 'b']) expect(h.outcome(id)).toMatchObject({ status: 'lost', reason: 'vanished' });
  });

  it('grace -> lost missed_event when the stream was down (two messages: left while down; followed after it ended)', async () => {
    const run = harness(['a'], { gap: true });
    const follow = harness(['a'], { gap: true, followed: true });
    for (const h of [run, follow]) reach(h.run, h.g(), 'grace');
    await vi.advanceTimersByTimeAsync(GRACE_MS);
    expect(run.outcome()).toMatchObject({ status: 'lost', reason: 'missed_event' });
    expect((run.outcome() as { message: string }).message).toContain('while the event stream was down');
    expect((follow.outcome() as { message: string }).message).toContain('no longer in the queue when it was followed');
  });

  it('grace -> settled cancelled when cancelled through this transport during the grace period', async () => {
    const h = harness(['a']);
    reach(h.run, h.g(), 'grace');
    h.cancelled.add('a'); // noted, and told to the run after the grace period's end (a wrapper's cancel)
    await vi.advanceTimersByTimeAsync(GRACE_MS);
    expect(h.outcome()).toEqual({ generation_id: 'a', index: 0, status: 'cancelled' });
  });

  it('an event a state has no row for is ignored: nothing after settled, no answer while waiting', () => {
    const h = harness(['a']);
    expect(h.run.apply(h.g(), 'active', { continuous: true })).toBeUndefined();
    expect(h.run.apply(h.g(), 'gone')).toBeUndefined();
    h.run.apply(h.g(), 'cancelled_here');
    for (const e of ['completed', 'check', 'ended', 'grace_elapsed'] as const)
      expect(h.run.apply(h.g(), e, { data: succeeded('a') })).toBeUndefined();
    expect(h.outcome()?.status).toBe('cancelled');
  });

  it('applies events without an array iterator: code V8 has not optimized yet (or dropped at a full GC) allocates none per event', async () => {
    const h = harness(['a', 'b']);
    const iterate = Array.prototype[Symbol.iterator];
    let iterators = 0;
    // Counts every for...of over an array (and spread) while the transitions run; restored at once.
    Array.prototype[Symbol.iterator] = function (this: unknown[]) {
      iterators++;
      return iterate.call(this);
    } as typeof iterate;
    try {
      h.run.apply(h.g('a'), 'check');
      h.run.apply(h.g('a'), 'active', { continuous: true });
      h.run.apply(h.g('a'), 'completed', { data: succeeded('a') });
      h.run.apply(h.g('b'), 'check');
      h.run.apply(h.g('b'), 'gone');
    } finally {
      Array.prototype[Symbol.iterator] = iterate;
    }
    expect(iterators).toBe(0);
    expect(h.outcome('a')?.status).toBe('succeeded');
    await vi.advanceTimersByTimeAsync(GRACE_MS);
    expect(h.outcome('b')).toMatchObject({ status: 'lost', reason: 'vanished' });
  });
});

describe('the index by id', () => {
  it('links one generation per run under an id; an id twice in one run is tracked once; removal keeps the others', () => {
    const index = new TrackedIndex();
    const ports: RunPorts = { clock: SYSTEM_CLOCK, index, get: () => undefined, wasCancelled: () => false };
    const [a, b, c] = [0, 1, 2].map(() => new Run({}, 0, ports));
    for (const run of [a!, b!, c!]) expect(run.track('x', 0, false)).toBeDefined();
    expect(a!.track('x', 1, false)).toBeUndefined();
    const runsOf = () => {
      const runs: Run[] = [];
      for (let g = index.get('x'); g; g = g.next) runs.push(g.run);
      return runs;
    };
    expect(runsOf()).toEqual([a, b, c]);
    index.remove(index.find('x', b!)!);
    expect(runsOf()).toEqual([a, c]);
    index.remove(index.find('x', a!)!);
    expect([runsOf(), index.find('x', c!)?.run]).toEqual([[c], c]);
    index.remove(index.find('x', c!)!);
    expect(index.get('x')).toBeUndefined();
  });
});

/** A reconciler over fake list/get functions whose answers the test gives. */
function reconciler(opts: { stream?: { state: string; epoch: number } } = {}) {
  const lists: Array<{
    params: QueueListParams;
    at: number;
    answer: (items: Generation[]) => void;
    fail: () => void;
  }> = [];
  const gets: Array<{ id: string; answer: (g: Generation) => void; gone: () => void }> = [];
  const index = new TrackedIndex();
  const deps: ReconcilerDeps = {
    index,
    list: (params) =>
      new Promise((resolve, reject) =>
        lists.push({
          params,
          at: Date.now(),
          answer: (items) => resolve({ count: items.length, generations: items }),
          fail: () => reject(new Error('bad list')),
        }),
      ),
    get: (id) =>
      new Promise((resolve, reject) =>
        gets.push({ id, answer: resolve, gone: () => reject(new NotFoundError('gone', { status: 404 })) }),
      ),
    stream: opts.stream ?? { state: 'up', epoch: 1 },
    timeoutMs: 30_000,
  };
  const r = new Reconciler(deps);
  /** A run whose reads go through `r`. */
  const runOf = (ids: string[], listParams: QueueListParams = {}, interval?: number) => {
    const ports: RunPorts = {
      clock: SYSTEM_CLOCK,
      index,
      get: (run, g) => r.get(run, g),
      wasCancelled: () => false,
      trace: (_g, _from, row) => void taken.add(row),
    };
    const run = new Run({ lostGraceMs: GRACE_MS, reconcileIntervalMs: interval }, 0, ports);
    run.inner = { signal: new AbortController().signal };
    run.listParams = listParams;
    ids.forEach((id, i) => run.track(id, i, true));
    return run;
  };
  return { r, lists, gets, runOf, index };
}

/** Run what is due now and in the next turn (a 0 ms timer fires after 1 ms of fake time). */
const flush = () => vi.advanceTimersByTimeAsync(1);
const active = (id: string, status?: string): Generation =>
  status ? { generation_id: id, status } : { generation_id: id };

describe('the reconciler', () => {
  it('runs asking in one turn share one list per namespace and model; listed ones are active, others read', async () => {
    const { r, lists, gets, runOf, index } = reconciler();
    const one = runOf(['a', 'b'], { model: 'm' });
    const two = runOf(['c'], { model: 'm' });
    const other = runOf(['d'], { model: 'n' });
    for (const run of [one, two, other]) r.soon(run);
    await flush();
    expect(lists.map((l) => l.params)).toEqual([{ model: 'm' }, { model: 'n' }]);
    lists[0]!.answer([active('a', 'processing'), active('c', 'queued')]);
    await flush();
    expect([index.find('a', one)!.state, index.find('c', two)!.state]).toEqual(['waiting', 'waiting']);
    expect(index.find('a', one)!.gap).toBe(false); // the stream stayed up on one connection
    expect(gets.map((g) => g.id)).toEqual(['b']); // not listed: read (the service keeps ended ones)
    gets[0]!.answer({ generation_id: 'b', status: 'succeeded', result_url: 'https://x/b.png' });
    await flush();
    expect(index.find('b', one)!.outcome).toMatchObject({ status: 'succeeded', url: 'https://x/b.png' });
    expect(r.keepsEnded).toBe(true);
  });

  it('a service whose list items carry no status drops ended generations: not listed is gone at once (0.224.2)', async () => {
    const { r, lists, gets, runOf, index } = reconciler();
    const run = runOf(['a', 'b']);
    r.soon(run);
    await flush();
    lists[0]!.answer([active('a')]);
    await flush();
    expect([r.keepsEnded, index.find('b', run)!.state, gets]).toEqual([false, 'grace', []]);
  });

  it('one list at a time per query, and the next at least the spacing later', async () => {
    const { r, lists, runOf } = reconciler();
    const run = runOf(['a']);
    r.soon(run);
    await flush();
    r.soon(run); // 'a' is listing: nothing to add
    await flush();
    expect(lists).toHaveLength(1);
    lists[0]!.answer([active('a', 'processing')]);
    await flush();
    r.soon(run);
    await vi.advanceTimersByTimeAsync(3 * MIN_CHECK_SPACING_MS);
    expect(lists).toHaveLength(2);
    expect(lists[1]!.at - lists[0]!.at).toBe(MIN_CHECK_SPACING_MS);
  });

  it('a list that fails: each of its generations is read; a read that fails leaves it waiting; 404 is gone', async () => {
    const { r, lists, gets, runOf, index } = reconciler();
    const run = runOf(['a', 'b']);
    r.soon(run);
    await flush();
    lists[0]!.fail();
    await flush();
    expect(gets.map((g) => g.id)).toEqual(['a', 'b']);
    gets[0]!.gone();
    gets[1]!.answer(active('b', 'processing'));
    await flush();
    expect([index.find('a', run)!.state, index.find('b', run)!.state]).toEqual(['grace', 'waiting']);
  });

  it(`more than 16 not listed: the lists of ended generations answer for them`, async () => {
    const { r, lists, gets, runOf } = reconciler();
    const ids = Array.from({ length: 20 }, (_, i) => `g${i}`);
    const run = runOf(ids, { namespace: 'acme' });
    r.soon(run);
    await flush();
    lists[0]!.answer([]);
    await flush();
    expect(lists.slice(1).map((l) => l.params)).toEqual(
      ['succeeded', 'failed', 'cancelled'].map((status) => ({ namespace: 'acme', status })),
    );
    lists[1]!.answer(
      ids.slice(0, 18).map((id) => ({ generation_id: id, status: 'succeeded', result_url: `https://x/${id}` })),
    );
    lists[2]!.answer([{ generation_id: 'g18', status: 'failed', error_message: 'no' }]);
    lists[3]!.fail();
    await flush();
    expect(run.settled).toBe(19);
    expect(gets.map((g) => g.id)).toEqual(['g19']); // found in no list: read
  });

  it('every(): a check each interval until stopped; a check made while the stream was down keeps the gap', async () => {
    const stream = { state: 'connecting', epoch: 1 };
    const { r, lists, runOf, index } = reconciler({ stream });
    const run = runOf(['a'], {}, 100);
    const stop = r.every(run, 100);
    await vi.advanceTimersByTimeAsync(100);
    await flush(); // the check asked at 100 ms runs in the next turn
    expect(lists).toHaveLength(1);
    lists[0]!.answer([active('a', 'processing')]);
    await flush();
    expect(index.find('a', run)!.gap).toBe(true);
    await vi.advanceTimersByTimeAsync(100);
    await flush();
    expect(lists).toHaveLength(2);
    stop();
    lists[1]!.answer([active('a', 'processing')]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(lists).toHaveLength(2);
  });
});

afterAll(() => {
  // Each row of the table was taken by the tests above.
  expect(GENERATION_TABLE.filter((row) => !taken.has(row))).toEqual([]);
});
