/**
 * Keeps the runtime's hand-written types (runtime/types.ts, models/types.ts, fine-tunes/*.ts,
 * chat/types.ts) in step with specs/openapi.yaml, through openapi-typescript's output
 * (generated/openapi.ts). Compiled by tsc in test/generator/typecheck.test.ts; never run.
 * - Responses: everything the spec allows must be accepted by the runtime type (spec -> runtime).
 * - Requests: everything the runtime lets a user send must be allowed by the spec (runtime -> spec).
 * - Fields: every property (and query parameter) the spec gives a schema the SDK types is a named
 *   field of the runtime type (`Typed`): a field added to the spec and not to the SDK fails here,
 *   even where the runtime type's index signature would accept it untyped.
 */
import type { components, paths } from '../../generated/openapi.ts';
import type * as rt from '../../runtime/index.ts';

type S = components['schemas'];
/** `T` as a type literal: interfaces have no implicit index signature, the spec's open objects do. */
type Plain<T> = { [K in keyof T]: T[K] };

/** The property names of `T`, index signatures left out. */
type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: unknown };
/**
 * `true` when every named property of the spec's `Spec` (but those in `Except`) is a named
 * property of the runtime's `R`; else an object naming the untyped ones, which `true` does not
 * satisfy (the compile error shows them).
 */
type Typed<Spec, R, Except extends PropertyKey = never> = [Exclude<KnownKeys<Spec>, KnownKeys<R> | Except>] extends [
  never,
]
  ? true
  : { untypedInTheSdk: Exclude<KnownKeys<Spec>, KnownKeys<R> | Except> };
/** The query parameters of the operation at `P` (method `M`). */
type Query<P extends keyof paths, M extends keyof paths[P]> = NonNullable<
  paths[P][M] extends { parameters: { query?: infer Q } } ? Q : never
>;

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
// the models catalog: the runtime's `Model` has its schema under `request_schema` only (normalised)
// and a string `id` (`normaliseModel`), which the spec leaves optional
type NormalisedModel = S['Model'] & { id: string; request_schema: S['Model']['request_schema'] & {} };
export const modelCompatible = (x: NormalisedModel): rt.Model => x;
export const modelListCompatible = (x: { object: S['ModelList']['object']; data: NormalisedModel[] }): rt.ModelList =>
  x;
export const modelPricingCompatible = (x: S['ModelPricing']): rt.ModelPricing => x;
export const modelDeploymentCompatible = (x: S['ModelDeployment']): rt.ModelDeployment => x;
export const modelFineTuningCompatible = (x: S['ModelFineTuning']): rt.ModelFineTuning => x;
export const modelDeveloperCompatible = (x: S['ModelDeveloper']): rt.ModelDeveloper => x;
// fine-tunes (the runtime's `FineTune` requires `id`, which the docs always show and the spec leaves optional)
export const fineTuneCompatible = (x: S['FineTune'] & { id: string }): rt.FineTune => x;
export const fineTuneResponseCompatible = (
  x: S['FineTuneWrapped'] & { fine_tune: { id: string } },
): rt.FineTuneResponse => x;
export const fineTuneRunResponseCompatible = (x: S['FineTuneRunResponse']): rt.FineTuneRunResponse => x;
export const fineTuneDeployResponseCompatible = (x: S['FineTuneDeployResponse']): rt.FineTuneDeployResponse => x;

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
export const modelListQueryCompatible = (x: rt.ModelListParams): Query<'/api/ai/models', 'get'> => x;
export const modelRetrieveQueryCompatible = (x: rt.ModelRetrieveParams): Query<'/api/ai/models/{id}', 'get'> => x;

// chat content parts (with the docs' audio_url and file parts): the same parts both ways, so a part or field
// added to the spec and not typed by the runtime fails here
export const chatContentPartCompatible = (x: rt.ChatContentPart): S['ChatContentPart'] => x;
export const chatContentPartFromSpecCompatible = (x: S['ChatContentPart']): rt.ChatContentPart => x;
export const chatFileFromSpecCompatible = (x: S['ChatContentPartFile']['file']): rt.ChatContentPartFile['file'] => x;

// fine-tunes: the runtime's body (typed by script_type) and the spec's oneOf accept the same bodies
export const fineTuneCreateRequestCompatible = (x: rt.FineTuneCreateParams): S['FineTuneCreateRequest'] => x;
export const fineTuneCreateParamsCompatible = (x: S['FineTuneCreateRequest']): rt.FineTuneCreateParams => x;

// fields: every property the spec gives a schema the SDK types is a field of the runtime's type
// (the check itself: a field the runtime does not name fails, even behind an index signature)
// @ts-expect-error `extra` is not a named field of the runtime's type
export const typedCatchesAnUntypedField: Typed<{ id: string; extra?: string }, { id: string; [k: string]: unknown }> =
  true;
