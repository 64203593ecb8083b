/**
 * `Client`: the entry point of the SDK. A `Transport` (it extends `HttpTransport`) with the
 * resources on it. Generic over a `Registry` (the model map); the generated entry
 * (`generated/index.ts`) specialises it with the snapshot's models and their compiled validators,
 * and re-exports it.
 */
import type { ClientOptions } from './options.ts';
import type { Registry, UntypedRegistry } from './registry.ts';
import { FineTunes } from './fine-tunes/resource.ts';
import { Models } from './models/resource.ts';
import { Chat, Events, Images, Queue, Videos } from './resources.ts';
import { HttpTransport } from './transport.ts';

/**
 * The SDK client. Every method takes `RequestOptions` (`timeoutMs`, `signal`, `maxRetries`) last.
 * The client is itself a `Transport`: pass it to the per-model functions
 * (`flux2ProGenerateImage(client, { prompt })`); they share its settings and, for `<model>Run`,
 * its event-stream connection.
 *
 * @example
 * const client = new Client({ apiKey: process.env.OXEN_API_KEY });
 * const { images } = await client.images.generate({ model: 'flux-2-pro', prompt: 'a fox', aspect_ratio: '16:9' });
 * @throws SDKError at construction for a bad `baseUrl` (https is required except to a loopback
 * host), a bad number option, an `apiKey` in a browser without `dangerouslyAllowBrowser: true`, or
 * no key (`apiKey`, env `OXEN_API_KEY`) for the hosted service (the default `baseUrl`).
 */
export class Client<R extends Registry = UntypedRegistry> extends HttpTransport {
  /** Chat completions in the widely used chat-completions format. */
  readonly chat: Chat<R>;
  /** Synchronous image generation and editing. */
  readonly images: Images<R>;
  /** Synchronous video generation. */
  readonly videos: Videos<R>;
  /** The asynchronous generation queue (`queue.run` loads its machinery on first use). */
  readonly queue: Queue<R>;
  /** The server-sent event stream of `/api/events`. */
  readonly events: Events;
  /** The models catalog: list, search, details with the request schema, activation of custom deployments. */
  readonly models: Models;
  /** Fine-tunes of a repository: create, run, wait, deploy (and tokenize). */
  readonly fineTunes: FineTunes;

  constructor(options: ClientOptions = {}) {
    super(options);
    this.chat = new Chat<R>(this);
    this.images = new Images<R>(this);
    this.videos = new Videos<R>(this);
    this.queue = new Queue<R>(this, options.validators);
    this.events = new Events(this);
    this.models = new Models(this);
    this.fineTunes = new FineTunes(this);
  }

  /**
   * The same client with every model id and parameter accepted, untyped: the escape hatch for a
   * model newer than the snapshot. Requests are sent as given; queue validation checks only the
   * queue's own fields for ids the validator source does not know.
   */
  get untyped(): Client<UntypedRegistry> {
    return this;
  }
}
