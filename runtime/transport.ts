/**
 * The transport: what every endpoint function, resource and per-model function needs from a
 * client — send a request with the SDK's retry policy, open a stream, the settings, and the
 * shared state (cancellations, the queue's event connection). `Client` is a transport;
 * `createTransport` makes a bare one (HTTP, retries and errors only), so that a bundle of one
 * per-model call carries neither the resources, nor the queue machinery, nor SSE.
 */
import { APIPromise } from './api-promise.ts';
import { requestIdOf, SDKError } from './errors.ts';
import { resolveHooks, type Hooks, type RetryContext } from './hooks.ts';
import { Http } from './internal/http.ts';
import { loadHookRun } from './internal/lazy.ts';
import type { HttpRequest, HttpResult, RetryPolicy } from './request.ts';
import { resolveOptions, type ClientOptions } from './options.ts';
import { sendWithRetries } from './internal/retry.ts';
import { CallScope, type RequestOptions } from './scope.ts';
import { TransportState, type EventStreamStatus } from './transport-state.ts';

import type { TransportSettings } from './options.ts';
export type { TransportSettings };

/**
 * What endpoint functions need from a client. `Client` implements it; `createTransport` makes a
 * bare one. Implement it yourself to wrap or instrument calls (or use the `onRequest`,
 * `onResponse` and `beforeRetry` hooks of `ClientOptions`): a wrapper delegates `request` and
 * `openStream` and returns the inner transport's `settings` and `state`, e.g.
 * `{ settings: inner.settings, state: inner.state, request: (req, o) => { log(req); return inner.request(req, o); }, openStream: (req, o, c) => inner.openStream(req, o, c) }`.
 * A wrapper whose `request` returns the inner transport's promise unchanged keeps `withResponse()` /
 * `asResponse()` working; one that returns another promise gives results without a `Response`.
 */
export interface Transport {
  readonly settings: Readonly<TransportSettings>;
  /**
   * What the transport shares with everything that uses it: the ids cancelled through it and the
   * queue's coordinator with its one `/api/events` connection. A wrapper returns its inner
   * transport's `state`, so that runs through the wrapper and through the inner transport share
   * one event connection, and a `queue.cancel` through either resolves the generation `cancelled`.
   * The shared connection and its reconciliation requests go through the transport of the first
   * run or follow that needed them.
   */
  readonly state: TransportState;
  /**
   * Send a request with the SDK's retry policy and return the parsed JSON body (`HttpTransport`
   * returns an `APIPromise`, which can also give the `Response`). `timeoutMs` (default the
   * transport's) covers every attempt and every delay between attempts; `headers` are added to
   * this request.
   * @throws APIError subclasses (`NotFoundError`, `RateLimitError`, ...), `ConnectionError`,
   * `TimeoutError`, `AbortError`, `RedirectError`, `InvalidResponseError`,
   * `ResponseTooLargeError`, and `OutcomeUnknownError` for a POST whose outcome is unknown.
   */
  request<T>(req: HttpRequest, options?: RequestOptions): Promise<T>;
  /**
   * Send a request whose response is a stream, with the retry policy, and return the unread
   * `Response` once its headers arrived, with the scope that controls it (the caller must
   * `dispose()` it when done). `timeoutMs` covers the whole stream unless `connectOnly`, in which
   * case it covers only the wait for the response headers.
   * @throws as `request`.
   */
  openStream(
    req: HttpRequest,
    options?: RequestOptions,
    connectOnly?: boolean,
  ): Promise<{ response: Response; scope: CallScope }>;
}

/**
 * The transport over `fetch`: bearer auth, JSON, redirects refused, capped bodies, retries
 * (`retry.ts`) and errors. Holds no resources. The API key is kept out of every property (see
 * `Http`), so logging or inspecting a transport never shows it. Its secrets (the key and the
 * values of `headers`, see `PUBLIC_HEADERS`) are its own (`Http.redactorFor`): the errors and log
 * lines of its calls are redacted of them and of each call's own header values, and nothing of them
 * is kept once the transport is dropped.
 * @throws SDKError at construction for a bad `baseUrl` (not https to a non-loopback host, ...), a
 * bad number option, an `apiKey` in a browser without `dangerouslyAllowBrowser: true`, or no key
 * (`apiKey`, env `OXEN_API_KEY`) for the hosted service (the default `baseUrl`).
 */
export class HttpTransport implements Transport {
  // (`declare`d fields: the constructor assigns each, so no field declaration is emitted into every bundle)
  declare readonly settings: Readonly<TransportSettings>;
  /** The HTTP layer (one attempt per call of `send`); internal (its redactor is reached through errors and scopes). */
  declare private readonly http: Http;
  readonly state: TransportState = new TransportState();
  /** The hooks of the options, or undefined when none (see `HookOptions`). */
  readonly #hooks: Hooks | undefined;

