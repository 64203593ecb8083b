/**
 * `queue.run` and `queue.follow`: enqueue generations (or take existing ids) and follow each to
 * one outcome over the transport's shared `/api/events` stream. The root `Client` loads this
 * module with a dynamic `import()` (a bundler splits it off); the generated `<model>Run`
 * functions import it directly.
 */
import { checkQueueBody, enqueueRequest } from '../endpoints.ts';
import { AbortError, SDKError, TimeoutError } from '../errors.ts';
import { OutcomeUnknownError } from '../error-classes.ts';
import {
  QUEUE_RECONCILE_DEFAULT_INTERVAL_MS,
  QUEUE_RUN_DEFAULT_TIMEOUT_MS,
  QueueRunAbortError,
  QueueRunTimeoutError,
  type QueueFollowOptions,
  type QueueRunOptions,
  type QueueRunOutcome,
} from './outcomes.ts';
import { machineryOf, type QueueMachinery } from './reconcile.ts';
import { Run } from './run-state.ts';
import { CallScope, type RequestOptions } from '../scope.ts';
import type { Transport } from '../transport.ts';
import type { EnqueueResponse } from '../types.ts';
import type { CompiledValidator } from '../validation.ts';

/**
 * Enqueue and follow the generations to one outcome each.
 *
 * 1. Validates the body (unless `validate: false`; see `checkQueueBody`), then subscribes to
 *    `/api/events` and waits until the stream's response headers arrived (the service does not
 *    buffer events).
 * 2. Enqueues (`POST /api/ai/queue`, never resent when its outcome is unknown), then calls and
 *    awaits `onEnqueued(ids)` (persist the ids there to `queue.follow` them after a restart).
 * 3. Resolves each generation to exactly one `QueueRunOutcome`, from whatever the service says
 *    first: its completion event, `succeeded` (with `url`) or `failed` (with `error`); a check
 *    that finds it ended (today's service keeps ended generations: `succeeded` with its
 *    `result_url` as `url`, `failed` with its `error_message`, `cancelled`); `cancelled` when
 *    `queue.cancel` through the same transport (or one sharing its `state`) cancelled it; `lost`
 *    when the service no longer has it (404, or not listed by a service that drops ended
 *    generations, as 0.224.2 does) and no event reached us within `lostGraceMs` (`missed_event`:
 *    it left while the stream was down; `vanished`: failed without result, expired, or cancelled
 *    elsewhere), or its event or answer was malformed (`invalid_event`: `succeeded` without a URL).
 *
 * If the stream drops (or stays silent beyond `eventStreamIdleTimeoutMs`) it reconnects at once
 * and checks every pending generation (`Reconciler`): one `queue.list` per namespace and model,
 * at least 2 s apart (the docs' shortest polling interval) unless `reconcileIntervalMs` is
 * shorter, and a `queue.get` of each generation the list does not show (or of each, if the list
 * fails). While the stream is up, pending generations are also checked every
 * `reconcileIntervalMs`. Concurrent runs and follows through one transport state (the root
 * `client.queue.run`, `client.queue.follow` and the per-model `<model>Run(client, ...)` alike, and
 * wrappers that pass the state on) share one `/api/events` connection, closed when the last one
 * ends. Events of other generations and other event types are ignored; events that beat the
 * enqueue answer are buffered, within bounds (see `RunCoordinator`).
 *
 * A generation id that the enqueue answer lists twice (a service fault) is followed once: the
 * outcomes hold one entry per distinct id, at its first position.
 *
 * @returns the outcomes, in the order of the enqueue response (`index` 0, 1, ...).
 * @throws ValidationError (nothing sent); the errors of enqueue (`OutcomeUnknownError` says to
 * check `queue.list()`); the stream's connection error when it cannot connect
 * (`AuthenticationError`, or `ConnectionError` after `maxRetries` retries); the error of
 * `onEnqueued`, as it threw it; `QueueRunTimeoutError` (a `TimeoutError`) after `timeoutMs`
 * (default one hour) and `QueueRunAbortError` (an `AbortError`) when `signal` aborts: both carry
 * the outcomes `settled` so far and the ids still `pending`, which continue on the server.
 */
