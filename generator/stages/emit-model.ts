/**
 * Stage 6b, emit one model: the text of `generated/models/<id>.ts` (ts-morph's printer), without
 * its generated-file header: the parameter type, the schema as a const, the model id, and one
 * endpoint function per endpoint the model serves.
 *
 * Endpoint functions take a `Transport` (the root `Client` is one; `createTransport` makes a bare
 * one) and call the runtime's light endpoint functions (`runtime/endpoints.ts`,
 * `runtime/queue-run.ts`), so that a bundle of one model's call carries only what that call needs.
 * The queue functions validate with the model's own compiled validator (`generated/validators/<id>.ts`).
 */
import type { FunctionDeclarationStructure, StatementStructures } from 'ts-morph';
import type { ClassifiedModel, Endpoint } from './classify.ts';
import { commentText, stringLiteral } from '../escape.ts';
import type { ModelNames } from './name.ts';
import type { ModelType } from './types.ts';
import { packageTarget, type Target } from '../output/target.ts';

/** A model ready to emit. */
export type EmitModel = ClassifiedModel & { names: ModelNames; type: ModelType };

/** The client methods of an endpoint group (for docs and MODELS.md). */
export function endpointLabels(e: Endpoint): string[] {
  return e === 'chat' ? ['chat.completions.create'] : e === 'queue' ? ['queue.enqueue', 'queue.run'] : [e];
}

/** One endpoint function of a model module. */
export interface EndpointFn {
  suffix: string;
  doc: string;
  typeParams: string[];
  params: string;
  /** The options type. */
  options: string;
  returns: string;
  /** The runtime function it calls, and that function's module (`RuntimeSpecifiers`). */
  calls: { name: string; module: 'endpoints' | 'queueRun' };
  /** Whether the call passes the model's compiled validator. */
  validates: boolean;
  /** Runtime types it names. */
  types: string[];
}

/** Names of a model's endpoint functions, in emit order (for docs and MODELS.md). */
export function endpointFunctionNames(m: ClassifiedModel & { names: ModelNames }): string[] {
  return m.endpoints.flatMap((e) => SUFFIXES[e]).map((s) => `${m.names.camel}${s}`);
}

const SUFFIXES: Record<Endpoint, string[]> = {
  'images.generate': ['GenerateImage'],
  'images.edit': ['EditImage'],
  'videos.generate': ['GenerateVideo'],
  queue: ['Enqueue', 'Run'],
  chat: ['CreateChatCompletion'],
};

