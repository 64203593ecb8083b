/**
 * The one table of endpoint metadata: for each operation of the SDK what it does, the default of
 * its timeout (milliseconds), whether it is resent, what it returns and what it throws, and the
 * operation of the API description it performs: its HTTP method and path come from the operations
 * table (`operations.ts`, from `specs/openapi.yaml`), its default timeouts from the runtime's
 * constants (`DEFAULT_TIMEOUT_MS`, `DEFAULT_TIMEOUTS_MS`, ...), so neither is written twice. It
 * renders
 * - the doc comments of the generated per-model functions (`emit-model.ts`);
 * - the doc comments of the light endpoint functions (`runtime/endpoints.ts`, ...) and of the
 *   client's resource methods (`runtime/resources.ts`, ...), in their marked regions
 *   (`runtime-docs.ts`).
 * The text is ours (no model data): it goes into comments as it is, and holds no `@` but the tags
 * the renderers add.
 */
import { DEFAULT_TIMEOUT_MS, DEFAULT_TIMEOUTS_MS } from '../../runtime/options.ts';
import { QUEUE_RUN_DEFAULT_TIMEOUT_MS } from '../../runtime/queue/outcomes.ts';
import {
  FINE_TUNE_WAIT_DEFAULT_INTERVAL_MS,
  FINE_TUNE_WAIT_DEFAULT_TIMEOUT_MS,
} from '../../runtime/fine-tunes/types.ts';
import { operation, type OperationsTable } from './operations.ts';

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
  | 'models.list'
  | 'models.search'
  | 'models.retrieve'
  | 'models.activate'
  | 'models.deactivate'
  | 'fineTunes.create'
  | 'fineTunes.tokenize'
  | 'fineTunes.run'
  | 'fineTunes.retrieve'
  | 'fineTunes.wait'
  | 'fineTunes.deploy';

/** One operation's metadata. */
export interface EndpointDoc {
  /** The operationId of the operation it performs (its method and path come from the operations table). */
  operation: string;
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

/** Milliseconds as the docs write them: `600_000`. */
function ms(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, '_');
}

/** Milliseconds in words: `10 minutes`, `one hour`, `30 seconds`. */
function human(value: number): string {
  if (value === 3_600_000) return 'one hour';
  if (value % 3_600_000 === 0) return `${value / 3_600_000} hours`;
  if (value % 60_000 === 0) return `${value / 60_000} minutes`;
  return `${value / 1000} seconds`;
}

/** What the constants the docs quote are: part of the generated models' inputs (their docs quote them). */
export function docsInputs(): string {
  return JSON.stringify([
    DEFAULT_TIMEOUT_MS,
    DEFAULT_TIMEOUTS_MS,
    QUEUE_RUN_DEFAULT_TIMEOUT_MS,
    FINE_TUNE_WAIT_DEFAULT_INTERVAL_MS,
    FINE_TUNE_WAIT_DEFAULT_TIMEOUT_MS,
  ]);
}

const NOT_RESENT = 'Never resent unless the service surely did not process it (429, connection refused).';
const DEFAULT_TIMEOUT = `\`timeoutMs\` (milliseconds) defaults to the client's, else ${ms(DEFAULT_TIMEOUT_MS)} (${human(DEFAULT_TIMEOUT_MS)}).`;
const REQUEST_OPTIONS = '`timeoutMs` (milliseconds), `signal`, `maxRetries`, `headers`.';
type Group = keyof typeof DEFAULT_TIMEOUTS_MS;
const groupTimeout = (g: Group): string =>
  `\`timeoutMs\` (milliseconds) defaults to ${ms(DEFAULT_TIMEOUTS_MS[g])} (${human(DEFAULT_TIMEOUTS_MS[g])}, \`DEFAULT_TIMEOUTS_MS.${g}\`) unless the client or the call sets one.`;
const groupOptions = (g: Group, extra = ''): string =>
  `\`timeoutMs\` (milliseconds; default ${ms(DEFAULT_TIMEOUTS_MS[g])}, ${human(DEFAULT_TIMEOUTS_MS[g])}${extra}), \`signal\`, \`maxRetries\`, \`headers\`.`;
const IMAGE_TIMEOUT = groupTimeout('images');
const OUTCOME_UNKNOWN = 'OutcomeUnknownError (5xx, reset or timeout while in flight, unusable answer: never resent)';
const BAD_PATH = (names: string) =>
  `SDKError, before sending, when ${names} is empty, \`.\` or \`..\` (or decodes to one)`;
