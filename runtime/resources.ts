/**
 * The resources of the client, one class per endpoint group, over a `Transport` (`client.models` is
 * `models/resource.ts`, `client.fineTunes` `fine-tunes/resource.ts`). Each method's
 * `model` accepts exactly the ids of the registry that the endpoint serves. The methods call the
 * light functions of `endpoints.ts`; streaming (`chat/stream.ts`, `streaming/event-stream.ts`) and
 * `queue.run` (`queue/run.ts`) are loaded on first use with a dynamic `import()`, which a bundler splits into
 * its own chunk, so that a page making one image call does not load them.
 *
 * Every method that makes one request returns an `APIPromise` (`await` gives the result;
 * `withResponse()` / `asResponse()` give the HTTP `Response` too). `queue.run` and the event
 * stream make many requests and return plain promises.
 */
import { APIPromise } from './api-promise.ts';
import { createChatCompletion, editImages, generateImages, generateVideos } from './endpoints.ts';
import type { EnqueueOptions } from './queue/endpoints.ts';
import { followGenerations, type QueueFollow } from './queue/follow.ts';
import type { QueueFollowOptions, QueueRunOptions, QueueRunOutcome } from './queue/outcomes.ts';
import type { ChatBody, MediaBody, ParamsOf, QueueFields, Registry, RequestBody, VideoParams } from './registry.ts';
import type { RequestOptions } from './scope.ts';
import type { ChatCompletionStream } from './chat/stream.ts';
import type { EventStream, EventStreamOptions } from './streaming/event-stream.ts';
import { eventStreamStatus, type Transport } from './transport.ts';
import type { EventStreamStatus } from './transport-state.ts';
import type {
  AnyServerEvent,
  CancelResponse,
  ChatCompletion,
  EnqueueResponse,
  Generation,
  ImageResult,
  QueueListParams,
  QueueListResponse,
  ResponseFormat,
  ServerEvent,
  VideoResult,
} from './types.ts';
import type { CompiledValidator, ValidatorSource } from './validation.ts';

/** `chat.completions`: `create` in the widely used chat-completions format. */
export class ChatCompletions<R extends Registry> {
  constructor(private readonly t: Transport) {}

  /* endpoint-doc: chat.completions.stream */
  /**
   * Create a chat completion as a stream (`stream: true`): `POST /api/ai/chat/completions`. Resolves, once the response
   * headers arrived, to a `ChatCompletionStream`: an async iterable of `ChatCompletionChunk` that ends at the server's
   * `data: [DONE]`; `finalChatCompletion()` collects it into one `ChatCompletion` (text and tool calls concatenated).
   * `timeoutMs` (milliseconds; default 600_000, 10 minutes, `DEFAULT_TIMEOUTS_MS.chat`) covers the whole stream;
   * `signal` aborts it. Never resent unless the service surely did not process it (429, connection refused).
   * @returns the `ChatCompletionStream` (`withResponse()` gives it with the live `Response`, its body unread).
   * @throws BadRequestError (`You must specify a model to call`, `Messages array cannot be empty`), NotFoundError
   * (`Model not found: <name>`), InsufficientCreditsError, OutcomeUnknownError (5xx, reset or timeout while in flight:
   * never resent), TimeoutError, AbortError.
   */
  create<M extends R['chat']>(
    body: ChatBody<M> & { stream: true },
    options?: RequestOptions,
  ): APIPromise<ChatCompletionStream>;
  /* endpoint-doc: chat.completions.create */
  /**
   * Create a chat completion, not streaming (stream with `client.chat.completions.create({ stream: true })`):
   * `POST /api/ai/chat/completions`. `timeoutMs` (milliseconds) defaults to 600_000 (10 minutes,
   * `DEFAULT_TIMEOUTS_MS.chat`) unless the client or the call sets one. Never resent unless the service surely did not
   * process it (429, connection refused).
   * @returns the `ChatCompletion` (`choices[].message`, `usage`; `created` in Unix seconds).
   * @throws BadRequestError (`You must specify a model to call`, `Messages array cannot be empty`), NotFoundError
   * (`Model not found: <name>`), InsufficientCreditsError, OutcomeUnknownError (5xx, reset or timeout while in flight,
   * unusable answer: never resent), TimeoutError, AbortError.
   */
  create<M extends R['chat']>(
    body: ChatBody<M> & { stream?: false | null | undefined },
    options?: RequestOptions,
  ): APIPromise<ChatCompletion>;
  /** `POST /api/ai/chat/completions` with `stream` known only at run time. */
  create<M extends R['chat']>(
    body: ChatBody<M>,
    options?: RequestOptions,
  ): APIPromise<ChatCompletion | ChatCompletionStream>;
  create<M extends R['chat']>(
    body: ChatBody<M>,
    options?: RequestOptions,
  ): APIPromise<ChatCompletion | ChatCompletionStream> {
    const b = body as unknown as Record<string, unknown>;
    if (body.stream !== true) return createChatCompletion(this.t, b, options);
    const opened = import('./chat/stream.ts').then(({ openChatStream }) => openChatStream(this.t, b, options));
    // withResponse() gives the stream's live Response, its body unread.
    return APIPromise.fromResult(
      opened.then((stream) => ({ data: stream, response: stream.response, text: undefined })),
    );
  }
}

