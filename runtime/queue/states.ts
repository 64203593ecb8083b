/**
 * The queue's reconnection as data, in one place: the states, events and transitions of the shared
 * `/api/events` connection (executed by `SharedEventStream`) and of each generation a run follows
 * (executed by `Run`, asked by the reconciliation of `reconcile.ts`). A row names the states it
 * leaves, the event, an optional guard, the state it enters and its effects, performed in order by
 * the executor; an event that a state has no row for is ignored. Pure: no timers, no I/O.
 */

/** One transition: from any of `from`, on `on` (when `when` holds), to `to`, doing `effects` in order. */
export interface Row<S extends string, E extends string, G extends string, F extends string> {
  from: readonly S[];
  on: E;
  when?: G;
  to: S;
  effects: readonly F[];
}

/**
 * The rows of `table` for each state and event, in table order (the first whose guard holds wins).
 * @throws Error when a row has no `when` but a later row for the same state and event does (that
 * row could never fire): the tables below are checked when this module loads.
 */
function index<S extends string, E extends string, G extends string, F extends string>(
  table: readonly Row<S, E, G, F>[],
): Map<S, Map<E, Row<S, E, G, F>[]>> {
  const byState = new Map<S, Map<E, Row<S, E, G, F>[]>>();
  for (const row of table)
    for (const s of row.from) {
      let byEvent = byState.get(s);
      if (!byEvent) byState.set(s, (byEvent = new Map<E, Row<S, E, G, F>[]>()));
      const rows = byEvent.get(row.on) ?? [];
      if (rows.some((r) => r.when === undefined))
        throw new Error(`unreachable transition: ${s} on ${row.on} after an unguarded row`);
      rows.push(row);
      byEvent.set(row.on, rows);
    }
  return byState;
}

// ---------------------------------------------------------------------------------------------
// The shared /api/events connection

/**
 * `idle`: no subscriber. `connecting`: an attempt is in flight. `up`: connected, events flow.
 * `waiting`: a backoff delay before the next attempt. `stopped`: a fatal answer (401, 403, ...);
 * subscribers were told, nothing is tried until one joins again.
 */
export type ConnectionState = 'idle' | 'connecting' | 'up' | 'waiting' | 'stopped';

/**
 * `subscribe`: the first subscriber arrived. `unsubscribe`: the last one left. `restart`: a
 * subscriber joined a stopped stream. `opened` / `open_failed`: an attempt's answer. `dropped`: the
 * connection ended (closed, broken, or silent beyond the idle timeout). `timer`: a backoff delay ended.
 */
export type ConnectionEvent = 'subscribe' | 'unsubscribe' | 'restart' | 'opened' | 'open_failed' | 'dropped' | 'timer';

/**
 * `fatal`: the failed attempt's answer was a 4xx other than 408/429. `retry_at_once`: the first
 * failed attempt since a drop (the drop may have cut a connect in flight). `flapping`: this drop
 * ends the fifth connection in a row that lasted under `FLAP_MS`.
 */
export type ConnectionGuard = 'fatal' | 'retry_at_once' | 'flapping';

/**
 * `open`: start an attempt. `close`: end the attempt or connection and any delay, forget the
 * history (failures, flaps, whether it was ever up). `up`: count the connection (`epoch`), tell
 * the subscribers (`onUp`, `reconnected` after a drop), read its events. `count_failure`, then
 * `tell_connect_error` (`onConnectError`). `tell_down`: count a quick drop as a flap (any other
 * resets the count) and tell `onDown`. `backoff_failure` / `backoff_flap`: a jittered exponential
 * delay, by the failures since the last connection or by the flaps beyond the fifth, then `timer`.
 */
export type ConnectionEffect =
  'open' | 'close' | 'up' | 'count_failure' | 'tell_connect_error' | 'tell_down' | 'backoff_failure' | 'backoff_flap';