export async function runGenerations(
  t: Transport,
  body: Record<string, unknown>,
  options: QueueRunOptions = {},
  validate?: CompiledValidator | null,
): Promise<QueueRunOutcome[]> {
  await checkQueueBody(body, options, validate);
  const m = machineryOf(t);
  const { coordinator, reconciler } = m;
  const { run, scope, interrupted } = start('queue.run', t, m, options);
  const namespace = body['target_namespace'];
  run.listParams = {
    model: String(body['model']),
    ...(typeof namespace === 'string' && namespace !== '' ? { namespace } : {}),
  };
  let enqueueToken: symbol | undefined;
  try {
    // 1. Subscribe first, and wait until the stream is connected.
    await subscribe(m, run, scope, interrupted);

    // 2. Enqueue; events that beat the response are buffered by the coordinator.
    const started = coordinator.beginEnqueue();
    enqueueToken = started.token;
    const request = enqueueRequest(body);
    let res: EnqueueResponse;
    try {
      res = await t.request<EnqueueResponse>(request, run.inner);
    } catch (err) {
      coordinator.endEnqueue(started.token);
      enqueueToken = undefined;
      if (err instanceof OutcomeUnknownError) throw err;
      if (scope.signal.aborted && (err instanceof AbortError || err instanceof TimeoutError)) {
        const what = { method: request.method, path: request.path };
        // The run's timeout ended the enqueue while it was in flight: it may have been processed.
        if (scope.timedOut())
          throw OutcomeUnknownError.from(
            what,
            new TimeoutError(`queue.run timed out after ${scope.timeoutMs} ms`, { request: what }),
            'timeout',
          );
        throw new QueueRunAbortError(
          'queue.run was aborted while the enqueue was in flight: its outcome is unknown; check client.queue.list() before enqueueing again',
          [],
          [],
        );
      }
      throw err;
    }
    run.enqueuedAt = m.ports.clock.now();
    const continuous = coordinator.continuous(started.epoch);
    // Only today's service answers `queued`: it keeps ended generations readable.
    if (res.generations.some((g) => g.status === 'queued')) reconciler.keepsEnded = true;
    // Indexed at once: its events reach the run from now on (a generation listed twice is followed once).
    res.generations.forEach((g, index) => void run.track(g.generation_id, index, !continuous));
    run.progress({ type: 'enqueued', generation_ids: run.ids });
    const complete = coordinator.endEnqueue(started.token, run);
    enqueueToken = undefined;
    // The early-event buffer overflowed meanwhile: this run's events may have been dropped.
    if (!complete) for (const g of run.tracked) g.gap = true;
    for (const g of run.tracked) if (m.state.wasCancelled(g.id)) coordinator.onCancel(g.id);
    // The stream dropped during the enqueue (or events were dropped): check now (and after the reconnect).
    if (!continuous || !complete) reconciler.soon(run);

    // 3. Let the caller persist the ids, then wait for every outcome.
    if (options.onEnqueued)
      await untilAborted(
        Promise.resolve().then(() => options.onEnqueued!(run.ids)),
        scope.signal,
        interrupted,
      );
    return await waitForOutcomes(m, run, scope, interrupted);
  } finally {
    if (enqueueToken) coordinator.endEnqueue(enqueueToken);
    finish(m, run, scope);
  }
}

