/**
 * The state of one `queue.run` or `queue.follow` call (`Run`): the generations it follows, each in
 * a state of `GENERATION_TABLE` (`states.ts`), whose effects `Run.apply` performs, with its outcome
 * once settled; and the wake-up of the waiting call.
 */
import { truncate } from '../errors.ts';
import {
  QUEUE_LOST_GRACE_DEFAULT_MS,
  QUEUE_RECONCILE_DEFAULT_INTERVAL_MS,
  type QueueRunOptions,
  type QueueRunOutcome,
  type QueueRunProgress,
} from './outcomes.ts';
import type { RequestOptions } from '../scope.ts';
import type { Generation, MediaGenerationCompleted, QueueListParams } from '../types.ts';
import type { QueueClock } from './clock.ts';
import type { Tracked, TrackedIndex } from './tracked.ts';
import {
  generationTransition,
  type GenerationEffect,
  type GenerationEvent,
  type GenerationRow,
  type GenerationState,
} from './states.ts';

/** The docs' shortest suggested polling interval (images: every 2 to 5 s), in milliseconds: the least time between two checks of one list query, unless `reconcileIntervalMs` is shorter. */
export const MIN_CHECK_SPACING_MS = 2_000;

/** What a run's effects need from the machinery, given at construction. */
export interface RunPorts {
  clock: QueueClock;
  /** The followed generations by id, shared by the runs of one transport (the coordinator's): a run indexes its generations there. */
  index: TrackedIndex;
  /** Ask the service for `g` (`queue.get`); the answer comes back as `run.apply(g, ...)`. */
  get(run: Run, g: Tracked): void;
  /** Whether `id` was cancelled through this transport's state (a function, passed on as it is). */
  wasCancelled: (id: string) => boolean;
  /** Told of every transition taken (the generation, the state it left, the table's row), for tests and diagnostics. Must not throw. */
  trace?: ((g: Tracked, from: GenerationState, row: GenerationRow) => void) | undefined;
}

/** What an event carries into its effects. */
export interface GenerationPayload {
  /** `completed`: the completion event. */
  data?: MediaGenerationCompleted | undefined;
  /** `ended`, `active`: the service's answer. */
  answer?: Generation | undefined;
  /** `active`: the check was made while the stream stayed up (on the same connection). */
  continuous?: boolean | undefined;
}

/** The payload of an event that carries none (shared: effects only read it). */
const NO_PAYLOAD: GenerationPayload = Object.freeze({});

/** The terminal statuses of today's service. */
const ENDED = new Set(['succeeded', 'failed', 'cancelled']);

/** The event a service's answer for a generation is: `ended` for a terminal status, else `active`. */
export function answerEvent(answer: Generation): 'ended' | 'active' {
  return typeof answer.status === 'string' && ENDED.has(answer.status) ? 'ended' : 'active';
}

/** The state of one `queue.run` or `queue.follow` call. */
export class Run {
  /** The generations it follows, each id once, in the order of their first position. */
  readonly tracked: Tracked[] = [];
  /** How many of them have their outcome. */
  settled = 0;
  enqueuedAt = 0;
  /** Set when the run must end with an error (fatal stream error). */
  failure: unknown;
  private wake: (() => void) | undefined;
  ready: { resolve: () => void; reject: (e: unknown) => void } | undefined;
  everUp = false;
  /** Options of the run's own requests (its signal ends them when the run ends). */
  inner: RequestOptions = {};
  /** The `queue.list` query that lists this run's generations while they are active (`queue.follow`: the key's namespace, every model). */
  listParams: Pick<QueueListParams, 'namespace' | 'model'> = {};
  /** Whether the generations were enqueued elsewhere (`queue.follow`): a generation gone at the first check left before it was followed. */
  followed = false;
  /** Live child signals of `inner.signal` (`childSignal`). */
  private readonly children = new Set<AbortController>();
  private childrenLinked = false;

  /**
   * @param onSettled told of each outcome as it settles (`QueueFollow`'s iteration), whether or not
   * `options.onProgress` is given.
   */
  constructor(
    readonly options: QueueRunOptions,
    readonly maxRetries: number,
    private readonly ports: RunPorts,
    private readonly onSettled?: (outcome: QueueRunOutcome) => void,
  ) {}