/** What the connection's guards read. */
export interface ConnectionFacts {
  /** Whether the connection was up since the first subscriber arrived (or since the last restart). */
  everUp: boolean;
  /** Failed attempts since the last connection, before this one is counted. */
  failures: number;
  /** Quick drops in a row, before this one is counted. */
  flaps: number;
  /** The failed attempt's answer was fatal (`open_failed`). */
  fatal: boolean;
  /** The connection that dropped lasted under `FLAP_MS` (`dropped`). */
  quick: boolean;
}

/** A connection shorter than this (milliseconds) counts as a flap. */
export const FLAP_MS = 100;
/** After this many flaps in a row, reconnecting backs off (a server that accepts and drops at once is not hammered). */
export const MAX_QUICK_FLAPS = 5;

/** A row of `CONNECTION_TABLE`. */
export type ConnectionRow = Row<ConnectionState, ConnectionEvent, ConnectionGuard, ConnectionEffect>;

/** The connection's transitions. */
export const CONNECTION_TABLE: readonly ConnectionRow[] = [
  { from: ['idle'], on: 'subscribe', to: 'connecting', effects: ['open'] },
  { from: ['connecting', 'up', 'waiting', 'stopped'], on: 'unsubscribe', to: 'idle', effects: ['close'] },
  { from: ['stopped'], on: 'restart', to: 'connecting', effects: ['close', 'open'] },
  { from: ['connecting'], on: 'opened', to: 'up', effects: ['up'] },
  {
    from: ['connecting'],
    on: 'open_failed',
    when: 'fatal',
    to: 'stopped',
    effects: ['count_failure', 'tell_connect_error'],
  },
  {
    from: ['connecting'],
    on: 'open_failed',
    when: 'retry_at_once',
    to: 'connecting',
    effects: ['count_failure', 'tell_connect_error', 'open'],
  },
  {
    from: ['connecting'],
    on: 'open_failed',
    to: 'waiting',
    effects: ['count_failure', 'tell_connect_error', 'backoff_failure'],
  },
  { from: ['up'], on: 'dropped', when: 'flapping', to: 'waiting', effects: ['tell_down', 'backoff_flap'] },
  { from: ['up'], on: 'dropped', to: 'connecting', effects: ['tell_down', 'open'] },
  { from: ['waiting'], on: 'timer', to: 'connecting', effects: ['open'] },
];

const CONNECTION_GUARDS: Record<ConnectionGuard, (f: ConnectionFacts) => boolean> = {
  fatal: (f) => f.fatal,
  retry_at_once: (f) => f.everUp && f.failures === 0,
  flapping: (f) => f.quick && f.flaps + 1 >= MAX_QUICK_FLAPS,
};

const CONNECTION_ROWS = index(CONNECTION_TABLE);