  constructor(options: ClientOptions = {}) {
    const { apiKey, fetch, headers, ...settings } = resolveOptions(options);
    this.settings = Object.freeze(settings);
    this.#hooks = resolveHooks(options);
    this.http = new Http({
      ...settings,
      apiKey,
      fetch,
      headers,
      logLevel: options.logLevel,
      logger: options.logger,
      hooks: this.#hooks,
    });
  }

  /**
   * The retry policy of a call (`options.maxRetries` overrides the transport's), with the
   * `beforeRetry` hooks. `retries` (when given) collects the error that each retry followed, for the log.
   */
  retryPolicy(options: RequestOptions = {}, retries?: unknown[]): RetryPolicy {
    const policy: RetryPolicy = {
      maxRetries: options.maxRetries ?? this.settings.maxRetries,
      baseDelayMs: this.settings.retryBaseDelayMs,
      maxDelayMs: this.settings.retryMaxDelayMs,
    };
    const hooks = this.#hooks;
    const logging = this.http.log;
    if ((hooks && hooks.beforeRetry.length > 0) || logging) {
      // (`hook-run.ts` runs the hooks and logs the retry: loaded on demand, see `internal/http.ts`)
      policy.beforeRetry = async (context: RetryContext) =>
        (await loadHookRun()).beforeRetry(hooks, logging, context, retries);
    }
    return policy;
  }

  /**
   * Send a request with the retry policy and resolve to the parsed body. The request is sent now;
   * the returned `APIPromise` can also give the `Response` (`withResponse()`, `asResponse()`).
   * @throws as `Transport.request`.
   */
  request<T>(req: HttpRequest, options: RequestOptions = {}): APIPromise<T> {
    return APIPromise.fromResult<T>(this.#call(req, options));
  }

  /**
   * The scope of a call: its timeout and signal, and its secrets: the transport's and the values of
   * the call's own `headers` (see `Http.redactorFor`).
   */
  async #scope(options: RequestOptions): Promise<CallScope> {
    return CallScope.of(options, this.settings.timeoutMs, await this.http.redactorFor(options.headers));
  }

  /** `request`'s result: the call within its own scope, disposed when it ends. */
  async #call(req: HttpRequest, options: RequestOptions): Promise<HttpResult> {
    const scope = await this.#scope(options);
    try {
      return await this.#send(req, options, scope);
    } finally {
      scope.dispose();
    }
  }

  /**
   * Every attempt of one call within `scope`, with the retry policy; logged at `info` (success) or
   * `error` (failure) when logging is on (`CallLog.around`). Resolves to the last attempt's result
   * with its `Response`.
   */
  async #send(req: HttpRequest, options: RequestOptions, scope: CallScope): Promise<HttpResult> {
    const r = options.headers ? { ...req, headers: { ...req.headers, ...options.headers } } : req;
    const log = this.http.log && (await this.http.log); // no await when logging is off
    return log
      ? log.around(r, scope.redactor, requestIdOf, (retries) =>
          sendWithRetries(this.http, r, scope, this.retryPolicy(options, retries)),
        )
      : sendWithRetries(this.http, r, scope, this.retryPolicy(options));
  }

  async openStream(
    req: HttpRequest,
    options: RequestOptions = {},
    connectOnly = false,
  ): Promise<{ response: Response; scope: CallScope }> {
    const scope = await this.#scope(options);
    try {
      const { response } = await this.#send({ ...req, stream: true }, options, scope);
      if (connectOnly) scope.clearTimeout();
      return { response, scope };
    } catch (err) {
      scope.dispose();
      throw err;
    }
  }
}

/**
 * A bare transport: HTTP, retries and errors, nothing else. Pass it to per-model functions
 * (`flux2ProGenerateImage(createTransport({ apiKey }), { prompt })`) or to the endpoint functions
 * of `endpoints.ts`, so that a bundle carries only what those calls need.
 * @throws SDKError for bad options (see `HttpTransport`).
 */
export function createTransport(options: ClientOptions = {}): Transport {
  return new HttpTransport(options);
}

/**
 * The state of `t`, checked (a wrapper written in JavaScript may have left it out).
 * @throws SDKError when `t.state` is not a `TransportState`, saying how a wrapper passes it on.
 */
export function stateOf(t: Transport): TransportState {
  const s = (t as { state?: unknown }).state;
  if (
    s instanceof TransportState ||
    (typeof s === 'object' &&
      s !== null &&
      typeof (s as TransportState).noteCancelled === 'function' &&
      typeof (s as TransportState).queue === 'function')
  )
    return s as TransportState;
  throw new SDKError(
    "This transport has no `state` (a TransportState): a transport that wraps another must pass the inner one's on (`state: inner.state`), so that both share one event connection and one record of cancellations",
  );
}

/** The status of `t`'s shared event stream (`idle` before any `queue.run` or `queue.follow`). @throws SDKError as `stateOf`. */
export function eventStreamStatus(t: Transport): EventStreamStatus {
  return stateOf(t).eventStream;
}
