/**
 * Stage 6b, emit one model: the text of `generated/models/<id>.ts` (ts-morph's printer), without
 * its generated-file header: the parameter type, the schema as a const, the model id, and one
 * endpoint function per endpoint the model serves.
 *
 * Endpoint functions take a `Transport` (the root `Client` is one; `createTransport` makes a bare
 * one) and call the runtime's light endpoint functions (`runtime/endpoints.ts`,
 * `runtime/queue/run.ts`), so that a bundle of one model's call carries only what that call needs.
 * The queue functions validate with the model's own compiled validator (`generated/validators/<id>.ts`).
 */
import type { ClassifiedModel, Endpoint } from './classify.ts';
import { modelFunctionDoc, type EndpointKey } from './endpoint-docs.ts';
import type { OperationsTable } from './operations.ts';
import { exampleBlock, exampleParams } from './example.ts';
import { modelAnchor, type ModelNames } from './name.ts';
import type { ModelType } from './types.ts';
import type { Target } from '../output/target.ts';
import { ref, type TypeParamSpec, type TypeSpec } from './printer.ts';

/** A model ready to emit. */
export type EmitModel = ClassifiedModel & { names: ModelNames; type: ModelType };

/** The client methods of an endpoint group (for docs and MODELS.md). */
export function endpointLabels(e: Endpoint): string[] {
  return e === 'chat' ? ['chat.completions.create'] : e === 'queue' ? ['queue.enqueue', 'queue.run'] : [e];
}