/** `chat.completions`. */
export class Chat<R extends Registry> {
  /** Chat completions (non-streaming and streaming). */
  readonly completions: ChatCompletions<R>;
  constructor(t: Transport) {
    this.completions = new ChatCompletions<R>(t);
  }
}

/** `images.generate` and `images.edit` (synchronous: typically 5 to 30 seconds). */
export class Images<R extends Registry> {
  constructor(private readonly t: Transport) {}

  /* endpoint-doc: images.generate */
  /**
   * Generate images, blocking until done (typically 5 to 30 seconds): `POST /api/ai/images/generate`. `timeoutMs`
   * (milliseconds) defaults to 300_000 (5 minutes, `DEFAULT_TIMEOUTS_MS.images`) unless the client or the call sets
   * one. Never resent unless the service surely did not process it (429, connection refused).
   * @returns `ImageResult` whose items are `{ url }`, or `{ b64_json }` with `response_format: 'b64_json'`.
   * @throws BadRequestError (`Prompt cannot be empty`), NotFoundError (`Model not found: <name>`),
   * InsufficientCreditsError, OutcomeUnknownError (5xx, reset or timeout while in flight, unusable answer: never
   * resent), TimeoutError, AbortError.
   */
  generate<M extends R['imageGenerate'], F extends ResponseFormat = 'url', B = R['mediaBodies']>(
    body: RequestBody<B, M, F>,
    options?: RequestOptions,
  ): APIPromise<ImageResult<F>> {
    return generateImages(this.t, body, options);
  }

  /* endpoint-doc: images.edit */
  /**
   * Edit images, blocking until done (typically 5 to 30 seconds): `POST /api/ai/images/edit`. The model's own
   * parameters as its schema states them: `input_image` (a URL or an array of URLs) is required exactly when the schema
   * requires it (edit-only models), optional for models that can also generate. `timeoutMs` (milliseconds) defaults to
   * 300_000 (5 minutes, `DEFAULT_TIMEOUTS_MS.images`) unless the client or the call sets one. Never resent unless the
   * service surely did not process it (429, connection refused).
   * @returns `ImageResult` typed by `response_format`: items `{ url }`, or `{ b64_json }` with
   * `response_format: 'b64_json'`.
   * @throws BadRequestError (an input URL the service could not fetch: 403 Forbidden), NotFoundError
   * (`Model not found: <name>`), InsufficientCreditsError, OutcomeUnknownError (5xx, reset or timeout while in flight,
   * unusable answer: never resent), TimeoutError, AbortError.
   */
  edit<M extends R['imageEdit'], F extends ResponseFormat = 'url', B = R['mediaBodies']>(
    body: RequestBody<B, M, F>,
    options?: RequestOptions,
  ): APIPromise<ImageResult<F>> {
    return editImages(this.t, body, options);
  }
}

/** `videos.generate` (synchronous: 1 to 15 minutes; prefer the queue for anything long). Default timeout 20 minutes. */
export class Videos<R extends Registry> {
  constructor(private readonly t: Transport) {}

