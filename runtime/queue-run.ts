/**
 * `queue.run`: enqueue generations and follow each to one outcome over the transport's shared
 * `/api/events` stream. The root `Client` loads this module with a dynamic `import()` (a bundler
 * splits it off); the generated `<model>Run` functions import it directly.
 */
import { enqueueRequest, getGeneration, listGenerations, validateQueueBody } from './endpoints.ts';
import { AbortError, NotFoundError, OutcomeUnknownError, TimeoutError } from './errors.ts';
import { RunCoordinator } from './queue-coordinator.ts';
import { linkOf, wasCancelled } from './queue-link.ts';
import { QUEUE_RUN_DEFAULT_TIMEOUT_MS, QueueRunAbortError, QueueRunTimeoutError, type QueueRunOptions, type QueueRunOutcome } from './queue-outcomes.ts';
import { Run, type Tracked } from './queue-run-state.ts';
import { CallScope, type RequestOptions } from './scope.ts';
import { openEventStream } from './sse.ts';
import { SharedEventStream } from './shared-event-stream.ts';
import type { Transport } from './transport.ts';
import type { EnqueueResponse } from './types.ts';
import type { CompiledValidator } from './validation.ts';

/** The coordinator (and its shared event stream) of each transport, with its reconciliation scheduler. */
const coordinators = new WeakMap<Transport, { coordinator: RunCoordinator; reconcileSoon: (run: Run) => void }>();

/**
 * The coordinator of `t`'s runs (one shared event stream per transport), and `reconcileSoon`,
 * which checks the pending generations of the runs it is given, batched: the runs asking within
 * one turn of the event loop (e.g. every run after a reconnect) are checked together, with one
 * `queue.list` per namespace and model rather than one `queue.get` per generation.
 */
function coordinatorOf(t: Transport): { coordinator: RunCoordinator; reconcileSoon: (run: Run) => void } {
  let entry = coordinators.get(t);
  if (!entry) {
    const s = t.settings;
    const hub = new SharedEventStream({
      open: (signal) => openEventStream(t, { signal, maxRetries: 0, timeoutMs: Math.min(s.timeoutMs || 30_000, 30_000) }),
      baseDelayMs: s.retryBaseDelayMs,
      maxDelayMs: s.retryMaxDelayMs,
    });
    const c = new RunCoordinator(hub);
    const groups = new Map<string, ListGroup>();
    const batch = new Set<Run>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const reconcileSoon = (run: Run): void => {
      batch.add(run);
      timer ??= setTimeout(() => {
        timer = undefined;
        const runs = [...batch];
        batch.clear();
        reconcile(t, c, groups, runs);
      }, 0);
    };
    c.reconcileHook = reconcileSoon;
    const link = linkOf(t);
    link.onCancel = (id) => c.cancelled(id);
    link.stream = hub;
    coordinators.set(t, (entry = { coordinator: c, reconcileSoon }));
  }
  return entry;
}

/**
 * Enqueue and follow the generations to one outcome each.
 *
 * 1. Validates the body (unless `validate: false`; see `validateQueueBody`), then subscribes to
 *    `/api/events` and waits until the stream's response headers arrived (the service does not
 *    buffer events).
 * 2. Enqueues (`POST /api/ai/queue`, never resent when its outcome is unknown).
 * 3. Resolves each generation to exactly one `QueueRunOutcome`: `succeeded` (with `url`) or
 *    `failed` (with `error`) from its completion event; `cancelled` when `queue.cancel` through the
 *    same transport cancelled it; `lost` when it left the queue without an event reaching us
 *    (`missed_event`: while the stream was down; `vanished`: failed without result, expired, or
 *    cancelled elsewhere).
 *
 * If the stream drops (or stays silent beyond `eventStreamIdleTimeoutMs`) it reconnects at once
 * and reconciles every pending generation with `queue.list` (one call per namespace and model;
 * `queue.get` per generation if a list fails): one no longer listed is gone, and since its event
 * may have been missed, `lost`. While the stream is up, pending generations are also reconciled
 * every `reconcileIntervalMs`. Concurrent runs through one transport (the root `client.queue.run`
 * and the per-model `<model>Run(client, ...)` alike) share one `/api/events` connection, closed
 * when the last run ends. Events of other generations and other event types are ignored.
 *
 * A generation id that the enqueue answer lists twice (a service fault) is followed once: the
 * outcomes hold one entry per distinct id, at its first position.
 *
 * @returns the outcomes, in the order of the enqueue response (`index` 0, 1, ...).
 * @throws ValidationError (nothing sent); the errors of enqueue (`OutcomeUnknownError` says to
 * check `queue.list()`); the stream's connection error when it cannot connect
 * (`AuthenticationError`, or `ConnectionError` after `maxRetries` retries);
 * `QueueRunTimeoutError` (a `TimeoutError`) after `timeoutMs` (default one hour) and
 * `QueueRunAbortError` (an `AbortError`) when `signal` aborts: both carry the outcomes `settled`
 * so far and the ids still `pending`, which continue on the server.
 */