const FINE_TUNE_PATH = BAD_PATH('`namespace`, `repo_name` or `id`');
const MODEL_OBJECT =
  'the model object (`Model`: `model_type`, `pricing`, `deployments`, ... as the service sends them), its schema normalised to `request_schema` (from `request_schema` or `json_request_schema`).';

/** The table. */
export const ENDPOINT_DOCS: Readonly<Record<EndpointKey, EndpointDoc>> = {
  'images.generate': {
    operation: 'imagesGenerate',
    summary: (m) => `Generate images${m ? ` with ${m}` : ''}, blocking until done (typically 5 to 30 seconds)`,
    details: '',
    timeout: IMAGE_TIMEOUT,
    options: groupOptions('images'),
    resend: NOT_RESENT,
    returns: "`ImageResult` whose items are `{ url }`, or `{ b64_json }` with `response_format: 'b64_json'`.",
    throws: `BadRequestError (\`Prompt cannot be empty\`), NotFoundError (\`Model not found: <name>\`), InsufficientCreditsError, ${OUTCOME_UNKNOWN}, TimeoutError, AbortError.`,
  },
  'images.edit': {
    operation: 'imagesEdit',
    summary: (m) => `Edit images${m ? ` with ${m}` : ''}, blocking until done (typically 5 to 30 seconds)`,
    details:
      "The model's own parameters as its schema states them: `input_image` (a URL or an array of URLs) is required exactly when the schema requires it (edit-only models), optional for models that can also generate.",
    timeout: IMAGE_TIMEOUT,
    options: groupOptions('images'),
    resend: NOT_RESENT,
    returns:
      "`ImageResult` typed by `response_format`: items `{ url }`, or `{ b64_json }` with `response_format: 'b64_json'`.",
    throws: `BadRequestError (an input URL the service could not fetch: 403 Forbidden), NotFoundError (\`Model not found: <name>\`), InsufficientCreditsError, ${OUTCOME_UNKNOWN}, TimeoutError, AbortError.`,
  },
  'videos.generate': {
    operation: 'videosGenerate',
    summary: (m) =>
      `Generate videos${m ? ` with ${m}` : ''}, blocking until the video is ready (1 to 15 minutes; prefer the queue for anything long)`,
    details:
      'Exactly one of `prompt` and `multi_prompt` (`[{ prompt, duration }]`, one item per shot, `duration` in seconds) for a model that takes a prompt (`VideoParams`).',
    timeout: groupTimeout('videos'),
    options: groupOptions('videos'),
    resend: NOT_RESENT,
    returns: '`VideoResult` typed by `response_format`: items `{ url }`, or `{ b64_json }`.',
    throws:
      'UnprocessableEntityError (`Getting model response error: 422 - Value error, ...` for both or neither of `prompt` / `multi_prompt`), NotFoundError, InsufficientCreditsError, OutcomeUnknownError (5xx, reset or timeout while in flight, unusable answer: never resent; the video may still be billed), TimeoutError, AbortError.',
  },
  'chat.completions.create': {
    operation: 'chatCompletionsCreate',
    summary: (m) =>
      `Create a chat completion${m ? ` with ${m}` : ''}, not streaming (stream with \`client.chat.completions.create({ stream: true })\`)`,
    details: '',
    timeout: groupTimeout('chat'),
    options: groupOptions('chat'),
    resend: NOT_RESENT,
    returns: 'the `ChatCompletion` (`choices[].message`, `usage`; `created` in Unix seconds).',
    throws: `BadRequestError (\`You must specify a model to call\`, \`Messages array cannot be empty\`), NotFoundError (\`Model not found: <name>\`), InsufficientCreditsError, ${OUTCOME_UNKNOWN}, TimeoutError, AbortError.`,
    functionOnly: {
      details: 'To stream, use `openChatStream`.',
      throws: 'SDKError when `body.stream` is true (nothing sent).',
    },
  },
  'chat.completions.stream': {
    operation: 'chatCompletionsCreate',
    summary: (m) => `Create a chat completion${m ? ` with ${m}` : ''} as a stream (\`stream: true\`)`,
    details:
      "Resolves, once the response headers arrived, to a `ChatCompletionStream`: an async iterable of `ChatCompletionChunk` that ends at the server's `data: [DONE]`; `finalChatCompletion()` collects it into one `ChatCompletion` (text and tool calls concatenated).",
    timeout: `\`timeoutMs\` (milliseconds; default ${ms(DEFAULT_TIMEOUTS_MS.chat)}, ${human(DEFAULT_TIMEOUTS_MS.chat)}, \`DEFAULT_TIMEOUTS_MS.chat\`) covers the whole stream; \`signal\` aborts it.`,
    options: groupOptions('chat', ', the whole stream'),
    resend: NOT_RESENT,
    returns: 'the `ChatCompletionStream` (`withResponse()` gives it with the live `Response`, its body unread).',
    throws:
      'BadRequestError (`You must specify a model to call`, `Messages array cannot be empty`), NotFoundError (`Model not found: <name>`), InsufficientCreditsError, OutcomeUnknownError (5xx, reset or timeout while in flight: never resent), TimeoutError, AbortError.',
  },
  'queue.enqueue': {
    operation: 'queueEnqueue',
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
        "`validate` is the model's compiled validator; without one only the queue's own fields are checked (`checkQueueBody`).",
    },
  },
  'queue.run': {
    operation: 'queueEnqueue',
    summary: (m) =>
      `Enqueue generations of ${m ?? 'an image or video model'} and follow each to one outcome (\`succeeded\` with \`url\`, \`failed\`, \`cancelled\` or \`lost\`) over the shared event stream (\`GET /api/events\`)`,
    details:
      'Validated first like `queue.enqueue`. `onEnqueued(ids)` is awaited once the service accepted the request, before waiting: persist the ids there, and `queue.follow` them after a restart. `onProgress` reports each step, `onEvent` each completion event.',
    timeout: `\`timeoutMs\` (milliseconds) covers the whole run: default ${ms(QUEUE_RUN_DEFAULT_TIMEOUT_MS)} (${human(QUEUE_RUN_DEFAULT_TIMEOUT_MS)}).`,
    options: `\`validate\`, \`timeoutMs\` (milliseconds; default ${ms(QUEUE_RUN_DEFAULT_TIMEOUT_MS)}, ${human(QUEUE_RUN_DEFAULT_TIMEOUT_MS)}, the whole run), \`signal\`, \`onEnqueued\`, \`onProgress\`, \`onEvent\`.`,
    resend: 'The enqueue is never resent unless the service surely did not process it (429, connection refused).',
    returns: 'One `QueueRunOutcome` per generation, in the order of the enqueue response.',
    throws:
      "ValidationError (nothing sent), the errors of `queue.enqueue`, the event stream's connection error, the error of `onEnqueued`, QueueRunTimeoutError after `timeoutMs`, QueueRunAbortError on `signal`.",
  },
  'queue.list': {
    operation: 'queueList',
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
    operation: 'queueGet',
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
    operation: 'queueCancel',
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
  'models.list': {
    operation: 'modelsList',
    summary: () =>
      'List the catalog of models, optionally of one developer (`developer_name`, e.g. `openai`) or fine-tuning action (`action`, a `script_type`)',
    details: "The items carry `request_schema: null`: a model's schema comes from `models.retrieve`.",
    timeout: DEFAULT_TIMEOUT,
    options: REQUEST_OPTIONS,
    resend: '',
    returns: "`{ object: 'list', data: Model[] }`.",
    throws:
      'AuthenticationError, InvalidResponseError (a body without a `data` array), TimeoutError, AbortError, ConnectionError.',
  },
  'models.search': {
    operation: 'modelsSearch',
    summary: () => 'Search the catalog of models by name',
    details: "The items carry `request_schema: null`: a model's schema comes from `models.retrieve`.",
    timeout: DEFAULT_TIMEOUT,
    options: REQUEST_OPTIONS,
    resend: '',
    returns: "`{ object: 'list', data: Model[] }`, the models whose name matches.",
    throws:
      'AuthenticationError, BadRequestError, InvalidResponseError (a body without a `data` array), TimeoutError, AbortError, ConnectionError.',
  },
  'models.retrieve': {
    operation: 'modelsRetrieve',
    summary: () => "Get a model's details, its request schema included",
    details:
      "`deployment_status: 'live'` has the service refresh a custom deployment's status first. A deployed fine-tune is retrieved by its `oxen:` slug.",
    timeout: DEFAULT_TIMEOUT,
    options: REQUEST_OPTIONS,
    resend: '',
    returns: MODEL_OBJECT,
    throws: `NotFoundError (\`Model not found: <id>\`), InvalidResponseError (an empty, \`null\` or non-object body); ${BAD_PATH('`id`')}.`,
  },
  'models.activate': {
    operation: 'modelsActivate',
    summary: () => 'Activate an inactive custom model deployment (billing starts; base models are always active)',
    details: '',
    timeout: DEFAULT_TIMEOUT,
    options: REQUEST_OPTIONS,
    resend: NOT_RESENT,
    returns: `${MODEL_OBJECT} Its \`deployments\` show the new status.`,
    throws: `NotFoundError (\`Model not found: <id>\`), BadRequestError, AuthenticationError, OutcomeUnknownError, TimeoutError, AbortError; ${BAD_PATH('`id`')}.`,
  },
  'models.deactivate': {
    operation: 'modelsDeactivate',
    summary: () => 'Deactivate an active custom model deployment, which stops its billing',
    details: '',
    timeout: DEFAULT_TIMEOUT,
    options: REQUEST_OPTIONS,
    resend: NOT_RESENT,
    returns: `${MODEL_OBJECT} Its \`deployments\` show the new status.`,
    throws: `NotFoundError (\`Model not found: <id>\`), BadRequestError, AuthenticationError, OutcomeUnknownError, TimeoutError, AbortError; ${BAD_PATH('`id`')}.`,
  },
  'fineTunes.create': {
    operation: 'fineTunesCreate',
    summary: () => 'Create a fine-tune from a dataset file of the repository',
    details:
      "`body` is typed by `script_type` (see `FineTuneCreateParams`): e.g. `{ resource: 'main/train.jsonl', base_model, script_type: 'text_generation', training_params: { question_column, answer_column } }`. It starts in status `created`: start it with `fineTunes.run`.",
    timeout: DEFAULT_TIMEOUT,
    options: REQUEST_OPTIONS,
    resend: NOT_RESENT,
    returns: '`{ fine_tune }`: the `FineTune` (`id`, `status`, ...).',
    throws: `NotFoundError (repository unknown), BadRequestError, AuthenticationError, PermissionDeniedError, InsufficientCreditsError, OutcomeUnknownError, TimeoutError, AbortError; ${BAD_PATH('`namespace` or `repo_name`')}.`,
  },
  'fineTunes.tokenize': {
    operation: 'fineTunesTokenize',
    summary: () => "Tokenize a fine-tune's dataset, only for a fine-tune in the `created` state",
    details: '',
    timeout: DEFAULT_TIMEOUT,
    options: REQUEST_OPTIONS,
    resend: NOT_RESENT,
    returns: '`{ fine_tune }`: the wrapped `FineTune`.',
    throws: `NotFoundError when the fine-tune does not exist; OutcomeUnknownError, TimeoutError, AbortError; ${FINE_TUNE_PATH}.`,
  },
  'fineTunes.run': {
    operation: 'fineTunesRun',
    summary: () => 'Start the training run of a created fine-tune',
    details: 'Follow it with `fineTunes.retrieve`, or wait for its end with `fineTunes.wait`.',
    timeout: DEFAULT_TIMEOUT,
    options: REQUEST_OPTIONS,
    resend: NOT_RESENT,
    returns: "the service's answer (its body is not shown by the docs: an open object).",
    throws: `NotFoundError when the fine-tune does not exist; BadRequestError (e.g. already running), InsufficientCreditsError, OutcomeUnknownError, TimeoutError, AbortError; ${FINE_TUNE_PATH}.`,
  },
  'fineTunes.retrieve': {
    operation: 'fineTunesRetrieve',
    summary: () => 'Get a fine-tune and its status',
    details:
      '`fine_tune.status` is `completed` (with `output_resource`), `errored` (with `error`) or `stopped` once it ended; other values while it runs.',
    timeout: DEFAULT_TIMEOUT,
    options: REQUEST_OPTIONS,
    resend: '',
    returns: '`{ fine_tune }`: the `FineTune`.',
    throws: `NotFoundError when the fine-tune does not exist; InvalidResponseError (a body without a \`fine_tune\` object), TimeoutError, AbortError, ConnectionError; ${FINE_TUNE_PATH}.`,
  },
  'fineTunes.wait': {
    operation: 'fineTunesRetrieve',
    summary: () =>
      'Wait until a fine-tune ends (`completed`, `errored` or `stopped`), reading it every `intervalMs` (milliseconds)',
    details: `\`intervalMs\` defaults to ${ms(FINE_TUNE_WAIT_DEFAULT_INTERVAL_MS)} (${human(FINE_TUNE_WAIT_DEFAULT_INTERVAL_MS)}, as the docs poll); \`onStatus\` is called with each fine-tune read. Each read is a \`fineTunes.retrieve\` (retried as a GET).`,
    timeout: `\`timeoutMs\` (milliseconds) covers the whole wait: default ${ms(FINE_TUNE_WAIT_DEFAULT_TIMEOUT_MS)} (${human(FINE_TUNE_WAIT_DEFAULT_TIMEOUT_MS)}); \`signal\` ends it.`,
    options: `\`intervalMs\` (milliseconds; default ${ms(FINE_TUNE_WAIT_DEFAULT_INTERVAL_MS)}), \`timeoutMs\` (milliseconds; default ${ms(FINE_TUNE_WAIT_DEFAULT_TIMEOUT_MS)}, the whole wait), \`signal\`, \`onStatus\`.`,
    resend: '',
    returns: 'the `FineTune` in its terminal status (an `errored` or `stopped` one too: check `status`).',
    throws: `FineTuneWaitTimeoutError after \`timeoutMs\` (with the last fine-tune read), AbortError on \`signal\`, the errors of \`fineTunes.retrieve\`, the error \`onStatus\` throws; SDKError, before sending, for an \`intervalMs\` or \`timeoutMs\` that is not a number above 0; ${FINE_TUNE_PATH}.`,
  },
  'fineTunes.deploy': {
    operation: 'fineTunesDeploy',
    summary: () => 'Deploy a completed fine-tune as a model',
    details:
      "`deployment.model_slug` (e.g. `oxen:<name>`) is the `model` to call it with, on its base model's endpoint; `models.retrieve(slug)` gives its request schema.",
    timeout: DEFAULT_TIMEOUT,
    options: REQUEST_OPTIONS,
    resend: NOT_RESENT,
    returns: '`{ deployment: { model_slug, ... } }`.',
    throws: `NotFoundError when the fine-tune does not exist; BadRequestError (not completed), InvalidResponseError or OutcomeUnknownError (an answer without \`deployment.model_slug\`), TimeoutError, AbortError; ${FINE_TUNE_PATH}.`,
  },
};