  /* endpoint-doc: videos.generate */
  /**
   * Generate videos, blocking until the video is ready (1 to 15 minutes; prefer the queue for anything long):
   * `POST /api/ai/videos/generate`. Exactly one of `prompt` and `multi_prompt` (`[{ prompt, duration }]`, one item per
   * shot, `duration` in seconds) for a model that takes a prompt (`VideoParams`). `timeoutMs` (milliseconds) defaults
   * to 1_200_000 (20 minutes, `DEFAULT_TIMEOUTS_MS.videos`) unless the client or the call sets one. Never resent unless
   * the service surely did not process it (429, connection refused).
   * @returns `VideoResult` typed by `response_format`: items `{ url }`, or `{ b64_json }`.
   * @throws UnprocessableEntityError (`Getting model response error: 422 - Value error, ...` for both or neither of
   * `prompt` / `multi_prompt`), NotFoundError, InsufficientCreditsError, OutcomeUnknownError (5xx, reset or timeout
   * while in flight, unusable answer: never resent; the video may still be billed), TimeoutError, AbortError.
   */
  generate<M extends R['video'], F extends ResponseFormat = 'url', B = R['mediaBodies']>(
    body: RequestBody<B, M, F>,
    options?: RequestOptions,
  ): APIPromise<VideoResult<F>> {
    return generateVideos(this.t, body, options);
  }
}

/**
 * A queue request body for model `M`: its parameters (for a video model with `multi_prompt`, see
 * `VideoParams`) plus `num_generations` and `target_namespace`. The queue's methods take the same
 * type from the registry's per-model entries (`RequestBody<R['queueBodies'], M, F>`).
 */
export type QueueBody<R extends Registry, M extends R['queue'], F extends ResponseFormat = ResponseFormat> = MediaBody<
  QueueParamsOf<R, M>,
  M,
  F,
  QueueFields
>;

/** The model's own parameters on the queue: a video model's with `multi_prompt` (`VideoParams`). */
export type QueueParamsOf<R extends Registry, M> = M extends R['video'] ? VideoParams<ParamsOf<R, M>> : ParamsOf<R, M>;

/**
 * The queue's endpoint functions (`queue/endpoints.ts`), loaded with `import()` on the first `enqueue`, `list`, `get`
 * or `cancel`, so that a page whose first call is an image or a chat call does not load them.
 */
const loadQueue = () => import('./queue/endpoints.ts');

/** The asynchronous generation queue. */
export class Queue<R extends Registry> {
  private readonly validators = new Map<string, Promise<CompiledValidator | null | undefined>>();

  constructor(
    private readonly t: Transport,
    private readonly source: ValidatorSource | undefined,
  ) {}

  /**
   * The compiled validator of the body's model from the client's `validators` source (loaded once
   * per model; a failed load is asked again next time), or undefined when validation is off, the
   * body has no model, or there is no source.
   */
  private async validatorFor(
    body: Record<string, unknown>,
    options: EnqueueOptions,
  ): Promise<CompiledValidator | null | undefined> {
    const model = body['model'];
    if (options.validate === false || !this.source || typeof model !== 'string' || model === '') return undefined;
    let entry = this.validators.get(model);
    if (!entry) {
      entry = this.source(model);
      entry.catch(() => this.validators.delete(model));
      this.validators.set(model, entry);
    }
    return entry;
  }

  /* endpoint-doc: queue.enqueue */
  /**
   * Enqueue 1 to 4 generations (`num_generations`) of an image or video model: `POST /api/ai/queue`. A video model that
   * takes a prompt needs exactly one of `prompt` and `multi_prompt` (`VideoParams`). The body is validated first
   * against the model's compiled validator, unless `validate: false` (see `EnqueueOptions.validate`). `timeoutMs`
   * (milliseconds) defaults to the client's, else 600_000 (10 minutes). Never resent unless the service surely did not
   * process it (429, connection refused).
   * @returns `{ generations: [{ generation_id, status: 'processing' }] }` (at least one, each with a `generation_id`).
   * @throws ValidationError (nothing sent), NotFoundError (`Model not found: <name>`), BadRequestError,
   * InsufficientCreditsError, OutcomeUnknownError (5xx, reset or timeout while in flight, unusable answer: never
   * resent; check `queue.list()`), TimeoutError, AbortError.
   */
  enqueue<M extends R['queue'], B = R['queueBodies']>(
    body: RequestBody<B, M, ResponseFormat>,
    options: EnqueueOptions = {},
  ): APIPromise<EnqueueResponse> {
    const b = body as Record<string, unknown>;
    return APIPromise.after(Promise.all([this.validatorFor(b, options), loadQueue()]), ([validate, m]) =>
      m.enqueueGenerations(this.t, b, options, validate),
    );
  }

