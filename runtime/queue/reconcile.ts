/**
 * The queue machinery of one transport: its coordinator (with the shared `/api/events` stream),
 * kept in the transport's `TransportState`, and the reconciliation of pending generations with
 * `queue.list` / `queue.get` (which finds generations that left the queue without an event
 * reaching us). Used by `queue-run.ts`.
 */
import { getGeneration, listGenerations } from '../endpoints.ts';
import { NotFoundError } from '../errors.ts';
import { RunCoordinator } from './coordinator.ts';
import type { Run, Tracked } from './run-state.ts';
import type { RequestOptions } from '../scope.ts';
import { openEventStream } from '../streaming/event-stream.ts';
import { SharedEventStream } from './shared-event-stream.ts';
import { stateOf, type Transport } from '../transport.ts';
import { startTimer } from '../internal/timer.ts';
import type { TransportState } from '../transport-state.ts';

/** A transport's queue machinery: the coordinator and its reconciliation scheduler. */
export interface QueueMachinery {
  coordinator: RunCoordinator;
  /** Check `run`'s pending generations soon (batched with the other runs asking in the same turn). */
  reconcileSoon: (run: Run) => void;
  /** The transport's state (cancellations). */
  state: TransportState;
}

/**
 * The queue machinery of `t` (one shared event stream per transport state), made on first use
 * through `t` and kept in `t.state`: a wrapper sharing the state shares it, and its connection
 * and checks go through the transport that made it. `reconcileSoon` batches: the runs asking
 * within one turn of the event loop (e.g. every run after a reconnect) are checked together, with
 * one `queue.list` per namespace and model rather than one `queue.get` per generation.
 * @throws SDKError when `t` has no `state` (see `Transport.state`).
 */
export function machineryOf(t: Transport): QueueMachinery {
  const state = stateOf(t);
  const entry = state.queue(() => {
    const s = t.settings;
    const hub = new SharedEventStream({
      open: (signal) =>
        openEventStream(t, { signal, maxRetries: 0, timeoutMs: Math.min(s.timeoutMs || 30_000, 30_000) }),
      baseDelayMs: s.retryBaseDelayMs,
      maxDelayMs: s.retryMaxDelayMs,
    });
    const coordinator = new RunCoordinator(hub);
    const groups = new Map<string, ListGroup>();
    const batch = new Set<Run>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const m: QueueMachinery & { stream: SharedEventStream; onCancel(id: string): void } = {
      coordinator,
      state,
      stream: hub,
      onCancel: (id) => coordinator.onCancel(id),
      reconcileSoon: (run) => {
        batch.add(run);
        timer ??= setTimeout(() => {
          timer = undefined;
          const runs = [...batch];
          batch.clear();
          reconcile(t, m, groups, runs);
        }, 0);
      },
    };
    coordinator.reconcileHook = m.reconcileSoon;
    return m;
  });
  return entry;
}

/** The checks of one `queue.list` query: at most one list in flight, entries waiting for the next. */
interface ListGroup {
  params: NonNullable<Run['listParams']>;
  waiting: Array<{ run: Run; g: Tracked }>;
  running: boolean;
}

/**
 * Check the pending generations of `runs`: still processing (the gap, if any, is closed when the
 * stream stayed up meanwhile), or gone: `cancelled` when cancelled through this transport state,
 * else `lost` after the grace period unless its event arrives meanwhile. One `queue.list` per
 * namespace and model finds which are still processing, one at a time per query (generations asked
 * while a list is in flight wait for the next one, which is sent after they were enqueued); if a
 * list fails, or the run knows no query (`queue.follow`), each generation is asked with
 * `queue.get` (404: gone).
 */
