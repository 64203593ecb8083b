/**
 * The shared, reference-counted, reconnecting `/api/events` connection that `queue.run` and
 * `queue.follow` use: one per transport, whatever the number of concurrent runs. Its transitions
 * are `CONNECTION_TABLE` (`states.ts`); this module performs their effects.
 */
import { ConnectionError } from '../errors.ts';
import { backoffDelay, isFatalStatus } from '../internal/backoff.ts';
import { eventsStream } from '../operations.ts';
import type { EventStream } from '../streaming/event-stream.ts';
import type { ServerEvent } from '../types.ts';
import { SYSTEM_CLOCK, type QueueClock } from './clock.ts';
import {
  FLAP_MS,
  MAX_QUICK_FLAPS,
  connectionTransition,
  type ConnectionEffect,
  type ConnectionEvent,
  type ConnectionRow,
  type ConnectionState,
} from './states.ts';

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

/** What the stream reads besides its options, given at construction (tests pass their own). */
export interface SharedEventStreamDeps {
  /** The clock of the backoff delays and of flap detection. Default `Date.now` and `setTimeout`. */
  clock?: QueueClock | undefined;
  /** Told of every transition taken (the state left and the table's row), for tests and diagnostics. Must not throw. */
  trace?: ((from: ConnectionState, row: ConnectionRow) => void) | undefined;
}

/** What an event carries into its effects. */
interface Payload {
  stream?: EventStream<ServerEvent>;
  error?: unknown;
  fatal?: boolean;
  quick?: boolean;
}

/**
 * One `/api/events` connection shared by its subscribers, reference-counted: it connects when the
 * first subscriber arrives and closes when the last one leaves. When an established connection
 * drops (or goes silent), it reconnects at once: every moment down loses events, since the service
 * does not buffer them. It backs off (jittered, exponential) only when connecting fails (after a
 * drop, from the second failed attempt on), or when connections keep dropping within `FLAP_MS` of
 * opening (`MAX_QUICK_FLAPS` in a row). Subscribers learn of gaps through `onDown` / `onUp`.
 * Events are handled one at a time: one dispatched by a subscriber's handler waits for the
 * transition in progress.
 */
export class SharedEventStream {
  private readonly listeners = new Set<SharedEventListener>();
  /** The listeners as an array, replaced (never changed) when one arrives or leaves: each event is delivered without a copy or an iterator. */
  private receivers: readonly SharedEventListener[] = [];
  private readonly clock: QueueClock;
  private current: ConnectionState = 'idle';
  /** Number of connections established so far (increases at each connect and reconnect). */
  epoch = 0;
  private everUp = false;
  private failures = 0;
  private flaps = 0;
  private openedAt = 0;
  /** Identifies the attempt, connection or delay in progress: an answer of an older one is ignored. */
  private token = 0;
  private ctrl: AbortController | undefined;
  private stream: EventStream<ServerEvent> | undefined;
  private cancelTimer: (() => void) | undefined;
  private readonly pending: Array<{ event: ConnectionEvent; payload: Payload }> = [];
  private dispatching = false;

  constructor(
    private readonly options: SharedEventStreamOptions,
    private readonly deps: SharedEventStreamDeps = {},
  ) {
    this.clock = deps.clock ?? SYSTEM_CLOCK;
  }

  /** `idle` (no subscriber, or stopped by a fatal answer), `connecting`, `up`, or `down` (backing off after having been up). */
  get state(): 'idle' | 'connecting' | 'up' | 'down' {
    const s = this.current;
    return s === 'stopped' ? 'idle' : s === 'waiting' ? (this.everUp ? 'down' : 'connecting') : s;
  }

  /** The state of `CONNECTION_TABLE` the stream is in. */
  get connectionState(): ConnectionState {
    return this.current;
  }

  /** Number of current subscribers. */
  get subscribers(): number {
    return this.listeners.size;
  }

  /** Start connecting again when subscribers remain but the stream stopped (after a fatal error). */
  restart(): void {
    if (this.listeners.size > 0) this.dispatch('restart');
  }