/** The endpoint functions of one endpoint group for a model. */
function endpointFunctions(e: Endpoint, m: EmitModel, validated: boolean): EndpointFn[] {
  const P = m.names.params;
  const id = m.id;
  const client =
    '@param client A `Transport`: the `Client` (from `oxen-inference-sdk`), or `createTransport(...)` from `oxen-inference-sdk/runtime`.';
  const opts = '@param options `timeoutMs` (milliseconds), `signal`, `maxRetries`, `headers`.';
  const media = ['APIPromise', 'ResponseFormat', 'MediaParams', 'Transport', 'RequestOptions'];
  // A video model's parameters carry the endpoint's `multi_prompt` (exactly one of prompt / multi_prompt: `VideoParams`).
  const own = m.output === 'video' ? `VideoParams<${P}>` : P;
  const ownTypes = m.output === 'video' ? ['VideoParams'] : [];
  const prompts =
    m.output === 'video' ? ', with exactly one of `prompt` and `multi_prompt` when it takes a prompt' : '';
  switch (e) {
    case 'images.generate':
      return [
        {
          suffix: 'GenerateImage',
          doc: `Generate images with \`${id}\`: \`POST /api/ai/images/generate\`, blocking until done (typically 5 to 30 seconds).\n${client}\n@param params The model's parameters (\`${P}\`), \`response_format\` and \`target_namespace\`.\n${opts}\n@returns \`ImageResult\` whose items are \`{ url }\`, or \`{ b64_json }\` with \`response_format: 'b64_json'\`.\n@throws BadRequestError, NotFoundError, InsufficientCreditsError, OutcomeUnknownError (never resent), TimeoutError, AbortError, and the other \`APIError\`s.`,
          typeParams: ["F extends ResponseFormat = 'url'"],
          params: `MediaParams<${P}, F>`,
          options: 'RequestOptions',
          returns: 'APIPromise<ImageResult<F>>',
          calls: { name: 'generateImages', module: 'endpoints' },
          validates: false,
          types: [...media, 'ImageResult'],
        },
      ];
    case 'images.edit':
      return [
        {
          suffix: 'EditImage',
          doc: `Edit images with \`${id}\`: \`POST /api/ai/images/edit\`, blocking until done. \`input_image\` is required exactly when the model's schema requires it (edit-only models).\n${client}\n@param params The model's parameters (\`${P}\`), \`response_format\` and \`target_namespace\`.\n${opts}\n@returns \`ImageResult\` typed by \`response_format\`.\n@throws BadRequestError (an input URL the service could not fetch), NotFoundError, InsufficientCreditsError, OutcomeUnknownError (never resent), TimeoutError, AbortError.`,
          typeParams: ["F extends ResponseFormat = 'url'"],
          params: `MediaParams<${P}, F>`,
          options: 'RequestOptions',
          returns: 'APIPromise<ImageResult<F>>',
          calls: { name: 'editImages', module: 'endpoints' },
          validates: false,
          types: [...media, 'ImageResult'],
        },
      ];
    case 'videos.generate':
      return [
        {
          suffix: 'GenerateVideo',
          doc: `Generate videos with \`${id}\`: \`POST /api/ai/videos/generate\`, blocking until the video is ready (1 to 15 minutes; prefer the queue).\n${client}\n@param params The model's parameters (\`${P}\`${prompts}), \`response_format\` and \`target_namespace\`.\n@param options \`timeoutMs\` (milliseconds; default 1_200_000, 20 minutes), \`signal\`, \`maxRetries\`, \`headers\`.\n@returns \`VideoResult\` typed by \`response_format\`.\n@throws UnprocessableEntityError, NotFoundError, InsufficientCreditsError, OutcomeUnknownError (never resent), TimeoutError, AbortError.`,
          typeParams: ["F extends ResponseFormat = 'url'"],
          params: `MediaParams<${own}, F>`,
          options: 'RequestOptions',
          returns: 'APIPromise<VideoResult<F>>',
          calls: { name: 'generateVideos', module: 'endpoints' },
          validates: false,
          types: [...media, ...ownTypes, 'VideoResult'],
        },
      ];
    case 'queue': {
      const check = validated
        ? "validated first against the model's schema (compiled at generate time) unless `validate: false`"
        : 'not validated (the model has no schema)';
      const queued = ['ResponseFormat', 'MediaParams', 'QueueFields', 'Transport', ...ownTypes];
      return [
        {
          suffix: 'Enqueue',
          doc: `Enqueue generations of \`${id}\`: \`POST /api/ai/queue\`, ${check}.\n${client}\n@param params The model's parameters (\`${P}\`${prompts}), \`num_generations\` (1 to 4), \`response_format\` and \`target_namespace\`.\n@param options \`validate\`, \`timeoutMs\` (milliseconds), \`signal\`, \`headers\`.\n@returns \`{ generations: [{ generation_id, status: 'processing' }] }\`.\n@throws ValidationError (nothing sent), NotFoundError, InsufficientCreditsError, OutcomeUnknownError (never resent: check \`queue.list\`).`,
          typeParams: [],
          params: `MediaParams<${own}, ResponseFormat, QueueFields>`,
          options: 'EnqueueOptions',
          returns: 'APIPromise<EnqueueResponse>',
          calls: { name: 'enqueueGenerations', module: 'endpoints' },
          validates: validated,
          types: [...queued, 'APIPromise', 'EnqueueResponse', 'EnqueueOptions'],
        },
        {
          suffix: 'Run',
          doc: `Enqueue generations of \`${id}\` and follow each to one outcome (\`succeeded\` with \`url\`, \`failed\`, \`cancelled\` or \`lost\`) over the event stream: \`queue.run\`, ${check}.\n${client}\n@param params The model's parameters (\`${P}\`${prompts}), \`num_generations\` (1 to 4), \`response_format\` and \`target_namespace\`.\n@param options \`validate\`, \`timeoutMs\` (milliseconds, default one hour), \`signal\`, \`onEnqueued\`, \`onProgress\`, \`onEvent\`.\n@returns One \`QueueRunOutcome\` per generation, in enqueue order.\n@throws ValidationError (nothing sent), QueueRunTimeoutError, QueueRunAbortError, and the errors of enqueue.`,
          typeParams: [],
          params: `MediaParams<${own}, ResponseFormat, QueueFields>`,
          options: 'QueueRunOptions',
          returns: 'Promise<QueueRunOutcome[]>',
          calls: { name: 'runGenerations', module: 'queueRun' },
          validates: validated,
          types: [...queued, 'QueueRunOutcome', 'QueueRunOptions'],
        },
      ];
    }
    case 'chat':
      return [
        {
          suffix: 'CreateChatCompletion',
          doc: `Create a chat completion with \`${id}\`: \`POST /api/ai/chat/completions\` (not streaming; stream with \`client.chat.completions.create({ stream: true })\`).\n${client}\n@param params The chat body without \`model\` (\`${P}\`: \`stream\` absent or false).\n${opts}\n@returns \`ChatCompletion\`.\n@throws BadRequestError, NotFoundError, InsufficientCreditsError, OutcomeUnknownError (never resent).`,
          typeParams: [],
          params: P,
          options: 'RequestOptions',
          returns: 'APIPromise<ChatCompletion>',
          calls: { name: 'createChatCompletion', module: 'endpoints' },
          validates: false,
          types: ['APIPromise', 'Transport', 'RequestOptions', 'ChatCompletion'],
        },
      ];
  }
}

