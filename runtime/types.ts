/**
 * Resource and request types of the fixed endpoints, written by hand from the API description
 * (v0.224.2) and, for the queue, the service's documentation of today (`async_queue.mdx`: both
 * shapes are accepted). They are kept equal to `components.schemas` of `specs/openapi.yaml` by
 * `test/types/openapi-compat.types.ts`, which compares them with openapi-typescript's output in
 * `generated/openapi.ts`. The runtime cannot import `generated/` (dependencies point one way),
 * hence this copy and that guard.
 *
 * Where the description says "not shown", the types are open (`[key: string]: unknown`) and
 * statuses are widened with `(string & {})` so that unknown values from the service still type-check.
 * One function lives here too: `isMediaGenerationCompleted`, the type guard of `AnyServerEvent`.
 */

/** How result media are returned: a temporary hosted `url` (default) or inline base64 `b64_json`. */
export type ResponseFormat = 'url' | 'b64_json';

/** One result item: `{ url }` for `response_format: 'url'` (the default), `{ b64_json }` for `'b64_json'`. */
export type MediaItem<F extends ResponseFormat = 'url'> = F extends 'b64_json' ? { b64_json: string } : { url: string };

/** Result of `images.generate` and `images.edit`. `created` is a Unix timestamp in seconds. */
export interface ImageResult<F extends ResponseFormat = 'url'> {
  model: string;
  created: number;
  images: MediaItem<F>[];
}

/** Result of `videos.generate`. `created` is a Unix timestamp in seconds; `b64_json` holds mp4 bytes. */
export interface VideoResult<F extends ResponseFormat = 'url'> {
  model: string;
  created: number;
  videos: MediaItem<F>[];
}

/**
 * The status of a generation. Today's service: `queued` (the enqueue answer), `processing`, then one
 * of the terminal `succeeded`, `failed`, `cancelled`, kept readable after the end. 0.224.2: only
 * `processing` (an ended generation is gone, 404). Open to values neither describes.
 */
export type GenerationStatus = 'queued' | 'processing' | 'succeeded' | 'failed' | 'cancelled' | (string & {});

/**
 * A generation as `queue.list` and `queue.get` return it. Today's service sends every field below
 * but `model`, `seed`, `aspect_ratio` and `duration` (the nullable ones as `null` when unset), plus
 * the other parameters of the enqueue request; 0.224.2 sends `model`, `prompt`, `media_type`,
 * `enqueued_at` and the submitted `seed`, `aspect_ratio`, `duration`, and no status (a listed or
 * readable generation is processing). Timestamps are Unix seconds.
 */
export interface Generation {
  /** UUID returned by enqueue. */
  generation_id: string;
  /** Today: always (`queued`, `processing`, `succeeded`, `failed`, `cancelled`). 0.224.2: absent (processing). */
  status?: GenerationStatus;
  /** Today's name of the model (0.224.2: `model`). */
  model_name?: string;
  /** 0.224.2's name of the model (today: `model_name`). */
  model?: string;
  prompt?: string;
  media_type?: 'image' | 'video' | (string & {});
  /** Today: the output URL once `succeeded` (temporary), else null. */
  result_url?: string | null;
  /** Today: the reason once `failed`, else null. */
  error_message?: string | null;
  /** Unix timestamp in seconds of enqueue. */
  enqueued_at?: number;
  /** Today: Unix timestamp in seconds when processing began, or null. */
  started_at?: number | null;
  /** Today: Unix timestamp in seconds when the generation reached a terminal status, or null. */
  completed_at?: number | null;
  seed?: number;
  aspect_ratio?: string;
  /** Video duration in seconds. */
  duration?: number;
  [key: string]: unknown;
}

/** One generation as the enqueue response lists it: `queued` today, `processing` in 0.224.2. */
export interface EnqueuedGeneration {
  generation_id: string;
  status: GenerationStatus;
}

/** Response of `POST /api/ai/queue`: one item per generation. */
export interface EnqueueResponse {
  generations: EnqueuedGeneration[];
}

/**
 * Response of `GET /api/ai/queue`: the generations the query selects (by default the active ones,
 * `queued` or `processing`; 0.224.2 lists only processing ones). `count` is the number listed.
 */
export interface QueueListResponse {
  count: number;
  generations: Generation[];
}

/** Response of `DELETE /api/ai/queue/{generation_id}`. */
export interface CancelResponse {
  status: 'success' | (string & {});
  generation_id: string;
}

/**
 * Query of `GET /api/ai/queue`. `namespace` defaults to the authenticated user. Today's service also
 * filters by `status` (without it, only active generations, `queued` or `processing`, are listed),
 * `media_type`, `repo` (the target repository's name) and `folder` (the target directory); 0.224.2
 * knows only `namespace` and `model`.
 */
export interface QueueListParams {
  /** The namespace (user or organization) whose generations are listed; default the authenticated user. */
  namespace?: string;
  /** Only the generations of this model. */
  model?: string;
  /** Today: only the generations of this status (without it, only active ones: `queued`, `processing`). */
  status?: GenerationStatus;
  /** Today: only `image` or only `video` generations. */
  media_type?: 'image' | 'video' | (string & {});
  /** Today: only the generations saved to this repository (its name). */
  repo?: string;
  /** Today: only the generations saved to this directory. */
  folder?: string;
}

