/**
 * The list of `oxen-inference-sdk/runtime` (re-exported by `runtime/index.ts`, the entry, with
 * `export *`): transports, the endpoint functions, errors, validation, the proxy handler and the
 * types. It knows no model.
 *
 * Every export is named here on purpose: this list is the entry's public API, and
 * `api-report/runtime.api.md` records it (`npm run api:check` fails when it changes unreviewed).
 * Helpers live in `internal/`, which no entry re-exports. The values of `redact.ts`, which the
 * runtime loads on demand, are named in `runtime/index.ts` instead (it says why).
 *
 * The `Client` class and its resources are exported from the package root (`oxen-inference-sdk`),
 * not here: the resources load the queue and event-stream machinery with dynamic `import()`s, and a
 * bundler that sees those makes chunks of them even when the client is unused, which would pull
 * them into every bundle of a per-model call made through `createTransport` from this entry. For
 * the same reason, what the client loads on demand (`queue/run.ts`, `chat/stream.ts`,
 * `streaming/event-stream.ts`) is exported here as types only, and the values that modules loaded on demand
 * share are entries of their own (`ChatCompletionAccumulator`: `oxen-inference-sdk/chat`; `equal`,
 * `ucs2length`: `oxen-inference-sdk/validator-support`): re-exported here, and so by the root, their
 * modules would be loaded by every page that imports the root.
 */

// Transports and per-call options
export { createTransport, HttpTransport, type Transport, type TransportSettings } from './transport.ts';
export { eventStreamStatus } from './transport.ts';
export type { EventStreamStatus, TransportState } from './transport-state.ts';
export type { CallScope, RequestOptions } from './scope.ts';
export type { HttpRequest, HttpResult, ResponseCheck, RetryPolicy } from './request.ts';
export { APIPromise, type WithResponse } from './api-promise.ts';
export {
  DEFAULT_BASE_URL,
  DEFAULT_EVENT_STREAM_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_RETRIES,
  DEFAULT_RETRY_BASE_DELAY_MS,
  DEFAULT_RETRY_MAX_DELAY_MS,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_TIMEOUTS_MS,
  type ClientOptions,
  type TimedEndpoint,
} from './options.ts';
export type {
  BeforeRetryHook,
  HookOptions,
  HookRequest,
  HookResponse,
  Hooks,
  OnRequestHook,
  OnResponseHook,
  RetryContext,
} from './hooks.ts';
export { DEFAULT_LOG_LEVEL, type Logger, type LogLevel } from './log.ts';

// The endpoints as functions over a Transport (what the generated per-model functions call)
export {
  cancelGeneration,
  createChatCompletion,
  editImages,
  enqueueGenerations,
  generateImages,
  generateVideos,
  getGeneration,
  listGenerations,
  type EnqueueOptions,
} from './endpoints.ts';
export { activateModel, deactivateModel, listModels, retrieveModel, searchModels } from './models/endpoints.ts';
export {
  createFineTune,
  deployFineTune,
  retrieveFineTune,
  runFineTune,
  tokenizeFineTune,
} from './fine-tunes/endpoints.ts';
export { FineTuneWaitTimeoutError, waitForFineTune, type FineTuneWaitOptions } from './fine-tunes/wait.ts';
export {
  FINE_TUNE_TERMINAL_STATUSES,
  FINE_TUNE_WAIT_DEFAULT_INTERVAL_MS,
  FINE_TUNE_WAIT_DEFAULT_TIMEOUT_MS,
  isFineTuneEnded,
} from './fine-tunes/types.ts';

// Errors
export {
  AbortError,
  APIError,
  ConnectionError,
  REQUEST_ID_HEADERS,
  SDKError,
  TimeoutError,
  type APIErrorInit,
  type SDKErrorOptions,
  type ValidationIssue,
} from './errors.ts';
// The answers' classes (`BadRequestError`, ..., `OutcomeUnknownError`) and `ValidationError` are re-exported by
// `runtime/index.ts` (it says why).

// Validation: the compiled validators' contract and the helpers their ajv standalone code calls
// (`checkRequest` is exported by `index.ts`, beside this list: see there)
export type { CompiledValidator, ValidatorErrorObject, ValidatorSource } from './validation.ts';
// (`equal`, `ucs2length`, which generated validators import, are `oxen-inference-sdk/validator-support`)
// Standard Schema: each generated model's `<camel>QueueSchema` is built by `standardSchemaFor`
export { STANDARD_SCHEMA_VENDOR, standardSchemaFor, type StandardQueueSchema } from './standard-schema.ts';

// Outputs (the URLs and base64 data of results)
export {
  extensionFor,
  fetchOutput,
  fetchOutputBlob,
  OUTPUT_DEFAULT_TIMEOUT_MS,
  OUTPUT_MAX_REDIRECTS,
  OutputExpiredError,
  sniffContentType,
  type OutputBytes,
  type OutputOptions,
  type OutputSource,
} from './outputs.ts';

