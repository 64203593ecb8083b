/**
 * The reconciliation of pending generations with the service (`Reconciler`: `queue.list`, then
 * `queue.get` of each generation a list does not show), which finds the generations whose
 * completion event did not reach us, and the queue machinery of one transport (`machineryOf`: the
 * shared event stream, the coordinator and the reconciler, kept in the transport's state).
 */
import { getGeneration, listGenerations } from '../endpoints.ts';
import { NotFoundError } from '../error-classes.ts';
import { Limiter } from '../internal/limit.ts';
import { openEventStream } from '../streaming/event-stream.ts';
import { stateOf, type Transport } from '../transport.ts';
import type { TransportState } from '../transport-state.ts';
import type { RequestOptions } from '../scope.ts';
import type { Generation, QueueListParams, QueueListResponse } from '../types.ts';
import { SYSTEM_CLOCK, type QueueClock } from './clock.ts';
import { RunCoordinator } from './coordinator.ts';
import { answerEvent, type GenerationPayload, type Run, type RunPorts } from './run-state.ts';
import { SharedEventStream } from './shared-event-stream.ts';
import type { Tracked, TrackedIndex } from './tracked.ts';

/** The terminal statuses of today's service: the status filters of the lists of ended generations. */
const ENDED = ['succeeded', 'failed', 'cancelled'] as const;
/**
 * When more generations than this (the reads in flight at once) are not in a list of active ones,
 * and the service may keep ended ones, the lists of ended generations are asked before reading each.
 */
export const ENDED_LISTS_FROM = 16;

/** What the reconciler needs, given at construction. */
export interface ReconcilerDeps {
  /** `queue.list`. */
  list(params: QueueListParams, options: RequestOptions): Promise<QueueListResponse>;
  /** `queue.get`; rejects with `NotFoundError` when the service does not have the generation. */
  get(generationId: string, options: RequestOptions): Promise<Generation>;
  /** The followed generations by id (the coordinator's, shared with the runs): a list's items are matched through it. */
  index: TrackedIndex;
  /** The shared event stream's state and connection count: an answer got while it stayed up on one connection closes a generation's gap. */
  stream: { readonly state: string; readonly epoch: number };
  /** Timeout of each check request, in milliseconds. */
  timeoutMs: number;
  /** Default `Date.now` and `setTimeout`. */
  clock?: QueueClock | undefined;
  /** Check requests in flight at once. Default `ENDED_LISTS_FROM` (16). */
  concurrency?: number | undefined;
}

/**
 * The generations one list answers for (state `listing`): each carries the batch as its `batch`,
 * so that a listed id finds them through the index, with no table of the list's own.
 */
interface Batch {
  /** The runs whose generations it holds. */
  runs: Set<Run>;
  /** How many of its generations no list answered for yet. */
  left: number;
}

/** The checks of one `queue.list` query: at most one list in flight, a batch waiting for the next. */
interface ListGroup {
  params: Pick<QueueListParams, 'namespace' | 'model'>;
  /** The generations waiting for the next list. */
  waiting: Batch;
  running: boolean;
  /** When the last list of this query was sent (clock milliseconds). */
  lastStart: number;
  /** Cancels the delay before the next list (spacing). */
  timer: (() => void) | undefined;
}

/**
 * Checks pending generations with the service. The runs asking within one turn of the event loop
 * (e.g. every run after a reconnect) are checked together: one `queue.list` per namespace and
 * model (the active generations), one at a time per query and at least `checkSpacingMs` apart
 * (generations asked meanwhile wait for the next list). A listed generation is active or, with a
 * terminal status, ended. When more than `ENDED_LISTS_FROM` are not listed, the lists of ended
 * generations of the same query (`status` `succeeded`, `failed`, `cancelled`) are asked too. One no
 * list shows is asked with `queue.get` (a service that keeps ended generations says how it ended;
 * 404: gone), unless the service is known to drop ended generations (its list items carry no
 * `status`, as 0.224.2's): then it is gone at once. When a list fails, each of its generations is
 * asked with `queue.get`. Answers become events of the run's
 * generations (`GENERATION_TABLE`).
 */
export class Reconciler {
  /**
   * Whether the service keeps ended generations readable (today's service): learned from its
   * answers (a `status` on a listed or read generation: yes; listed generations without one: no),
   * undefined until then.
   */
  keepsEnded: boolean | undefined;
  private readonly clock: QueueClock;
  private readonly limiter: Limiter;
  private readonly groups = new Map<string, ListGroup>();
  private readonly batch = new Set<Run>();
  private batchTimer: (() => void) | undefined;