/**
 * Follow generations enqueued earlier (by this process or another, e.g. before a restart) to one
 * outcome each, the same outcomes as `runGenerations`: `succeeded` (with `url`) or `failed` from
 * the completion event, or from the service's answer when it keeps ended generations (today's
 * service: `result_url`, `error_message`), so one that ended before it was followed settles at the
 * first check; `cancelled` (cancelled through this transport, or so the service says); `lost` with
 * `missed_event` when a service that drops ended generations (0.224.2) no longer had it when it was
 * followed (its completion event, which carries the output URL, was emitted while nobody listened),
 * or it left while the stream was down; `vanished` when it left while followed without an event;
 * `invalid_event` for a malformed event or answer.
 *
 * Subscribes to `/api/events` first (shared with the transport's runs), then checks the ids: one
 * `queue.list` of the key's namespace (the active generations, whatever their model), and a
 * `queue.get` of each id that list does not show (none when the service is known to drop ended
 * generations); again after each reconnect and every `reconcileIntervalMs`.
 *
 * An id given more than once is followed once: the outcomes hold one entry per position given
 * (`outcomes[i].generation_id === generationIds[i]` and `outcomes[i].index === i`), the outcome
 * of a repeated id repeated; progress (`settled` of `total`) and the async iteration of
 * `QueueFollow` count each distinct id once, at its first position. An empty list resolves to `[]`
 * without connecting.
 *
 * @returns the outcomes, one per id given, in the order given.
 * @throws SDKError (nothing sent) when `generationIds` is not an array of non-empty strings (or
 * holds `.` or `..`); the stream's connection error when it cannot connect (`AuthenticationError`,
 * or `ConnectionError` after `maxRetries` retries); `QueueRunTimeoutError` after `timeoutMs`
 * (default one hour) and `QueueRunAbortError` when `signal` aborts, with `settled` and `pending`
 * (distinct ids).
 */
export async function followGenerations(
  t: Transport,
  generationIds: readonly string[],
  options: QueueFollowOptions = {},
  onSettled?: (outcome: QueueRunOutcome) => void,
): Promise<QueueRunOutcome[]> {
  const ids = checkIds(generationIds);
  if (ids.length === 0) return [];
  const m = machineryOf(t);
  const { run, scope, interrupted } = start('queue.follow', t, m, options, onSettled);
  run.listParams = {};
  run.followed = true;
  try {
    await subscribe(m, run, scope, interrupted);
    run.enqueuedAt = m.ports.clock.now();
    // Events emitted before the subscription were missed: every generation starts with a gap. An
    // id given twice is followed once.
    ids.forEach((id, index) => void run.track(id, index, true));
    if (run.options.onProgress) run.progress({ type: 'following', generation_ids: run.ids });
    run.tracked.forEach((g) => m.state.wasCancelled(g.id) && m.coordinator.onCancel(g.id));
    m.reconciler.soon(run);
    const outcomes = await waitForOutcomes(m, run, scope, interrupted);
    if (outcomes.length === ids.length) return outcomes;
    // Some ids were given more than once: one outcome per position.
    return ids.map((id, index) => {
      const o = m.coordinator.index.find(id, run)!.outcome!;
      return o.index === index ? o : { ...o, index };
    });
  } finally {
    finish(m, run, scope);
  }
}

/** The ids of `queue.follow`, checked. @throws SDKError naming the bad entry. */
function checkIds(ids: readonly string[]): string[] {
  if (!Array.isArray(ids))
    throw new SDKError(`queue.follow expects an array of generation ids, got ${ids === null ? 'null' : typeof ids}`);
  ids.forEach((id, i) => {
    if (typeof id !== 'string' || id === '' || id === '.' || id === '..') {
      throw new SDKError(
        `queue.follow: generationIds[${i}] must be a generation id (a non-empty string other than "." and ".."), got ${typeof id === 'string' ? JSON.stringify(id) : typeof id}`,
      );
    }
  });
  return [...(ids as string[])];
}