  /** Add a subscriber (connecting if it is the first). Returns the function that removes it (closing the connection if it was the last). */
  subscribe(listener: SharedEventListener): () => void {
    this.listeners.add(listener);
    this.receivers = [...this.listeners];
    this.dispatch(this.current === 'stopped' ? 'restart' : 'subscribe');
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      this.listeners.delete(listener);
      this.receivers = [...this.listeners];
      if (this.listeners.size === 0) this.dispatch('unsubscribe');
    };
  }

  private dispatch(event: ConnectionEvent, payload: Payload = {}): void {
    this.pending.push({ event, payload });
    if (this.dispatching) return;
    this.dispatching = true;
    try {
      for (let next = this.pending.shift(); next; next = this.pending.shift()) this.step(next.event, next.payload);
    } finally {
      this.dispatching = false;
    }
  }

  private step(event: ConnectionEvent, payload: Payload): void {
    const from = this.current;
    const row = connectionTransition(from, event, {
      everUp: this.everUp,
      failures: this.failures,
      flaps: this.flaps,
      fatal: payload.fatal === true,
      quick: payload.quick === true,
    });
    if (!row) return;
    this.current = row.to;
    try {
      this.deps.trace?.(from, row);
    } catch {
      /* a tracer's bug must not stop the stream */
    }
    for (const effect of row.effects) this.perform(effect, payload);
  }

  private perform(effect: ConnectionEffect, payload: Payload): void {
    switch (effect) {
      case 'open':
        return this.open();
      case 'close':
        this.token++;
        this.ctrl?.abort();
        this.ctrl = undefined;
        this.stream?.close();
        this.stream = undefined;
        this.cancelTimer?.();
        this.cancelTimer = undefined;
        this.everUp = false;
        this.failures = 0;
        this.flaps = 0;
        return;
      case 'up': {
        this.failures = 0;
        this.epoch++;
        this.openedAt = this.clock.now();
        const info = { epoch: this.epoch, reconnected: this.everUp };
        this.everUp = true;
        this.stream = payload.stream;
        this.each((l) => l.onUp(info));
        void this.read(payload.stream!, this.token);
        return;
      }
      case 'count_failure':
        this.failures++;
        return;
      case 'tell_connect_error': {
        const info = { consecutiveFailures: this.failures, fatal: payload.fatal === true };
        return this.each((l) => l.onConnectError(payload.error, info));
      }
      case 'tell_down':
        this.flaps = payload.quick ? this.flaps + 1 : 0;
        return this.each((l) => l.onDown(payload.error));
      case 'backoff_failure':
        return this.wait(this.everUp ? this.failures - 2 : this.failures - 1);
      case 'backoff_flap':
        return this.wait(this.flaps - MAX_QUICK_FLAPS);
    }
  }

  /** Start an attempt; its answer is `opened` or `open_failed`, unless something newer happened meanwhile. */
  private open(): void {
    const token = ++this.token;
    const ctrl = new AbortController();
    this.ctrl = ctrl;
    this.options.open(ctrl.signal).then(
      (stream) => {
        if (token !== this.token) return stream.close();
        this.dispatch('opened', { stream });
      },
      (error: unknown) => {
        if (token === this.token) this.dispatch('open_failed', { error, fatal: isFatalStatus(error) });
      },
    );
  }

  /** A backoff delay (`attempt` 0, 1, ...), then `timer`. */
  private wait(attempt: number): void {
    const token = ++this.token;
    const delay = backoffDelay(Math.max(0, attempt), this.options.baseDelayMs, this.options.maxDelayMs);
    this.cancelTimer = this.clock.after(delay, () => {
      this.cancelTimer = undefined;
      if (token === this.token) this.dispatch('timer');
    });
  }

  /** Deliver the connection's events until it ends, then `dropped` (unless it was closed or replaced). */
  private async read(stream: EventStream<ServerEvent>, token: number): Promise<void> {
    let error: unknown;
    try {
      await stream.forEach((ev) => {
        if (token !== this.token) return;
        const receivers = this.receivers;
        for (let i = 0; i < receivers.length; i++) {
          try {
            receivers[i]!.onEvent(ev);
          } catch {
            /* a listener's bug must not stop the stream */
          }
        }
      });
      error = new ConnectionError('The event stream was closed by the server', {
        request: { method: eventsStream.method, path: eventsStream.path },
      });
    } catch (err) {
      error = err; // a drop, or silence beyond the idle timeout (ConnectionError)
    } finally {
      stream.close();
    }
    if (token !== this.token) return;
    this.stream = undefined;
    this.dispatch('dropped', { error, quick: this.clock.now() - this.openedAt < FLAP_MS });
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
}
