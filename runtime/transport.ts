/**
 * The transport: what every endpoint function, resource and per-model function needs from a
 * client — send a request with the SDK's retry policy, open a stream, and the settings. `Client`
 * is a transport; `createTransport` makes a bare one (HTTP, retries and errors only), so that a
 * bundle of one per-model call carries neither the resources, nor the queue machinery, nor SSE.
 */
import { Http, type HttpRequest } from './http.ts';
import { resolveOptions, type ClientOptions } from './options.ts';
import { sendWithRetries, type RetryPolicy } from './retry.ts';
import { CallScope, type RequestOptions } from './scope.ts';

import type { TransportSettings } from './options.ts';
export type { TransportSettings };

/**
 * What endpoint functions need from a client. `Client` implements it; `createTransport` makes a
 * bare one. Implement it yourself to wrap or instrument calls.
 */
export interface Transport {
  readonly settings: Readonly<TransportSettings>;
  /**
   * Send a request with the SDK's retry policy and return the parsed JSON body. `timeoutMs`
   * (default the transport's) covers every attempt and every delay between attempts.
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
  openStream(req: HttpRequest, options?: RequestOptions, connectOnly?: boolean): Promise<{ response: Response; scope: CallScope }>;
}

/**
 * The transport over `fetch`: bearer auth, JSON, redirects refused, capped bodies, retries
 * (`retry.ts`) and errors. Holds no resources. The API key is kept out of every property (see
 * `Http`), so logging or inspecting a transport never shows it. Its secrets (the key and every
 * value of `headers`) are its own (`http.redactor`): the errors of its calls are redacted of them,
 * and nothing of them is kept once the transport is dropped.
 * @throws SDKError at construction for a bad `baseUrl` (not https to a non-loopback host, ...), a
 * bad number option, or an `apiKey` in a browser without `dangerouslyAllowBrowser: true`.
 */
export class HttpTransport implements Transport {
  readonly settings: Readonly<TransportSettings>;
  /** The HTTP layer (one attempt per call of `send`). */
  readonly http: Http;

  constructor(options: ClientOptions = {}) {
    const o = resolveOptions(options);
    this.settings = Object.freeze({
      baseUrl: o.baseUrl,
      timeoutMs: o.timeoutMs,
      endpointTimeoutsMs: o.endpointTimeoutsMs,
      maxRetries: o.maxRetries,
      retryBaseDelayMs: o.retryBaseDelayMs,
      retryMaxDelayMs: o.retryMaxDelayMs,
      eventStreamIdleTimeoutMs: o.eventStreamIdleTimeoutMs,
      maxResponseBytes: o.maxResponseBytes,
    });
    this.http = new Http({ apiKey: o.apiKey, baseUrl: o.baseUrl, fetch: o.fetch, headers: o.headers, maxResponseBytes: o.maxResponseBytes });
  }

  /** The retry policy of a call (`options.maxRetries` overrides the transport's). */
  retryPolicy(options: RequestOptions = {}): RetryPolicy {
    return { maxRetries: options.maxRetries ?? this.settings.maxRetries, baseDelayMs: this.settings.retryBaseDelayMs, maxDelayMs: this.settings.retryMaxDelayMs };
  }

  async request<T>(req: HttpRequest, options: RequestOptions = {}): Promise<T> {
    const scope = CallScope.of(options, this.settings.timeoutMs, this.http.redactor);
    try {
      return (await sendWithRetries(this.http, req, scope, this.retryPolicy(options))) as T;
    } finally {
      scope.dispose();
    }
  }

  async openStream(req: HttpRequest, options: RequestOptions = {}, connectOnly = false): Promise<{ response: Response; scope: CallScope }> {
    const scope = CallScope.of(options, this.settings.timeoutMs, this.http.redactor);
    try {
      const response = (await sendWithRetries(this.http, { ...req, stream: true }, scope, this.retryPolicy(options))) as Response;
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
