/**
 * The shared, reference-counted, reconnecting `/api/events` connection that `queue.run` uses:
 * one per transport, whatever the number of concurrent runs.
 */
import { AbortError, ConnectionError } from '../errors.ts';
import { backoffDelay, isFatalStatus, sleep } from '../internal/retry.ts';
import type { EventStream } from '../streaming/event-stream.ts';
import type { ServerEvent } from '../types.ts';

/** What a subscriber of `SharedEventStream` is told. Handlers must not throw. */
export interface SharedEventListener {
  /** An event of the stream. */
  onEvent(event: ServerEvent): void;
  /** The connection is up (response headers arrived). `epoch` counts connections; `reconnected` after a drop. */
  onUp(info: { epoch: number; reconnected: boolean }): void;
  /** The connection dropped (it will reconnect while subscribers remain). Events emitted until it is up again are lost. */
  onDown(error: unknown): void;
  /**
   * A connection attempt failed. `fatal` (a 4xx other than 408/429, e.g. 401): the stream stops
   * trying and every subscriber should give up; otherwise it retries with backoff.
   */
  onConnectError(error: unknown, info: { consecutiveFailures: number; fatal: boolean }): void;
}

/** Options of `SharedEventStream`. Times in milliseconds. */
export interface SharedEventStreamOptions {
  /**
   * Open one connection (one attempt, no retries), resolved once the response headers arrived. The
   * stream it returns ends with `ConnectionError` when it stays silent beyond the idle timeout.
   */
  open: (signal: AbortSignal) => Promise<EventStream<ServerEvent>>;
  /** Base of the jittered exponential backoff between failed connection attempts. */
  baseDelayMs: number;
  /** Upper bound of one backoff delay. */
  maxDelayMs: number;
}

/**
 * A connection shorter than this counts as a flap; after `MAX_QUICK_FLAPS` flaps in a row the
 * reconnect backs off (so a server that accepts and drops at once is not hammered).
 */
const FLAP_MS = 100;
const MAX_QUICK_FLAPS = 5;

/**
 * One `/api/events` connection shared by its subscribers, reference-counted: it connects when the
 * first subscriber arrives and closes when the last one leaves. When an established connection
 * drops (or goes silent), it reconnects at once: every moment down loses events, since the service
 * does not buffer them. It backs off (jittered, exponential) only when connecting fails (after a
 * drop, from the second failed attempt on), or when connections keep dropping within 100 ms of
 * opening (5 in a row). Subscribers learn of gaps
 * through `onDown` / `onUp`.
 */
export class SharedEventStream {
  private readonly listeners = new Set<SharedEventListener>();
  private ctrl: AbortController | undefined;
  /** `idle` (no subscriber), `connecting`, `up`, or `down` (between a drop and the next attempt). */
  state: 'idle' | 'connecting' | 'up' | 'down' = 'idle';
  /** Number of connections established so far (increases at each connect and reconnect). */
  epoch = 0;

  constructor(private readonly options: SharedEventStreamOptions) {}

  /** Number of current subscribers. */
  get subscribers(): number {
    return this.listeners.size;
  }

  /** Start connecting again when subscribers remain but the stream stopped (after a fatal error). */
  restart(): void {
    if (this.listeners.size > 0 && !this.ctrl) this.start();
  }

  /** Add a subscriber (connecting if it is the first). Returns the function that removes it (closing the connection if it was the last). */
  subscribe(listener: SharedEventListener): () => void {
    this.listeners.add(listener);
    if (!this.ctrl) this.start();
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      this.listeners.delete(listener);
      if (this.listeners.size === 0 && this.ctrl) {
        this.ctrl.abort();
        this.ctrl = undefined;
        this.state = 'idle';
      }
    };
  }

  private start(): void {
    const ctrl = new AbortController();
    this.ctrl = ctrl;
    void this.loop(ctrl);
  }

  private each(f: (l: SharedEventListener) => void): void {
    for (const l of [...this.listeners]) {
      try {
        f(l);
      } catch {
        /* a listener's bug must not stop the stream */
      }
    }
  }

  private async loop(ctrl: AbortController): Promise<void> {
    const current = () => this.ctrl === ctrl && !ctrl.signal.aborted;
    let everUp = false;
    let flaps = 0;
    while (current()) {
      this.state = 'connecting';
      let stream: EventStream<ServerEvent> | undefined;
      for (let consecutiveFailures = 0; stream === undefined;) {
        try {
          stream = await this.options.open(ctrl.signal);
        } catch (error) {
          if (!current() || error instanceof AbortError) break; // no subscriber left
          consecutiveFailures++;
          const fatal = isFatalStatus(error);
          this.each((l) => l.onConnectError(error, { consecutiveFailures, fatal }));
          if (fatal || !current()) break; // subscribers were told and give up
          // After a drop, the first attempt again is immediate (the drop may have cut a connect in
          // flight); then, as for a first connection, a jittered exponential backoff.
          const retry = everUp ? consecutiveFailures - 2 : consecutiveFailures - 1;
          try {
            if (retry >= 0)
              await sleep(backoffDelay(retry, this.options.baseDelayMs, this.options.maxDelayMs), ctrl.signal);
          } catch {
            break;
          }
        }
      }
      if (stream === undefined) {
        if (this.ctrl === ctrl) {
          this.ctrl = undefined;
          this.state = 'idle';
        }
        return;
      }
      if (!current()) {
        stream.close();
        return;
      }
      this.epoch++;
      this.state = 'up';
      const epoch = this.epoch;
      const reconnected = everUp;
      everUp = true;
      this.each((l) => l.onUp({ epoch, reconnected }));
      const openedAt = Date.now();
      let error: unknown;
      try {
        for await (const ev of stream) {
          if (!current()) break;
          this.each((l) => l.onEvent(ev));
        }
        error = new ConnectionError('The event stream was closed by the server', {
          request: { method: 'GET', path: '/api/events' },
        });
      } catch (err) {
        error = err; // a drop, or silence beyond the idle timeout (ConnectionError)
      } finally {
        stream.close();
      }
      if (!current()) return;
      this.state = 'down';
      this.each((l) => l.onDown(error));
      flaps = Date.now() - openedAt < FLAP_MS ? flaps + 1 : 0;
      if (flaps >= MAX_QUICK_FLAPS) {
        try {
          await sleep(
            backoffDelay(flaps - MAX_QUICK_FLAPS, this.options.baseDelayMs, this.options.maxDelayMs),
            ctrl.signal,
          );
        } catch {
          return;
        }
      }
    }
  }
}
