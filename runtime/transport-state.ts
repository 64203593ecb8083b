/**
 * What a transport holds besides HTTP, shared by everything that uses it: the ids cancelled through
 * it (so that a followed generation resolves `cancelled`), and the queue's coordinator with its
 * shared `/api/events` connection. A `TransportState` belongs to one transport; a wrapping
 * transport passes its inner transport's `state` on, and then both share one event connection and
 * one record of cancellations.
 */

/** The status of a transport's shared `/api/events` connection (the one `queue.run` and `queue.follow` use). */
export interface EventStreamStatus {
  /** `idle` (no run following generations), `connecting`, `up`, or `down` (reconnecting). */
  readonly state: 'idle' | 'connecting' | 'up' | 'down';
  /** Number of connections established so far. */
  readonly epoch: number;
  /** Number of runs subscribed. */
  readonly subscribers: number;
}

/** How many cancelled ids a state remembers (the oldest are forgotten first). */
const MAX_CANCELLED = 10_000;

const IDLE: EventStreamStatus = Object.freeze({ state: 'idle', epoch: 0, subscribers: 0 });

/**
 * The shared state of a transport. Create one per transport (`HttpTransport` does); a wrapper
 * returns its inner transport's. Its fields are private: the queue machinery reaches them through
 * the methods below, and inspecting a transport shows nothing of them.
 */
export class TransportState {
  /** Ids cancelled through this transport (the last 10,000), in order of cancellation. */
  readonly #cancelled = new Set<string>();
  /** Told of each cancellation (the queue coordinator, once it exists). */
  #onCancel: ((id: string) => void) | undefined;
  /** The queue coordinator (typed by `queue/run.ts`, which creates it on first use). */
  #queue: { readonly stream: EventStreamStatus } | undefined;

  /** Record that `id` was cancelled through this transport, and tell the runs following it. */
  noteCancelled(id: string): void {
    this.#cancelled.delete(id);
    this.#cancelled.add(id);
    if (this.#cancelled.size > MAX_CANCELLED) this.#cancelled.delete(this.#cancelled.values().next().value as string);
    this.#onCancel?.(id);
  }

  /** Whether `id` was cancelled through this transport. */
  wasCancelled(id: string): boolean {
    return this.#cancelled.has(id);
  }

  /**
   * The queue coordinator of this transport: `create()`'s result, made on first use and kept.
   * `onCancel` of the result is told of every later cancellation. For `queue/run.ts` only.
   */
  queue<Q extends { readonly stream: EventStreamStatus; onCancel(id: string): void }>(create: () => Q): Q {
    if (!this.#queue) {
      const q = create();
      this.#queue = q;
      this.#onCancel = (id) => q.onCancel(id);
    }
    return this.#queue as Q;
  }

  /** The status of the shared event stream (`idle` before any `queue.run` or `queue.follow`). */
  get eventStream(): EventStreamStatus {
    const s = this.#queue?.stream;
    return s ? { state: s.state, epoch: s.epoch, subscribers: s.subscribers } : IDLE;
  }
}