  /* endpoint-doc: queue.list */
  /**
   * List the generations of `namespace` (default the user), optionally of one `model`: `GET /api/ai/queue`. By default
   * the active ones (`queued`, `processing`; 0.224.2: the processing ones); today's service also filters by `status`
   * (then ended ones too), `media_type`, `repo` and `folder`. `timeoutMs` (milliseconds) defaults to the client's, else
   * 600_000 (10 minutes).
   * @returns `{ count, generations }`.
   * @throws AuthenticationError, PermissionDeniedError, TimeoutError, AbortError, ConnectionError.
   */
  list(params: QueueListParams = {}, options?: RequestOptions): APIPromise<QueueListResponse> {
    return APIPromise.after(loadQueue(), (m) => m.listGenerations(this.t, params, options));
  }

  /* endpoint-doc: queue.get */
  /**
   * Get one generation: `GET /api/ai/queue/{generation_id}`. Today's service keeps a generation after it ended: its
   * `status`, `result_url` (succeeded) and `error_message` (failed); 0.224.2 answers only while it is processing.
   * `timeoutMs` (milliseconds) defaults to the client's, else 600_000 (10 minutes).
   * @returns the `Generation`.
   * @throws NotFoundError when the generation is unknown (0.224.2: also once it ended: succeeded, failed, cancelled,
   * expired); SDKError, before sending, when `generationId` is empty, `.` or `..` (or decodes to one).
   */
  get(generationId: string, options?: RequestOptions): APIPromise<Generation> {
    return APIPromise.after(loadQueue(), (m) => m.getGeneration(this.t, generationId, options));
  }

  /* endpoint-doc: queue.cancel */
  /**
   * Cancel a queued or processing generation (no completion event follows): `DELETE /api/ai/queue/{generation_id}`. A
   * `queue.run` or `queue.follow` following it through the same client (or a transport sharing its `state`) resolves it
   * `cancelled`. `timeoutMs` (milliseconds) defaults to the client's, else 600_000 (10 minutes).
   * @returns `{ status: 'success', generation_id }`.
   * @throws NotFoundError when the generation is unknown (0.224.2: or ended; today a cancel of an ended one has no
   * effect); SDKError, before sending, when `generationId` is empty, `.` or `..` (or decodes to one).
   */
  cancel(generationId: string, options?: RequestOptions): APIPromise<CancelResponse> {
    return APIPromise.after(loadQueue(), (m) => m.cancelGeneration(this.t, generationId, options));
  }

  /* endpoint-doc: queue.run */
  /**
   * Enqueue generations of an image or video model and follow each to one outcome (`succeeded` with `url`, `failed`,
   * `cancelled` or `lost`) over the shared event stream (`GET /api/events`): `POST /api/ai/queue`. Validated first like
   * `queue.enqueue`. `onEnqueued(ids)` is awaited once the service accepted the request, before waiting: persist the
   * ids there, and `queue.follow` them after a restart. `onProgress` reports each step, `onEvent` each completion
   * event. `timeoutMs` (milliseconds) covers the whole run: default 3_600_000 (one hour). The enqueue is never resent
   * unless the service surely did not process it (429, connection refused).
   * @returns One `QueueRunOutcome` per generation, in the order of the enqueue response.
   * @throws ValidationError (nothing sent), the errors of `queue.enqueue`, the event stream's connection error, the
   * error of `onEnqueued`, QueueRunTimeoutError after `timeoutMs`, QueueRunAbortError on `signal`.
   */
  async run<M extends R['queue'], B = R['queueBodies']>(
    body: RequestBody<B, M, ResponseFormat>,
    options: QueueRunOptions = {},
  ): Promise<QueueRunOutcome[]> {
    const b = body as Record<string, unknown>;
    const validate = await this.validatorFor(b, options);
    const { runGenerations } = await import('./queue/run.ts');
    return runGenerations(this.t, b, options, validate);
  }

