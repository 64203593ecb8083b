/**
 * The coordinator of one transport's runs: routes the shared event stream's completion events to
 * the run that follows each generation, buffers events that beat their enqueue response, and
 * tells runs when the stream goes down, comes back up, or cannot connect.
 */
import type { GenerationPayload, Run } from './run-state.ts';
import type { SharedEventListener, SharedEventStream } from './shared-event-stream.ts';
import { TrackedIndex, type Tracked } from './tracked.ts';
import type { MediaGenerationCompleted, ServerEvent } from '../types.ts';

/** At most this many events of unknown ids are buffered while enqueues are in flight (the oldest are dropped first). */
export const MAX_EARLY_EVENTS = 10_000;
/** At most this many characters of events (their JSON text) are buffered while enqueues are in flight: 16 Mi, about 16 MB of ASCII. */
export const MAX_EARLY_EVENT_CHARS = 16 * 1024 * 1024;

/**
 * Routes the shared event stream to the runs of one transport through its `index` (generation id
 * -> the generation of each run that follows it: `queue.run` and any `queue.follow` of the same
 * id; a run indexes its generations there as it takes them). Events that arrive while an
 * enqueue is in flight and whose id is not known yet are buffered (the event may beat the enqueue
 * response) and replayed to the run that enqueued them. The buffer is bounded by
 * `MAX_EARLY_EVENTS` and `MAX_EARLY_EVENT_CHARS` (events of other generations of the same user
 * keep arriving while an answer is slow); when it overflows, the oldest events are dropped and a
 * run whose enqueue was in flight meanwhile treats its generations as if the stream had been down
 * (checked at once; one that is gone resolves `lost` with `missed_event`).
 */
export class RunCoordinator implements SharedEventListener {
  /** The followed generations by id, shared with the runs (`RunPorts.index`) and the reconciler. */
  readonly index = new TrackedIndex();
  private readonly runs = new Set<Run>();
  private unsubscribe: (() => void) | undefined;
  private seq = 0;
  private buffer: Array<{ seq: number; data: MediaGenerationCompleted; chars: number }> = [];
  /** Index of the first live entry of `buffer` (the entries before it were dropped). */
  private head = 0;
  private bufferedChars = 0;
  /** The seq of the last event dropped from the buffer (0: none). */
  private droppedSeq = 0;
  private droppedCount = 0;
  private readonly inflight = new Map<symbol, number>();
  private readonly payload: GenerationPayload = {};

  /**
   * @param hub the shared event stream (the coordinator subscribes while runs remain).
   * @param reconcile checks a run's pending generations soon (after a reconnect); default none.
   */
  constructor(
    readonly hub: SharedEventStream,
    private readonly reconcile: (run: Run) => void = () => undefined,
  ) {}

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
    // Per-id loops of the queue use `forEach` and indices: code that runs once per call is not
    // optimised, and there a `for...of` allocates an iterator result per element.
    if (this.runs.size === 1 && this.runs.has(run))
      this.index.clear(); // the last run: no id-by-id removal
    else run.tracked.forEach((g) => this.index.remove(g));
    run.tracked.forEach((g) => g.cancelGrace?.());
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

  /**
   * The enqueue ended (with `run`'s generations registered, or failed): replay its buffered events.
   * @returns false when events buffered for it may have been dropped (the buffer overflowed).
   */
  endEnqueue(token: symbol, run?: Run): boolean {
    const from = this.inflight.get(token) ?? Infinity;
    this.inflight.delete(token);
    const complete = this.droppedSeq < from;
    if (run)
      for (let i = this.head; i < this.buffer.length; i++) {
        const b = this.buffer[i]!;
        const g = b.seq >= from ? this.index.find(b.data.generation_id, run) : undefined;
        if (g) run.apply(g, 'completed', { data: b.data });
      }
    // Drop what no enqueue still in flight can claim.
    let min = Infinity;
    for (const s of this.inflight.values()) min = Math.min(min, s);
    while (this.head < this.buffer.length && this.buffer[this.head]!.seq < min) {
      this.bufferedChars -= this.buffer[this.head]!.chars;
      this.buffer[this.head++] = undefined as never;
    }
    this.compact();
    return complete;
  }

  /** `queue.cancel` succeeded for `id` through this transport (`TransportState` calls this). */
  onCancel(id: string): void {
    for (let g: Tracked | undefined = this.index.get(id); g;) {
      const { run, next } = g; // next read first: a handler may start following the same id
      run.apply(g, 'cancelled_here');
      g = next;
    }
  }

  // SharedEventListener

  onEvent(event: ServerEvent): void {
    if (event.event !== 'media_generation_completed') return; // other event types are not ours
    const data = event.data;
    this.seq++;
    let g: Tracked | undefined = this.index.get(data.generation_id);
    if (!g) {
      if (this.inflight.size > 0) this.keep(data);
      return;
    }
    const payload = this.payload; // read by the effects at once: one for all events
    payload.data = data;
    do {
      const next: Tracked | undefined = g.next; // read first: a handler (onEvent) may start following the same id
      g.run.apply(g, 'completed', payload);
      g = next;
    } while (g);
    payload.data = undefined; // the event is not kept
  }

  /** Buffer an event of an unknown id, dropping the oldest beyond the bounds. */
  private keep(data: MediaGenerationCompleted): void {
    let chars: number;
    try {
      chars = JSON.stringify(data).length;
    } catch {
      chars = MAX_EARLY_EVENT_CHARS + 1;
    }
    this.buffer.push({ seq: this.seq, data, chars });
    this.bufferedChars += chars;
    while (
      this.head < this.buffer.length &&
      (this.buffer.length - this.head > MAX_EARLY_EVENTS || this.bufferedChars > MAX_EARLY_EVENT_CHARS)
    ) {
      const b = this.buffer[this.head]!;
      this.buffer[this.head++] = undefined as never; // release the event now
      this.bufferedChars -= b.chars;
      this.droppedSeq = b.seq;
      this.droppedCount++;
    }
    this.compact();
  }

  /** Remove the dropped entries in front once they are half the array (amortised O(1) per event). */
  private compact(): void {
    if (this.head > 0 && this.head * 2 >= this.buffer.length) {
      this.buffer = this.buffer.slice(this.head);
      this.head = 0;
    }
  }

  /** The number of buffered early events, their size in characters, and how many were dropped in all (for tests and diagnostics). */
  get buffered(): { events: number; chars: number; dropped: number } {
    return { events: this.buffer.length - this.head, chars: this.bufferedChars, dropped: this.droppedCount };
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
    if (info.reconnected) for (const run of this.runs) this.reconcile(run);
  }

  onDown(error: unknown): void {
    for (const run of this.runs) {
      run.tracked.forEach((g) => run.apply(g, 'stream_down'));
      run.progress({ type: 'stream_down', error });
    }
  }

  onConnectError(error: unknown, info: { consecutiveFailures: number; fatal: boolean }): void {
    for (const run of this.runs) {
      if (info.fatal) run.fail(error);
      else if (!run.everUp && info.consecutiveFailures > run.maxRetries) run.fail(error);
    }
  }

  /** True when `run`'s enqueue started in `epoch` and the stream stayed up since. */
  continuous(epoch: number): boolean {
    return this.hub.state === 'up' && this.hub.epoch === epoch;
  }
}