/** Payload of the `media_generation_completed` event when the generation succeeded. */
export interface MediaGenerationSucceeded {
  generation_id: string;
  status: 'succeeded';
  media_type: 'image' | 'video' | (string & {});
  model: string;
  /** Presigned output URL; expires after a limited time. */
  url: string;
  [key: string]: unknown;
}

/** Payload of the `media_generation_completed` event when the generation failed. */
export interface MediaGenerationFailed {
  generation_id: string;
  status: 'failed';
  media_type: 'image' | 'video' | (string & {});
  /** Human-readable reason. */
  error: string;
  [key: string]: unknown;
}

/** Payload of `media_generation_completed`: emitted once per generation that succeeded or failed. */
export type MediaGenerationCompleted = MediaGenerationSucceeded | MediaGenerationFailed;

/** The `media_generation_completed` event of `GET /api/events`: one per generation that succeeded or failed. */
export interface MediaGenerationCompletedEvent {
  event: 'media_generation_completed';
  data: MediaGenerationCompleted;
  /** The SSE `id:` field, when the server sent one. */
  id?: string;
}

/**
 * An event of `GET /api/events` whose type the description documents. Only
 * `media_generation_completed` is documented, so `event.event === 'media_generation_completed'`
 * narrows `event.data` to `MediaGenerationCompleted`. `events.stream()` yields these.
 */
export type ServerEvent = MediaGenerationCompletedEvent;

/**
 * An event type the description does not document (e.g. deployment events: "payloads of the
 * other event types on the stream: not shown"): `data` parsed as JSON when it is JSON, else the raw
 * string. Yielded only with `events.stream({ allEvents: true })`.
 */
export interface OtherServerEvent {
  event: string;
  data: unknown;
  /** The SSE `id:` field, when the server sent one. */
  id?: string;
}

/**
 * Any event of `GET /api/events` (`events.stream({ allEvents: true })`). Narrow it with
 * `isMediaGenerationCompleted(event)`: a comparison of `event.event` cannot narrow a union whose
 * other member's `event` is any string.
 */
export type AnyServerEvent = ServerEvent | OtherServerEvent;

/** True when `event` is a well-formed `media_generation_completed` event (narrows `event.data`). */
export function isMediaGenerationCompleted(event: AnyServerEvent): event is MediaGenerationCompletedEvent {
  const data = event.data as { generation_id?: unknown } | null;
  return (
    event.event === 'media_generation_completed' &&
    typeof data === 'object' &&
    data !== null &&
    typeof data.generation_id === 'string'
  );
}

// ---------------------------------------------------------------------------------------------
// The models catalog and fine-tunes: in `models/types.ts` and `fine-tunes/types.ts` (re-exported here)

export type * from './models/types.ts';
export type * from './fine-tunes/types.ts';

// ---------------------------------------------------------------------------------------------
// Chat completions: in `chat/types.ts` (re-exported here, so that every fixed-endpoint type is importable from this
// module)

export type * from './chat/types.ts';

// ---------------------------------------------------------------------------------------------
// Parameters of models whose schema is null: "the endpoint's parameters as the description lists them"

/** `POST /api/ai/images/generate` parameters as the description lists them (besides `model`, `response_format`, `target_namespace`). */
export interface DescribedImageGenerateParams {
  /** Must be non-empty. */
  prompt: string;
  /** e.g. `1:1`, `16:9`, `9:16`, `4:3`, `3:4`. */
  aspect_ratio?: string;
  num_inference_steps?: number;
  seed?: number;
}

/** `POST /api/ai/images/edit` parameters as the description lists them. */
export interface DescribedImageEditParams {
  prompt: string;
  /** URL, or an array of URL strings for multi-reference models. Must be publicly downloadable. */
  input_image?: string | string[];
}

/** One shot of a multi-shot video prompt (`multi_prompt`): its text and its `duration` in whole seconds. */
export interface MultiPromptShot {
  prompt: string;
  /** Seconds (an integer). */
  duration: number;
}

/**
 * The two ways to say what a video shows, exactly one of which a `POST /api/ai/videos/generate`
 * (or a video generation on the queue) carries: a `prompt`, or a `multi_prompt` of shots. Giving
 * both, or neither, is a type error (and the service answers 422).
 */
export type VideoPrompt =
  { prompt: string; multi_prompt?: never } | { prompt?: never; multi_prompt: MultiPromptShot[] };

/** `POST /api/ai/videos/generate` parameters as the description lists them: exactly one of `prompt` / `multi_prompt` (`VideoPrompt`). */
export type DescribedVideoGenerateParams = VideoPrompt & DescribedVideoGenerateOptions;

/** `DescribedVideoGenerateParams` besides the prompt. */
export interface DescribedVideoGenerateOptions {
  /** Seconds, used with `prompt`; default 5. */
  duration?: number;
  /** Default `16:9`. */
  aspect_ratio?: string;
  input_image?: string | string[];
  input_video?: string;
  generate_audio?: boolean;
}
