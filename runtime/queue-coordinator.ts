/**
 * The coordinator of one transport's runs: routes the shared event stream's completion events to
 * the run that follows each generation, buffers events that beat their enqueue response, and
 * tells runs when the stream goes down, comes back up, or cannot connect.
 */
import { Limiter, type Run } from './queue-run-state.ts';
import type { SharedEventListener, SharedEventStream } from './shared-event-stream.ts';
import type { MediaGenerationCompleted, ServerEvent } from './types.ts';

/**
 * Routes the shared event stream to the runs of one client: generation id -> run. Events that
 * arrive while an enqueue is in flight and whose id is not known yet are buffered (the event may
 * beat the enqueue response) and replayed to the run that enqueued them.
 */
export class RunCoordinator implements SharedEventListener {
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
    const data = event.data;
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
