/**
 * The one table of endpoint metadata: for each operation of the SDK its HTTP method and path, what
 * it does, the default of its timeout (milliseconds), whether it is resent, what it returns and
 * what it throws. It renders
 * - the doc comments of the generated per-model functions (`emit-model.ts`);
 * - the doc comments of the light endpoint functions (`runtime/endpoints.ts`) and of the client's
 *   resource methods (`runtime/resources.ts`), in their marked regions (`runtime-docs.ts`).
 * The text is ours (no model data): it goes into comments as it is, and holds no `@` but the tags
 * the renderers add.
 */

/** The operations the table describes, named as the client's methods are. */
export type EndpointKey =
  | 'images.generate'
  | 'images.edit'
  | 'videos.generate'
  | 'chat.completions.create'
  | 'chat.completions.stream'
  | 'queue.enqueue'
  | 'queue.run'
  | 'queue.list'
  | 'queue.get'
  | 'queue.cancel'
  | 'models.retrieve'
  | 'fineTunes.create'
  | 'fineTunes.tokenize';

/** One operation's metadata. */
export interface EndpointDoc {
  method: 'GET' | 'POST' | 'DELETE';
  /** The path template, with the wire names of its parameters. */
  path: string;
  /** The first sentence without its period: what it does, naming `model` (a generated function's model id, in a code span) when given. */
  summary: (model?: string) => string;
  /** Further sentences on the body, or ''. */
  details: string;
  /** The default of `timeoutMs` (milliseconds) and what it covers. */
  timeout: string;
  /** The call's options, as `@param options` lists them. */
  options: string;
  /** When the request is resent, or '' (a GET or DELETE is retried as `maxRetries` says). */
  resend: string;
  returns: string;
  throws: string;
  /** Only for the light function of `runtime/endpoints.ts`, which takes any body and any transport. */
  functionOnly?: { details?: string; throws?: string };
}

const NOT_RESENT = 'Never resent unless the service surely did not process it (429, connection refused).';
const DEFAULT_TIMEOUT = "`timeoutMs` (milliseconds) defaults to the client's, else 600_000 (10 minutes).";
const REQUEST_OPTIONS = '`timeoutMs` (milliseconds), `signal`, `maxRetries`, `headers`.';
const IMAGE_TIMEOUT =
  '`timeoutMs` (milliseconds) defaults to 300_000 (5 minutes, `DEFAULT_TIMEOUTS_MS.images`) unless the client or the call sets one.';
const OUTCOME_UNKNOWN = 'OutcomeUnknownError (5xx, reset or timeout while in flight, unusable answer: never resent)';
const BAD_PATH = (names: string) =>
  `SDKError, before sending, when ${names} is empty, \`.\` or \`..\` (or decodes to one)`;