/** The connection's transition on `event` from `state`, or undefined (ignored). */
export function connectionTransition(
  state: ConnectionState,
  event: ConnectionEvent,
  facts: ConnectionFacts,
): ConnectionRow | undefined {
  const rows = CONNECTION_ROWS.get(state)?.get(event);
  if (rows) for (const r of rows) if (r.when === undefined || CONNECTION_GUARDS[r.when](facts)) return r;
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// One generation followed by a run

/**
 * `waiting`: pending, nothing in flight. `listing`: in a `queue.list` in flight. `getting`: a
 * `queue.get` of it is in flight. `grace`: the service no longer has it (404); its completion event
 * may still be on its way. `settled`: it has its outcome.
 */
export type GenerationState = 'waiting' | 'listing' | 'getting' | 'grace' | 'settled';

/**
 * `completed`: its completion event. `cancelled_here`: cancelled through this transport's state.
 * `stream_down`: the event stream dropped (its event may be missed). `check`: a reconciliation
 * lists it. The answers: `active` (listed, or read, as `queued`, `processing`, without a status
 * (0.224.2), or with a status no description has), `ended` (listed or read with `succeeded`,
 * `failed` or `cancelled`), `not_listed` (absent from a list of active generations of a service
 * that keeps ended ones, or not known to drop them), `gone` (404, or absent from the list of a
 * service that drops ended generations, as 0.224.2 does), `check_failed` (any other error).
 * `grace_elapsed`: the grace period after `gone` ended without its event.
 */
export type GenerationEvent =
  | 'completed'
  | 'cancelled_here'
  | 'stream_down'
  | 'check'
  | 'active'
  | 'ended'
  | 'not_listed'
  | 'gone'
  | 'check_failed'
  | 'grace_elapsed';

/** `cancelled_here`: the id was cancelled through this transport's state (`queue.cancel`). */
export type GenerationGuard = 'cancelled_here';

/**
 * `settle_event`: the outcome its completion event says. `settle_answer`: the outcome the service's
 * answer says (`succeeded` with `result_url`, `failed` with `error_message`, `cancelled`).
 * `settle_cancelled`, `settle_lost` (reason: `vanished` when the stream stayed up since it was seen
 * or enqueued, else `missed_event`). `mark_gap`: its event may have been missed. `mark_seen`: the
 * service has it active (reported as `processing` progress; a check made while the stream stayed up
 * closes the gap). `send_get`: ask the service for it (`queue.get`). `start_grace`: wait
 * `lostGraceMs`, then `grace_elapsed`.
 */
export type GenerationEffect =
  | 'settle_event'
  | 'settle_answer'
  | 'settle_cancelled'
  | 'settle_lost'
  | 'mark_gap'
  | 'mark_seen'
  | 'send_get'
  | 'start_grace';

const PENDING: readonly GenerationState[] = ['waiting', 'listing', 'getting', 'grace'];
const CHECKING: readonly GenerationState[] = ['listing', 'getting'];

/** A row of `GENERATION_TABLE`. */
export type GenerationRow = Row<GenerationState, GenerationEvent, GenerationGuard, GenerationEffect>;

/** Each followed generation's transitions. */
export const GENERATION_TABLE: readonly GenerationRow[] = [
  { from: PENDING, on: 'completed', to: 'settled', effects: ['settle_event'] },
  { from: PENDING, on: 'cancelled_here', to: 'settled', effects: ['settle_cancelled'] },
  ...PENDING.map((s) => ({ from: [s], on: 'stream_down' as const, to: s, effects: ['mark_gap' as const] })),
  { from: ['waiting'], on: 'check', to: 'listing', effects: [] },
  { from: CHECKING, on: 'active', to: 'waiting', effects: ['mark_seen'] },
  { from: CHECKING, on: 'ended', to: 'settled', effects: ['settle_answer'] },
  { from: ['listing'], on: 'not_listed', to: 'getting', effects: ['send_get'] },
  { from: ['listing'], on: 'check_failed', to: 'getting', effects: ['send_get'] },
  { from: ['getting'], on: 'check_failed', to: 'waiting', effects: [] },
  { from: CHECKING, on: 'gone', when: 'cancelled_here', to: 'settled', effects: ['settle_cancelled'] },
  { from: CHECKING, on: 'gone', to: 'grace', effects: ['start_grace'] },
  { from: ['grace'], on: 'grace_elapsed', when: 'cancelled_here', to: 'settled', effects: ['settle_cancelled'] },
  { from: ['grace'], on: 'grace_elapsed', to: 'settled', effects: ['settle_lost'] },
];

const GENERATION_ROWS = index(GENERATION_TABLE);

/**
 * A generation's transition on `event` from `state` (the first row whose guard holds: the only
 * guard, `cancelled_here`, is `wasCancelled(id)`), or undefined (ignored). Called for every
 * completion event: no allocation.
 */
export function generationTransition(
  state: GenerationState,
  event: GenerationEvent,
  wasCancelled: (id: string) => boolean,
  id: string,
): GenerationRow | undefined {
  const rows = GENERATION_ROWS.get(state)?.get(event);
  if (!rows) return undefined;
  // An index loop: until V8 optimizes it (and again after a full GC drops the optimized code) a
  // `for...of` allocates an iterator per call, and this runs once per event and per listed id.
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    if (r.when === undefined || wasCancelled(id)) return r;
  }
  return undefined;
}
