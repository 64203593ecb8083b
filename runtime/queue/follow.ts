/**
 * `followGenerations`: the light entry of `queue.follow`. It returns at once a `QueueFollow`,
 * which is both a promise of every outcome and an async iterable of the outcomes as they settle;
 * the machinery (`queue/run.ts`) is loaded on first use with a dynamic `import()`.
 */
import { SDKError } from '../errors.ts';
import type { QueueFollowOptions, QueueRunOutcome } from './outcomes.ts';
import type { FollowFeed } from './run.ts';
import type { Transport } from '../transport.ts';

/**
 * The generations being followed by `queue.follow`. Await it for every outcome (one per id given,
 * in the order given), or iterate it with `for await` to get each distinct id's outcome as it
 * settles (in the order they settle); both may be used together. Following starts when
 * `queue.follow` is called.
 *
 * Leaving a `for await` early (`break`, `return`, a throw) stops following (the awaited promise
 * then rejects with `QueueRunAbortError`); the generations continue on the server. When following
 * ends with an error (timeout, `signal`, connection), the iteration yields the outcomes settled
 * before it and then throws that error. It can be iterated once.
 */
export class QueueFollow implements PromiseLike<QueueRunOutcome[]>, AsyncIterable<QueueRunOutcome> {
  readonly #promise: Promise<QueueRunOutcome[]>;
  readonly #stop = new AbortController();
  readonly #feed: FollowFeed = { settled: [], ended: false, wake: undefined };
  #iterated = false;

  /** @internal Use `client.queue.follow` or `followGenerations`. */
  constructor(
    start: (options: QueueFollowOptions, onSettled: (outcome: QueueRunOutcome) => void) => Promise<QueueRunOutcome[]>,
    options: QueueFollowOptions,
  ) {
    const user = options.signal;
    const feed = this.#feed;
    const notify = (): void => {
      const w = feed.wake;
      feed.wake = undefined;
      w?.();
    };
    const onUserAbort = () => this.#stop.abort(user?.reason);
    if (user?.aborted) onUserAbort();
    else user?.addEventListener('abort', onUserAbort, { once: true });
    this.#promise = Promise.resolve()
      .then(() =>
        start({ ...options, signal: this.#stop.signal }, (outcome) => {
          feed.settled.push(outcome);
          notify();
        }),
      )
      .finally(() => {
        user?.removeEventListener('abort', onUserAbort);
        feed.ended = true;
        notify();
      });
    this.#promise.catch(() => undefined); // a caller who only iterates gets the error from the iteration
  }

  /** Stop following (the promise rejects with `QueueRunAbortError`); the generations continue on the server. */
  abort(): void {
    this.#stop.abort();
  }

  /** Every outcome, one per id given, in the order given (as a promise's `then`). */
  then<A = QueueRunOutcome[], B = never>(
    onfulfilled?: ((value: QueueRunOutcome[]) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#promise.then(onfulfilled, onrejected);
  }

  /** As a promise's `catch`. */
  catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<QueueRunOutcome[] | B> {
    return this.#promise.catch(onrejected);
  }

  /** As a promise's `finally`. */
  finally(onfinally?: (() => void) | null): Promise<QueueRunOutcome[]> {
    return this.#promise.finally(onfinally);
  }

  /**
   * The outcomes as they settle (the loop is `iterateFollow` of `queue/run.ts`, which following has loaded).
   * @throws SDKError when iterated a second time.
   */
  async *[Symbol.asyncIterator](): AsyncIterator<QueueRunOutcome> {
    if (this.#iterated) throw new SDKError('A QueueFollow can be iterated once; await it for every outcome');
    this.#iterated = true;
    yield* (await machinery()).iterateFollow(this.#feed, this.#promise, this.#stop);
  }
}

/**
 * Follow existing generations to one outcome each (`succeeded` with `url`, `failed`, `cancelled`,
 * `lost`) over `t`'s shared event stream: see `followGenerations` of `queue/run.ts` for what each
 * outcome means and how the ids are checked (one `queue.list`, then a `queue.get` of each id it
 * does not show). Use it after a restart with the ids persisted by `queue.run`'s `onEnqueued`: a
 * service that keeps ended generations (today's) says at once how each that ended while nobody
 * followed it ended, with its URL. Options: `signal`, `timeoutMs` (milliseconds, default one hour),
 * `onProgress`, `onEvent`, `reconcileIntervalMs`, `lostGraceMs`, `maxRetries`.
 * @returns a `QueueFollow`: awaitable (one outcome per id given, in the order given: an id given
 * twice has its outcome at both positions, each with its position as `index`) and async iterable
 * (each distinct id's outcome once, as it settles).
 * @throws (from the promise or the iteration) SDKError for bad ids (nothing sent), the stream's
 * connection error (`AuthenticationError`, `ConnectionError`), `QueueRunTimeoutError`,
 * `QueueRunAbortError` (`signal`, `abort()`, or leaving the iteration early).
 */
export function followGenerations(
  t: Transport,
  generationIds: readonly string[],
  options: QueueFollowOptions = {},
): QueueFollow {
  return new QueueFollow(
    async (o, onSettled) => (await machinery()).followGenerations(t, generationIds, o, onSettled),
    options,
  );
}

let loaded: Promise<typeof import('./run.ts')> | undefined;

/** `queue/run.ts`, imported once (each `import()` resolves the module again, through every loader hook of the process); a failed load is tried again at the next call. */
function machinery(): Promise<typeof import('./run.ts')> {
  const p = (loaded ??= import('./run.ts'));
  p.catch(() => (loaded = undefined));
  return p;
}