  /** The least time between two checks of this run's generations (milliseconds). */
  get checkSpacingMs(): number {
    return Math.min(MIN_CHECK_SPACING_MS, this.options.reconcileIntervalMs ?? QUEUE_RECONCILE_DEFAULT_INTERVAL_MS);
  }

  progress(p: QueueRunProgress): void {
    try {
      this.options.onProgress?.(p);
    } catch {
      /* the callback's errors are ignored */
    }
  }

  get done(): boolean {
    return this.tracked.length > 0 && this.settled === this.tracked.length;
  }

  /**
   * Follow `id` (at position `index`; `gap`: its event may already have been missed), indexed in the
   * transport's table at once, so that its completion events reach this run from now on.
   * @returns the new generation, or undefined when this run follows `id` already.
   */
  track(id: string, index: number, gap: boolean): Tracked | undefined {
    const g: Tracked = {
      id,
      index,
      run: this,
      state: 'waiting',
      gap,
      seen: false,
      outcome: undefined,
      batch: undefined,
    };
    if (this.ports.index.add(g) !== g) return undefined;
    this.tracked.push(g);
    return g;
  }

  /** The generation ids followed, in order. */
  get ids(): string[] {
    return this.tracked.map((g) => g.id);
  }

  /** Take the transition of `GENERATION_TABLE` that `event` takes from `g`'s state, and perform its effects. */
  apply(g: Tracked, event: GenerationEvent, payload: GenerationPayload = NO_PAYLOAD): GenerationRow | undefined {
    const row = generationTransition(g.state, event, this.ports.wasCancelled, g.id);
    if (!row) return undefined;
    const from = g.state;
    g.state = row.to;
    this.ports.trace?.(g, from, row);
    const effects = row.effects; // an index loop: no iterator per event, optimized or not
    for (let i = 0; i < effects.length; i++) this.perform(effects[i]!, g, payload);
    return row;
  }

  private perform(effect: GenerationEffect, g: Tracked, p: GenerationPayload): void {
    switch (effect) {
      case 'settle_event':
        try {
          this.options.onEvent?.(p.data!);
        } catch {
          /* ignored */
        }
        return this.settle(g, fromEvent(g, p.data!));
      case 'settle_answer':
        return this.settle(g, fromAnswer(g, p.answer!));
      case 'settle_cancelled':
        return this.settle(g, { generation_id: g.id, index: g.index, status: 'cancelled' });
      case 'settle_lost':
        return this.settle(g, this.lost(g));
      case 'mark_gap':
        g.gap = true;
        return;
      case 'mark_seen':
        g.seen = true;
        if (p.continuous) g.gap = false;
        if (!this.options.onProgress) return; // no report built for nobody (a follow of many ids)
        // Elapsed by our clock (the service's timestamps have a resolution of one second).
        return this.progress({
          type: 'processing',
          generation_id: g.id,
          index: g.index,
          elapsedMs: Math.max(0, this.ports.clock.now() - this.enqueuedAt),
        });
      case 'send_get':
        return this.ports.get(this, g);
      case 'start_grace':
        // A bound function, not a closure: a closure here would make every call allocate its context.
        // Cancelling after it fired does nothing.
        g.cancelGrace = this.ports.clock.after(
          this.options.lostGraceMs ?? QUEUE_LOST_GRACE_DEFAULT_MS,
          this.apply.bind(this, g, 'grace_elapsed', NO_PAYLOAD),
        );
        return;
    }
  }

  /** Record an outcome (the table lets each generation settle once). */
  private settle(g: Tracked, outcome: QueueRunOutcome): void {
    if (g.cancelGrace) {
      g.cancelGrace(); // set only in the grace period: a generation without one keeps its shape
      g.cancelGrace = undefined;
    }
    g.outcome = outcome;
    this.settled++;
    this.onSettled?.(outcome);
    if (this.options.onProgress)
      this.progress({ type: 'settled', outcome, settled: this.settled, total: this.tracked.length });
    if (this.done) this.notify();
  }