/**
 * Placeholders for the two pieces of a model module made of model data: ts-morph's writer tracks
 * strings and comments naively (`"C:\\"` followed by `"image/*"` makes it close a comment it
 * thinks is open), so that text never goes through it; the caller puts it in after printing.
 */
export const TYPE_CODE = '__sdkTypeCode__';
export const SCHEMA_LITERAL = '__sdkSchemaLiteral__';

/** The statements of `generated/models/<id>.ts` (ts-morph structures), printed by the caller, with `TYPE_CODE` and `SCHEMA_LITERAL` to replace. */
export function modelStatements(
  m: EmitModel,
  hasValidator: boolean,
  StructureKind: typeof import('ts-morph').StructureKind,
  VariableDeclarationKind: typeof import('ts-morph').VariableDeclarationKind,
  target: Target = packageTarget,
): Array<string | StatementStructures> {
  const fns = m.endpoints.flatMap((e) => endpointFunctions(e, m, hasValidator));
  const types = new Set<string>([...m.type.runtimeImports, ...fns.flatMap((f) => f.types)]);
  const statements: Array<string | StatementStructures> = [];
  if (types.size > 0)
    statements.push({
      kind: StructureKind.ImportDeclaration,
      isTypeOnly: true,
      moduleSpecifier: target.runtime.types,
      namedImports: [...types].sort(),
    });
  for (const module of ['endpoints', 'queueRun'] as const) {
    const names = [...new Set(fns.filter((f) => f.calls.module === module).map((f) => f.calls.name))].sort();
    if (names.length > 0)
      statements.push({
        kind: StructureKind.ImportDeclaration,
        moduleSpecifier: target.runtime[module],
        namedImports: names,
      });
  }
  if (fns.some((f) => f.validates))
    statements.push({
      kind: StructureKind.ImportDeclaration,
      moduleSpecifier: `../validators/${m.id}${target.ext}`,
      namedImports: ['validate'],
    });
  statements.push(TYPE_CODE);
  statements.push({
    kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: [
      {
        description: commentText(
          `The request schema of \`${m.id}\` exactly as in \`${m.file}\`${m.schemaField ? ` (field \`${m.schemaField}\`)` : ' (null)'}, as data.${hasValidator ? ` The queue functions validate with its compiled validator (\`${target.prefix}validators/${m.id}.ts\`), not with this object.` : ''}`,
        ),
      },
    ],
    declarations: [
      {
        name: m.names.schema,
        type: m.schema === null ? 'null' : 'Readonly<Record<string, unknown>>',
        initializer: m.schema === null ? 'null' : SCHEMA_LITERAL,
      },
    ],
  });
  statements.push({
    kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: [{ description: commentText(`The model id of \`${m.names.params}\`.`) }],
    declarations: [{ name: `${m.names.camel}Id`, initializer: `${stringLiteral(m.id)} as const` }],
  });
  for (const f of fns) {
    const args = [
      'client',
      `{ ...params, model: ${stringLiteral(m.id)} }`,
      'options',
      ...(f.validates ? ['validate'] : []),
    ];
    const call = `${f.calls.name}(${args.join(', ')})`;
    const fn: FunctionDeclarationStructure = {
      kind: StructureKind.Function,
      isExported: true,
      name: `${m.names.camel}${f.suffix}`,
      docs: [{ description: commentText(f.doc) }],
      typeParameters: f.typeParams,
      parameters: [
        { name: 'client', type: 'Transport' },
        { name: 'params', type: f.params },
        { name: 'options', type: f.options, hasQuestionToken: true },
      ],
      returnType: f.returns,
      statements: `return ${call}${f.typeParams.length > 0 ? ` as ${f.returns}` : ''};`,
    };
    statements.push(fn);
  }
  return statements;
}