function reconcile(t: Transport, m: QueueMachinery, groups: Map<string, ListGroup>, runs: Run[]): void {
  for (const run of runs) {
    if (run.done || run.inner.signal?.aborted) continue;
    const params = run.listParams;
    if (params === undefined) {
      for (const g of run.pending()) {
        if (g.checking || g.graceTimer !== undefined) continue;
        g.checking = true;
        getEach(t, m, run, g);
      }
      continue;
    }
    const key = `${params.namespace ?? ''}\u0000${params.model ?? ''}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { params, waiting: [], running: false }));
    for (const g of run.pending()) {
      if (g.checking || g.graceTimer !== undefined) continue;
      g.checking = true;
      group.waiting.push({ run, g });
    }
    if (!group.running && group.waiting.length > 0) listGroup(t, m, group);
  }
}

function listGroup(t: Transport, m: QueueMachinery, group: ListGroup): void {
  const { coordinator } = m;
  const entries = group.waiting;
  group.waiting = [];
  group.running = true;
  const epoch = coordinator.hub.epoch;
  const wasUp = coordinator.hub.state === 'up';
  const options: RequestOptions = { timeoutMs: Math.min(t.settings.timeoutMs || 30_000, 30_000) };
  void coordinator.limiter
    .run(() => listGenerations(t, group.params, options))
    .then(
      (res) => {
        const present = new Set(res.generations.map((x) => x.generation_id));
        for (const { run, g } of entries) {
          g.checking = false;
          if (present.has(g.id)) processing(m, run, g, wasUp, epoch);
          else gone(m, run, g);
        }
      },
      () => {
        for (const { run, g } of entries) getEach(t, m, run, g);
      },
    )
    .finally(() => {
      group.running = false;
      if (group.waiting.length > 0) listGroup(t, m, group);
    });
}

/** `queue.get` one generation (`g.checking` is set). */
function getEach(t: Transport, m: QueueMachinery, run: Run, g: Tracked): void {
  if (run.outcomes.has(g.id) || run.inner.signal?.aborted) {
    g.checking = false;
    return;
  }
  const epoch = m.coordinator.hub.epoch;
  const wasUp = m.coordinator.hub.state === 'up';
  void m.coordinator.limiter
    .run(() => getGeneration(t, g.id, run.inner))
    .then(
      () => processing(m, run, g, wasUp, epoch),
      (err) => {
        if (err instanceof NotFoundError) gone(m, run, g); // other errors: try again next time
      },
    )
    .finally(() => {
      g.checking = false;
    });
}

/** The generation is still processing. */
function processing(m: QueueMachinery, run: Run, g: Tracked, wasUp: boolean, epoch: number): void {
  g.seenProcessing = true;
  if (wasUp && m.coordinator.continuous(epoch)) g.gap = false;
  // Elapsed by our clock (the service's `enqueued_at` has a resolution of one second).
  if (!run.outcomes.has(g.id))
    run.progress({
      type: 'processing',
      generation_id: g.id,
      index: g.index,
      elapsedMs: Math.max(0, Date.now() - run.enqueuedAt),
    });
}

/** The generation left the queue: cancelled through this state, or lost unless its event arrives within the grace period. */
function gone(m: QueueMachinery, run: Run, g: Tracked): void {
  if (run.outcomes.has(g.id) || g.graceTimer !== undefined || run.inner.signal?.aborted) return; // settled, waiting, or the run ended
  if (m.state.wasCancelled(g.id)) return run.settle({ generation_id: g.id, index: g.index, status: 'cancelled' });
  g.graceTimer = startTimer(run.options.lostGraceMs ?? 2_000, () => {
    g.graceTimer = undefined;
    if (m.state.wasCancelled(g.id)) return run.settle({ generation_id: g.id, index: g.index, status: 'cancelled' });
    run.settle(
      !g.gap
        ? {
            generation_id: g.id,
            index: g.index,
            status: 'lost',
            reason: 'vanished',
            message:
              'The generation left the queue without a completion event (it failed without result, expired, or was cancelled elsewhere).',
          }
        : run.followed && !g.seenProcessing
          ? {
              generation_id: g.id,
              index: g.index,
              status: 'lost',
              reason: 'missed_event',
              message:
                'The generation was no longer in the queue when it was followed: it had already ended (succeeded, failed, expired or was cancelled) and its completion event was missed, or the id is unknown.',
            }
          : {
              generation_id: g.id,
              index: g.index,
              status: 'lost',
              reason: 'missed_event',
              message:
                'The generation left the queue while the event stream was down; its completion event was missed (it may have succeeded or failed).',
            },
    );
  });
}