export const typedAcceptsANamedField: Typed<{ id: string; extra?: string }, { id: string; extra?: string }> = true;
export const generationFields: Typed<S['Generation'], rt.Generation> = true;
export const queueListQueryFields: Typed<Query<'/api/ai/queue', 'get'>, rt.QueueListParams> = true;
export const enqueuedGenerationFields: Typed<S['EnqueuedGeneration'], rt.EnqueuedGeneration> = true;
export const enqueueResponseFields: Typed<S['EnqueueResponse'], rt.EnqueueResponse> = true;
export const queueListResponseFields: Typed<S['QueueListResponse'], rt.QueueListResponse> = true;
export const cancelResponseFields: Typed<S['CancelResponse'], rt.CancelResponse> = true;
export const imageResultFields: Typed<S['ImageResult'], rt.ImageResult> = true;
export const videoResultFields: Typed<S['VideoResult'], rt.VideoResult> = true;
export const mediaSucceededFields: Typed<S['MediaGenerationSucceededEvent'], rt.MediaGenerationSucceeded> = true;
export const mediaFailedFields: Typed<S['MediaGenerationFailedEvent'], rt.MediaGenerationFailed> = true;
export const chatCompletionFields: Typed<S['ChatCompletion'], rt.ChatCompletion> = true;
export const chatCompletionChunkFields: Typed<S['ChatCompletionChunk'], rt.ChatCompletionChunk> = true;
export const chatCompletionMessageFields: Typed<S['ChatCompletionMessage'], rt.ChatCompletionMessage> = true;
export const toolCallFields: Typed<S['ToolCall'], rt.ToolCall> = true;
export const usageFields: Typed<S['Usage'], rt.Usage> = true;
// `json_request_schema` is normalised into `request_schema` by every models call
export const modelFields: Typed<S['Model'], rt.Model, 'json_request_schema'> = true;
export const modelCapabilitiesFields: Typed<S['ModelCapabilities'], rt.ModelCapabilities> = true;
export const modelPricingFields: Typed<S['ModelPricing'], rt.ModelPricing> = true;
export const modelFineTuningFields: Typed<S['ModelFineTuning'], rt.ModelFineTuning> = true;
export const modelDeploymentFields: Typed<S['ModelDeployment'], rt.ModelDeployment> = true;
export const modelDeveloperFields: Typed<S['ModelDeveloper'], rt.ModelDeveloper> = true;
export const modelListFields: Typed<S['ModelList'], rt.ModelList> = true;
export const modelListQueryFields: Typed<Query<'/api/ai/models', 'get'>, rt.ModelListParams> = true;
export const modelRetrieveQueryFields: Typed<Query<'/api/ai/models/{id}', 'get'>, rt.ModelRetrieveParams> = true;
export const fineTuneFields: Typed<S['FineTune'], rt.FineTune> = true;
export const fineTuneResponseFields: Typed<S['FineTuneWrapped'], rt.FineTuneResponse> = true;
export const fineTuneDeploymentFields: Typed<S['FineTuneDeployment'], rt.FineTuneDeployment> = true;
export const fineTuneDeployResponseFields: Typed<S['FineTuneDeployResponse'], rt.FineTuneDeployResponse> = true;
// every training_params schema, field for field
export const textGenerationParamsFields: Typed<S['TextGenerationTrainingParams'], rt.TextGenerationTrainingParams> =
  true;
export const textChatMessagesParamsFields: Typed<
  S['TextChatMessagesTrainingParams'],
  rt.TextChatMessagesTrainingParams
> = true;
export const imageToTextParamsFields: Typed<S['ImageToTextTrainingParams'], rt.ImageToTextTrainingParams> = true;
export const imageGenerationParamsFields: Typed<S['ImageGenerationTrainingParams'], rt.ImageGenerationTrainingParams> =
  true;
export const imageEditingParamsFields: Typed<S['ImageEditingTrainingParams'], rt.ImageEditingTrainingParams> = true;
export const multiImageEditingParamsFields: Typed<
  S['MultiImageEditingTrainingParams'],
  rt.MultiImageEditingTrainingParams
> = true;
export const imageToVideoParamsFields: Typed<S['ImageToVideoTrainingParams'], rt.ImageToVideoTrainingParams> = true;
export const textToVideoParamsFields: Typed<S['TextToVideoTrainingParams'], rt.TextToVideoTrainingParams> = true;
// The request bodies of the media endpoints are not listed: their model-specific fields are typed
// per model from each model's own schema (generated/models/), not by the runtime's described params.
