/**
 * The lifetime of one call (`CallScope`), the options every call takes (`RequestOptions`), and the
 * per-endpoint default timeout (`endpointTimeout`).
 */
import { AbortError, TimeoutError } from './errors.ts';
import type { Redactor } from './redact.ts';
import { startTimer } from './internal/timer.ts';
import type { TimedEndpoint, TransportSettings } from './options.ts';

/**
 * Options every call takes. Times are in milliseconds.
 *
 * @example
 * await client.images.generate({ model: 'flux-2-pro', prompt: 'a fox' }, { timeoutMs: 60_000, signal });
 */
export interface RequestOptions {
  /**
   * Ends the call (and any retries) with `TimeoutError` after this long.
   *
   * @default the client's `timeoutMs`, else the endpoint's (`ClientOptions.timeoutMs`)
   * @unit milliseconds
   */
  timeoutMs?: number | undefined;
  /**
   * Ends the call with `AbortError` when aborted.
   *
   * @default none
   */
  signal?: AbortSignal | undefined;
  /**
   * Override the client's `maxRetries` for this call.
   *
   * @default the client's `maxRetries`
   */
  maxRetries?: number | undefined;
  /**
   * Extra headers for this call, over the client's `headers` (names compared in lower case). The
   * SDK's own `accept` and `content-type` win, and so does the client's key: an `authorization`
   * here is sent only by a client without `apiKey`. The values (but those of `PUBLIC_HEADERS`)
   * are secrets of the call: never logged, and redacted from its errors, log lines and `requestId`.
   *
   * @default none
   */
  headers?: Record<string, string> | undefined;
}

/**
 * `options` with the default timeout of `endpoint` (`settings.endpointTimeoutsMs`, e.g. 20 minutes
 * for synchronous videos) when neither the call (`options.timeoutMs`) nor the client (then
 * `endpointTimeoutsMs` is undefined and the transport applies its `timeoutMs`) chose one.
 */
export function endpointTimeout(
  t: { readonly settings: Readonly<Pick<TransportSettings, 'endpointTimeoutsMs'>> },
  endpoint: TimedEndpoint,
  options: RequestOptions | undefined,
): RequestOptions | undefined {
  const own = t.settings.endpointTimeoutsMs?.[endpoint];
  if (own === undefined || options?.timeoutMs !== undefined) return options;
  return { ...options, timeoutMs: own };
}

/**
 * The lifetime of one call: the caller's `signal` and the call's timeout combined into one
 * `AbortSignal` that covers every attempt and every retry delay, and the `redactor` of the
 * transport that made the call (the errors of the call are redacted with it). `dispose` must be
 * called when the call ends (it clears the timer and unlinks the caller's signal).
 */
export class CallScope {
  // (`#private` members: a minifier shortens their names, never those of properties)
  readonly #controller = new AbortController();
  #cancelTimer: (() => void) | undefined;
  // (`declare`d fields, assigned by the constructor: no field declaration is emitted into every bundle)
  /** The caller's signal, if any. */
  declare readonly userSignal: AbortSignal | undefined;
  /** The call's timeout (`Infinity`, 0 or less: none), in milliseconds. */
  declare readonly timeoutMs: number;
  /** The call's secrets, or undefined when it has none. */
  declare readonly redactor?: Redactor | undefined;
  #expired = false;
  readonly #onAbort = () => this.#controller.abort();

  /**
   * @param timeoutMs milliseconds (any length: beyond `setTimeout`'s limit it is waited in steps);
   * `Infinity` or `0` (or less) means no timeout.
   * @param redactor the call's secrets (the transport's and the call's own header values); undefined when it has none.
   */
  constructor(userSignal: AbortSignal | undefined, timeoutMs: number, redactor?: Redactor) {
    this.userSignal = userSignal;
    this.timeoutMs = timeoutMs;
    this.redactor = redactor;
    if (Number.isFinite(timeoutMs) && timeoutMs > 0) {
      this.#cancelTimer = startTimer(timeoutMs, () => {
        this.#expired = true;
        this.#controller.abort();
      });
    }
    if (userSignal) {
      if (userSignal.aborted) this.#controller.abort();
      else userSignal.addEventListener('abort', this.#onAbort, { once: true });
    }
  }

  /** The scope for `options` (`timeoutMs` defaulting to `defaultTimeoutMs`), with the call's `redactor`. */
  static of(options: RequestOptions, defaultTimeoutMs: number, redactor?: Redactor): CallScope {
    return new CallScope(options.signal, options.timeoutMs ?? defaultTimeoutMs, redactor);
  }

  /** Aborted when the caller aborts, the timeout elapses, or `abort()` is called. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }
  /** True once the timeout elapsed (and ended the call). */
  timedOut = (): boolean => this.#expired;
  /** True when the caller's signal ended the call. */
  get userAborted(): boolean {
    return !this.#expired && (this.userSignal?.aborted ?? false);
  }
  /** End the call now (e.g. the consumer stopped reading a stream). */
  abort(): void {
    this.#controller.abort();
  }
  /** Stop the timeout (e.g. once an event stream is connected) but keep the caller's signal linked. */
  clearTimeout(): void {
    this.#cancelTimer?.();
    this.#cancelTimer = undefined;
  }
  /** Clear the timer and unlink the caller's signal. Idempotent. */
  dispose(): void {
    this.clearTimeout();
    this.userSignal?.removeEventListener('abort', this.#onAbort);
  }
  /** The error that describes why this scope ended: `TimeoutError` or `AbortError`. */
  endError(what: string, cause?: unknown): TimeoutError | AbortError {
    const init = cause === undefined ? { redactor: this.redactor } : { cause, redactor: this.redactor };
    return this.#expired
      ? new TimeoutError(`${what} timed out after ${this.timeoutMs} ms`, init)
      : new AbortError(`${what} was aborted`, init);
  }
}
