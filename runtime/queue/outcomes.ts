/**
 * What `queue.run` and `queue.follow` resolve to and are told with: the outcome of each
 * generation, the progress reports, their options, and the errors that end them early (timeout,
 * abort).
 */
import type { EnqueueOptions } from '../endpoints.ts';
import { AbortError, TimeoutError } from '../errors.ts';
import { brandErrors } from '../internal/brand.ts';
import type { RequestOptions } from '../scope.ts';
import type { MediaGenerationCompleted } from '../types.ts';

/** Fields of every outcome: the generation and its position in the enqueue response (0-based). */
export interface QueueRunOutcomeBase {
  generation_id: string;
  /** Position of the generation within its enqueue call (0 to `num_generations - 1`). */
  index: number;
}
/**
 * The generation succeeded; `url` is the presigned output URL (it expires): the completion event's
 * `url`, or the generation's `result_url` when a check found it ended (today's service keeps it).
 * `model` is the event's `model` or the generation's `model_name` (`''` when neither says).
 */
export interface QueueRunSucceeded extends QueueRunOutcomeBase {
  status: 'succeeded';
  url: string;
  media_type: 'image' | 'video' | (string & {});
  model: string;
}
/** The generation failed; `error` is the service's human-readable reason (the event's `error`, or the generation's `error_message`). */
export interface QueueRunFailed extends QueueRunOutcomeBase {
  status: 'failed';
  error: string;
  media_type: 'image' | 'video' | (string & {});
}
/**
 * The generation was cancelled through this transport's `queue.cancel` (no event is emitted for
 * it), or a check found it `cancelled` (today's service keeps cancelled generations). In today's
 * service a cancel of a generation that had already ended has no effect; should it still answer
 * success (its docs do not say), a run that had not yet learnt how it ended reports it `cancelled`.
 */
export interface QueueRunCancelled extends QueueRunOutcomeBase {
  status: 'cancelled';
}
/**
 * The generation's outcome is not known to this client: the service no longer has it (404, or
 * not listed by a service that drops ended generations, as 0.224.2 does) and no completion event
 * reached us within `lostGraceMs`, or what the service said is unusable.
 * `reason`: `missed_event` (it left while the event stream was down, or, for `queue.follow`,
 * before it was followed: it may have succeeded or failed, the event is lost), `vanished` (it left
 * while the stream was up with no event: it failed without result, expired, or was cancelled by
 * someone else), or `invalid_event` (a `succeeded` completion event without a non-empty string
 * `url`, or a `succeeded` generation without a `result_url` string: the output cannot be fetched;
 * the event or answer is in `message`, cut to 1,000 characters).
 */
export interface QueueRunLost extends QueueRunOutcomeBase {
  status: 'lost';
  reason: 'missed_event' | 'vanished' | 'invalid_event';
  /** A human-readable explanation. */
  message: string;
}
/** The one outcome of a generation followed by `queue.run` or `queue.follow`. */
export type QueueRunOutcome = QueueRunSucceeded | QueueRunFailed | QueueRunCancelled | QueueRunLost;

/** What `onProgress` of `queue.run` and `queue.follow` is told, in order of occurrence. */
export type QueueRunProgress =
  /** The event stream is connected; `queue.run` is about to enqueue, `queue.follow` to check the generations. */
  | { type: 'subscribed' }
  /** `queue.run`: the service accepted the request: these generations are processing. */
  | { type: 'enqueued'; generation_ids: string[] }
  /** `queue.follow`: these generations (the distinct ids given) are followed from now on. */
  | { type: 'following'; generation_ids: string[] }
  /**
   * A check (`queue.list` or `queue.get`) found the generation still active (`queued`,
   * `processing`, no status as in 0.224.2, or a status this SDK does not know), `elapsedMs` after
   * this run enqueued it (`queue.follow`: after the follow began).
   */
  | { type: 'processing'; generation_id: string; index: number; elapsedMs: number }
  /** The generation reached its outcome; `settled` of `total` are done. */
  | { type: 'settled'; outcome: QueueRunOutcome; settled: number; total: number }
  /** The event stream dropped (or went silent); it reconnects at once (with backoff only if connecting fails). */
  | { type: 'stream_down'; error: unknown }
  /** The event stream is connected again; pending generations are being checked (`queue.list`). */
  | { type: 'stream_up' };

/** Options of `queue.follow` (and of `queue.run`, which adds its own). Times in milliseconds. */
export interface QueueFollowOptions extends RequestOptions {
  /**
   * Ends the whole call (subscription, enqueue, waiting) after this many milliseconds with
   * `QueueRunTimeoutError` (a `TimeoutError`). Default 3_600_000 (one hour; videos take minutes).
   */
  timeoutMs?: number | undefined;
  /** Called at each step of the run (see `QueueRunProgress`). Must not throw (errors are ignored). */
  onProgress?: ((progress: QueueRunProgress) => void) | undefined;
  /** Called with each completion event of this run's generations, as received. */
  onEvent?: ((event: MediaGenerationCompleted) => void) | undefined;
  /**
   * While the stream is up, pending generations are checked this often (milliseconds), so that one
   * that ended without an event reaching us settles instead of waiting: one `queue.list` per
   * namespace and model (`queue.follow`: of the key's namespace, every model), then a `queue.get`
   * of each generation it does not show (when more than 16 do, the lists of ended generations are
   * asked first). Checks of one query are at least 2_000 apart (the docs' shortest suggested
   * polling interval, for images), or this interval when it is shorter. Default 30_000.
   */
  reconcileIntervalMs?: number | undefined;
  /**
   * How long (milliseconds) to wait for a completion event after a check found the generation gone
   * (404, or not listed by a service that drops ended generations) before resolving `lost` (the
   * event may be on its way). Default 2_000.
   */
  lostGraceMs?: number | undefined;
}

/** Options of `queue.run`. Times in milliseconds. */
export interface QueueRunOptions extends EnqueueOptions, QueueFollowOptions {
  /**
   * Called with the generation ids (in enqueue order, each once) as soon as the service accepted
   * the request, and awaited before `queue.run` waits for their outcomes: persist them here, so
   * that a process that restarts can `queue.follow` them. Events that arrive meanwhile are kept.
   * If it throws (or rejects), `queue.run` stops following and rejects with that error; the
   * generations continue on the server.
   */
  onEnqueued?: ((generationIds: string[]) => void | Promise<void>) | undefined;
}

/** Default `timeoutMs` of `queue.run` and `queue.follow`: one hour. */
export const QUEUE_RUN_DEFAULT_TIMEOUT_MS = 3_600_000;

/**
 * `queue.run` or `queue.follow` timed out. The generations in `pending` continue on the server (cancel them with
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
 * `queue.run` or `queue.follow` was aborted by its `signal`. The generations in `pending` continue on the server
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

// `instanceof` across the ES module and CommonJS copies of the package (`internal/brand.ts`).
brandErrors({ QueueRunTimeoutError, QueueRunAbortError });