// Inputs: local data as data URIs (`fileToDataUri`, which reads a file, is `oxen-inference-sdk/node`)
export { INPUT_MAX_BYTES, InputTooLargeError, toDataUri, type DataUriOptions } from './inputs.ts';

// The queue: outcomes of queue.run and queue.follow (the machinery loads on demand)
export {
  QUEUE_RUN_DEFAULT_TIMEOUT_MS,
  QueueRunAbortError,
  QueueRunTimeoutError,
  type QueueFollowOptions,
  type QueueRunCancelled,
  type QueueRunFailed,
  type QueueRunLost,
  type QueueRunOptions,
  type QueueRunOutcome,
  type QueueRunOutcomeBase,
  type QueueRunProgress,
  type QueueRunSucceeded,
} from './queue/outcomes.ts';
export type { SharedEventListener, SharedEventStreamOptions } from './queue/shared-event-stream.ts';

// Streams (types only: the client loads them on demand)
export type { EventStream, EventStreamOptions, EventStreamSettings } from './streaming/event-stream.ts';
export type { SseReadOptions } from './streaming/sse.ts';
export type { ChatCompletionStream } from './chat/stream.ts';
// (ChatCompletionAccumulator is `oxen-inference-sdk/chat`: runtime/chat/index.ts says why)

// The server-side proxy
export { createProxyHandler, type ProxyHandler, type ProxyOptions } from './proxy/handler.ts';

// Types of the API's shapes and of the model registry
export type {
  ChatBody,
  MediaBody,
  MediaParams,
  OwnParams,
  ParamsOf,
  QueueFields,
  Registry,
  RequestBody,
  SdkFields,
  UntypedRegistry,
  VideoParams,
} from './registry.ts';
export { isMediaGenerationCompleted } from './types.ts';
export type {
  AnyServerEvent,
  CancelResponse,
  ChatAssistantMessage,
  ChatCompletion,
  ChatCompletionChoice,
  ChatCompletionChunk,
  ChatCompletionChunkChoice,
  ChatCompletionChunkDelta,
  ChatCompletionChunkToolCall,
  ChatCompletionMessage,
  ChatCompletionParams,
  ChatCompletionParamsBase,
  ChatCompletionParamsNonStreaming,
  ChatCompletionParamsStreaming,
  ChatContentPart,
  ChatContentPartAudio,
  ChatContentPartFile,
  ChatContentPartImage,
  ChatContentPartText,
  ChatContentPartVideo,
  ChatFileData,
  ChatFileUrl,
  ChatFinishReason,
  ChatMessage,
  ChatNamedToolChoice,
  ChatResponseFormat,
  ChatStreamOptions,
  ChatSystemMessage,
  ChatTool,
  ChatToolChoice,
  ChatToolMessage,
  ChatUserMessage,
  DescribedImageEditParams,
  DescribedImageGenerateParams,
  DescribedVideoGenerateOptions,
  DescribedVideoGenerateParams,
  EnqueuedGeneration,
  EnqueueResponse,
  FineTune,
  FineTuneDeployment,
  FineTuneDeployResponse,
  FineTuneRef,
  FineTuneResponse,
  FineTuneRunResponse,
  FineTuneStatus,
  Generation,
  GenerationStatus,
  ImageResult,
  MediaGenerationCompleted,
  MediaGenerationCompletedEvent,
  MediaGenerationFailed,
  MediaGenerationSucceeded,
  MediaItem,
  Model,
  ModelCapabilities,
  ModelDeployment,
  ModelDeploymentStatus,
  ModelDeveloper,
  ModelFineTuning,
  ModelList,
  ModelListParams,
  ModelPricing,
  ModelRetrieveParams,
  MultiPromptShot,
  OtherServerEvent,
  QueueListParams,
  QueueListResponse,
  RepoRef,
  ResponseFormat,
  ServerEvent,
  ToolCall,
  Usage,
  VideoPrompt,
  VideoResult,
} from './types.ts';
export type {
  ControlImageTrainingSample,
  FineTuneCreateBase,
  FineTuneCreateImageEditing,
  FineTuneCreateImageGeneration,
  FineTuneCreateImageToText,
  FineTuneCreateImageToVideo,
  FineTuneCreateMultiImageEditing,
  FineTuneCreateParams,
  FineTuneCreateRequest,
  FineTuneCreateTextChatMessages,
  FineTuneCreateTextGeneration,
  FineTuneCreateTextToVideo,
  FineTuneScriptType,
  ImageEditingTrainingParams,
  ImageGenerationTrainingParams,
  ImageToTextTrainingParams,
  ImageToVideoTrainingParams,
  MultiControlImageTrainingSample,
  MediaTrainingParamsBase,
  MultiImageEditingTrainingParams,
  TextChatMessagesTrainingParams,
  TextGenerationTrainingParams,
  TextToVideoTrainingParams,
  TextTrainingParamsBase,
  TrainingSample,
} from './fine-tunes/params.ts';
