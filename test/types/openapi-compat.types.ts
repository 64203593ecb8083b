/**
 * Keeps the runtime's hand-written resource types (runtime/types.ts) in step with
 * specs/openapi.yaml, through openapi-typescript's output (generated/openapi.ts). Compiled by
 * tsc in test/generator/typecheck.test.ts; never run.
 * - Responses: everything the spec allows must be accepted by the runtime type (spec -> runtime).
 * - Requests: everything the runtime lets a user send must be allowed by the spec (runtime -> spec).
 */
import type { components } from '../../generated/openapi.ts';
import type * as rt from '../../runtime/index.ts';

type S = components['schemas'];
/** `T` as a type literal: interfaces have no implicit index signature, the spec's open objects do. */
type Plain<T> = { [K in keyof T]: T[K] };

// Each line below is a function `(x: A): B => x`, which compiles only when A is assignable to B.

// responses: spec -> runtime
export const generationCompatible = (x: S['Generation']): rt.Generation => x;
export const enqueueResponseCompatible = (x: S['EnqueueResponse']): rt.EnqueueResponse => x;
export const queueListResponseCompatible = (x: S['QueueListResponse']): rt.QueueListResponse => x;
export const cancelResponseCompatible = (x: S['CancelResponse']): rt.CancelResponse => x;
export const imageResultCompatible = (
  x: S['ImageResult']['images'][number],
): rt.MediaItem<'url'> | rt.MediaItem<'b64_json'> => x;
export const videoResultCompatible = (
  x: S['VideoResult']['videos'][number],
): rt.MediaItem<'url'> | rt.MediaItem<'b64_json'> => x;
export const chatCompletionCompatible = (x: S['ChatCompletion']): rt.ChatCompletion => x;
export const chatCompletionChunkCompatible = (x: S['ChatCompletionChunk']): rt.ChatCompletionChunk => x;
export const toolCallCompatible = (x: S['ToolCall']): rt.ToolCall => x;
export const chatCompletionMessageCompatible = (x: S['ChatCompletionMessage']): rt.ChatCompletionMessage => x;
export const chatCompletionChunkToolCallCompatible = (
  x: S['ChatCompletionChunkToolCall'],
): rt.ChatCompletionChunkToolCall => x;
// the round trip, in the spec as in the runtime: a completion's message is an assistant message of the request
export const specRoundTripCompatible = (x: S['ChatCompletionMessage']): S['ChatAssistantMessage'] => x;
export const runtimeRoundTripCompatible = (x: rt.ChatCompletionMessage): rt.ChatMessage => x;
export const usageCompatible = (x: S['Usage']): rt.Usage => x;
export const mediaGenerationCompletedEventCompatible = (
  x: S['MediaGenerationCompletedEvent'],
): rt.MediaGenerationCompleted => x;

// requests: runtime -> spec
export const chatCompletionRequestCompatible = (x: rt.ChatBody<string>): S['ChatCompletionRequest'] => x;
export const chatStreamingRequestCompatible = (
  x: { model: string } & rt.ChatCompletionParamsStreaming,
): S['ChatCompletionRequest'] => x;
export const imageGenerateRequestCompatible = (
  x: Plain<
    { model: string } & rt.DescribedImageGenerateParams & rt.SdkFields & { response_format?: rt.ResponseFormat }
  >,
): S['ImageGenerateRequest'] => x;
export const imageEditRequestCompatible = (
  x: Plain<{ model: string } & rt.DescribedImageEditParams & rt.SdkFields>,
): S['ImageEditRequest'] => x;
export const videoGenerateRequestCompatible = (
  x: Plain<{ model: string } & rt.DescribedVideoGenerateParams & rt.SdkFields>,
): S['VideoGenerateRequest'] => x;
export const enqueueRequestCompatible = (x: Plain<{ model: string } & rt.QueueFields>): S['EnqueueRequest'] => x;

// chat content parts (with the docs' audio_url and file parts): the same parts both ways, so a part or field
// added to the spec and not typed by the runtime fails here
export const chatContentPartCompatible = (x: rt.ChatContentPart): S['ChatContentPart'] => x;
export const chatContentPartFromSpecCompatible = (x: S['ChatContentPart']): rt.ChatContentPart => x;
export const chatFileFromSpecCompatible = (x: S['ChatContentPartFile']['file']): rt.ChatContentPartFile['file'] => x;

// fine-tunes: the runtime's body (typed by script_type) and the spec's oneOf accept the same bodies
export const fineTuneCreateRequestCompatible = (x: rt.FineTuneCreateParams): S['FineTuneCreateRequest'] => x;
export const fineTuneCreateParamsCompatible = (x: S['FineTuneCreateRequest']): rt.FineTuneCreateParams => x;
