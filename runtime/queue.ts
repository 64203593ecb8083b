/**
 * The asynchronous generation queue: `enqueue`, `list`, `get`, `cancel`, and `run`, which
 * enqueues and follows the generations to one outcome each over the shared `/api/events` stream.
 */
import type { Client } from './client.ts';
import { AbortError, APIError, NotFoundError, OutcomeUnknownError, TimeoutError } from './errors.ts';
import { CallScope, encodePath, type RequestOptions } from './http.ts';
import type { MediaBody, ParamsOf, QueueFields, Registry } from './registry.ts';
import { SharedEventStream, type SharedEventListener } from './sse.ts';
import type {
  CancelResponse,
  EnqueueResponse,
  Generation,
  MediaGenerationCompleted,
  QueueListParams,
  QueueListResponse,
  ResponseFormat,
  ServerEvent,
} from './types.ts';
import { RequestValidator } from './validation.ts';

/** A queue request body for model `M`: its parameters plus `num_generations` and `target_namespace`. */
export type QueueBody<R extends Registry, M extends R['queue'], F extends ResponseFormat = ResponseFormat> = MediaBody<ParamsOf<R, M>, M, F, QueueFields>;

/** Options of `queue.enqueue`. */
export interface EnqueueOptions extends RequestOptions {
  /**
   * Validate the body against the model's schema before sending (default true). `false` sends the
   * body exactly as given (the service accepts invalid parameters at enqueue and the generation
   * later fails or vanishes).
   */
  validate?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Outcomes of queue.run

/** Fields of every outcome: the generation and its position in the enqueue response (0-based). */
export interface QueueRunOutcomeBase {
  generation_id: string;
  /** Position of the generation within its enqueue call (0 to `num_generations - 1`). */
  index: number;
}
/** The generation succeeded; `url` is the presigned output URL from the completion event (it expires). */
export interface QueueRunSucceeded extends QueueRunOutcomeBase {
  status: 'succeeded';
  url: string;
  media_type: 'image' | 'video' | (string & {});
  model: string;
}
/** The generation failed; `error` is the service's human-readable reason. */
export interface QueueRunFailed extends QueueRunOutcomeBase {
  status: 'failed';
  error: string;
  media_type: 'image' | 'video' | (string & {});
}
/** The generation was cancelled through this client's `queue.cancel` (no event is emitted for it). */
export interface QueueRunCancelled extends QueueRunOutcomeBase {
  status: 'cancelled';
}
/**
 * The generation left the queue without a completion event reaching this client.
 * `reason`: `missed_event` (it left while the event stream was down: it may have succeeded or
 * failed, the event is lost) or `vanished` (it left while the stream was up with no event: it
 * failed without result, expired, or was cancelled by someone else).
 */
export interface QueueRunLost extends QueueRunOutcomeBase {
  status: 'lost';
  reason: 'missed_event' | 'vanished';
  /** A human-readable explanation. */
  message: string;
}
/** The one outcome of a generation followed by `queue.run`. */
export type QueueRunOutcome = QueueRunSucceeded | QueueRunFailed | QueueRunCancelled | QueueRunLost;

/** What `onProgress` of `queue.run` is told, in order of occurrence. */
export type QueueRunProgress =
  /** The event stream is connected; the request is about to be enqueued. */
  | { type: 'subscribed' }
  /** The service accepted the request: these generations are processing. */
  | { type: 'enqueued'; generation_ids: string[] }
  /** A reconciliation (`queue.get`) found the generation still in the queue, `elapsedMs` after this run enqueued it. */
  | { type: 'processing'; generation_id: string; index: number; elapsedMs: number }
  /** The generation reached its outcome; `settled` of `total` are done. */
  | { type: 'settled'; outcome: QueueRunOutcome; settled: number; total: number }
  /** The event stream dropped; it reconnects with backoff. */
  | { type: 'stream_down'; error: unknown }
  /** The event stream is connected again; pending generations are being reconciled with `queue.get`. */
  | { type: 'stream_up' };

/** Options of `queue.run`. Times in milliseconds. */
export interface QueueRunOptions extends EnqueueOptions {
  /**
   * Ends the whole run (subscription, enqueue, waiting) after this many milliseconds with
   * `QueueRunTimeoutError` (a `TimeoutError`). Default 3_600_000 (one hour; videos take minutes).
   */
  timeoutMs?: number;
  /** Called at each step of the run (see `QueueRunProgress`). Must not throw (errors are ignored). */
  onProgress?: (progress: QueueRunProgress) => void;
  /** Called with each completion event of this run's generations, as received. */
  onEvent?: (event: MediaGenerationCompleted) => void;
  /**
   * While the stream is up, pending generations are checked with `queue.get` this often, so that
   * one that left the queue without an event resolves `lost` instead of waiting. Default 30_000.
   */
  reconcileIntervalMs?: number;
  /**
   * How long to wait for a completion event after `queue.get` answered 404 before resolving
   * `lost` (the event may be on its way). Default 2_000.
   */
  lostGraceMs?: number;
}

/** Default `timeoutMs` of `queue.run`: one hour. */
export const QUEUE_RUN_DEFAULT_TIMEOUT_MS = 3_600_000;

/**
 * `queue.run` timed out. The generations in `pending` continue on the server (cancel them with
 * `queue.cancel` if unwanted); `settled` holds the outcomes reached before the timeout.
 */
export class QueueRunTimeoutError extends TimeoutError {
  override name = 'QueueRunTimeoutError';
  constructor(
    message: string,
    readonly settled: QueueRunOutcome[],
    readonly pending: string[],
  ) {
    super(message);
  }
}

/**
 * `queue.run` was aborted by its `signal`. The generations in `pending` continue on the server
 * (cancel them with `queue.cancel` if unwanted); `settled` holds the outcomes reached before.
 */
export class QueueRunAbortError extends AbortError {
  override name = 'QueueRunAbortError';
  constructor(
    message: string,
    readonly settled: QueueRunOutcome[],
    readonly pending: string[],
  ) {
    super(message);
  }
}

// ---------------------------------------------------------------------------------------------
// Internals of queue.run

/** A small concurrency limiter for reconciliation requests. */
class Limiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly max: number) {}
  async run<T>(f: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((r) => this.waiting.push(r));
    this.active++;
    try {
      return await f();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

/** One generation followed by a run. */
interface Tracked {
  id: string;
  index: number;
  /** The event stream was down at some time since enqueue (and no later check found it processing). */
  gap: boolean;
  /** A `queue.get` on it is in flight. */
  checking: boolean;
  /** Timer of the grace period after a 404. */
  graceTimer: ReturnType<typeof setTimeout> | undefined;
}

/** The state of one `queue.run` call. */
class Run {
  readonly tracked = new Map<string, Tracked>();
  readonly outcomes = new Map<string, QueueRunOutcome>();
  order: string[] = [];
  enqueuedAt = 0;
  /** Set when the run must end with an error (fatal stream error). */
  failure: unknown;
  private wake: (() => void) | undefined;
  ready: { resolve: () => void; reject: (e: unknown) => void } | undefined;
  everUp = false;
  /** Options of the run's own requests (its signal ends them when the run ends). */
  inner: RequestOptions = {};

  constructor(
    readonly options: QueueRunOptions,
    readonly maxRetries: number,
  ) {}

  progress(p: QueueRunProgress): void {
    try {
      this.options.onProgress?.(p);
    } catch {
      /* the callback's errors are ignored */
    }
  }

  get done(): boolean {
    return this.order.length > 0 && this.outcomes.size === this.order.length;
  }

  /** Record the outcome of a pending generation (first outcome wins). */
  settle(outcome: QueueRunOutcome): void {
    const t = this.tracked.get(outcome.generation_id);
    if (!t || this.outcomes.has(t.id)) return;
    if (t.graceTimer !== undefined) clearTimeout(t.graceTimer);
    this.outcomes.set(t.id, outcome);
    this.progress({ type: 'settled', outcome, settled: this.outcomes.size, total: this.order.length });
    if (this.done) this.notify();
  }

  fail(err: unknown): void {
    if (this.failure === undefined) this.failure = err;
    this.ready?.reject(err);
    this.notify();
  }

  notify(): void {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }

  /** Resolves when something happened (an outcome, a failure). */
  changed(): Promise<void> {
    return new Promise((r) => (this.wake = r));
  }

  pending(): Tracked[] {
    return [...this.tracked.values()].filter((t) => !this.outcomes.has(t.id));
  }

  onCompleted(data: MediaGenerationCompleted): void {
    const t = this.tracked.get(data.generation_id);
    if (!t || this.outcomes.has(t.id)) return;
    try {
      this.options.onEvent?.(data);
    } catch {
      /* ignored */
    }
    if (data.status === 'succeeded') {
      this.settle({ generation_id: t.id, index: t.index, status: 'succeeded', url: String(data.url), media_type: data.media_type, model: String(data.model) });
    } else {
      const d = data as { error?: unknown; status?: unknown; media_type: string };
      const error = data.status === 'failed' ? String(d.error ?? 'failed') : `unexpected completion status ${JSON.stringify(d.status)}`;
      this.settle({ generation_id: t.id, index: t.index, status: 'failed', error, media_type: d.media_type });
    }
  }
}

/**
 * Routes the shared event stream to the runs of one client: generation id -> run. Events that
 * arrive while an enqueue is in flight and whose id is not known yet are buffered (the event may
 * beat the enqueue response) and replayed to the run that enqueued them.
 */
class RunCoordinator implements SharedEventListener {
  private readonly owners = new Map<string, Run>();
  private readonly runs = new Set<Run>();
  private unsubscribe: (() => void) | undefined;
  private seq = 0;
  private buffer: Array<{ seq: number; data: MediaGenerationCompleted }> = [];
  private readonly inflight = new Map<symbol, number>();
  readonly limiter = new Limiter(16);

  constructor(readonly hub: SharedEventStream) {}

  /** Add a run (connecting the shared stream if it is the first); resolves once the stream is up. */
  join(run: Run, signal: AbortSignal): Promise<void> {
    this.runs.add(run);
    const ready = new Promise<void>((resolve, reject) => {
      run.ready = { resolve, reject };
      const onAbort = () => reject(signal.reason);
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
    if (!this.unsubscribe) this.unsubscribe = this.hub.subscribe(this);
    else this.hub.restart(); // after a fatal error the stream stopped: try again for this run
    if (this.hub.state === 'up') {
      run.everUp = true;
      run.ready?.resolve();
    }
    return ready;
  }

  /** Remove a run (closing the shared stream if it was the last). */
  leave(run: Run): void {
    for (const id of run.tracked.keys()) if (this.owners.get(id) === run) this.owners.delete(id);
    for (const t of run.tracked.values()) if (t.graceTimer !== undefined) clearTimeout(t.graceTimer);
    this.runs.delete(run);
    if (this.runs.size === 0 && this.unsubscribe) {
      this.unsubscribe();
      this.unsubscribe = undefined;
    }
  }

  /** An enqueue is about to be sent: buffer events of unknown ids from now on. */
  beginEnqueue(): { token: symbol; epoch: number } {
    const token = Symbol('enqueue');
    this.inflight.set(token, this.seq + 1);
    return { token, epoch: this.hub.epoch };
  }

  /** The enqueue ended (with `run`'s generations registered, or failed): replay its buffered events. */
  endEnqueue(token: symbol, run?: Run): void {
    const from = this.inflight.get(token) ?? Infinity;
    this.inflight.delete(token);
    if (run) {
      for (const id of run.tracked.keys()) this.owners.set(id, run);
      for (const b of this.buffer) if (b.seq >= from && run.tracked.has(b.data.generation_id)) run.onCompleted(b.data);
    }
    // Drop what no enqueue still in flight can claim.
    let min = Infinity;
    for (const s of this.inflight.values()) min = Math.min(min, s);
    let drop = 0;
    while (drop < this.buffer.length && this.buffer[drop]!.seq < min) drop++;
    if (drop > 0) this.buffer = this.buffer.slice(drop);
  }

  /** `queue.cancel` succeeded for `id` through this client. */
  cancelled(id: string): void {
    const run = this.owners.get(id);
    const t = run?.tracked.get(id);
    if (run && t) run.settle({ generation_id: id, index: t.index, status: 'cancelled' });
  }

  // SharedEventListener

  onEvent(event: ServerEvent): void {
    if (event.event !== 'media_generation_completed') return; // other event types are not ours
    const data = event.data as MediaGenerationCompleted;
    this.seq++;
    const run = this.owners.get(data.generation_id);
    if (run) run.onCompleted(data);
    else if (this.inflight.size > 0) this.buffer.push({ seq: this.seq, data });
  }

  onUp(info: { epoch: number; reconnected: boolean }): void {
    for (const run of this.runs) {
      if (!run.everUp) {
        run.everUp = true;
        run.ready?.resolve();
      } else if (info.reconnected) {
        run.progress({ type: 'stream_up' });
      }
    }
    if (info.reconnected) for (const run of this.runs) this.reconcileHook?.(run);
  }

  onDown(error: unknown): void {
    for (const run of this.runs) {
      for (const t of run.tracked.values()) t.gap = true;
      run.progress({ type: 'stream_down', error });
    }
  }

  onConnectError(error: unknown, info: { consecutiveFailures: number; fatal: boolean }): void {
    for (const run of this.runs) {
      if (info.fatal) run.fail(error);
      else if (!run.everUp && info.consecutiveFailures > run.maxRetries) run.fail(error);
    }
  }

  /** Set by the queue: reconcile a run's pending generations (after a reconnect). */
  reconcileHook: ((run: Run) => void) | undefined;

  /** True when `run`'s enqueue started in `epoch` and the stream stayed up since. */
  continuous(epoch: number): boolean {
    return this.hub.state === 'up' && this.hub.epoch === epoch;
  }
}

// ---------------------------------------------------------------------------------------------
// The resource

/** The asynchronous generation queue. */
export class Queue<R extends Registry> {
  /** Validates bodies against the model schemas of the client's `schemas` source. */
  readonly validator: RequestValidator;
  private readonly cancelledIds = new Set<string>();
  private coordinator: RunCoordinator | undefined;

  constructor(private readonly client: Client<any>) {
    this.validator = new RequestValidator(client.options.schemas);
  }

  /**
   * `POST /api/ai/queue`: enqueue 1 to 4 generations of an image or video model. The body is first
   * validated against the model's schema (see `EnqueueOptions.validate`). Never resent unless the
   * service surely did not process it (429, connection refused).
   * @returns `{ generations: [{ generation_id, status: 'processing' }] }`.
   * @throws ValidationError (nothing sent), NotFoundError (`Model not found: <name>`),
   * BadRequestError, InsufficientCreditsError, OutcomeUnknownError (5xx, reset or timeout while in
   * flight: check `queue.list()`), TimeoutError, AbortError.
   */
  async enqueue<M extends R['queue']>(body: QueueBody<R, M>, options: EnqueueOptions = {}): Promise<EnqueueResponse> {
    if (options.validate !== false) await this.validator.check(body as Record<string, unknown>);
    return this.client.request({ method: 'POST', path: '/api/ai/queue', body }, options);
  }

  /**
   * `GET /api/ai/queue`: in-progress generations of `namespace` (default the user), optionally of one `model`.
   * @returns `{ count, generations }`.
   * @throws AuthenticationError, PermissionDeniedError, TimeoutError, AbortError, ConnectionError.
   */
  list(params: QueueListParams = {}, options?: RequestOptions): Promise<QueueListResponse> {
    return this.client.request({ method: 'GET', path: '/api/ai/queue', query: { ...params } }, options);
  }

  /**
   * `GET /api/ai/queue/{generation_id}`.
   * @returns the `Generation` while it is processing.
   * @throws NotFoundError when the generation is terminal (succeeded, failed, cancelled, expired) or unknown.
   */
  get(generationId: string, options?: RequestOptions): Promise<Generation> {
    return this.client.request({ method: 'GET', path: `/api/ai/queue/${encodePath(generationId)}` }, options);
  }

  /**
   * `DELETE /api/ai/queue/{generation_id}`: cancel a processing generation (no completion event
   * follows). A `queue.run` of this client following it resolves it `cancelled`.
   * @returns `{ status: 'success', generation_id }`.
   * @throws NotFoundError when the generation is terminal or unknown.
   */
  async cancel(generationId: string, options?: RequestOptions): Promise<CancelResponse> {
    const res = await this.client.request<CancelResponse>({ method: 'DELETE', path: `/api/ai/queue/${encodePath(generationId)}` }, options);
    this.cancelledIds.add(generationId);
    if (this.cancelledIds.size > 10_000) this.cancelledIds.delete(this.cancelledIds.values().next().value as string);
    this.coordinator?.cancelled(generationId);
    return res;
  }

  /**
   * Enqueue and follow the generations to one outcome each.
   *
   * 1. Validates the body (unless `validate: false`), then subscribes to `/api/events` and waits
   *    until the stream's response headers arrived (the service does not buffer events).
   * 2. Enqueues (`POST /api/ai/queue`, never resent when its outcome is unknown).
   * 3. Resolves each generation to exactly one `QueueRunOutcome`: `succeeded` (with `url`) or
   *    `failed` (with `error`) from its completion event; `cancelled` when `queue.cancel` of this
   *    client cancelled it; `lost` when it left the queue without an event reaching us
   *    (`missed_event`: while the stream was down; `vanished`: failed without result, expired, or
   *    cancelled elsewhere).
   *
   * If the stream drops it reconnects with backoff and reconciles every pending generation with
   * `queue.get` (404: it is gone, and since its event may have been missed, `lost`). While the
   * stream is up, pending generations are also reconciled every `reconcileIntervalMs`. Concurrent
   * runs of one client share one `/api/events` connection, closed when the last run ends. Events
   * of other generations and other event types are ignored.
   *
   * @returns the outcomes, in the order of the enqueue response (`index` 0, 1, ...).
   * @throws ValidationError (nothing sent); the errors of `enqueue` (`OutcomeUnknownError` says to
   * check `queue.list()`); the stream's connection error when it cannot connect
   * (`AuthenticationError`, or `ConnectionError` after `maxRetries` retries);
   * `QueueRunTimeoutError` (a `TimeoutError`) after `timeoutMs` (default one hour) and
   * `QueueRunAbortError` (an `AbortError`) when `signal` aborts: both carry the outcomes `settled`
   * so far and the ids still `pending`, which continue on the server.
   */
  async run<M extends R['queue']>(body: QueueBody<R, M>, options: QueueRunOptions = {}): Promise<QueueRunOutcome[]> {
    if (options.validate !== false) await this.validator.check(body as Record<string, unknown>);
    const coordinator = this.coordinatorOf();
    const scope = new CallScope(options.signal, options.timeoutMs ?? QUEUE_RUN_DEFAULT_TIMEOUT_MS);
    const maxRetries = options.maxRetries ?? this.client.options.maxRetries;
    const run = new Run(options, maxRetries);
    const inner: RequestOptions = { signal: scope.signal, maxRetries };
    run.inner = inner;
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
      let res: EnqueueResponse;
      try {
        res = await this.client.request<EnqueueResponse>({ method: 'POST', path: '/api/ai/queue', body }, inner);
      } catch (err) {
        coordinator.endEnqueue(started.token);
        enqueueToken = undefined;
        if (err instanceof OutcomeUnknownError) throw err;
        if (scope.signal.aborted && (err instanceof AbortError || err instanceof TimeoutError)) {
          const request = { method: 'POST', path: '/api/ai/queue' };
          // The run's timeout ended the enqueue while it was in flight: it may have been processed.
          if (scope.timedOut()) throw OutcomeUnknownError.from(request, new TimeoutError(`queue.run timed out after ${scope.timeoutMs} ms`, { request }), 'timeout');
          throw new QueueRunAbortError('queue.run was aborted while the enqueue was in flight: its outcome is unknown; check client.queue.list() before enqueueing again', [], []);
        }
        throw err;
      }
      const gens = Array.isArray(res?.generations) ? res.generations : [];
      if (gens.length === 0) {
        coordinator.endEnqueue(started.token);
        throw new APIError('The enqueue response lists no generations', { status: 200, body: res, request: { method: 'POST', path: '/api/ai/queue' } });
      }
      run.enqueuedAt = Date.now();
      const continuous = coordinator.continuous(started.epoch);
      gens.forEach((g, index) => {
        run.tracked.set(g.generation_id, { id: g.generation_id, index, gap: !continuous, checking: false, graceTimer: undefined });
        run.order.push(g.generation_id);
      });
      run.progress({ type: 'enqueued', generation_ids: [...run.order] });
      coordinator.endEnqueue(started.token, run);
      enqueueToken = undefined;
      for (const id of run.order) if (this.cancelledIds.has(id)) coordinator.cancelled(id);
      // The stream dropped during the enqueue: the events may be lost; check now (and after the reconnect).
      if (!continuous) this.reconcile(run, coordinator, inner);

      // 3. Wait for every outcome; reconcile periodically so that nothing waits forever.
      const interval = options.reconcileIntervalMs ?? 30_000;
      if (interval > 0 && Number.isFinite(interval)) reconcileTimer = setInterval(() => this.reconcile(run, coordinator, inner), interval);
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

  /** The coordinator of this client's runs (one shared event stream). */
  private coordinatorOf(): RunCoordinator {
    if (!this.coordinator) {
      const o = this.client.options;
      const hub = new SharedEventStream({
        open: (signal, onActivity) => this.client.events.open({ signal, maxRetries: 0, timeoutMs: Math.min(o.timeoutMs, 30_000) }, onActivity),
        baseDelayMs: o.retryBaseDelayMs,
        maxDelayMs: o.retryMaxDelayMs,
        idleTimeoutMs: o.eventStreamIdleTimeoutMs,
      });
      const coordinator = new RunCoordinator(hub);
      coordinator.reconcileHook = (run) => this.reconcile(run, coordinator, run.inner);
      this.coordinator = coordinator;
    }
    return this.coordinator;
  }

  /** The shared event stream of `queue.run` (for inspection: `state`, `epoch`, `subscribers`). */
  get eventStream(): SharedEventStream {
    return this.coordinatorOf().hub;
  }

  /**
   * Check each pending generation of `run` with `queue.get`: still processing (the gap, if any, is
   * closed when the stream stayed up), or gone (404): `cancelled` when this client cancelled it,
   * else `lost` after the grace period unless its event arrives meanwhile.
   */
  private reconcile(run: Run, coordinator: RunCoordinator, options: RequestOptions): void {
    const grace = run.options.lostGraceMs ?? 2_000;
    for (const t of run.pending()) {
      if (t.checking || t.graceTimer !== undefined) continue;
      t.checking = true;
      const epoch = coordinator.hub.epoch;
      const wasUp = coordinator.hub.state === 'up';
      void coordinator.limiter
        .run(() => this.get(t.id, options))
        .then(
          () => {
            if (wasUp && coordinator.continuous(epoch)) t.gap = false;
            // Elapsed by our clock (the service's `enqueued_at` has a resolution of one second).
            if (!run.outcomes.has(t.id)) run.progress({ type: 'processing', generation_id: t.id, index: t.index, elapsedMs: Math.max(0, Date.now() - run.enqueuedAt) });
          },
          (err) => {
            if (!(err instanceof NotFoundError) || run.outcomes.has(t.id)) return; // other errors: try again next time
            if (this.cancelledIds.has(t.id)) return run.settle({ generation_id: t.id, index: t.index, status: 'cancelled' });
            t.graceTimer = setTimeout(() => {
              t.graceTimer = undefined;
              if (this.cancelledIds.has(t.id)) return run.settle({ generation_id: t.id, index: t.index, status: 'cancelled' });
              run.settle(
                t.gap
                  ? { generation_id: t.id, index: t.index, status: 'lost', reason: 'missed_event', message: 'The generation left the queue while the event stream was down; its completion event was missed (it may have succeeded or failed).' }
                  : { generation_id: t.id, index: t.index, status: 'lost', reason: 'vanished', message: 'The generation left the queue without a completion event (it failed without result, expired, or was cancelled elsewhere).' },
              );
            }, grace);
          },
        )
        .finally(() => {
          t.checking = false;
        });
    }
  }
}

