/**
 * Stage 6, emit: build the text of every output file (unformatted; the write stage formats).
 * - `generated/models/<id>.ts` (ts-morph): the parameter type, the schema as a const, and one
 *   endpoint function per endpoint the model serves.
 * - `generated/index.ts` (ts-morph): `ModelId`, the per-endpoint id unions, `ModelParams`, the
 *   schema source and `Client` specialised with them.
 * - `generated/openapi.ts` (openapi-typescript): types of the fixed endpoints.
 * - `generated/MODELS.md` (handlebars): one row per model.
 * Headers come from `templates/header.hbs`.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import Handlebars from 'handlebars';
import { Worker } from 'node:worker_threads';
import { printStructure, StructureKind, VariableDeclarationKind, type FunctionDeclarationStructure, type SourceFileStructure, type StatementStructures } from 'ts-morph';
import type { ClassifiedModel, Endpoint } from './classify.ts';
import type { OpenApiDoc, Specs } from './load.ts';
import type { ModelNames } from './name.ts';
import { escapeComment, type ModelType } from './types.ts';

/** A model ready to emit. */
export type EmitModel = ClassifiedModel & { names: ModelNames; type: ModelType };

/** Output: path relative to the repository root -> file text. */
export type OutputFiles = Map<string, string>;

/** The compiled templates. */
export interface Templates {
  header: Handlebars.TemplateDelegate<{ sources: string[] }>;
  modelDoc: Handlebars.TemplateDelegate<Record<string, unknown>>;
  modelsMd: Handlebars.TemplateDelegate<{ models: Array<Record<string, unknown>> }>;
}

/** Load and compile the handlebars templates of `templatesDir`. */
export async function loadTemplates(templatesDir: string): Promise<Templates> {
  const hb = Handlebars.create();
  // Markdown table cell: no newlines, no pipes.
  hb.registerHelper('cell', (v: unknown) => String(v ?? '').replace(/\r?\n/g, ' ').replace(/\|/g, '\\|'));
  const read = (f: string) => readFile(path.join(templatesDir, f), 'utf8');
  const opts = { noEscape: true, strict: false };
  return {
    header: hb.compile(await read('header.hbs'), opts),
    modelDoc: hb.compile(await read('model-doc.hbs'), opts),
    modelsMd: hb.compile(await read('models.md.hbs'), opts),
  };
}

const RUNTIME = '../../runtime/index.ts';

/** What a null schema means for the model's parameters (for its doc comment). */
function nullMeaning(m: ClassifiedModel): string {
  if (m.uncovered !== undefined) return 'its parameters are unknown';
  if (m.output === 'text') return "it takes the standard chat-completions body";
  return "it takes the endpoint's parameters as the API description lists them";
}

/** The doc comment text of a model's parameter type. */
export function modelDoc(t: Templates, m: ClassifiedModel): string {
  return t
    .modelDoc({
      id: m.id,
      displayName: m.displayName ?? m.id,
      description: m.description,
      file: m.file,
      schemaField: m.schemaField,
      nullMeaning: nullMeaning(m),
      endpoints: m.endpoints.flatMap(endpointLabels),
      uncovered: m.uncovered,
    })
    .trim();
}

/** The client methods of an endpoint group. */
function endpointLabels(e: Endpoint): string[] {
  return e === 'chat' ? ['chat.completions.create'] : e === 'queue' ? ['queue.enqueue', 'queue.run'] : [e];
}

/** A JSDoc block as ts-morph wants it (escaped). */
function docs(text: string): [{ description: string }] {
  return [{ description: escapeComment(text) }];
}

interface EndpointFn {
  suffix: string;
  /** The options type (default `RequestOptions`). */
  optionsType?: string;
  doc: string;
  typeParams: string[];
  params: string;
  returns: string;
  call: string;
  imports: string[];
}

