/**
 * What `queue.run` resolves to and is told with: the outcome of each generation, the progress
 * reports, its options, and the errors that end a run early (timeout, abort).
 */
import type { EnqueueOptions } from './endpoints.ts';
import { AbortError, TimeoutError } from './errors.ts';
import type { MediaGenerationCompleted } from './types.ts';

/** Fields of every outcome: the generation and its position in the enqueue response (0-based). */
export interface QueueRunOutcomeBase {
  generation_id: string;
  /** Position of the generation within its enqueue call (0 to `num_generations - 1`). */
  index: number;
}
/** The generation succeeded; `url` is the presigned output URL from the completion event (it expires). */
export interface QueueRunSucceeded extends QueueRunOutcomeBase {
  status: 'succeeded';
  url: string;
  media_type: 'image' | 'video' | (string & {});
  model: string;
}
/** The generation failed; `error` is the service's human-readable reason. */
export interface QueueRunFailed extends QueueRunOutcomeBase {
  status: 'failed';
  error: string;
  media_type: 'image' | 'video' | (string & {});
}
/** The generation was cancelled through this transport's `queue.cancel` (no event is emitted for it). */
export interface QueueRunCancelled extends QueueRunOutcomeBase {
  status: 'cancelled';
}
/**
 * The generation left the queue without a completion event reaching this client.
 * `reason`: `missed_event` (it left while the event stream was down: it may have succeeded or
 * failed, the event is lost) or `vanished` (it left while the stream was up with no event: it
 * failed without result, expired, or was cancelled by someone else).
 */
export interface QueueRunLost extends QueueRunOutcomeBase {
  status: 'lost';
  reason: 'missed_event' | 'vanished';
  /** A human-readable explanation. */
  message: string;
}
/** The one outcome of a generation followed by `queue.run`. */
export type QueueRunOutcome = QueueRunSucceeded | QueueRunFailed | QueueRunCancelled | QueueRunLost;

/** What `onProgress` of `queue.run` is told, in order of occurrence. */
export type QueueRunProgress =
  /** The event stream is connected; the request is about to be enqueued. */
  | { type: 'subscribed' }
  /** The service accepted the request: these generations are processing. */
  | { type: 'enqueued'; generation_ids: string[] }
  /** A reconciliation (`queue.list` or `queue.get`) found the generation still in the queue, `elapsedMs` after this run enqueued it. */
  | { type: 'processing'; generation_id: string; index: number; elapsedMs: number }
  /** The generation reached its outcome; `settled` of `total` are done. */
  | { type: 'settled'; outcome: QueueRunOutcome; settled: number; total: number }
  /** The event stream dropped (or went silent); it reconnects at once (with backoff only if connecting fails). */
  | { type: 'stream_down'; error: unknown }
  /** The event stream is connected again; pending generations are being reconciled (`queue.list`). */
  | { type: 'stream_up' };

/** Options of `queue.run`. Times in milliseconds. */
export interface QueueRunOptions extends EnqueueOptions {
  /**
   * Ends the whole run (subscription, enqueue, waiting) after this many milliseconds with
   * `QueueRunTimeoutError` (a `TimeoutError`). Default 3_600_000 (one hour; videos take minutes).
   */
  timeoutMs?: number | undefined;
  /** Called at each step of the run (see `QueueRunProgress`). Must not throw (errors are ignored). */
  onProgress?: ((progress: QueueRunProgress) => void) | undefined;
  /** Called with each completion event of this run's generations, as received. */
  onEvent?: ((event: MediaGenerationCompleted) => void) | undefined;
  /**
   * While the stream is up, pending generations are checked with `queue.list` this often, so that
   * one that left the queue without an event resolves `lost` instead of waiting. Default 30_000.
   */
  reconcileIntervalMs?: number | undefined;
  /**
   * How long to wait for a completion event after a check found the generation gone before resolving
   * `lost` (the event may be on its way). Default 2_000.
   */
  lostGraceMs?: number | undefined;
}

/** Default `timeoutMs` of `queue.run`: one hour. */
export const QUEUE_RUN_DEFAULT_TIMEOUT_MS = 3_600_000;

/**
 * `queue.run` timed out. The generations in `pending` continue on the server (cancel them with
 * `queue.cancel` if unwanted); `settled` holds the outcomes reached before the timeout.
 */
export class QueueRunTimeoutError extends TimeoutError {
  override name = 'QueueRunTimeoutError';
  constructor(
    message: string,
    readonly settled: QueueRunOutcome[],
    readonly pending: string[],
  ) {
    super(message);
  }
}

/**
 * `queue.run` was aborted by its `signal`. The generations in `pending` continue on the server
 * (cancel them with `queue.cancel` if unwanted); `settled` holds the outcomes reached before.
 */
export class QueueRunAbortError extends AbortError {
  override name = 'QueueRunAbortError';
  constructor(
    message: string,
    readonly settled: QueueRunOutcome[],
    readonly pending: string[],
  ) {
    super(message);
  }
}
