/**
 * The resources of the client, one class per endpoint group. Each method's `model` accepts
 * exactly the ids of the registry that the endpoint serves.
 */
import type { Client } from './client.ts';
import { encodePath, type RequestOptions } from './http.ts';
import type { ChatBody, MediaBody, ParamsOf, QueueFields, Registry, WithInputImage } from './registry.ts';
import type {
  CancelResponse,
  ChatCompletion,
  EnqueueResponse,
  FineTune,
  Generation,
  ImageResult,
  Model,
  QueueListParams,
  QueueListResponse,
  RepoRef,
  ResponseFormat,
  VideoResult,
} from './types.ts';

/** Base of the resources: holds the client. */
abstract class Resource {
  constructor(protected readonly client: Client<any>) {}
}

/** `chat.completions`. */
export class Chat<R extends Registry> extends Resource {
  readonly completions = {
    /**
     * `POST /api/ai/chat/completions`.
     * @returns the `ChatCompletion`.
     * @throws BadRequestError (`You must specify a model to call`, `Messages array cannot be empty`),
     * NotFoundError (`Model not found: <name>`), InsufficientCreditsError.
     */
    create: <M extends R['chat']>(body: ChatBody<M>, options?: RequestOptions): Promise<ChatCompletion> =>
      this.client.request<ChatCompletion>({ method: 'POST', path: '/api/ai/chat/completions', body }, options),
  };
}

/** `images.generate` and `images.edit` (synchronous: typically 5 to 30 seconds). */
export class Images<R extends Registry> extends Resource {
  /**
   * `POST /api/ai/images/generate`.
   * @returns `ImageResult` whose items are `{ url }`, or `{ b64_json }` with `response_format: 'b64_json'`.
   * @throws BadRequestError (`Prompt cannot be empty`), NotFoundError (`Model not found: <name>`), InsufficientCreditsError.
   */
  generate<M extends R['imageGenerate'], F extends ResponseFormat = 'url'>(body: MediaBody<ParamsOf<R, M>, M, F>, options?: RequestOptions): Promise<ImageResult<F>> {
    return this.client.request({ method: 'POST', path: '/api/ai/images/generate', body }, options);
  }

  /**
   * `POST /api/ai/images/edit`: `input_image` is required (a URL or an array of URLs, as the model's schema says).
   * @returns `ImageResult` typed by `response_format`.
   * @throws BadRequestError (an input URL the service could not fetch: 403 Forbidden), NotFoundError, InsufficientCreditsError.
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
   * @throws UnprocessableEntityError (`Getting model response error: 422 - Value error, ...` for both or neither of prompt / multi_prompt), NotFoundError, InsufficientCreditsError.
   */
  generate<M extends R['video'], F extends ResponseFormat = 'url'>(body: MediaBody<ParamsOf<R, M>, M, F>, options?: RequestOptions): Promise<VideoResult<F>> {
    return this.client.request({ method: 'POST', path: '/api/ai/videos/generate', body }, options);
  }
}

/** A queue request body for model `M`: its parameters plus `num_generations` and `target_namespace`. */
export type QueueBody<R extends Registry, M extends R['queue'], F extends ResponseFormat = ResponseFormat> = MediaBody<ParamsOf<R, M>, M, F, QueueFields>;

/** The asynchronous generation queue. */
export class Queue<R extends Registry> extends Resource {
  /**
   * `POST /api/ai/queue`: enqueue 1 to 4 generations of an image or video model.
   * @returns `{ generations: [{ generation_id, status: 'processing' }] }`.
   * @throws NotFoundError, BadRequestError, InsufficientCreditsError.
   */
  enqueue<M extends R['queue']>(body: QueueBody<R, M>, options?: RequestOptions): Promise<EnqueueResponse> {
    return this.client.request({ method: 'POST', path: '/api/ai/queue', body }, options);
  }

  /**
   * `GET /api/ai/queue`: in-progress generations of `namespace` (default the user), optionally of one `model`.
   * @returns `{ count, generations }`.
   */
  list(params: QueueListParams = {}, options?: RequestOptions): Promise<QueueListResponse> {
    return this.client.request({ method: 'GET', path: '/api/ai/queue', query: { ...params } }, options);
  }

  /**
   * `GET /api/ai/queue/{generation_id}`.
   * @throws NotFoundError when the generation is terminal (succeeded, failed, cancelled, expired) or unknown.
   */
  get(generationId: string, options?: RequestOptions): Promise<Generation> {
    return this.client.request({ method: 'GET', path: `/api/ai/queue/${encodePath(generationId)}` }, options);
  }

  /**
   * `DELETE /api/ai/queue/{generation_id}`: cancel a processing generation (no completion event follows).
   * @returns `{ status: 'success', generation_id }`.
   * @throws NotFoundError when the generation is terminal or unknown.
   */
  cancel(generationId: string, options?: RequestOptions): Promise<CancelResponse> {
    return this.client.request({ method: 'DELETE', path: `/api/ai/queue/${encodePath(generationId)}` }, options);
  }
}

/** The event stream. */
export class Events extends Resource {}

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
   * `POST /api/repos/{namespace}/{repo_name}/fine_tunes/{id}/tokenize`: only for a fine-tune in the `created` state.
   * @returns the wrapped fine-tune object (its shape is not shown by the description).
   * @throws NotFoundError when the fine-tune does not exist.
   */
  tokenize(ref: RepoRef & { id: string }, options?: RequestOptions): Promise<FineTune> {
    return this.client.request(
      { method: 'POST', path: `/api/repos/${encodePath(ref.namespace)}/${encodePath(ref.repo_name)}/fine_tunes/${encodePath(ref.id)}/tokenize` },
      options,
    );
  }
}