/** The endpoint functions of one endpoint group for a model. */
function endpointFunctions(e: Endpoint, m: EmitModel): EndpointFn[] {
  const P = m.names.params;
  const id = JSON.stringify(m.id);
  const client = `@param client A \`Client\` (the generated one, or the runtime's).`;
  const opts = `@param options \`timeoutMs\` (milliseconds) and \`signal\`.`;
  switch (e) {
    case 'images.generate':
      return [{ suffix: 'GenerateImage', doc: `Generate images with \`${m.id}\`: \`POST /api/ai/images/generate\`, blocking until done (typically 5 to 30 seconds).\n${client}\n@param params The model's parameters (\`${P}\`), \`response_format\` and \`target_namespace\`.\n${opts}\n@returns \`ImageResult\` whose items are \`{ url }\`, or \`{ b64_json }\` with \`response_format: 'b64_json'\`.\n@throws BadRequestError, NotFoundError, InsufficientCreditsError, and the other \`APIError\`s of \`client.images.generate\`.`, typeParams: ["F extends ResponseFormat = 'url'"], params: `MediaParams<${P}, F>`, returns: 'Promise<ImageResult<F>>', call: `client.images.generate({ ...params, model: ${id} }, options)`, imports: ['ResponseFormat', 'MediaParams', 'ImageResult'] }];
    case 'images.edit':
      return [{ suffix: 'EditImage', doc: `Edit images with \`${m.id}\`: \`POST /api/ai/images/edit\` (\`input_image\` required), blocking until done.\n${client}\n@param params The model's parameters (\`${P}\`) with \`input_image\`, \`response_format\` and \`target_namespace\`.\n${opts}\n@returns \`ImageResult\` typed by \`response_format\`.\n@throws BadRequestError (an input URL the service could not fetch), NotFoundError, InsufficientCreditsError.`, typeParams: ["F extends ResponseFormat = 'url'"], params: `MediaParams<WithInputImage<${P}>, F>`, returns: 'Promise<ImageResult<F>>', call: `client.images.edit({ ...params, model: ${id} }, options)`, imports: ['ResponseFormat', 'MediaParams', 'WithInputImage', 'ImageResult'] }];
    case 'videos.generate':
      return [{ suffix: 'GenerateVideo', doc: `Generate videos with \`${m.id}\`: \`POST /api/ai/videos/generate\`, blocking until the video is ready (1 to 15 minutes; prefer the queue).\n${client}\n@param params The model's parameters (\`${P}\`), \`response_format\` and \`target_namespace\`.\n${opts}\n@returns \`VideoResult\` typed by \`response_format\`.\n@throws UnprocessableEntityError, NotFoundError, InsufficientCreditsError.`, typeParams: ["F extends ResponseFormat = 'url'"], params: `MediaParams<${P}, F>`, returns: 'Promise<VideoResult<F>>', call: `client.videos.generate({ ...params, model: ${id} }, options)`, imports: ['ResponseFormat', 'MediaParams', 'VideoResult'] }];
    case 'queue':
      return [
        { suffix: 'Enqueue', doc: `Enqueue generations of \`${m.id}\`: \`POST /api/ai/queue\`, validated against the model's schema first unless \`validate: false\`.\n${client}\n@param params The model's parameters (\`${P}\`), \`num_generations\` (1 to 4), \`response_format\` and \`target_namespace\`.\n@param options \`validate\`, \`timeoutMs\` (milliseconds) and \`signal\`.\n@returns \`{ generations: [{ generation_id, status: 'processing' }] }\`.\n@throws ValidationError (nothing sent), NotFoundError, InsufficientCreditsError, OutcomeUnknownError.`, typeParams: [], params: `MediaParams<${P}, ResponseFormat, QueueFields>`, optionsType: 'EnqueueOptions', returns: 'Promise<EnqueueResponse>', call: `client.queue.enqueue({ ...params, model: ${id} }, options)`, imports: ['ResponseFormat', 'MediaParams', 'QueueFields', 'EnqueueResponse', 'EnqueueOptions'] },
        { suffix: 'Run', doc: `Enqueue generations of \`${m.id}\` and follow each to one outcome (\`succeeded\` with \`url\`, \`failed\`, \`cancelled\` or \`lost\`): \`queue.run\`.\n${client}\n@param params The model's parameters (\`${P}\`), \`num_generations\` (1 to 4), \`response_format\` and \`target_namespace\`.\n@param options \`validate\`, \`timeoutMs\` (milliseconds, default one hour), \`signal\`, \`onProgress\`, \`onEvent\`.\n@returns One \`QueueRunOutcome\` per generation, in enqueue order.\n@throws ValidationError (nothing sent), QueueRunTimeoutError, QueueRunAbortError, and the errors of enqueue.`, typeParams: [], params: `MediaParams<${P}, ResponseFormat, QueueFields>`, optionsType: 'QueueRunOptions', returns: 'Promise<QueueRunOutcome[]>', call: `client.queue.run({ ...params, model: ${id} }, options)`, imports: ['ResponseFormat', 'MediaParams', 'QueueFields', 'QueueRunOutcome', 'QueueRunOptions'] },
      ];
    case 'chat':
      return [{ suffix: 'CreateChatCompletion', doc: `Create a chat completion with \`${m.id}\`: \`POST /api/ai/chat/completions\` (not streaming).\n${client}\n@param params The chat body without \`model\` (\`${P}\`).\n${opts}\n@returns \`ChatCompletion\`.\n@throws BadRequestError, NotFoundError, InsufficientCreditsError.`, typeParams: [], params: `${P} & { stream?: false }`, returns: 'Promise<ChatCompletion>', call: `client.chat.completions.create({ ...params, model: ${id} }, options)`, imports: ['ChatCompletion'] }];
  }
}