export async function runGenerations(t: Transport, body: Record<string, unknown>, options: QueueRunOptions = {}, validate?: CompiledValidator | null): Promise<QueueRunOutcome[]> {
  validateQueueBody(body, options, validate);
  const { coordinator, reconcileSoon } = coordinatorOf(t);
  const scope = new CallScope(options.signal, options.timeoutMs ?? QUEUE_RUN_DEFAULT_TIMEOUT_MS);
  const maxRetries = options.maxRetries ?? t.settings.maxRetries;
  const run = new Run(options, maxRetries);
  const inner: RequestOptions = { signal: scope.signal, maxRetries };
  run.inner = inner;
  const namespace = body['target_namespace'];
  run.listParams = { model: String(body['model']), ...(typeof namespace === 'string' && namespace !== '' ? { namespace } : {}) };
  let reconcileTimer: ReturnType<typeof setInterval> | undefined;
  let enqueueToken: symbol | undefined;
  const interrupted = () => {
    const settled = run.order.map((id) => run.outcomes.get(id)).filter((o): o is QueueRunOutcome => o !== undefined);
    const pending = run.order.filter((id) => !run.outcomes.has(id));
    const state = run.order.length === 0 ? 'before the generations were enqueued' : `with ${pending.length} of ${run.order.length} generations pending`;
    return scope.timedOut()
      ? new QueueRunTimeoutError(`queue.run timed out after ${scope.timeoutMs} ms ${state}`, settled, pending)
      : new QueueRunAbortError(`queue.run was aborted ${state}`, settled, pending);
  };
  try {
    // 1. Subscribe first, and wait until the stream is connected.
    try {
      await coordinator.join(run, scope.signal);
    } catch (err) {
      throw scope.signal.aborted ? interrupted() : err;
    }
    run.progress({ type: 'subscribed' });

    // 2. Enqueue; events that beat the response are buffered by the coordinator.
    const started = coordinator.beginEnqueue();
    enqueueToken = started.token;
    const request = enqueueRequest(body);
    let res: EnqueueResponse;
    try {
      res = await t.request<EnqueueResponse>(request, inner);
    } catch (err) {
      coordinator.endEnqueue(started.token);
      enqueueToken = undefined;
      if (err instanceof OutcomeUnknownError) throw err;
      if (scope.signal.aborted && (err instanceof AbortError || err instanceof TimeoutError)) {
        const what = { method: request.method, path: request.path };
        // The run's timeout ended the enqueue while it was in flight: it may have been processed.
        if (scope.timedOut()) throw OutcomeUnknownError.from(what, new TimeoutError(`queue.run timed out after ${scope.timeoutMs} ms`, { request: what }), 'timeout');
        throw new QueueRunAbortError('queue.run was aborted while the enqueue was in flight: its outcome is unknown; check client.queue.list() before enqueueing again', [], []);
      }
      throw err;
    }
    run.enqueuedAt = Date.now();
    const continuous = coordinator.continuous(started.epoch);
    res.generations.forEach((g, index) => {
      if (run.tracked.has(g.generation_id)) return; // listed twice: followed once
      run.tracked.set(g.generation_id, { id: g.generation_id, index, gap: !continuous, checking: false, graceTimer: undefined });
      run.order.push(g.generation_id);
    });
    run.progress({ type: 'enqueued', generation_ids: [...run.order] });
    coordinator.endEnqueue(started.token, run);
    enqueueToken = undefined;
    for (const id of run.order) if (wasCancelled(t, id)) coordinator.cancelled(id);
    // The stream dropped during the enqueue: the events may be lost; check now (and after the reconnect).
    if (!continuous) reconcileSoon(run);

    // 3. Wait for every outcome; reconcile periodically so that nothing waits forever.
    const interval = options.reconcileIntervalMs ?? 30_000;
    if (interval > 0 && Number.isFinite(interval)) reconcileTimer = setInterval(() => reconcileSoon(run), interval);
    const aborted = new Promise<void>((resolve) => {
      if (scope.signal.aborted) resolve();
      else scope.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    while (!run.done && run.failure === undefined && !scope.signal.aborted) {
      await Promise.race([run.changed(), aborted]);
    }
    if (run.done) return run.order.map((id) => run.outcomes.get(id)!);
    if (run.failure !== undefined) throw run.failure;
    throw interrupted();
  } finally {
    if (enqueueToken) coordinator.endEnqueue(enqueueToken);
    if (reconcileTimer !== undefined) clearInterval(reconcileTimer);
    coordinator.leave(run);
    scope.abort(); // ends reconciliation requests still in flight
    scope.dispose();
  }
}

/** The checks of one `queue.list` query: at most one list in flight, entries waiting for the next. */
interface ListGroup {
  params: Run['listParams'];
  waiting: Array<{ run: Run; g: Tracked }>;
  running: boolean;
}

/**
 * Check the pending generations of `runs`: still processing (the gap, if any, is closed when the
 * stream stayed up meanwhile), or gone: `cancelled` when this transport cancelled it, else `lost`
 * after the grace period unless its event arrives meanwhile. One `queue.list` per namespace and
 * model finds which are still processing, one at a time per query (generations asked while a list
 * is in flight wait for the next one, which is sent after they were enqueued); if a list fails,
 * each generation is asked with `queue.get` (404: gone).
 */
function reconcile(t: Transport, coordinator: RunCoordinator, groups: Map<string, ListGroup>, runs: Run[]): void {
  for (const run of runs) {
    if (run.done || run.inner.signal?.aborted) continue;
    const key = `${run.listParams.namespace ?? ''}\u0000${run.listParams.model ?? ''}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { params: run.listParams, waiting: [], running: false }));
    for (const g of run.pending()) {
      if (g.checking || g.graceTimer !== undefined) continue;
      g.checking = true;
      group.waiting.push({ run, g });
    }
    if (!group.running && group.waiting.length > 0) listGroup(t, coordinator, group);
  }
}

function listGroup(t: Transport, coordinator: RunCoordinator, group: ListGroup): void {
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
          if (present.has(g.id)) processing(coordinator, run, g, wasUp, epoch);
          else gone(t, run, g);
        }
      },
      () => {
        for (const { run, g } of entries) getEach(t, coordinator, run, g);
      },
    )
    .finally(() => {
      group.running = false;
      if (group.waiting.length > 0) listGroup(t, coordinator, group);
    });
}

/** `queue.get` one generation (the fallback of `reconcile`). */
function getEach(t: Transport, coordinator: RunCoordinator, run: Run, g: Tracked): void {
  if (run.outcomes.has(g.id) || run.inner.signal?.aborted) {
    g.checking = false;
    return;
  }
  const epoch = coordinator.hub.epoch;
  const wasUp = coordinator.hub.state === 'up';
  void coordinator.limiter
    .run(() => getGeneration(t, g.id, run.inner))
    .then(
      () => processing(coordinator, run, g, wasUp, epoch),
      (err) => {
        if (err instanceof NotFoundError) gone(t, run, g); // other errors: try again next time
      },
    )
    .finally(() => {
      g.checking = false;
    });
}

/** The generation is still processing. */
function processing(coordinator: RunCoordinator, run: Run, g: Tracked, wasUp: boolean, epoch: number): void {
  if (wasUp && coordinator.continuous(epoch)) g.gap = false;
  // Elapsed by our clock (the service's `enqueued_at` has a resolution of one second).
  if (!run.outcomes.has(g.id)) run.progress({ type: 'processing', generation_id: g.id, index: g.index, elapsedMs: Math.max(0, Date.now() - run.enqueuedAt) });
}

/** The generation left the queue: cancelled by this transport, or lost unless its event arrives within the grace period. */
function gone(t: Transport, run: Run, g: Tracked): void {
  if (run.outcomes.has(g.id) || g.graceTimer !== undefined || run.inner.signal?.aborted) return; // settled, waiting, or the run ended
  if (wasCancelled(t, g.id)) return run.settle({ generation_id: g.id, index: g.index, status: 'cancelled' });
  g.graceTimer = setTimeout(() => {
    g.graceTimer = undefined;
    if (wasCancelled(t, g.id)) return run.settle({ generation_id: g.id, index: g.index, status: 'cancelled' });
    run.settle(
      g.gap
        ? { generation_id: g.id, index: g.index, status: 'lost', reason: 'missed_event', message: 'The generation left the queue while the event stream was down; its completion event was missed (it may have succeeded or failed).' }
        : { generation_id: g.id, index: g.index, status: 'lost', reason: 'vanished', message: 'The generation left the queue without a completion event (it failed without result, expired, or was cancelled elsewhere).' },
    );
  }, run.options.lostGraceMs ?? 2_000);
}
