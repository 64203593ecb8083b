/**
 * The types of `POST /api/ai/chat/completions`, in the widely used chat-completions format the
 * description promises (the shapes of the official `openai` package's chat types, limited to the
 * chat-completions wire format): messages of every role (`system`, `user`, `assistant` with
 * `tool_calls`, `tool` with `tool_call_id`), the request's common fields, the completion, and the
 * stream chunks whose tool calls arrive in fragments.
 *
 * Round trip: the `message` of a completion's choice (`ChatCompletionMessage`) is assignable to
 * `ChatMessage`, so it can be sent back as it came, followed by one `ChatToolMessage` per tool
 * call. Kept equal to `components.schemas` of `specs/openapi.yaml` by
 * `test/types/openapi-compat.types.ts`. Types only.
 *
 * Ranges the description documents (`temperature` 0 to 2) are in the docs; fields the description
 * does not list are the format's, passed through as they are: a model that does not support one may
 * ignore or refuse it (not shown by the description).
 */

/** A text part of a message. */
export interface ChatContentPartText {
  type: 'text';
  text: string;
}

/** An image part of a user message. The URL (or a `data:` URL) must be publicly accessible. */
export interface ChatContentPartImage {
  type: 'image_url';
  image_url: {
    url: string;
    /** The format's detail level of the image (`auto` when absent). */
    detail?: 'auto' | 'low' | 'high';
  };
}

/** A video part of a user message (the service's own part type). The URL must be publicly accessible. */
export interface ChatContentPartVideo {
  type: 'video_url';
  video_url: { url: string };
}

/**
 * An audio part of a user message (the service's own part type; its docs,
 * `inference-api/reference/chat_completions.mdx`, describe it, not the API description 0.224.2), for a
 * model that takes audio input. `url` is a publicly accessible URL (unexpired, if presigned) or a
 * base64 data URL (`data:audio/mp3;base64,...`; `toDataUri` makes one). At most 20 MB of audio
 * (larger: 400, `BadRequestError`). Formats vary by provider: OpenAI audio models take only wav and
 * mp3, Gemini models also m4a, aac, ogg and flac. The docs advise the audio part before the text part.
 */
export interface ChatContentPartAudio {
  type: 'audio_url';
  audio_url: { url: string };
}

/** A `file` part's document inline: `file_data` is a base64 data URL (`data:application/pdf;base64,...`). */
export interface ChatFileData {
  /** The document's file name, e.g. `report.pdf`. */
  filename?: string;
  file_data: string;
  /** Never with `file_data`: a `file` part gives exactly one of the two. */
  file_url?: never;
}

/** A `file` part's document by URL: publicly accessible (unexpired, if presigned). */
export interface ChatFileUrl {
  /** The document's file name, e.g. `report.pdf`. */
  filename?: string;
  file_url: string;
  /** Never with `file_url`: a `file` part gives exactly one of the two. */
  file_data?: never;
}

/**
 * A document part of a user message (docs: `inference-api/reference/chat_completions.mdx`): exactly
 * one of `file_data` (a base64 data URL; `toDataUri` makes one) and `file_url`, so giving both or
 * neither does not compile. PDFs (`application/pdf`) only; at most 24 MB. An unsupported type or a
 * larger document is a 400 (`BadRequestError`, `type` `invalid_file_input`); OpenAI's `file_id` is not
 * supported. The docs advise the document before the text part.
 */
export interface ChatContentPartFile {
  type: 'file';
  file: ChatFileData | ChatFileUrl;
}

/** A content part of a user message: text, image URL, video URL, audio (`audio_url`) or a document (`file`). */
export type ChatContentPart =
  ChatContentPartText | ChatContentPartImage | ChatContentPartVideo | ChatContentPartAudio | ChatContentPartFile;

/** Instructions for the model. */
export interface ChatSystemMessage {
  role: 'system';
  content: string | ChatContentPartText[];
  /** A name telling participants of the same role apart. */
  name?: string;
}

/** A message of the user: text, or parts with images, videos, audio and documents. */
export interface ChatUserMessage {
  role: 'user';
  content: string | ChatContentPart[];
  /** A name telling participants of the same role apart. */
  name?: string;
}

/**
 * A message of the model, as sent back in the conversation. `content` is null (or absent) when
 * the message only calls tools. A completion's `choices[i].message` is assignable to it.
 */
export interface ChatAssistantMessage {
  role: 'assistant';
  content?: string | ChatContentPartText[] | null;
  /** The tool calls the model made; answer each with a `ChatToolMessage` of the same `tool_call_id`. */
  tool_calls?: ToolCall[];
  /** The model's refusal, when it refused. */
  refusal?: string | null;
  /** A name telling participants of the same role apart. */
  name?: string;
}

/** The result of one tool call, answering the assistant's tool call `tool_call_id`. */
export interface ChatToolMessage {
  role: 'tool';
  /** The `id` of the tool call this message answers. */
  tool_call_id: string;
  /** The tool's result (often JSON text). */
  content: string | ChatContentPartText[];
}

/** A message of the conversation, by `role`. */
export type ChatMessage = ChatSystemMessage | ChatUserMessage | ChatAssistantMessage | ChatToolMessage;

/** A function tool definition; `parameters` is a JSON Schema object of the function's arguments. */
export interface ChatTool {
  type: 'function';
  function: {
    name: string;
    description?: string;
    parameters?: Record<string, unknown>;
    /** Ask the model to follow `parameters` exactly (support varies by provider). */
    strict?: boolean | null;
  };
}

/** A tool choice naming one function. */
export interface ChatNamedToolChoice {
  type: 'function';
  function: { name: string };
}

/**
 * Which tool the model calls: `none`, `auto`, `required`, or one named function. Other strings are
 * let through (the description does not list the accepted values).
 */