/** Print a source file structure to text (ts-morph's printer: no parsing, no project). */
function print(statements: Array<string | StatementStructures>): string {
  const structure: SourceFileStructure = { kind: StructureKind.SourceFile, statements };
  return printStructure(structure, { indentNumberOfSpaces: 2, useSingleQuote: true });
}

/** Text of `generated/models/<id>.ts`. */
function modelModule(t: Templates, m: EmitModel, openapiFile: string): string {
  const fns = m.endpoints.flatMap((e) => endpointFunctions(e, m));
  const imports = new Set<string>([...m.type.runtimeImports, ...fns.flatMap((f) => f.imports)]);
  if (fns.length > 0) imports.add('Client');
  if (fns.some((f) => f.optionsType === undefined)) imports.add('RequestOptions');
  const statements: Array<string | StatementStructures> = [];
  if (imports.size > 0) statements.push({ kind: StructureKind.ImportDeclaration, isTypeOnly: true, moduleSpecifier: RUNTIME, namedImports: [...imports].sort() });
  statements.push('\n' + m.type.code);
  statements.push({
    kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: docs(`The request schema of \`${m.id}\` exactly as in \`${m.file}\`${m.schemaField ? ` (field \`${m.schemaField}\`)` : ' (null)'}${m.endpoints.includes('queue') ? '; the client validates queue requests against it' : ''}.`),
    declarations: [{ name: m.names.schema, initializer: m.schema === null ? 'null' : `${JSON.stringify(m.schema, null, 2)} as const` }],
  });
  statements.push({
    kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: docs(`The model id of \`${m.names.params}\`.`),
    declarations: [{ name: `${m.names.camel}Id`, initializer: `${JSON.stringify(m.id)} as const` }],
  });
  for (const f of fns) {
    const fn: FunctionDeclarationStructure = {
      kind: StructureKind.Function,
      isExported: true,
      name: `${m.names.camel}${f.suffix}`,
      docs: docs(f.doc),
      typeParameters: f.typeParams,
      parameters: [
        { name: 'client', type: 'Client<any>' },
        { name: 'params', type: f.params },
        { name: 'options', type: f.optionsType ?? 'RequestOptions', hasQuestionToken: true },
      ],
      returnType: f.returns,
      statements: `return ${f.call} as ${f.returns};`,
    };
    statements.push(fn);
  }
  const sources = [m.file];
  if (fns.length > 0 || m.type.runtimeImports.length > 0) sources.push(openapiFile);
  return t.header({ sources }) + '\n' + print(statements);
}