/** One endpoint function of a model module. */
export interface EndpointFn {
  suffix: string;
  /** The operation whose entry of the endpoint table documents it. */
  key: EndpointKey;
  /** Sentences on this model's body in place of the table's, if any. */
  details?: string;
  /** The `@param params` text. */
  paramsDoc: string;
  typeParams: TypeParamSpec[];
  /** The named parameter type it takes (exported from the model module), or undefined for the model's own `<Pascal>Params`. */
  paramsType?: { name: string; typeParams: TypeParamSpec[]; type: TypeSpec; doc: string };
  params: TypeSpec;
  /** The options type. */
  options: string;
  returns: TypeSpec;
  /** How the example names the result (`const { images } =`). */
  result: string;
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

/** Where the runtime function that a generated function calls is exported from, for `@see`. */
const RUNTIME_ENTRY: Record<EndpointFn['calls']['module'], string> = {
  endpoints: 'oxen-inference-sdk/runtime',
  queueRun: 'oxen-inference-sdk',
};

const CLIENT_DOC =
  'A `Transport`: the `Client` (from `oxen-inference-sdk`), or `createTransport(...)` from `oxen-inference-sdk/runtime`.';

/** The endpoint functions of one endpoint group for a model. */
export function endpointFunctions(e: Endpoint, m: EmitModel, validated: boolean): EndpointFn[] {
  const P = m.names.params;
  const pascal = m.names.pascal;
  const media = ['APIPromise', 'ResponseFormat', 'MediaParams', 'Transport', 'RequestOptions'];
  // A video model's parameters carry the endpoint's `multi_prompt` (exactly one of prompt / multi_prompt:
  // `VideoParams`).
  const video = m.output === 'video';
  const own = video ? ref('VideoParams', P) : P;
  const ownTypes = video ? ['VideoParams'] : [];
  const prompts = video ? ', with exactly one of `prompt` and `multi_prompt` when it takes a prompt' : '';
  const format: TypeParamSpec = { name: 'F', constraint: 'ResponseFormat', default: { literal: 'url' } };
  const mediaType = (suffix: string, what: string, inner: TypeSpec) => ({
    name: `${pascal}${suffix}Params`,
    typeParams: [format],
    type: ref('MediaParams', inner, 'F'),
    doc: `The parameters of \`${m.names.camel}${suffix}\`: ${what}, \`response_format\` (\`F\`: \`'url'\` or \`'b64_json'\`, which types the result) and \`target_namespace\`; \`model\` is set by the function.`,
  });
  // The three media endpoints: one function each, typed by `response_format` (`F`).
  const mediaFn = (o: {
    suffix: string;
    key: EndpointFn['key'];
    calls: string;
    result: 'images' | 'videos';
    details?: string;
  }): EndpointFn[] => {
    const isVideo = o.result === 'videos';
    const what = `the model's parameters (\`${P}\`${isVideo ? prompts : ''})`;
    const t = mediaType(o.suffix, what, isVideo ? own : P);
    const resultType = isVideo ? 'VideoResult' : 'ImageResult';
    return [
      {
        suffix: o.suffix,
        key: o.key,
        ...(o.details ? { details: o.details } : {}),
        paramsDoc: `\`${t.name}\`: ${what}, \`response_format\` and \`target_namespace\`.`,
        typeParams: [format],
        paramsType: t,
        params: ref(t.name, 'F'),
        options: 'RequestOptions',
        returns: ref('APIPromise', ref(resultType, 'F')),
        result: `const { ${o.result} } =`,
        calls: { name: o.calls, module: 'endpoints' },
        validates: false,
        types: [...media, ...(isVideo ? ownTypes : []), resultType],
      },
    ];
  };
  switch (e) {
    case 'images.generate':
      return mediaFn({ suffix: 'GenerateImage', key: 'images.generate', calls: 'generateImages', result: 'images' });
    case 'images.edit':
      return mediaFn({
        suffix: 'EditImage',
        key: 'images.edit',
        calls: 'editImages',
        result: 'images',
        details:
          "`input_image` is required exactly when the model's schema requires it (edit-only models), optional for a model that can also generate.",
      });
    case 'videos.generate':
      return mediaFn({ suffix: 'GenerateVideo', key: 'videos.generate', calls: 'generateVideos', result: 'videos' });
    case 'queue': {
      const check = validated
        ? "The body is validated first against the model's schema (compiled at generate time) unless `validate: false`."
        : 'The body is not validated (the model has no schema), but for the queue fields.';
      const queued = ['ResponseFormat', 'MediaParams', 'QueueFields', 'Transport', ...ownTypes];
      const t = {
        name: `${pascal}QueueParams`,
        typeParams: [],
        type: ref('MediaParams', own, 'ResponseFormat', 'QueueFields'),
        doc: `The parameters of \`${m.names.camel}Enqueue\` and \`${m.names.camel}Run\`: the model's parameters (\`${P}\`${prompts}), \`num_generations\` (1 to 4), \`response_format\` and \`target_namespace\`; \`model\` is set by the function.`,
      };
      const paramsDoc = `\`${t.name}\`: the model's parameters (\`${P}\`${prompts}), \`num_generations\` (1 to 4), \`response_format\` and \`target_namespace\`.`;
      return [
        {
          suffix: 'Enqueue',
          key: 'queue.enqueue',
          details: check,
          paramsDoc,
          typeParams: [],
          paramsType: t,
          params: t.name,
          options: 'EnqueueOptions',
          returns: ref('APIPromise', 'EnqueueResponse'),
          result: 'const { generations } =',
          calls: { name: 'enqueueGenerations', module: 'endpoints' },
          validates: validated,
          types: [...queued, 'APIPromise', 'EnqueueResponse', 'EnqueueOptions'],
        },
        {
          suffix: 'Run',
          key: 'queue.run',
          details: `${check} \`onEnqueued(ids)\` is awaited once the service accepted the request: persist the ids there, and \`queue.follow\` them after a restart.`,
          paramsDoc,
          typeParams: [],
          params: t.name,
          options: 'QueueRunOptions',
          returns: ref('Promise', { array: 'QueueRunOutcome' }),
          result: 'const outcomes =',
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
          key: 'chat.completions.create',
          paramsDoc: `The chat body without \`model\` (\`${P}\`: \`stream\` absent or false).`,
          typeParams: [],
          params: P,
          options: 'RequestOptions',
          returns: ref('APIPromise', 'ChatCompletion'),
          result: 'const completion =',
          calls: { name: 'createChatCompletion', module: 'endpoints' },
          validates: false,
          types: ['APIPromise', 'Transport', 'RequestOptions', 'ChatCompletion'],
        },
      ];
  }
}

/** The doc text of one endpoint function (unescaped; the caller passes it through `commentText`). */
export function functionDoc(m: EmitModel, f: EndpointFn, target: Target, operations: OperationsTable): string {
  const name = `${m.names.camel}${f.suffix}`;
  const args = exampleParams(m);
  const see = [
    `\`${f.calls.name}\` (\`${RUNTIME_ENTRY[f.calls.module]}\`), which it calls; \`client.${ENDPOINT_METHOD[f.key]}\` takes the same body with \`model\`.`,
  ];
  if (target.packageFiles)
    see.unshift(
      `The model reference, \`generated/MODELS.md\` in the \`oxen-inference-sdk\` package, section \`${m.id}\` (\`#${modelAnchor(m.id)}\`).`,
    );
  return modelFunctionDoc(
    f.key,
    {
      id: m.id,
      ...(f.details !== undefined ? { details: f.details } : {}),
      params: { client: CLIENT_DOC, params: f.paramsDoc },
      ...(args === undefined ? {} : { example: exampleBlock(`${f.result} await ${name}(client, ${args});`) }),
      see,
    },
    operations,
  );
}

/** The client method of each operation a generated function performs. */
const ENDPOINT_METHOD: Partial<Record<EndpointKey, string>> = {
  'images.generate': 'images.generate',
  'images.edit': 'images.edit',
  'videos.generate': 'videos.generate',
  'queue.enqueue': 'queue.enqueue',
  'queue.run': 'queue.run',
  'chat.completions.create': 'chat.completions.create',
};