  constructor(private readonly deps: ReconcilerDeps) {
    this.clock = deps.clock ?? SYSTEM_CLOCK;
    this.limiter = new Limiter(deps.concurrency ?? ENDED_LISTS_FROM);
  }

  /** Check `run`'s waiting generations soon (with the other runs asking in the same turn). */
  soon(run: Run): void {
    this.batch.add(run);
    this.batchTimer ??= this.clock.after(0, () => {
      this.batchTimer = undefined;
      const runs = [...this.batch];
      this.batch.clear();
      const groups = new Set<ListGroup>();
      for (const r of runs) {
        const group = this.check(r);
        if (group) groups.add(group);
      }
      for (const group of groups) this.kick(group);
    });
  }

  /** Check `run` every `intervalMs` milliseconds (none when not a positive finite number) until the returned function is called. */
  every(run: Run, intervalMs: number): () => void {
    if (!(intervalMs > 0 && Number.isFinite(intervalMs))) return () => undefined;
    let cancel: () => void;
    const tick = (): void => {
      this.soon(run);
      cancel = this.clock.after(intervalMs, tick);
    };
    cancel = this.clock.after(intervalMs, tick);
    return () => cancel();
  }

  /** The service's answer said whether it keeps ended generations (`answers`: generations, or a list's items, which may be anything). */
  learn(answers: readonly unknown[]): void {
    let any = false;
    for (let i = 0; i < answers.length; i++) {
      const a = answers[i];
      if (!isGeneration(a)) continue;
      if (a.status !== undefined) {
        this.keepsEnded = true;
        return;
      }
      any = true;
    }
    if (any) this.keepsEnded ??= false;
  }

  /** Put `run`'s waiting generations in its query's group (`listing`); returns the group. */
  private check(run: Run): ListGroup | undefined {
    if (run.done || run.inner.signal?.aborted) return undefined;
    const { namespace, model } = run.listParams;
    const key = `${namespace ?? ''}\u0000${model ?? ''}`;
    let group = this.groups.get(key);
    if (!group)
      this.groups.set(
        key,
        (group = {
          params: run.listParams,
          waiting: { runs: new Set(), left: 0 },
          running: false,
          lastStart: -Infinity,
          timer: undefined,
        }),
      );
    const batch = group.waiting;
    run.tracked.forEach((g) => {
      if (g.state !== 'waiting') return;
      run.apply(g, 'check');
      g.batch = batch;
      batch.left++;
      batch.runs.add(run);
    });
    return group;
  }

  /** Send the group's next list when none is in flight and the spacing since the last one has passed. */
  private kick(group: ListGroup): void {
    if (group.running || group.timer !== undefined || group.waiting.runs.size === 0) return;
    let spacing = Infinity;
    for (const run of group.waiting.runs) spacing = Math.min(spacing, run.checkSpacingMs);
    const wait = group.lastStart + spacing - this.clock.now();
    if (wait > 0) {
      group.timer = this.clock.after(wait, () => {
        group.timer = undefined;
        this.kick(group);
      });
      return;
    }
    this.list(group);
  }

  private list(group: ListGroup): void {
    const batch = group.waiting;
    group.waiting = { runs: new Set(), left: 0 };
    for (const run of batch.runs) if (run.inner.signal?.aborted) batch.runs.delete(run);
    if (batch.runs.size === 0) return;
    group.running = true;
    group.lastStart = this.clock.now();
    void this.answer(group.params, batch).finally(() => {
      group.running = false;
      this.kick(group);
    });
  }

  /** List `params`' active generations (and, when many are not listed, its ended ones) and tell each of `batch`'s generations what the lists say. */
  private async answer(params: ListGroup['params'], batch: Batch): Promise<void> {
    const since = this.since();
    const active = await this.listed(params);
    if (!active) return this.rest(batch, 'check_failed');
    this.match(active, batch, since());
    if (batch.left > ENDED_LISTS_FROM && this.keepsEnded !== false) {
      // Many left the active list: the lists of ended ones answer for them in three requests, not one read each.
      const ended = await Promise.all(ENDED.map((status) => this.listed({ ...params, status })));
      const continuous = since();
      for (const items of ended) if (items) this.match(items, batch, continuous);
    }
    this.rest(batch, this.keepsEnded === false ? 'gone' : 'not_listed');
  }

