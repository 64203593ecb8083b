/**
 * `Client`: the entry point of the SDK. Generic over a `Registry` (the model map); the generated
 * entry (`generated/index.ts`) specialises it with the snapshot's models and re-exports it.
 */
import { Http, callSignal, type HttpRequest, type RequestOptions } from './http.ts';
import type { Registry, UntypedRegistry } from './registry.ts';
import { Chat, Events, FineTunes, Images, Models, Queue, Videos } from './resources.ts';

/** Loads the JSON request schema of a model id, or undefined for a model the SDK does not know. */
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
  /** How many times a retryable call is retried (default 2). */
  maxRetries?: number;
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
      schemas: options.schemas,
    };
    this.http = new Http({
      apiKey: options.apiKey ?? env('OXEN_API_KEY'),
      baseUrl,
      fetch: f,
      timeoutMs: this.options.timeoutMs,
      maxRetries: this.options.maxRetries,
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

  /**
   * Send one request (no retry yet) and return the parsed JSON body.
   * @throws APIError subclasses, `TimeoutError`, `AbortError`.
   */
  async request<T>(req: HttpRequest, options: RequestOptions = {}): Promise<T> {
    const s = callSignal(options, this.options.timeoutMs);
    try {
      return (await this.http.send(req, s.signal, { timedOut: s.timedOut, userSignal: options.signal })) as T;
    } finally {
      s.cleanup();
    }
  }
}