export type ChatToolChoice = 'none' | 'auto' | 'required' | (string & {}) | ChatNamedToolChoice;

/**
 * The output format: plain text, any JSON object (`json_object`; the messages should ask for
 * JSON), or JSON following a schema (`json_schema`). Support varies by provider.
 */
export type ChatResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | {
      type: 'json_schema';
      json_schema: { name: string; description?: string; schema?: Record<string, unknown>; strict?: boolean | null };
    };

/** Options of a streamed completion. */
export interface ChatStreamOptions {
  /** Send one more chunk before `data: [DONE]` whose `usage` holds the token counts (its `choices` is empty). */
  include_usage?: boolean;
}

/** The chat request body without `model` and `stream`: the fields every chat model takes. */
export interface ChatCompletionParamsBase {
  /** The conversation; must not be empty. */
  messages: ChatMessage[];
  /** Maximum response tokens; default varies by model. */
  max_tokens?: number | null;
  /** Maximum response tokens including reasoning tokens (the format's newer name). */
  max_completion_tokens?: number | null;
  /** Sampling temperature, 0 to 2; default varies by model. */
  temperature?: number | null;
  /** Nucleus sampling. */
  top_p?: number | null;
  frequency_penalty?: number | null;
  presence_penalty?: number | null;
  /** Up to 4 sequences at which the model stops. */
  stop?: string | string[] | null;
  /** Seed for best-effort reproducible sampling. */
  seed?: number | null;
  /** How many choices to generate. */
  n?: number | null;
  /** Return the log probabilities of the output tokens. */
  logprobs?: boolean | null;
  /** With `logprobs`: how many most likely tokens to return at each position (0 to 20). */
  top_logprobs?: number | null;
  /** Token id (as a string) -> bias from -100 to 100. */
  logit_bias?: Record<string, number> | null;
  /** An identifier of the end user. */
  user?: string;
  /** Functions the model may call. */
  tools?: ChatTool[];
  tool_choice?: ChatToolChoice;
  /** Whether the model may call several tools at once. */
  parallel_tool_calls?: boolean;
  /** e.g. `{ type: 'json_object' }`; support varies by provider. */
  response_format?: ChatResponseFormat;
  /** Options of a streamed completion (`stream: true`), e.g. `{ include_usage: true }`. */
  stream_options?: ChatStreamOptions | null;
}

/** A non-streamed chat request body without `model`: `stream` absent, false or null. What each chat model's generated `<Model>Params` is. */
export interface ChatCompletionParamsNonStreaming extends ChatCompletionParamsBase {
  /** Absent, false or null: the answer is one `ChatCompletion`. */
  stream?: false | null;
}

/** A streamed chat request body without `model`. */
export interface ChatCompletionParamsStreaming extends ChatCompletionParamsBase {
  /** The answer is a stream of `ChatCompletionChunk`s (`ChatCompletionStream`). */
  stream: true;
}

/** The chat request body without `model`, `stream` known only at run time. */
export interface ChatCompletionParams extends ChatCompletionParamsBase {
  /** true returns server-sent events (see the overloads of `chat.completions.create`). */
  stream?: boolean | null;
}

/** A tool call made by the model; `function.arguments` is a string containing JSON (parse it: the model may write invalid JSON). */
export interface ToolCall {
  id: string;
  /** Position of the call among the message's calls. */
  index?: number;
  type: 'function';
  function: { name: string; arguments: string };
}

/** Token counts of a completion. */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** The message of a completion's choice. Assignable to `ChatMessage` (send it back as it came). */
export interface ChatCompletionMessage {
  role: 'assistant';
  /** Null when the model calls a tool (then `finish_reason` is `tool_calls`). */
  content: string | null;
  tool_calls?: ToolCall[];
  refusal?: string | null;
}

/** Why the model stopped: `stop`, `tool_calls`, `length`, ... (other values are let through). */
export type ChatFinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | (string & {});

/** One choice of a completion. */
export interface ChatCompletionChoice {
  index: number;
  message: ChatCompletionMessage;
  finish_reason: ChatFinishReason | null;
}

/** Response of a non-streaming chat completion. `created` is a Unix timestamp in seconds. */
export interface ChatCompletion {
  /** `chatcmpl-` then an identifier. */
  id: string;
  object: 'chat.completion' | (string & {});
  created: number;
  model: string;
  choices: ChatCompletionChoice[];
  usage?: Usage;
}

/**
 * A fragment of a tool call in a stream chunk. The first fragment of a call carries its `id`,
 * `type` and `function.name`; later ones only `index` and a piece of `function.arguments`.
 * Concatenate the pieces of the same `index` (or use `ChatCompletionStream.finalChatCompletion()`).
 */
export interface ChatCompletionChunkToolCall {
  index: number;
  id?: string;
  type?: 'function';
  function?: { name?: string; arguments?: string };
}

/** The increment of the message in one stream chunk. */
export interface ChatCompletionChunkDelta {
  role?: 'assistant' | (string & {});
  content?: string | null;
  tool_calls?: ChatCompletionChunkToolCall[];
  refusal?: string | null;
}

/** One choice of a stream chunk: `delta` replaces `message`. */
export interface ChatCompletionChunkChoice {
  index: number;
  delta: ChatCompletionChunkDelta;
  /** Null (or absent: tolerated) in non-final chunks; e.g. `stop` or `tool_calls` in the final one. */
  finish_reason?: ChatFinishReason | null;
}

/**
 * One chunk of a streaming chat completion. With `stream_options.include_usage`, the last chunk
 * before `data: [DONE]` has empty `choices` and the `usage` of the whole completion.
 */
export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk' | (string & {});
  created: number;
  model: string;
  choices: ChatCompletionChunkChoice[];
  usage?: Usage | null;
}