/** Union of string literal types, or `never`. */
function union(ids: string[]): string {
  return ids.length === 0 ? 'never' : ids.map((id) => JSON.stringify(id)).join(' | ');
}

/** Text of `generated/index.ts`. */
function indexModule(t: Templates, models: EmitModel[], specs: Specs): string {
  const st: Array<string | StatementStructures> = [];
  st.push({ kind: StructureKind.ImportDeclaration, moduleSpecifier: '../runtime/index.ts', namedImports: ['Client as RuntimeClient'] });
  st.push({ kind: StructureKind.ImportDeclaration, isTypeOnly: true, moduleSpecifier: '../runtime/index.ts', namedImports: ['ClientOptions', 'Registry', 'SchemaSource'] });
  for (const m of models) st.push({ kind: StructureKind.ImportDeclaration, isTypeOnly: true, moduleSpecifier: `./models/${m.id}.ts`, namedImports: [m.names.params] });
  st.push({ kind: StructureKind.ExportDeclaration, isTypeOnly: true, namedExports: models.map((m) => m.names.params) });
  st.push({ kind: StructureKind.ExportDeclaration, isTypeOnly: true, moduleSpecifier: './openapi.ts', namedExports: ['paths', 'components', 'operations'] });
  const by = (e: Endpoint) => models.filter((m) => m.endpoints.includes(e)).map((m) => m.id);
  const aliases: Array<[string, string, string]> = [
    ['ModelId', union(models.map((m) => m.id)), `Every model id of the snapshot (${models.length}).`],
    ['ImageGenerateModelId', union(by('images.generate')), 'Model ids served by `images.generate`.'],
    ['ImageEditModelId', union(by('images.edit')), 'Model ids served by `images.edit`.'],
    ['VideoModelId', union(by('videos.generate')), 'Model ids served by `videos.generate`.'],
    ['QueueModelId', union(by('queue')), 'Model ids accepted by the queue (`queue.enqueue`, `queue.run`): the image and video models.'],
    ['ChatModelId', union(by('chat')), 'Model ids served by `chat.completions.create`.'],
  ];
  for (const [name, type, doc] of aliases) st.push({ kind: StructureKind.TypeAlias, isExported: true, name, type, docs: docs(`${doc}\nGenerated from \`${specs.label}/models.json\`.`) });
  st.push({ kind: StructureKind.Interface,
    isExported: true,
    name: 'ModelParams',
    docs: docs('Model id -> that model\'s own parameters (`ModelParams[\'flux-2-pro\']` is `Flux2ProParams`).'),
    properties: models.map((m) => ({ name: JSON.stringify(m.id), type: m.names.params })),
  });
  st.push({ kind: StructureKind.Interface,
    isExported: true,
    name: 'ModelRegistry',
    extends: ['Registry'],
    docs: docs('The snapshot\'s models as the runtime `Client` is generic over them.'),
    properties: [
      { name: 'params', type: 'ModelParams' },
      { name: 'imageGenerate', type: 'ImageGenerateModelId' },
      { name: 'imageEdit', type: 'ImageEditModelId' },
      { name: 'video', type: 'VideoModelId' },
      { name: 'queue', type: 'QueueModelId' },
      { name: 'chat', type: 'ChatModelId' },
    ],
  });
  st.push({ kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: docs('Every model id of the snapshot, in the order of `models.json`.'),
    declarations: [{ name: 'MODEL_IDS', type: 'readonly ModelId[]', initializer: `[${models.map((m) => JSON.stringify(m.id)).join(', ')}]` }],
  });
  st.push({ kind: StructureKind.VariableStatement,
    declarationKind: VariableDeclarationKind.Const,
    docs: docs('Loads one model module on demand (a user of one model does not load the others).'),
    declarations: [
      {
        name: 'schemaLoaders',
        type: 'Record<string, () => Promise<Record<string, unknown> | null>>',
        initializer: `{\n${models.map((m) => `${JSON.stringify(m.id)}: async () => (await import(${JSON.stringify(`./models/${m.id}.ts`)})).${m.names.schema} as Record<string, unknown> | null`).join(',\n')}\n}`,
      },
    ],
  });
  st.push({ kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: docs('The snapshot\'s request schemas by model id (undefined for an id the snapshot does not have). `Client` validates queue requests with it.'),
    declarations: [{ name: 'snapshotSchemas', type: 'SchemaSource', initializer: '(model) => (Object.hasOwn(schemaLoaders, model) ? schemaLoaders[model]!() : Promise.resolve(undefined))' }],
  });
  st.push({ kind: StructureKind.Class,
    isExported: true,
    name: 'Client',
    extends: 'RuntimeClient<ModelRegistry>',
    docs: docs(
      'The SDK client, typed with the snapshot\'s models: `model` autocompletes per endpoint, each model\'s parameters are checked, results are typed by `response_format`.\nOptions: `apiKey` (default env `OXEN_API_KEY`), `baseUrl` (default env `OXEN_BASE_URL`, then https://hub.oxen.ai), `fetch`, `timeoutMs` (milliseconds), `maxRetries`; queue requests are validated against the snapshot\'s schemas.\nFor a model newer than the snapshot, use `client.untyped`.',
    ),
    ctors: [{ parameters: [{ name: 'options', type: 'ClientOptions', initializer: '{}' }], statements: 'super({ schemas: snapshotSchemas, ...options });' }],
  });
  return t.header({ sources: [`${specs.label}/models.json`, `${specs.label}/models/*.json`] }) + '\n' + print(st);
}