/** The table. */
export const ENDPOINT_DOCS: Readonly<Record<EndpointKey, EndpointDoc>> = {
  'images.generate': {
    method: 'POST',
    path: '/api/ai/images/generate',
    summary: (m) => `Generate images${m ? ` with ${m}` : ''}, blocking until done (typically 5 to 30 seconds)`,
    details: '',
    timeout: IMAGE_TIMEOUT,
    options: '`timeoutMs` (milliseconds; default 300_000, 5 minutes), `signal`, `maxRetries`, `headers`.',
    resend: NOT_RESENT,
    returns: "`ImageResult` whose items are `{ url }`, or `{ b64_json }` with `response_format: 'b64_json'`.",
    throws: `BadRequestError (\`Prompt cannot be empty\`), NotFoundError (\`Model not found: <name>\`), InsufficientCreditsError, ${OUTCOME_UNKNOWN}, TimeoutError, AbortError.`,
  },
  'images.edit': {
    method: 'POST',
    path: '/api/ai/images/edit',
    summary: (m) => `Edit images${m ? ` with ${m}` : ''}, blocking until done (typically 5 to 30 seconds)`,
    details:
      "The model's own parameters as its schema states them: `input_image` (a URL or an array of URLs) is required exactly when the schema requires it (edit-only models), optional for models that can also generate.",
    timeout: IMAGE_TIMEOUT,
    options: '`timeoutMs` (milliseconds; default 300_000, 5 minutes), `signal`, `maxRetries`, `headers`.',
    resend: NOT_RESENT,
    returns:
      "`ImageResult` typed by `response_format`: items `{ url }`, or `{ b64_json }` with `response_format: 'b64_json'`.",
    throws: `BadRequestError (an input URL the service could not fetch: 403 Forbidden), NotFoundError (\`Model not found: <name>\`), InsufficientCreditsError, ${OUTCOME_UNKNOWN}, TimeoutError, AbortError.`,
  },
  'videos.generate': {
    method: 'POST',
    path: '/api/ai/videos/generate',
    summary: (m) =>
      `Generate videos${m ? ` with ${m}` : ''}, blocking until the video is ready (1 to 15 minutes; prefer the queue for anything long)`,
    details:
      'Exactly one of `prompt` and `multi_prompt` (`[{ prompt, duration }]`, one item per shot, `duration` in seconds) for a model that takes a prompt (`VideoParams`).',
    timeout:
      '`timeoutMs` (milliseconds) defaults to 1_200_000 (20 minutes, `DEFAULT_TIMEOUTS_MS.videos`) unless the client or the call sets one.',
    options: '`timeoutMs` (milliseconds; default 1_200_000, 20 minutes), `signal`, `maxRetries`, `headers`.',
    resend: NOT_RESENT,
    returns: '`VideoResult` typed by `response_format`: items `{ url }`, or `{ b64_json }`.',
    throws:
      'UnprocessableEntityError (`Getting model response error: 422 - Value error, ...` for both or neither of `prompt` / `multi_prompt`), NotFoundError, InsufficientCreditsError, OutcomeUnknownError (5xx, reset or timeout while in flight, unusable answer: never resent; the video may still be billed), TimeoutError, AbortError.',
  },
  'chat.completions.create': {
    method: 'POST',
    path: '/api/ai/chat/completions',
    summary: (m) =>
      `Create a chat completion${m ? ` with ${m}` : ''}, not streaming (stream with \`client.chat.completions.create({ stream: true })\`)`,
    details: '',
    timeout:
      '`timeoutMs` (milliseconds) defaults to 600_000 (10 minutes, `DEFAULT_TIMEOUTS_MS.chat`) unless the client or the call sets one.',
    options: '`timeoutMs` (milliseconds; default 600_000, 10 minutes), `signal`, `maxRetries`, `headers`.',
    resend: NOT_RESENT,
    returns: 'the `ChatCompletion` (`choices[].message`, `usage`; `created` in Unix seconds).',
    throws: `BadRequestError (\`You must specify a model to call\`, \`Messages array cannot be empty\`), NotFoundError (\`Model not found: <name>\`), InsufficientCreditsError, ${OUTCOME_UNKNOWN}, TimeoutError, AbortError.`,
    functionOnly: {
      details: 'To stream, use `openChatStream`.',
      throws: 'SDKError when `body.stream` is true (nothing sent).',
    },
  },
  'chat.completions.stream': {
    method: 'POST',
    path: '/api/ai/chat/completions',
    summary: (m) => `Create a chat completion${m ? ` with ${m}` : ''} as a stream (\`stream: true\`)`,
    details:
      "Resolves, once the response headers arrived, to a `ChatCompletionStream`: an async iterable of `ChatCompletionChunk` that ends at the server's `data: [DONE]`; `finalChatCompletion()` collects it into one `ChatCompletion` (text and tool calls concatenated).",
    timeout:
      '`timeoutMs` (milliseconds; default 600_000, 10 minutes, `DEFAULT_TIMEOUTS_MS.chat`) covers the whole stream; `signal` aborts it.',
    options:
      '`timeoutMs` (milliseconds; default 600_000, 10 minutes, the whole stream), `signal`, `maxRetries`, `headers`.',
    resend: NOT_RESENT,
    returns: 'the `ChatCompletionStream` (`withResponse()` gives it with the live `Response`, its body unread).',
    throws:
      'BadRequestError (`You must specify a model to call`, `Messages array cannot be empty`), NotFoundError (`Model not found: <name>`), InsufficientCreditsError, OutcomeUnknownError (5xx, reset or timeout while in flight: never resent), TimeoutError, AbortError.',
  },
  'queue.enqueue': {
    method: 'POST',
    path: '/api/ai/queue',
    summary: (m) => `Enqueue 1 to 4 generations (\`num_generations\`) of ${m ?? 'an image or video model'}`,
    details:
      "A video model that takes a prompt needs exactly one of `prompt` and `multi_prompt` (`VideoParams`). The body is validated first against the model's compiled validator, unless `validate: false` (see `EnqueueOptions.validate`).",
    timeout: DEFAULT_TIMEOUT,
    options: '`validate` (default true), `timeoutMs` (milliseconds), `signal`, `maxRetries`, `headers`.',
    resend: NOT_RESENT,
    returns:
      "`{ generations: [{ generation_id, status: 'processing' }] }` (at least one, each with a `generation_id`).",
    throws:
      'ValidationError (nothing sent), NotFoundError (`Model not found: <name>`), BadRequestError, InsufficientCreditsError, OutcomeUnknownError (5xx, reset or timeout while in flight, unusable answer: never resent; check `queue.list()`), TimeoutError, AbortError.',
    functionOnly: {
      details:
        "`validate` is the model's compiled validator; without one only the queue's own fields are checked (`validateQueueBody`).",
    },
  },
  'queue.run': {
    method: 'POST',
    path: '/api/ai/queue',
    summary: (m) =>
      `Enqueue generations of ${m ?? 'an image or video model'} and follow each to one outcome (\`succeeded\` with \`url\`, \`failed\`, \`cancelled\` or \`lost\`) over the shared event stream (\`GET /api/events\`)`,
    details:
      'Validated first like `queue.enqueue`. `onEnqueued(ids)` is awaited once the service accepted the request, before waiting: persist the ids there, and `queue.follow` them after a restart. `onProgress` reports each step, `onEvent` each completion event.',
    timeout: '`timeoutMs` (milliseconds) covers the whole run: default 3_600_000 (one hour).',
    options:
      '`validate`, `timeoutMs` (milliseconds; default 3_600_000, one hour, the whole run), `signal`, `onEnqueued`, `onProgress`, `onEvent`.',
    resend: 'The enqueue is never resent unless the service surely did not process it (429, connection refused).',
    returns: 'One `QueueRunOutcome` per generation, in the order of the enqueue response.',
    throws:
      "ValidationError (nothing sent), the errors of `queue.enqueue`, the event stream's connection error, the error of `onEnqueued`, QueueRunTimeoutError after `timeoutMs`, QueueRunAbortError on `signal`.",
  },
  'queue.list': {
    method: 'GET',
    path: '/api/ai/queue',
    summary: () => 'List the generations of `namespace` (default the user), optionally of one `model`',
    details:
      "By default the active ones (`queued`, `processing`; 0.224.2: the processing ones); today's service also filters by `status` (then ended ones too), `media_type`, `repo` and `folder`.",
    timeout: DEFAULT_TIMEOUT,
    options: REQUEST_OPTIONS,
    resend: '',
    returns: '`{ count, generations }`.',
    throws: 'AuthenticationError, PermissionDeniedError, TimeoutError, AbortError, ConnectionError.',
  },
  'queue.get': {
    method: 'GET',
    path: '/api/ai/queue/{generation_id}',
    summary: () => 'Get one generation',
    details:
      "Today's service keeps a generation after it ended: its `status`, `result_url` (succeeded) and `error_message` (failed); 0.224.2 answers only while it is processing.",
    timeout: DEFAULT_TIMEOUT,
    options: REQUEST_OPTIONS,
    resend: '',
    returns: 'the `Generation`.',
    throws: `NotFoundError when the generation is unknown (0.224.2: also once it ended: succeeded, failed, cancelled, expired); ${BAD_PATH('`generationId`')}.`,
  },
  'queue.cancel': {
    method: 'DELETE',
    path: '/api/ai/queue/{generation_id}',
    summary: () => 'Cancel a queued or processing generation (no completion event follows)',
    details:
      'A `queue.run` or `queue.follow` following it through the same client (or a transport sharing its `state`) resolves it `cancelled`.',
    timeout: DEFAULT_TIMEOUT,
    options: REQUEST_OPTIONS,
    resend: '',
    returns: "`{ status: 'success', generation_id }`.",
    throws: `NotFoundError when the generation is unknown (0.224.2: or ended; today a cancel of an ended one has no effect); ${BAD_PATH('`generationId`')}.`,
    functionOnly: { throws: 'SDKError, before sending, when `t` has no `state` (see `Transport.state`).' },
  },
  'models.retrieve': {
    method: 'GET',
    path: '/api/ai/models/{id}',
    summary: () => "Get a model's details, its request schema included",
    details: '',
    timeout: DEFAULT_TIMEOUT,
    options: REQUEST_OPTIONS,
    resend: '',
    returns:
      'the model object with its schema normalised to `request_schema` (from `request_schema` or `json_request_schema`).',
    throws: `NotFoundError (\`Model not found: <id>\`), InvalidResponseError (an empty, \`null\` or non-object body); ${BAD_PATH('`id`')}.`,
  },
  'fineTunes.create': {
    method: 'POST',
    path: '/api/repos/{namespace}/{repo_name}/fine_tunes',
    summary: () => 'Create a fine-tune from a dataset file of the repository',
    details:
      "`body` is typed by `script_type` (see `FineTuneCreateParams`): e.g. `{ resource: 'main/train.jsonl', base_model, script_type: 'text_generation', training_params: { question_column, answer_column } }`.",
    timeout: DEFAULT_TIMEOUT,
    options: REQUEST_OPTIONS,
    resend: NOT_RESENT,
    returns: 'the fine-tune object (its shape is not shown by the description).',
    throws: `NotFoundError (repository unknown), BadRequestError, AuthenticationError, PermissionDeniedError, InsufficientCreditsError, OutcomeUnknownError, TimeoutError, AbortError; ${BAD_PATH('`namespace` or `repo_name`')}.`,
  },
  'fineTunes.tokenize': {
    method: 'POST',
    path: '/api/repos/{namespace}/{repo_name}/fine_tunes/{id}/tokenize',
    summary: () => "Tokenize a fine-tune's dataset, only for a fine-tune in the `created` state",
    details: '',
    timeout: DEFAULT_TIMEOUT,
    options: REQUEST_OPTIONS,
    resend: NOT_RESENT,
    returns: 'the wrapped fine-tune object (its shape is not shown by the description).',
    throws: `NotFoundError when the fine-tune does not exist; OutcomeUnknownError, TimeoutError, AbortError; ${BAD_PATH('`namespace`, `repo_name` or `id`')}.`,
  },
};