  /** The `lost` outcome of a generation whose grace period ended without its event. */
  private lost(g: Tracked): QueueRunOutcome {
    const base = { generation_id: g.id, index: g.index, status: 'lost' as const };
    if (!g.gap)
      return {
        ...base,
        reason: 'vanished',
        message:
          'The generation left the queue without a completion event (it failed without result, expired, or was cancelled elsewhere).',
      };
    if (this.followed && !g.seen)
      return {
        ...base,
        reason: 'missed_event',
        message:
          'The generation was no longer in the queue when it was followed: it had already ended (succeeded, failed, expired or was cancelled) and its completion event was missed, or the id is unknown.',
      };
    return {
      ...base,
      reason: 'missed_event',
      message:
        'The generation left the queue while the event stream was down; its completion event was missed (it may have succeeded or failed).',
    };
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

  /**
   * A signal that aborts when the run's does, for one request: a run may have many requests in
   * flight, and one listener per request on one signal makes Node warn (`MaxListenersExceededWarning`
   * beyond 10), so the run's signal has one listener for all of them. Call `release` when the request ends.
   */
  childSignal(): { signal: AbortSignal; release: () => void } {
    const parent = this.inner.signal;
    const ctrl = new AbortController();
    if (parent?.aborted) ctrl.abort(parent.reason);
    else if (parent) {
      if (!this.childrenLinked) {
        this.childrenLinked = true;
        parent.addEventListener(
          'abort',
          () => {
            for (const c of this.children) c.abort(parent.reason);
            this.children.clear();
          },
          { once: true },
        );
      }
      this.children.add(ctrl);
    }
    return { signal: ctrl.signal, release: () => void this.children.delete(ctrl) };
  }
}

/** The outcome a completion event says (a `succeeded` event without a `url` string is `lost`, `invalid_event`). */
function fromEvent(g: Tracked, data: MediaGenerationCompleted): QueueRunOutcome {
  if (data.status === 'succeeded') {
    const d = data as { url?: unknown; model?: unknown; media_type: string };
    if (typeof d.url !== 'string' || d.url === '')
      return invalid(
        g,
        `The completion event says succeeded but has no url string, so the output cannot be fetched: ${truncate(JSON.stringify(data))}`,
      );
    const model = typeof d.model === 'string' ? d.model : '';
    return { generation_id: g.id, index: g.index, status: 'succeeded', url: d.url, media_type: d.media_type, model };
  }
  const d = data as { error?: unknown; status?: unknown; media_type: string };
  const error =
    data.status === 'failed'
      ? typeof d.error === 'string'
        ? d.error
        : d.error === undefined || d.error === null
          ? 'failed'
          : JSON.stringify(d.error)
      : `unexpected completion status ${JSON.stringify(d.status)}`;
  return { generation_id: g.id, index: g.index, status: 'failed', error, media_type: d.media_type };
}

/**
 * The outcome a terminal answer of today's service says: `succeeded` with `result_url` (a
 * `succeeded` without a `result_url` string is `lost`, `invalid_event`), `failed` with
 * `error_message`, `cancelled`. The model is `model_name` (today) or `model`.
 */
function fromAnswer(g: Tracked, a: Generation): QueueRunOutcome {
  const media_type = typeof a.media_type === 'string' ? a.media_type : '';
  if (a.status === 'cancelled') return { generation_id: g.id, index: g.index, status: 'cancelled' };
  if (a.status === 'failed') {
    const error = typeof a.error_message === 'string' && a.error_message !== '' ? a.error_message : 'failed';
    return { generation_id: g.id, index: g.index, status: 'failed', error, media_type };
  }
  if (typeof a.result_url !== 'string' || a.result_url === '')
    return invalid(
      g,
      `The service says the generation succeeded but gives no result_url string, so the output cannot be fetched: ${truncate(JSON.stringify(a))}`,
    );
  const model = typeof a.model_name === 'string' ? a.model_name : typeof a.model === 'string' ? a.model : '';
  return { generation_id: g.id, index: g.index, status: 'succeeded', url: a.result_url, media_type, model };
}

function invalid(g: Tracked, message: string): QueueRunOutcome {
  return { generation_id: g.id, index: g.index, status: 'lost', reason: 'invalid_event', message };
}
