/**
 * The reconciliation of pending generations with the service (`Reconciler`: `queue.list`, then
 * `queue.get` of each generation a list does not show), which finds the generations whose
 * completion event did not reach us, and the queue machinery of one transport (`machineryOf`: the
 * shared event stream, the coordinator and the reconciler, kept in the transport's state).
 */
import { getGeneration, listGenerations } from '../endpoints.ts';
import { NotFoundError } from '../errors.ts';
import { Limiter } from '../internal/limit.ts';
import { openEventStream } from '../streaming/event-stream.ts';
import { stateOf, type Transport } from '../transport.ts';
import type { TransportState } from '../transport-state.ts';
import type { RequestOptions } from '../scope.ts';
import type { Generation, QueueListParams, QueueListResponse } from '../types.ts';
import { SYSTEM_CLOCK, type QueueClock } from './clock.ts';
import { RunCoordinator } from './coordinator.ts';
import { answerEvent, type GenerationPayload, type Run, type RunPorts, type Tracked } from './run-state.ts';
import { SharedEventStream } from './shared-event-stream.ts';

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
  /** The shared event stream's state and connection count: an answer got while it stayed up on one connection closes a generation's gap. */
  stream: { readonly state: string; readonly epoch: number };
  /** Timeout of each check request, in milliseconds. */
  timeoutMs: number;
  /** Default `Date.now` and `setTimeout`. */
  clock?: QueueClock | undefined;
  /** Check requests in flight at once. Default `ENDED_LISTS_FROM` (16). */
  concurrency?: number | undefined;
}

/** The checks of one `queue.list` query: at most one list in flight, entries waiting for the next. */
interface ListGroup {
  params: Pick<QueueListParams, 'namespace' | 'model'>;
  /** The generations waiting for the next list (`listing`), by run. */
  waiting: Map<Run, Tracked[]>;
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

  /** The service's answer said whether it keeps ended generations. */
  learn(answers: Iterable<Generation>): void {
    let any = false;
    for (const a of answers) {
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
          waiting: new Map(),
          running: false,
          lastStart: -Infinity,
          timer: undefined,
        }),
      );
    let gs = group.waiting.get(run);
    run.tracked.forEach((g) => {
      if (g.state !== 'waiting') return;
      run.apply(g, 'check');
      if (!gs) group.waiting.set(run, (gs = []));
      gs.push(g);
    });
    return group;
  }

  /** Send the group's next list when none is in flight and the spacing since the last one has passed. */
  private kick(group: ListGroup): void {
    if (group.running || group.timer !== undefined || group.waiting.size === 0) return;
    let spacing = Infinity;
    for (const run of group.waiting.keys()) spacing = Math.min(spacing, run.checkSpacingMs);
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
    const entries = group.waiting;
    group.waiting = new Map();
    for (const run of entries.keys()) if (run.inner.signal?.aborted) entries.delete(run);
    if (entries.size === 0) return;
    group.running = true;
    group.lastStart = this.clock.now();
    void this.answer(group.params, entries).finally(() => {
      group.running = false;
      this.kick(group);
    });
  }

  /** List `params`' active generations (and, when many are not listed, its ended ones) and tell each entry what the lists say. */
  private async answer(params: ListGroup['params'], entries: Map<Run, Tracked[]>): Promise<void> {
    const since = this.since();
    const listed = await this.listed(params);
    for (const run of entries.keys()) if (run.inner.signal?.aborted) entries.delete(run); // ended meanwhile
    if (!listed) {
      entries.forEach((gs, run) => gs.forEach((g) => run.apply(g, 'check_failed')));
      return;
    }
    let missing = 0;
    entries.forEach((gs) => gs.forEach((g) => void (listed.has(g.id) || missing++)));
    if (missing > ENDED_LISTS_FROM && this.keepsEnded !== false) {
      // Many left the active list: the lists of ended ones answer for them in three requests, not one read each.
      const ended = await Promise.all(ENDED.map((status) => this.listed({ ...params, status })));
      for (const m of ended) m?.forEach((item, id) => listed.has(id) || listed.set(id, item));
    }
    const continuous = since();
    const payload: GenerationPayload = { continuous }; // read by the effects at once: one for all
    for (const [run, gs] of entries)
      for (let i = 0; i < gs.length; i++) {
        const g = gs[i]!;
        if (run.inner.signal?.aborted) break; // an effect ended the run
        const item = listed.get(g.id);
        payload.answer = item;
        if (item) run.apply(g, answerEvent(item), payload);
        else run.apply(g, this.keepsEnded === false ? 'gone' : 'not_listed');
      }
  }

  /** The generations one list shows, by id (learning from them whether the service keeps ended ones), or undefined when it failed. */
  private async listed(params: QueueListParams): Promise<Map<string, Generation> | undefined> {
    try {
      const res = await this.limiter.run(() => this.deps.list(params, { timeoutMs: this.deps.timeoutMs }));
      const listed = new Map<string, Generation>();
      const items = res.generations as unknown[];
      for (let i = 0; i < items.length; i++) {
        const x = items[i];
        if (typeof x === 'object' && x !== null && typeof (x as Generation).generation_id === 'string')
          listed.set((x as Generation).generation_id, x as Generation);
      }
      this.learn(listed.values());
      return listed;
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
    const reconciler = new Reconciler({
      list: (params, options) => listGenerations(t, params, options),
      get: (id, options) => getGeneration(t, id, options),
      stream,
      timeoutMs,
    });
    const coordinator = new RunCoordinator(stream, (run) => reconciler.soon(run));
    const ports: RunPorts = {
      clock: SYSTEM_CLOCK,
      get: (run, g) => reconciler.get(run, g),
      wasCancelled: (id) => state.wasCancelled(id),
    };
    return { coordinator, reconciler, ports, state, stream, onCancel: (id: string) => coordinator.onCancel(id) };
  });
}
