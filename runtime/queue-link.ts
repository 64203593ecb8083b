/**
 * What the queue's light functions (`cancelGeneration`, the `queue` resource) and the `queue.run`
 * machinery (`queue-run.ts`, loaded on demand) share per transport, without importing each other:
 * the ids this transport cancelled (so that a followed generation resolves `cancelled`), and the
 * status of the transport's shared event stream.
 */
import type { Transport } from './transport.ts';

/** The status of a transport's shared `/api/events` connection (the one `queue.run` uses). */
export interface EventStreamStatus {
  /** `idle` (no run following generations), `connecting`, `up`, or `down` (reconnecting). */
  readonly state: 'idle' | 'connecting' | 'up' | 'down';
  /** Number of connections established so far. */
  readonly epoch: number;
  /** Number of runs subscribed. */
  readonly subscribers: number;
}

interface Link {
  /** Ids cancelled through this transport (the last 10,000). */
  cancelled: Set<string>;
  /** Told of each cancellation (set by queue-run). */
  onCancel: ((id: string) => void) | undefined;
  /** The shared event stream, once queue-run made one. */
  stream: EventStreamStatus | undefined;
}

const links = new WeakMap<Transport, Link>();

/** The link of `t` (created on first use). */
export function linkOf(t: Transport): Link {
  let link = links.get(t);
  if (!link) links.set(t, (link = { cancelled: new Set(), onCancel: undefined, stream: undefined }));
  return link;
}

/** Record that `id` was cancelled through `t`, and tell `t`'s runs. */
export function noteCancelled(t: Transport, id: string): void {
  const link = linkOf(t);
  link.cancelled.add(id);
  if (link.cancelled.size > 10_000) link.cancelled.delete(link.cancelled.values().next().value as string);
  link.onCancel?.(id);
}

/** Whether `id` was cancelled through `t`. */
export function wasCancelled(t: Transport, id: string): boolean {
  return links.get(t)?.cancelled.has(id) ?? false;
}

const IDLE: EventStreamStatus = Object.freeze({ state: 'idle', epoch: 0, subscribers: 0 });

/** The status of `t`'s shared event stream (`idle` before any `queue.run`). */
export function eventStreamStatus(t: Transport): EventStreamStatus {
  return links.get(t)?.stream ?? IDLE;
}