/** The run, its scope (timeout + signal) and the error that describes an interruption. */
function start(
  what: 'queue.run' | 'queue.follow',
  t: Transport,
  m: QueueMachinery,
  options: QueueFollowOptions,
  onSettled?: (outcome: QueueRunOutcome) => void,
): { run: Run; scope: CallScope; interrupted: () => Error } {
  const scope = new CallScope(options.signal, options.timeoutMs ?? QUEUE_RUN_DEFAULT_TIMEOUT_MS);
  const maxRetries = options.maxRetries ?? t.settings.maxRetries;
  const run = new Run(options, maxRetries, m.ports, onSettled);
  const inner: RequestOptions = { signal: scope.signal, maxRetries };
  run.inner = inner;
  const interrupted = (): Error => {
    const settled: QueueRunOutcome[] = [];
    const pending: string[] = [];
    for (const g of run.tracked)
      if (g.outcome) settled.push(g.outcome);
      else pending.push(g.id);
    const state =
      run.tracked.length === 0
        ? what === 'queue.run'
          ? 'before the generations were enqueued'
          : 'before the generations were followed'
        : `with ${pending.length} of ${run.tracked.length} generations pending`;
    return scope.timedOut()
      ? new QueueRunTimeoutError(`${what} timed out after ${scope.timeoutMs} ms ${state}`, settled, pending)
      : new QueueRunAbortError(`${what} was aborted ${state}`, settled, pending);
  };
  return { run, scope, interrupted };
}

/** Join the coordinator and wait until the shared stream is connected. */
async function subscribe(m: QueueMachinery, run: Run, scope: CallScope, interrupted: () => Error): Promise<void> {
  try {
    await m.coordinator.join(run, scope.signal);
  } catch (err) {
    throw scope.signal.aborted ? interrupted() : err;
  }
  run.progress({ type: 'subscribed' });
}

/** `p`, or the interruption error as soon as `signal` aborts. */
async function untilAborted<T>(p: Promise<T>, signal: AbortSignal, interrupted: () => Error): Promise<T> {
  if (signal.aborted) throw interrupted();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(interrupted());
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([p, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort!);
  }
}

/** Wait for every outcome, reconciling periodically so that nothing waits forever. */
async function waitForOutcomes(
  m: QueueMachinery,
  run: Run,
  scope: CallScope,
  interrupted: () => Error,
): Promise<QueueRunOutcome[]> {
  const stopChecks = m.reconciler.every(run, run.options.reconcileIntervalMs ?? QUEUE_RECONCILE_DEFAULT_INTERVAL_MS);
  try {
    const aborted = new Promise<void>((resolve) => {
      if (scope.signal.aborted) resolve();
      else scope.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    while (!run.done && run.failure === undefined && !scope.signal.aborted) {
      await Promise.race([run.changed(), aborted]);
    }
    if (run.done) return run.tracked.map((g) => g.outcome!);
    if (run.failure !== undefined) throw run.failure as unknown; // what the run failed with, as thrown
    throw interrupted();
  } finally {
    stopChecks();
  }
}

/** Leave the coordinator and end the run's requests still in flight. */
function finish(m: QueueMachinery, run: Run, scope: CallScope): void {
  m.coordinator.leave(run);
  scope.abort(); // ends reconciliation requests still in flight
  scope.dispose();
}

/** The outcomes a `QueueFollow` has settled so far, shared with its iteration (`iterateFollow`). @internal */
export interface FollowFeed {
  readonly settled: QueueRunOutcome[];
  /** Following ended (every outcome is in `settled`, or it failed). */
  ended: boolean;
  /** Wakes the iteration waiting for the next outcome. */
  wake: (() => void) | undefined;
}

/**
 * The iteration of a `QueueFollow` (`queue/follow.ts`): each outcome of `feed` as it settles, then the error that
 * ended following (from `done`), if any. Leaving it early stops following (`stop`).
 */
export async function* iterateFollow(
  feed: FollowFeed,
  done: Promise<unknown>,
  stop: AbortController,
): AsyncGenerator<QueueRunOutcome> {
  let next = 0;
  try {
    for (;;) {
      while (next < feed.settled.length) yield feed.settled[next++]!;
      if (feed.ended) break;
      await new Promise<void>((resolve) => (feed.wake = resolve));
    }
    while (next < feed.settled.length) yield feed.settled[next++]!;
    await done; // throws the error that ended following, if any
  } finally {
    if (!feed.ended) stop.abort(); // the consumer left early
  }
}
