/**
 * The resources of the client, one class per endpoint group. Each method's `model` accepts
 * exactly the ids of the registry that the endpoint serves.
 */
import type { Client } from './client.ts';
import { APIError } from './errors.ts';
import { encodePath, type RequestOptions } from './http.ts';
import type { FineTuneCreateParams } from './fine-tunes.ts';
import type { ChatBody, MediaBody, ParamsOf, Registry, WithInputImage } from './registry.ts';
import { ChatCompletionStream, EventStream } from './sse.ts';
import type { ChatCompletion, FineTune, ImageResult, Model, RepoRef, ResponseFormat, ServerEvent, VideoResult } from './types.ts';

export { Queue, type QueueBody } from './queue.ts';

/** Base of the resources: holds the client. */
abstract class Resource {
  constructor(protected readonly client: Client<any>) {}
}

/** `chat.completions`: `create` in the widely used chat-completions format. */
export class ChatCompletions<R extends Registry> extends Resource {
  /**
   * `POST /api/ai/chat/completions` with `stream: true`: resolves (once the response headers
   * arrived) to a `ChatCompletionStream`, an async iterable of `ChatCompletionChunk` that ends at
   * the server's `data: [DONE]`. `timeoutMs` covers the whole stream; `signal` aborts it.
   * Never resent unless the service surely did not process it (429, connection refused).
   * @throws BadRequestError (`You must specify a model to call`, `Messages array cannot be empty`),
   * NotFoundError (`Model not found: <name>`), InsufficientCreditsError, OutcomeUnknownError (5xx,
   * reset or timeout while in flight), TimeoutError, AbortError.
   */
  create<M extends R['chat']>(body: ChatBody<M> & { stream: true }, options?: RequestOptions): Promise<ChatCompletionStream>;
  /**
   * `POST /api/ai/chat/completions`.
   * @returns the `ChatCompletion` (`choices[].message`, `usage`; `created` in Unix seconds).
   * @throws BadRequestError (`You must specify a model to call`, `Messages array cannot be empty`),
   * NotFoundError (`Model not found: <name>`), InsufficientCreditsError, OutcomeUnknownError (5xx,
   * reset or timeout while in flight), TimeoutError, AbortError.
   */
  create<M extends R['chat']>(body: ChatBody<M> & { stream?: false | undefined }, options?: RequestOptions): Promise<ChatCompletion>;
  /** `POST /api/ai/chat/completions` with `stream` known only at run time. */
  create<M extends R['chat']>(body: ChatBody<M>, options?: RequestOptions): Promise<ChatCompletion | ChatCompletionStream>;
  async create<M extends R['chat']>(body: ChatBody<M>, options?: RequestOptions): Promise<ChatCompletion | ChatCompletionStream> {
    const req = { method: 'POST', path: '/api/ai/chat/completions', body } as const;
    if (body.stream !== true) return this.client.request<ChatCompletion>(req, options);
    const { response, scope } = await this.client.openStream(req, options);
    const type = response.headers.get('content-type') ?? '';
    if (!type.includes('text/event-stream')) {
      const text = await response.text().catch(() => '');
      scope.dispose();
      throw new APIError(`Expected a text/event-stream answer to a streaming chat completion, got ${type || 'no content type'}`, {
        status: response.status,
        body: text,
        headers: response.headers,
        request: { method: req.method, path: req.path },
      });
    }
    return new ChatCompletionStream(response, scope);
  }
}

/** `chat.completions`. */
export class Chat<R extends Registry> extends Resource {
  /** Chat completions (non-streaming and streaming). */
  readonly completions: ChatCompletions<R> = new ChatCompletions<R>(this.client);
}

/** `images.generate` and `images.edit` (synchronous: typically 5 to 30 seconds). */
export class Images<R extends Registry> extends Resource {
  /**
   * `POST /api/ai/images/generate`.
   * @returns `ImageResult` whose items are `{ url }`, or `{ b64_json }` with `response_format: 'b64_json'`.
   * Never resent unless the service surely did not process it (429, connection refused).
   * @throws BadRequestError (`Prompt cannot be empty`), NotFoundError (`Model not found: <name>`), InsufficientCreditsError,
   * OutcomeUnknownError (5xx, reset or timeout while in flight), TimeoutError, AbortError.
   */
  generate<M extends R['imageGenerate'], F extends ResponseFormat = 'url'>(body: MediaBody<ParamsOf<R, M>, M, F>, options?: RequestOptions): Promise<ImageResult<F>> {
    return this.client.request({ method: 'POST', path: '/api/ai/images/generate', body }, options);
  }

  /**
   * `POST /api/ai/images/edit`: `input_image` is required (a URL or an array of URLs, as the model's schema says).
   * @returns `ImageResult` typed by `response_format`.
   * @throws BadRequestError (an input URL the service could not fetch: 403 Forbidden), NotFoundError, InsufficientCreditsError,
   * OutcomeUnknownError, TimeoutError, AbortError.
   */
  edit<M extends R['imageEdit'], F extends ResponseFormat = 'url'>(body: MediaBody<WithInputImage<ParamsOf<R, M>>, M, F>, options?: RequestOptions): Promise<ImageResult<F>> {
    return this.client.request({ method: 'POST', path: '/api/ai/images/edit', body }, options);
  }
}