/**
 * Start building `generated/openapi.ts` in a worker thread (openapi-typescript, then prettier with
 * `prettierOptions`), so that it overlaps the per-model work. Resolves to the formatted text.
 */
export function startOpenapiModule(t: Templates, doc: OpenApiDoc, file: string, prettierOptions: Record<string, unknown>): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./openapi-worker.mjs', import.meta.url), {
      workerData: { doc, header: t.header({ sources: [file] }), prettierOptions },
    });
    worker.once('message', (m: { text?: string; error?: string }) => {
      void worker.terminate();
      if (m.text !== undefined) resolve(m.text);
      else reject(new Error(`openapi-typescript failed on ${file}: ${m.error}`));
    });
    worker.once('error', reject);
  });
}

/** Text of `generated/MODELS.md`. */
function modelsMarkdown(t: Templates, models: EmitModel[]): string {
  return t.modelsMd({
    models: models.map((m) => ({
      id: m.id,
      displayName: m.displayName ?? '',
      endpoints: m.endpoints.flatMap(endpointLabels),
      uncovered: m.uncovered,
      required: m.type.required,
      optional: m.type.optional,
      nullSchema: m.schema === null,
    })),
  });
}

/**
 * Emit every per-model module, the index and MODELS.md (unformatted). `generated/openapi.ts` is
 * built separately by `startOpenapiModule`. Pure: reads only its arguments.
 */
export function emit(specs: Specs, models: EmitModel[], t: Templates): OutputFiles {
  const out: OutputFiles = new Map();
  const openapiFile = `${specs.label}/openapi.yaml`;
  for (const m of models) out.set(`generated/models/${m.id}.ts`, modelModule(t, m, openapiFile));
  out.set('generated/index.ts', indexModule(t, models, specs));
  out.set('generated/MODELS.md', modelsMarkdown(t, models));
  return out;
}
