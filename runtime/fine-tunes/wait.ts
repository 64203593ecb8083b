/**
 * Waiting for a fine-tune to end: `fineTunes.retrieve` every `intervalMs` until its status is
 * terminal (`completed`, `errored`, `stopped`), within `timeoutMs`, as the docs' monitoring loop
 * does (`fine-tuning-api/02_fine_tuning_image.mdx`: a read every 30 seconds). Bounded: one read at a
 * time, at most one per interval, and none after the timeout or the caller's signal.
 */
import { AbortError, SDKError, TimeoutError } from '../errors.ts';
import { brandErrors } from '../internal/brand.ts';
import { startTimer } from '../internal/timer.ts';
import type { RequestOptions } from '../scope.ts';
import type { Transport } from '../transport.ts';
import { retrieveFineTune } from './endpoints.ts';
import {
  FINE_TUNE_WAIT_DEFAULT_INTERVAL_MS,
  FINE_TUNE_WAIT_DEFAULT_TIMEOUT_MS,
  isFineTuneEnded,
  type FineTune,
  type FineTuneRef,
} from './types.ts';

/**
 * Options of `fineTunes.wait` (`waitForFineTune`).
 *
 * @example
 * const done = await client.fineTunes.wait(ref, { intervalMs: 60_000, onStatus: (f) => console.log(f.status) });
 */
export interface FineTuneWaitOptions {
  /**
   * Time between the end of one read and the start of the next (more than 0).
   *
   * @default 30_000
   * @unit milliseconds
   */
  intervalMs?: number | undefined;
  /**
   * Time the whole wait may take (more than 0; `Infinity` waits for ever).
   *
   * @default 86_400_000 (24 hours)
   * @unit milliseconds
   */
  timeoutMs?: number | undefined;
  /**
   * Ends the wait (`AbortError`); the fine-tune goes on.
   *
   * @default none
   */
  signal?: AbortSignal | undefined;
  /**
   * Called with the fine-tune of every read, the last (terminal) one included; a throw ends the wait with it.
   *
   * @default none
   */
  onStatus?: ((fineTune: FineTune) => void) | undefined;
  /**
   * Options of each read (`headers`, `maxRetries`, its own `timeoutMs` in milliseconds).
   *
   * @default the client's
   */
  requestOptions?: Omit<RequestOptions, 'signal'> | undefined;
}

/**
 * `fineTunes.wait` timed out: the fine-tune goes on. `fineTune` is the last one read (undefined
 * when no read succeeded in time).
 */
export class FineTuneWaitTimeoutError extends TimeoutError {
  override name = 'FineTuneWaitTimeoutError';
  constructor(
    message: string,
    /** The last fine-tune read, or undefined when no read succeeded in time. */
    readonly fineTune: FineTune | undefined,
  ) {
    super(message);
  }
}

brandErrors({ FineTuneWaitTimeoutError });

/** `value` when it is a number above 0 (`Infinity` only where allowed), else the default. @throws SDKError naming the option. */
function positive(name: string, value: number | undefined, fallback: number, infinite: boolean): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value > 0) || (!infinite && !Number.isFinite(value)))
    throw new SDKError(`${name} must be a number of milliseconds above 0, got ${String(value)}`);
  return value;
}

/* endpoint-doc: fineTunes.wait */
/**
 * Wait until a fine-tune ends (`completed`, `errored` or `stopped`), reading it every `intervalMs` (milliseconds):
 * `GET /api/repos/{namespace}/{repo_name}/fine_tunes/{id}`. `intervalMs` defaults to 30_000 (30 seconds, as the docs
 * poll); `onStatus` is called with each fine-tune read. Each read is a `fineTunes.retrieve` (retried as a GET).
 * `timeoutMs` (milliseconds) covers the whole wait: default 86_400_000 (24 hours); `signal` ends it.
 * @returns the `FineTune` in its terminal status (an `errored` or `stopped` one too: check `status`).
 * @throws FineTuneWaitTimeoutError after `timeoutMs` (with the last fine-tune read), AbortError on `signal`, the errors
 * of `fineTunes.retrieve`, the error `onStatus` throws; SDKError, before sending, for an `intervalMs` or `timeoutMs`
 * that is not a number above 0; SDKError, before sending, when `namespace`, `repo_name` or `id` is empty, `.` or `..`
 * (or decodes to one).
 */
export async function waitForFineTune(
  t: Transport,
  ref: FineTuneRef,
  options: FineTuneWaitOptions = {},
): Promise<FineTune> {
  const intervalMs = positive('intervalMs', options.intervalMs, FINE_TUNE_WAIT_DEFAULT_INTERVAL_MS, false);
  const timeoutMs = positive('timeoutMs', options.timeoutMs, FINE_TUNE_WAIT_DEFAULT_TIMEOUT_MS, true);
  const { signal, onStatus } = options;
  if (signal?.aborted) throw new AbortError('fineTunes.wait was aborted');
  const stop = new AbortController();
  let timedOut = false;
  const cancelTimer = startTimer(timeoutMs, () => {
    timedOut = true;
    stop.abort();
  });
  const onAbort = (): void => stop.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  let last: FineTune | undefined;
  // The wait's own error once the timeout or the caller's signal stopped it, whatever the read threw then.
  const ended = (cause?: unknown): Error =>
    timedOut
      ? new FineTuneWaitTimeoutError(
          `fine-tune ${ref.id} did not end within ${timeoutMs} ms (last status: ${last?.status ?? 'none read'})`,
          last,
        )
      : new AbortError('fineTunes.wait was aborted', cause === undefined ? {} : { cause });
  try {
    for (;;) {
      try {
        last = (await retrieveFineTune(t, ref, { ...options.requestOptions, signal: stop.signal })).fine_tune;
      } catch (err) {
        if (stop.signal.aborted) throw ended(err);
        throw err;
      }
      onStatus?.(last);
      if (isFineTuneEnded(last)) return last;
      try {
        await sleep(intervalMs, stop.signal);
      } catch {
        throw ended();
      }
    }
  } finally {
    cancelTimer();
    signal?.removeEventListener('abort', onAbort);
  }
}

/** Sleep `ms` (any length, see `startTimer`), rejecting with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    };
    const onAbort = () => {
      cancel();
      reject(signal?.reason);
    };
    const cancel = startTimer(ms, done);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