/** `videos.generate` (synchronous: 1 to 15 minutes; prefer the queue for anything long). */
export class Videos<R extends Registry> extends Resource {
  /**
   * `POST /api/ai/videos/generate`.
   * @returns `VideoResult` typed by `response_format`.
   * @throws UnprocessableEntityError (`Getting model response error: 422 - Value error, ...` for both or neither of prompt / multi_prompt), NotFoundError, InsufficientCreditsError,
   * OutcomeUnknownError (5xx, reset or timeout while in flight: the video may still be billed), TimeoutError, AbortError.
   */
  generate<M extends R['video'], F extends ResponseFormat = 'url'>(body: MediaBody<ParamsOf<R, M>, M, F>, options?: RequestOptions): Promise<VideoResult<F>> {
    return this.client.request({ method: 'POST', path: '/api/ai/videos/generate', body }, options);
  }
}


/**
 * The server-sent event stream of `GET /api/events`. Events go only to connected subscribers
 * (no buffering): connect before enqueueing. `queue.run` uses it for you.
 */
export class Events extends Resource {
  /**
   * Connect to `GET /api/events` and resolve once the response headers arrived: from then on,
   * every event the service emits for the user is delivered. Iterate the returned `EventStream`
   * once; `close()` or the `signal` ends it. `timeoutMs` (default the client's) covers only the
   * connection, not the (endless) stream; connecting is retried like a GET.
   * @throws AuthenticationError, ConnectionError, TimeoutError, AbortError.
   */
  async connect(options: RequestOptions = {}): Promise<EventStream> {
    return this.open(options);
  }

  /** `connect`, with a callback for each chunk of bytes received (keep-alive comments included). */
  async open(options: RequestOptions = {}, onActivity?: () => void): Promise<EventStream> {
    const { response, scope } = await this.client.openStream({ method: 'GET', path: '/api/events' }, options, true);
    return new EventStream(response, scope, onActivity);
  }

  /**
   * The events of `GET /api/events` as an async iterable (connecting on the first iteration):
   * `media_generation_completed` typed (`{ generation_id, status: 'succeeded', url, media_type,
   * model }` or `{ ..., status: 'failed', error }`), every other event type passed through with
   * its `data` parsed as JSON (or the raw string). Keep-alive comments are skipped. The iteration
   * ends when the server closes the stream, the consumer breaks, or `signal` aborts (`AbortError`).
   * It does not reconnect (use `queue.run`, which does).
   * @throws (from iteration) AuthenticationError, ConnectionError (connect failure or drop), TimeoutError (connecting), AbortError.
   */
  async *stream(options: RequestOptions = {}): AsyncGenerator<ServerEvent, void, undefined> {
    const stream = await this.open(options);
    try {
      yield* stream;
    } finally {
      stream.close();
    }
  }
}

/** Model details. */
export class Models extends Resource {
  /**
   * `GET /api/ai/models/{id}`.
   * @returns the model object with its schema normalised to `request_schema` (from `request_schema` or `json_request_schema`).
   * @throws NotFoundError (`Model not found: <id>`).
   */
  async retrieve(id: string, options?: RequestOptions): Promise<Model> {
    const raw = await this.client.request<Record<string, unknown>>({ method: 'GET', path: `/api/ai/models/${encodePath(id)}` }, options);
    return normaliseModel(raw);
  }
}

/** Normalise a model object: the schema under `request_schema` (the service uses either name). */
export function normaliseModel(raw: Record<string, unknown>): Model {
  const { json_request_schema, request_schema, ...rest } = raw;
  const schema = (request_schema ?? json_request_schema ?? null) as Model['request_schema'];
  return { ...rest, id: String(rest['id'] ?? ''), request_schema: schema } as Model;
}

/** Fine-tunes of a repository. */
export class FineTunes extends Resource {
  /**
   * `POST /api/repos/{namespace}/{repo_name}/fine_tunes`: create a fine-tune from a dataset file of
   * the repository. `body` is typed by `script_type` (see `FineTuneCreateParams`): e.g.
   * `{ resource: 'main/train.jsonl', base_model, script_type: 'text_generation', training_params: { question_column, answer_column } }`.
   * Never resent unless the service surely did not process it (429, connection refused).
   * @returns the fine-tune object (its shape is not shown by the description).
   * @throws NotFoundError (repository unknown), BadRequestError, AuthenticationError,
   * PermissionDeniedError, InsufficientCreditsError, OutcomeUnknownError, TimeoutError, AbortError.
   */
  create(ref: RepoRef, body: FineTuneCreateParams, options?: RequestOptions): Promise<FineTune> {
    return this.client.request({ method: 'POST', path: `/api/repos/${encodePath(ref.namespace)}/${encodePath(ref.repo_name)}/fine_tunes`, body }, options);
  }

  /**
   * `POST /api/repos/{namespace}/{repo_name}/fine_tunes/{id}/tokenize`: only for a fine-tune in the `created` state.
   * @returns the wrapped fine-tune object (its shape is not shown by the description).
   * @throws NotFoundError when the fine-tune does not exist.
   */
  tokenize(ref: RepoRef & { id: string }, options?: RequestOptions): Promise<FineTune> {
    // Generating POST: never resent unless the service surely did not process it.
    return this.client.request(
      { method: 'POST', path: `/api/repos/${encodePath(ref.namespace)}/${encodePath(ref.repo_name)}/fine_tunes/${encodePath(ref.id)}/tokenize` },
      options,
    );
  }
}
