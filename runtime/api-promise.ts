/**
 * `APIPromise`: what a call returns. A `Promise` of the parsed result, as before (`await` gives the
 * data), with two more ways to read it, after openai-node's:
 * - `withResponse()`: `{ data, response, requestId }`: the same data with the HTTP `Response`;
 * - `asResponse()`: the `Response` alone.
 * The request is sent once, when the call is made; neither method sends it again.
 *
 * The `Response` of a JSON call has a readable body: the SDK read the original one (capped by
 * `maxResponseBytes`), so it hands back a copy with the same status, status text, headers, `url` and
 * the bytes it read, its headers redacted of the call's secrets (the key, the client's and the
 * call's header values: a server may echo them). For a stream (`chat.completions.create({ stream:
 * true })`), `response` is the live response whose body the returned stream reads, with its headers
 * as received: use its status and headers, and iterate the stream (or, with `asResponse()` and no
 * iteration, read the body yourself; not both). `requestId` is redacted either way. The body and
 * `data` are the service's answer as it came.
 */
import { redactHeaders, requestIdOf, SDKError } from './errors.ts';
import { loadReplay } from './internal/lazy.ts';
import type { HttpResult } from './request.ts';

/** What `withResponse()` resolves to. */
export interface WithResponse<T> {
  /** The parsed result, as `await` gives it. */
  data: T;
  /** The HTTP response (see `APIPromise` for its body). */
  response: Response;
  /** The response's request id (see `REQUEST_ID_HEADERS`), redacted of the call's secrets; undefined when it has none. */
  requestId: string | undefined;
}

/**
 * A `Promise<T>` of a call's parsed result that can also give the HTTP `Response`
 * (`withResponse()`, `asResponse()`). `await`, `then`, `catch` and `finally` behave as for any
 * promise, and it rejects with the call's error. The request was sent when the call was made.
 */
export class APIPromise<T> extends Promise<T> {
  // (`#private` members: a minifier shortens their names, never those of properties and methods)
  #parsed: Promise<T> | undefined;
  #replayed: Promise<Response> | undefined;
  readonly #result: Promise<HttpResult> | undefined;
  readonly #parse: () => Promise<T>;

  /**
   * @param result the call's result with its response, or `undefined` for a promise made from a
   * plain `Promise` (a transport that returns no responses; `withResponse()` then rejects).
   * @param parse turns the result into the data (applied once).
   */
  constructor(result: Promise<HttpResult> | undefined, parse: () => Promise<T>) {
    super((resolve) => {
      // A no-op: `then`, `catch` and `finally` are overridden to read `parse()` (as openai-node does).
      resolve(null as T);
    });
    this.#result = result;
    this.#parse = parse;
  }

  /** A promise over a transport's result: the data is `result.data`, mapped by `map` when given. */
  static fromResult<T>(result: Promise<HttpResult>): APIPromise<T> {
    return new APIPromise<T>(result, () => result.then((r) => r.data as T));
  }

  /**
   * An `APIPromise` for `promise`: itself when it already is one, else one whose `withResponse()` /
   * `asResponse()` reject (a custom `Transport` whose `request` returns a plain promise).
   */
  static from<T>(promise: Promise<T>): APIPromise<T> {
    return promise instanceof APIPromise ? (promise as APIPromise<T>) : new APIPromise<T>(undefined, () => promise);
  }

  /**
   * The call `start` makes once `ready` resolved (e.g. after loading a validator), as an
   * `APIPromise`. Rejects with `ready`'s error, or with what `start` throws.
   */
  static after<A, T>(ready: Promise<A>, start: (value: A) => Promise<T>): APIPromise<T> {
    // Boxed: a promise resolved with an APIPromise (a thenable) would adopt its data instead.
    const box = ready.then((value) => ({ call: APIPromise.from(start(value)) }));
    const result = box.then(({ call }) => call.#resultOrThrow());
    result.catch(() => undefined); // read only by withResponse/asResponse, which see the rejection
    return new APIPromise<T>(result, () => box.then(({ call }) => call.#value()));
  }

  /** A call that failed before anything was sent (e.g. `ValidationError`): rejects with `error`. */
  static rejected<T = never>(error: unknown): APIPromise<T> {
    const rejected = Promise.reject(error);
    rejected.catch(() => undefined); // only the caller's handlers count
    return new APIPromise<T>(rejected, () => rejected);
  }

  /** The same call with its data mapped by `fn` (the response is unchanged). */
  map<U>(fn: (data: T) => U | Promise<U>): APIPromise<U> {
    return new APIPromise<U>(this.#result, () => this.#value().then(fn));
  }

  /** The call's `HttpResult`. @throws SDKError for a promise made from a plain `Promise`. */
  #resultOrThrow(): Promise<HttpResult> {
    // (that error is made by `internal/replay.ts`, loaded now, as for `asResponse`)
    return (
      this.#result ??
      this.#value().then(async () => {
        throw (await loadReplay()).noResponse(SDKError);
      })
    );
  }

  #value(): Promise<T> {
    return (this.#parsed ??= this.#parse());
  }

  /**
   * The parsed data with the HTTP `Response` and the request id. The response's body is readable:
   * a copy of the bytes the SDK read (for a stream, the live response the stream reads).
   * @throws the call's error; SDKError when the transport gave no response (see `from`).
   */
  async withResponse(): Promise<WithResponse<T>> {
    const [data, response, result] = await Promise.all([this.#value(), this.asResponse(), this.#resultOrThrow()]);
    return { data, response, requestId: requestIdOf(response.headers, result.redactor) };
  }

  /**
   * The HTTP `Response` of the call (status, headers, and a readable body: see `withResponse`).
   * Errors are thrown as for `await` (an error status is an `APIError`, not a response).
   * @throws as `withResponse`.
   */
  asResponse(): Promise<Response> {
    // (the copy is made by `internal/replay.ts`, loaded now: a page that only awaits its calls does not carry it)
    return (this.#replayed ??= this.#resultOrThrow().then(async (result) =>
      (await loadReplay()).replay(result, redactHeaders),
    ));
  }

  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#value().then(onfulfilled, onrejected);
  }

  override catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.#value().catch(onrejected);
  }

  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#value().finally(onfinally);
  }
}