  /**
   * Follow generations enqueued earlier (e.g. before a restart, with the ids persisted in
   * `run`'s `onEnqueued`) to one outcome each, as `run` does: `succeeded` (with `url`), `failed`,
   * `cancelled`, or `lost`. Today's service keeps ended generations, so one that ended while nobody
   * followed it settles at once with its URL; against a service that drops them (0.224.2) it is
   * `lost`, `missed_event`. Checks the ids with one `queue.list` and a `queue.get` of each id the
   * list does not show, over the client's shared event stream. See `followGenerations`.
   * @returns a `QueueFollow`: `await` it for every outcome (one per id given, in the order given),
   * or `for await` it for each outcome as it settles (leaving the loop early stops following).
   * @throws (from the promise or the iteration) SDKError for bad ids (nothing sent), the stream's
   * connection error, `QueueRunTimeoutError` after `timeoutMs` (default one hour),
   * `QueueRunAbortError` on `signal`.
   */
  follow(generationIds: readonly string[], options: QueueFollowOptions = {}): QueueFollow {
    return followGenerations(this.t, generationIds, options);
  }

  /** The status of this client's shared event stream (`state`, `epoch`, `subscribers`; `idle` when no run follows generations). */
  get eventStream(): EventStreamStatus {
    return eventStreamStatus(this.t);
  }
}

/**
 * The server-sent event stream of `GET /api/events`. Events go only to connected subscribers
 * (no buffering): connect before enqueueing. `queue.run` uses it for you.
 */
export class Events {
  constructor(private readonly t: Transport) {}

  /**
   * Connect to `GET /api/events` and resolve once the response headers arrived: from then on,
   * every event the service emits for the user is delivered. Iterate the returned `EventStream`
   * once; `close()` or the `signal` ends it. `timeoutMs` (default the client's) covers only the
   * connection, not the (endless) stream; connecting is retried like a GET. The stream ends with
   * `ConnectionError` when silent (not even a keep-alive) beyond `eventStreamIdleTimeoutMs`.
   * With `allEvents: true` it yields every event type (`AnyServerEvent`).
   * @throws AuthenticationError, ConnectionError, TimeoutError, AbortError.
   */
  connect(options?: EventStreamOptions & { allEvents?: false | undefined }): Promise<EventStream<ServerEvent>>;
  connect(options: EventStreamOptions & { allEvents: true }): Promise<EventStream<AnyServerEvent>>;
  async connect(options: EventStreamOptions = {}): Promise<EventStream<AnyServerEvent>> {
    const { openEventStream } = await import('./streaming/event-stream.ts');
    return openEventStream<AnyServerEvent>(this.t, options);
  }

  /**
   * The events of `GET /api/events` as an async iterable (connecting on the first iteration):
   * `media_generation_completed` events, typed (`{ generation_id, status: 'succeeded', url,
   * media_type, model }` or `{ ..., status: 'failed', error }`), so that
   * `if (event.event === 'media_generation_completed')` narrows `event.data`. With
   * `allEvents: true`, every other event type too, `data` parsed as JSON (or the raw string);
   * narrow those with `isMediaGenerationCompleted`. Keep-alive comments are skipped. The iteration
   * ends when the server closes the stream, the consumer breaks, or `signal` aborts (`AbortError`);
   * silence beyond `eventStreamIdleTimeoutMs` ends it with `ConnectionError`. It does not
   * reconnect (`queue.run` does).
   * @throws (from iteration) AuthenticationError, ConnectionError (connect failure, drop, or
   * silence), TimeoutError (connecting), AbortError.
   */
  stream(
    options?: EventStreamOptions & { allEvents?: false | undefined },
  ): AsyncGenerator<ServerEvent, void, undefined>;
  stream(options: EventStreamOptions & { allEvents: true }): AsyncGenerator<AnyServerEvent, void, undefined>;
  async *stream(options: EventStreamOptions = {}): AsyncGenerator<AnyServerEvent, void, undefined> {
    const { openEventStream } = await import('./streaming/event-stream.ts');
    const stream = await openEventStream<AnyServerEvent>(this.t, options);
    try {
      yield* stream;
    } finally {
      stream.close();
    }
  }
}