/** Sentences joined with one space, empty ones left out. */
function sentences(...parts: Array<string | undefined>): string {
  return parts.filter((p): p is string => p !== undefined && p !== '').join(' ');
}

/**
 * The doc text of a runtime function (`variant: 'function'`, `runtime/endpoints.ts`) or resource
 * method (`'method'`, `runtime/resources.ts`): the description first, then `@returns` and
 * `@throws`, each tag last in its own paragraph so that no sentence is read as part of a tag.
 */
export function runtimeDoc(key: EndpointKey, variant: 'function' | 'method'): string {
  const d = ENDPOINT_DOCS[key];
  const only = variant === 'function' ? d.functionOnly : undefined;
  return [
    sentences(`${d.summary()}: \`${d.method} ${d.path}\`.`, d.details, only?.details, d.timeout, d.resend),
    `@returns ${d.returns}`,
    `@throws ${sentences(d.throws, only?.throws)}`,
  ].join('\n');
}

/** What a generated per-model function adds to its operation's entry. */
export interface ModelFunctionDoc {
  /** The model id (checked by the load stage: letters, digits, `.`, `_`, `-`). */
  id: string;
  /** Sentences on this model's body, in place of the table's `details` (the queue's validation differs by model). */
  details?: string;
  /** `@param` lines (without the tag): client, params (with the named parameter type). */
  params: { client: string; params: string };
  /** The `@example` block (already escaped for a comment), or undefined. */
  example?: string;
  /** The `@see` targets (text after the tag). */
  see: string[];
}

/** The doc text of a generated per-model function (unescaped text of ours plus escaped model parts). */
export function modelFunctionDoc(key: EndpointKey, f: ModelFunctionDoc): string {
  const d = ENDPOINT_DOCS[key];
  return [
    sentences(`${d.summary(`\`${f.id}\``)}: \`${d.method} ${d.path}\`.`, f.details ?? d.details, d.resend),
    `@param client ${f.params.client}`,
    `@param params ${f.params.params}`,
    `@param options ${d.options}`,
    `@returns ${d.returns}`,
    `@throws ${d.throws}`,
    ...(f.example === undefined ? [] : [`@example\n${f.example}`]),
    ...f.see.map((s) => `@see ${s}`),
  ].join('\n');
}
