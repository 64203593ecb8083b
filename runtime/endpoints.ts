/**
 * The endpoints as light functions over a `Transport`: one request each, its method and path from
 * the operations table (`operations.ts`, generated from `specs/openapi.yaml`), the response shape
 * checked. Those of the models catalog are in `models/endpoints.ts`, of fine-tunes in
 * `fine-tunes/endpoints.ts`, of the queue in `queue/endpoints.ts` (re-exported here). The resources of `Client` and the generated per-model functions both call these, so a
 * bundle of one call carries only that call (plus HTTP, retries and errors). The synchronous
 * generating endpoints default to their own timeout (`DEFAULT_TIMEOUTS_MS`). Streaming (chat with
 * `stream: true`) is in `chat/stream.ts`, `/api/events` in `streaming/event-stream.ts`; `queue.run` in `queue/run.ts`.
 *
 * A success answer that is empty, `null`, not JSON or not the documented shape is an
 * `InvalidResponseError`; for a generating POST it arrives as an `OutcomeUnknownError` with reason
 * `invalid_response` (the request was probably processed, so it is not resent).
 *
 * Each returns an `APIPromise`: `await` gives the result; `withResponse()` gives it with the HTTP
 * `Response` and the request id; `asResponse()` the `Response` alone. The request is sent once,
 * when the function is called.
 */
import { APIPromise } from './api-promise.ts';
import { SDKError } from './errors.ts';
import { objectWithArray } from './internal/checks.ts';
import * as ops from './operations.ts';
import { endpointTimeout, type RequestOptions } from './scope.ts';
import type { Transport } from './transport.ts';
import type { ChatCompletion, ImageResult, ResponseFormat, VideoResult } from './types.ts';

// The queue's (`queue/endpoints.ts`: a root client's page loads them on its first queue call).
export {
  cancelGeneration,
  checkQueueBody,
  enqueueGenerations,
  enqueueRequest,
  getGeneration,
  listGenerations,
  type EnqueueOptions,
} from './queue/endpoints.ts';

// Pure: a bundle keeps only the checks its calls use.
const imageResult = /* @__PURE__ */ objectWithArray('images', 'an image result');
const videoResult = /* @__PURE__ */ objectWithArray('videos', 'a video result');
const chatCompletion = /* @__PURE__ */ objectWithArray('choices', 'a chat completion');

/* endpoint-doc: images.generate */
/**
 * Generate images, blocking until done (typically 5 to 30 seconds): `POST /api/ai/images/generate`. `timeoutMs`
 * (milliseconds) defaults to 300_000 (5 minutes, `DEFAULT_TIMEOUTS_MS.images`) unless the client or the call sets one.
 * Never resent unless the service surely did not process it (429, connection refused).
 * @returns `ImageResult` whose items are `{ url }`, or `{ b64_json }` with `response_format: 'b64_json'`.
 * @throws BadRequestError (`Prompt cannot be empty`), NotFoundError (`Model not found: <name>`),
 * InsufficientCreditsError, OutcomeUnknownError (5xx, reset or timeout while in flight, unusable answer: never resent),
 * TimeoutError, AbortError.
 */
export function generateImages(
  t: Transport,
  body: Record<string, unknown>,
  options?: RequestOptions,
): APIPromise<ImageResult<ResponseFormat>> {
  return APIPromise.from(
    t.request({ ...ops.imagesGenerate, body, expect: imageResult }, endpointTimeout(t, 'images', options)),
  );
}

/* endpoint-doc: images.edit */
/**
 * Edit images, blocking until done (typically 5 to 30 seconds): `POST /api/ai/images/edit`. The model's own parameters
 * as its schema states them: `input_image` (a URL or an array of URLs) is required exactly when the schema requires it
 * (edit-only models), optional for models that can also generate. `timeoutMs` (milliseconds) defaults to 300_000 (5
 * minutes, `DEFAULT_TIMEOUTS_MS.images`) unless the client or the call sets one. Never resent unless the service surely
 * did not process it (429, connection refused).
 * @returns `ImageResult` typed by `response_format`: items `{ url }`, or `{ b64_json }` with
 * `response_format: 'b64_json'`.
 * @throws BadRequestError (an input URL the service could not fetch: 403 Forbidden), NotFoundError
 * (`Model not found: <name>`), InsufficientCreditsError, OutcomeUnknownError (5xx, reset or timeout while in flight,
 * unusable answer: never resent), TimeoutError, AbortError.
 */
export function editImages(
  t: Transport,
  body: Record<string, unknown>,
  options?: RequestOptions,
): APIPromise<ImageResult<ResponseFormat>> {
  return APIPromise.from(
    t.request({ ...ops.imagesEdit, body, expect: imageResult }, endpointTimeout(t, 'images', options)),
  );
}

/* endpoint-doc: videos.generate */
/**
 * Generate videos, blocking until the video is ready (1 to 15 minutes; prefer the queue for anything long):
 * `POST /api/ai/videos/generate`. Exactly one of `prompt` and `multi_prompt` (`[{ prompt, duration }]`, one item per
 * shot, `duration` in seconds) for a model that takes a prompt (`VideoParams`). `timeoutMs` (milliseconds) defaults to
 * 1_200_000 (20 minutes, `DEFAULT_TIMEOUTS_MS.videos`) unless the client or the call sets one. Never resent unless the
 * service surely did not process it (429, connection refused).
 * @returns `VideoResult` typed by `response_format`: items `{ url }`, or `{ b64_json }`.
 * @throws UnprocessableEntityError (`Getting model response error: 422 - Value error, ...` for both or neither of
 * `prompt` / `multi_prompt`), NotFoundError, InsufficientCreditsError, OutcomeUnknownError (5xx, reset or timeout while
 * in flight, unusable answer: never resent; the video may still be billed), TimeoutError, AbortError.
 */
export function generateVideos(
  t: Transport,
  body: Record<string, unknown>,
  options?: RequestOptions,
): APIPromise<VideoResult<ResponseFormat>> {
  return APIPromise.from(
    t.request({ ...ops.videosGenerate, body, expect: videoResult }, endpointTimeout(t, 'videos', options)),
  );
}

/* endpoint-doc: chat.completions.create */
/**
 * Create a chat completion, not streaming (stream with `client.chat.completions.create({ stream: true })`):
 * `POST /api/ai/chat/completions`. To stream, use `openChatStream`. `timeoutMs` (milliseconds) defaults to 600_000 (10
 * minutes, `DEFAULT_TIMEOUTS_MS.chat`) unless the client or the call sets one. Never resent unless the service surely
 * did not process it (429, connection refused).
 * @returns the `ChatCompletion` (`choices[].message`, `usage`; `created` in Unix seconds).
 * @throws BadRequestError (`You must specify a model to call`, `Messages array cannot be empty`), NotFoundError
 * (`Model not found: <name>`), InsufficientCreditsError, OutcomeUnknownError (5xx, reset or timeout while in flight,
 * unusable answer: never resent), TimeoutError, AbortError. SDKError when `body.stream` is true (nothing sent).
 */
export function createChatCompletion(
  t: Transport,
  body: Record<string, unknown>,
  options?: RequestOptions,
): APIPromise<ChatCompletion> {
  if (body['stream'] === true)
    return APIPromise.rejected(
      new SDKError(
        'createChatCompletion does not stream: use client.chat.completions.create({ ..., stream: true }) or openChatStream',
      ),
    );
  return APIPromise.from(
    t.request({ ...ops.chatCompletionsCreate, body, expect: chatCompletion }, endpointTimeout(t, 'chat', options)),
  );
}