/** `` `METHOD /path` `` of the entry's operation, from the operations table. */
function request(d: EndpointDoc, table: OperationsTable): string {
  const op = operation(table, d.operation);
  return `\`${op.method} ${op.path}\``;
}

/** Sentences joined with one space, empty ones left out. */
function sentences(...parts: Array<string | undefined>): string {
  return parts.filter((p): p is string => p !== undefined && p !== '').join(' ');
}

/**
 * The doc text of a runtime function (`variant: 'function'`, `runtime/endpoints.ts`) or resource
 * method (`'method'`, `runtime/resources.ts`): the description first, then `@returns` and
 * `@throws`, each tag last in its own paragraph so that no sentence is read as part of a tag.
 */
export function runtimeDoc(key: EndpointKey, variant: 'function' | 'method', table: OperationsTable): string {
  const d = ENDPOINT_DOCS[key];
  const only = variant === 'function' ? d.functionOnly : undefined;
  return [
    sentences(`${d.summary()}: ${request(d, table)}.`, d.details, only?.details, d.timeout, d.resend),
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
export function modelFunctionDoc(key: EndpointKey, f: ModelFunctionDoc, table: OperationsTable): string {
  const d = ENDPOINT_DOCS[key];
  return [
    sentences(`${d.summary(`\`${f.id}\``)}: ${request(d, table)}.`, f.details ?? d.details, d.resend),
    `@param client ${f.params.client}`,
    `@param params ${f.params.params}`,
    `@param options ${d.options}`,
    `@returns ${d.returns}`,
    `@throws ${d.throws}`,
    ...(f.example === undefined ? [] : [`@example\n${f.example}`]),
    ...f.see.map((s) => `@see ${s}`),
  ].join('\n');
}
