/**
 * `Client`: the entry point of the SDK. Generic over a `Registry` (the model map); the generated
 * entry (`generated/index.ts`) specialises it with the snapshot's models and re-exports it.
 */
import { CallScope, Http, type HttpRequest, type RequestOptions } from './http.ts';
import { Queue } from './queue.ts';
import type { Registry, UntypedRegistry } from './registry.ts';
import { Chat, Events, FineTunes, Images, Models, Videos } from './resources.ts';
import { sendWithRetries, type RetryPolicy } from './retry.ts';

/**
 * Loads the JSON request schema of a model id (used by `queue.enqueue`/`queue.run` to validate),
 * or null/undefined for a model without schema or one the SDK does not know (not validated).
 */
export type SchemaSource = (model: string) => Promise<Record<string, unknown> | null | undefined>;

/** Options of `new Client(...)`. Times are in milliseconds. */
export interface ClientOptions {
  /** Bearer API key. Default: env `OXEN_API_KEY`. Never logged nor put in error messages. */
  apiKey?: string;
  /** Service base URL. Default: env `OXEN_BASE_URL`, then `https://hub.oxen.ai` (the spec's server). */
  baseUrl?: string;
  /** The `fetch` to use. Default: the global `fetch`. */
  fetch?: typeof fetch;
  /** Default per-call timeout in milliseconds (default 600_000: video generation may take minutes). */
  timeoutMs?: number;
  /**
   * How many times a retryable call is retried (default 2, so at most 3 attempts). GET and DELETE
   * retry on connection errors, 429 and 5xx; a generating POST only on 429 or a refused connection.
   */
  maxRetries?: number;
  /** Base delay of the jittered exponential retry backoff, in milliseconds (default 500). */
  retryBaseDelayMs?: number;
  /** Upper bound of one backoff delay, in milliseconds (default 10_000); a longer `Retry-After` is still honoured. */
  retryMaxDelayMs?: number;
  /**
   * `queue.run`'s event stream reconnects when nothing (not even the server's keep-alive comment,
   * sent every 15 s when idle) arrived for this many milliseconds (default 45_000; 0 disables).
   */
  eventStreamIdleTimeoutMs?: number;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /** Where `queue.enqueue`/`queue.run` find a model's schema for validation (the generated client supplies the snapshot's). */
  schemas?: SchemaSource;
}

/** The service's server as `specs/openapi.yaml` names it. */
export const DEFAULT_BASE_URL = 'https://hub.oxen.ai';

function env(name: string): string | undefined {
  const p = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  const v = p?.env?.[name];
  return v === undefined || v === '' ? undefined : v;
}

/**
 * The SDK client. Every method takes `RequestOptions` (`timeoutMs`, `signal`) last.
 *
 * @example
 * const client = new Client({ apiKey: process.env.OXEN_API_KEY });
 * const { images } = await client.images.generate({ model: 'flux-2-pro', prompt: 'a fox', aspect_ratio: '16:9' });
 */
export class Client<R extends Registry = UntypedRegistry> {
  /** The HTTP layer (auth, JSON, timeouts). */
  readonly http: Http;
  /** Options as resolved (the key is not kept here). */
  readonly options: Readonly<Omit<Required<ClientOptions>, 'apiKey' | 'headers' | 'schemas'>> & { schemas: SchemaSource | undefined };
  /** Chat completions in the widely used chat-completions format. */
  readonly chat: Chat<R>;
  /** Synchronous image generation and editing. */
  readonly images: Images<R>;
  /** Synchronous video generation. */
  readonly videos: Videos<R>;
  /** The asynchronous generation queue. */
  readonly queue: Queue<R>;
  /** The server-sent event stream of `/api/events`. */
  readonly events: Events;
  /** Model details. */
  readonly models: Models;
  /** Fine-tune creation and tokenization. */
  readonly fineTunes: FineTunes;

  constructor(options: ClientOptions = {}) {
    const baseUrl = options.baseUrl ?? env('OXEN_BASE_URL') ?? DEFAULT_BASE_URL;
    const f = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.options = {
      baseUrl,
      fetch: f,
      timeoutMs: options.timeoutMs ?? 600_000,
      maxRetries: options.maxRetries ?? 2,
      retryBaseDelayMs: options.retryBaseDelayMs ?? 500,
      retryMaxDelayMs: options.retryMaxDelayMs ?? 10_000,
      eventStreamIdleTimeoutMs: options.eventStreamIdleTimeoutMs ?? 45_000,
      schemas: options.schemas,
    };
    this.http = new Http({
      apiKey: options.apiKey ?? env('OXEN_API_KEY'),
      baseUrl,
      fetch: f,
      timeoutMs: this.options.timeoutMs,
      maxRetries: this.options.maxRetries,
      retryBaseDelayMs: this.options.retryBaseDelayMs,
      retryMaxDelayMs: this.options.retryMaxDelayMs,
      ...(options.headers ? { headers: options.headers } : {}),
    });
    this.chat = new Chat<R>(this);
    this.images = new Images<R>(this);
    this.videos = new Videos<R>(this);
    this.queue = new Queue<R>(this);
    this.events = new Events(this);
    this.models = new Models(this);
    this.fineTunes = new FineTunes(this);
  }

  /**
   * The same client with every model id and parameter accepted, untyped: the escape hatch for a
   * model newer than the snapshot. Requests are sent as given; queue validation is skipped for
   * ids the snapshot does not know.
   */
  get untyped(): Client<UntypedRegistry> {
    return this as unknown as Client<UntypedRegistry>;
  }

  /** The retry policy of a call (`options.maxRetries` overrides the client's). */
  retryPolicy(options: RequestOptions = {}): RetryPolicy {
    return { maxRetries: options.maxRetries ?? this.options.maxRetries, baseDelayMs: this.options.retryBaseDelayMs, maxDelayMs: this.options.retryMaxDelayMs };
  }

  /**
   * Send a request with the SDK's retry policy and return the parsed JSON body. `timeoutMs`
   * (default the client's) covers every attempt and every delay between attempts.
   * @throws APIError subclasses (`NotFoundError`, `RateLimitError`, ...), `ConnectionError`,
   * `TimeoutError`, `AbortError`, and `OutcomeUnknownError` for a POST whose outcome is unknown.
   */
  async request<T>(req: HttpRequest, options: RequestOptions = {}): Promise<T> {
    const scope = CallScope.of(options, this.options.timeoutMs);
    try {
      return (await sendWithRetries(this.http, req, scope, this.retryPolicy(options))) as T;
    } finally {
      scope.dispose();
    }
  }

  /**
   * Send a request whose response is a stream, with the retry policy, and return the unread
   * `Response` once its headers arrived, with the scope that controls it (the caller must
   * `dispose()` it when done). `timeoutMs` covers the whole stream unless `connectOnly`, in which
   * case it covers only the wait for the response headers.
   * @throws as `request`.
   */
  async openStream(req: HttpRequest, options: RequestOptions = {}, connectOnly = false): Promise<{ response: Response; scope: CallScope }> {
    const scope = CallScope.of(options, this.options.timeoutMs);
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