  /** Tell each of `batch`'s generations a list shows what the list says (`continuous`: the stream stayed up since it was asked). */
  private match(items: readonly unknown[], batch: Batch, continuous: boolean): void {
    const payload: GenerationPayload = { continuous }; // read by the effects at once: one for all
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (!isGeneration(item)) continue;
      for (let g = this.deps.index.get(item.generation_id); g; g = g.next) {
        if (g.batch !== batch) continue;
        g.batch = undefined;
        batch.left--;
        if (g.run.inner.signal?.aborted) continue; // ended meanwhile
        payload.answer = item;
        g.run.apply(g, answerEvent(item), payload);
      }
    }
  }

  /** Tell each of `batch`'s generations that no list answered for `event`. */
  private rest(batch: Batch, event: 'check_failed' | 'not_listed' | 'gone'): void {
    for (const run of batch.runs)
      run.tracked.forEach((g) => {
        if (g.batch !== batch) return;
        g.batch = undefined;
        if (!run.inner.signal?.aborted) run.apply(g, event); // not when ended meanwhile (an effect may end it)
      });
    batch.left = 0;
  }

  /** The items of one list, as the service sent them (learning from them whether it keeps ended generations), or undefined when it failed. */
  private async listed(params: QueueListParams): Promise<readonly unknown[] | undefined> {
    try {
      const res = await this.limiter.run(() => this.deps.list(params, { timeoutMs: this.deps.timeoutMs }));
      const items = res.generations as unknown;
      if (!Array.isArray(items)) return undefined;
      this.learn(items as unknown[]);
      return items as unknown[];
    } catch {
      return undefined;
    }
  }

  /** `queue.get` of `g` (in state `getting`), through a child of the run's signal. */
  get(run: Run, g: Tracked): void {
    const since = this.since();
    const child = run.childSignal();
    void this.limiter
      .run(async () => {
        if (g.state !== 'getting' || child.signal.aborted) return undefined; // settled or ended meanwhile
        return this.deps.get(g.id, {
          signal: child.signal,
          timeoutMs: this.deps.timeoutMs,
          maxRetries: run.maxRetries,
        });
      })
      .then(
        (answer) => {
          if (answer === undefined || run.inner.signal?.aborted) return;
          this.learn([answer]);
          run.apply(g, answerEvent(answer), { answer, continuous: since() });
        },
        (err: unknown) => {
          if (!run.inner.signal?.aborted) run.apply(g, err instanceof NotFoundError ? 'gone' : 'check_failed');
        },
      )
      .finally(child.release);
  }

  /** A function that says whether the stream stayed up on its current connection since now. */
  private since(): () => boolean {
    const { stream } = this.deps;
    const epoch = stream.epoch;
    const wasUp = stream.state === 'up';
    return () => wasUp && stream.state === 'up' && stream.epoch === epoch;
  }
}

/** Whether a list item is a generation (an object with a string `generation_id`); others are ignored. */
function isGeneration(x: unknown): x is Generation {
  return typeof x === 'object' && x !== null && typeof (x as Generation).generation_id === 'string';
}

/** A transport's queue machinery. */
export interface QueueMachinery {
  coordinator: RunCoordinator;
  reconciler: Reconciler;
  /** What each run's effects need (`Run`'s constructor). */
  ports: RunPorts;
  /** The transport's state (cancellations). */
  state: TransportState;
}

/**
 * The queue machinery of `t` (one shared event stream per transport state), made on first use
 * through `t` and kept in `t.state`: a wrapper sharing the state shares it, and its connection
 * and checks go through the transport that made it.
 * @throws SDKError when `t` has no `state` (see `Transport.state`).
 */
export function machineryOf(t: Transport): QueueMachinery {
  const state = stateOf(t);
  return state.queue(() => {
    const s = t.settings;
    const timeoutMs = Math.min(s.timeoutMs || 30_000, 30_000);
    const stream = new SharedEventStream({
      open: (signal) => openEventStream(t, { signal, maxRetries: 0, timeoutMs }),
      baseDelayMs: s.retryBaseDelayMs,
      maxDelayMs: s.retryMaxDelayMs,
    });
    const coordinator = new RunCoordinator(stream, (run) => reconciler.soon(run));
    const reconciler = new Reconciler({
      list: (params, options) => listGenerations(t, params, options),
      get: (id, options) => getGeneration(t, id, options),
      index: coordinator.index,
      stream,
      timeoutMs,
    });
    const ports: RunPorts = {
      clock: SYSTEM_CLOCK,
      index: coordinator.index,
      get: (run, g) => reconciler.get(run, g),
      wasCancelled: (id) => state.wasCancelled(id),
    };
    return { coordinator, reconciler, ports, state, stream, onCancel: (id: string) => coordinator.onCancel(id) };
  });
}
