/**
 * Stage 6, emit: the text of each output file, without its generated-file header (the write stage
 * formats the body and adds the header).
 * - `generated/models/<id>.ts`: `generator/emit-model.ts` (printed by ts-morph);
 * - `generated/validators/<id>.ts`: `generator/validators.ts` (ajv standalone code);
 * - `generated/index.ts` (ts-morph): `ModelId`, the per-endpoint id unions, `ModelParams`,
 *   `snapshotValidators` (one lazy `import()` per model) and `Client` specialised with them;
 * - `generated/openapi.ts`: openapi-typescript, in a worker thread (`generator/openapi-worker.mjs`);
 *   its own entry point (`oxen-inference-sdk/openapi`), not re-exported by the index, so that a
 *   consumer's compile does not load the description's types with the client's;
 * - `generated/MODELS.md`: the model reference (`generator/reference.ts`, `templates/models.md.hbs`).
 * ts-morph and openapi-typescript are loaded only when a file that needs them is emitted.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import Handlebars from 'handlebars';
import type { StatementStructures } from 'ts-morph';
import type { ClassifiedModel, Endpoint } from './classify.ts';
import { endpointLabels, modelStatements, SCHEMA_LITERAL, TYPE_CODE, type EmitModel } from './emit-model.ts';
import { commentText, docText, jsonLiteral, stringLiteral } from '../escape.ts';
import type { OpenApiDoc } from './load.ts';
import type { ModelNames } from './name.ts';
import { REPO_ROOT } from '../paths.ts';
import { modelReference } from './reference.ts';
import { packageTarget, type Target } from '../output/target.ts';

export type { EmitModel } from './emit-model.ts';

/** Output: path relative to the output root -> file text. */
export type OutputFiles = Map<string, string>;

/** The compiled templates. */
export interface Templates {
  header: Handlebars.TemplateDelegate<{ sources: string[]; markdown?: boolean; prefix?: string } & Target['header']>;
  modelDoc: Handlebars.TemplateDelegate<Record<string, unknown>>;
  modelsMd: Handlebars.TemplateDelegate<Record<string, unknown>>;
}

/** Load and compile the handlebars templates of `templatesDir`. */
export async function loadTemplates(templatesDir: string): Promise<Templates> {
  const hb = Handlebars.create();
  const read = (f: string) => readFile(path.join(templatesDir, f), 'utf8');
  const opts = { noEscape: true, strict: false };
  return {
    header: hb.compile(await read('header.hbs'), opts),
    modelDoc: hb.compile(await read('model-doc.hbs'), opts),
    modelsMd: hb.compile(await read('models.md.hbs'), opts),
  };
}

/** The generated-file header of a TypeScript (or, with `markdown`, Markdown) file naming its sources and the target's command. */
export function header(t: Templates, sources: string[], markdown = false, target: Target = packageTarget): string {
  const safe = sources.map((s) => (markdown ? s.replace(/-->/g, '--&gt;') : commentText(s)).replace(/[\r\n]/g, ' '));
  return t.header({ sources: safe, markdown, prefix: markdown ? '' : ' * ', ...target.header });
}

/** What a null schema means for the model's parameters (for its doc comment). */
function nullMeaning(m: ClassifiedModel): string {
  if (m.uncovered !== undefined) return 'its parameters are unknown';
  if (m.output === 'text') return 'it takes the standard chat-completions body';
  return "it takes the endpoint's parameters as the API description lists them";
}

/** The doc comment text of a model's parameter type (unescaped; the types stage escapes it). */
export function modelDoc(t: Templates, m: ClassifiedModel): string {
  return t
    .modelDoc({
      id: m.id,
      displayName: docText(m.displayName ?? m.id),
      description: m.description === undefined ? undefined : docText(m.description),
      file: m.file,
      schemaField: m.schemaField,
      nullMeaning: nullMeaning(m),
      endpoints: m.endpoints.flatMap(endpointLabels),
      uncovered: m.uncovered,
    })
    .trim();
}

type TsMorph = typeof import('ts-morph');
let tsMorph: Promise<TsMorph> | undefined;
/** ts-morph, loaded on first use (a run that reuses every module never loads it). */
export function loadTsMorph(): Promise<TsMorph> {
  tsMorph ??= import('ts-morph');
  return tsMorph;
}

/** Print statements with ts-morph's printer (no parsing, no project). */
export function print(m: TsMorph, statements: Array<string | StatementStructures>): string {
  return m.printStructure(
    { kind: m.StructureKind.SourceFile, statements },
    { indentNumberOfSpaces: 2, useSingleQuote: true },
  );
}

/** Body of `generated/models/<id>.ts` (or, for a user's target, `<out>/models/<id>.ts`). */
export async function modelModule(
  m: EmitModel,
  hasValidator: boolean,
  target: Target = packageTarget,
): Promise<string> {
  const tm = await loadTsMorph();
  const printed = print(tm, modelStatements(m, hasValidator, tm.StructureKind, tm.VariableDeclarationKind, target));
  const parts = printed.split(TYPE_CODE);
  if (parts.length !== 2) throw new Error(`emit: the type placeholder of ${m.id} was not printed once`);
  const rest = parts[1]!.split(SCHEMA_LITERAL);
  if (rest.length !== (m.schema === null ? 1 : 2))
    throw new Error(`emit: the schema placeholder of ${m.id} was not printed once`);
  return `${parts[0]}\n${m.type.code}${rest.join(m.schema === null ? '' : jsonLiteral(m.schema))}`;
}

/** Union of string literal types, or `never`. */
function union(ids: string[]): string {
  return ids.length === 0 ? 'never' : ids.map(stringLiteral).join(' | ');
}

/** A model as the index needs it. */
export type IndexModel = ClassifiedModel & { names: ModelNames };

/** Body of `generated/index.ts`. `validated` holds the ids that have a compiled validator. */
export async function indexModule(
  models: IndexModel[],
  validated: ReadonlySet<string>,
  label: string,
): Promise<string> {
  const tm = await loadTsMorph();
  const { StructureKind: K, VariableDeclarationKind: V } = tm;
  const docs = (text: string) => [{ description: commentText(text) }];
  const st: Array<string | StatementStructures> = [];
  st.push({
    kind: K.ImportDeclaration,
    moduleSpecifier: '../runtime/client.ts',
    namedImports: ['Client as RuntimeClient'],
  });
  st.push({
    kind: K.ImportDeclaration,
    isTypeOnly: true,
    moduleSpecifier: '../runtime/index.ts',
    namedImports: ['ClientOptions', 'CompiledValidator', 'Registry', 'ValidatorSource'],
  });
  for (const m of models)
    st.push({
      kind: K.ImportDeclaration,
      isTypeOnly: true,
      moduleSpecifier: `./models/${m.id}.ts`,
      namedImports: [m.names.params],
    });
  st.push({ kind: K.ExportDeclaration, isTypeOnly: true, namedExports: models.map((m) => m.names.params) });
  const by = (e: Endpoint) => models.filter((m) => m.endpoints.includes(e)).map((m) => m.id);
  const aliases: Array<[string, string, string]> = [
    ['ModelId', union(models.map((m) => m.id)), `Every model id of the snapshot (${models.length}).`],
    ['ImageGenerateModelId', union(by('images.generate')), 'Model ids served by `images.generate`.'],
    ['ImageEditModelId', union(by('images.edit')), 'Model ids served by `images.edit`.'],
    ['VideoModelId', union(by('videos.generate')), 'Model ids served by `videos.generate`.'],
    [
      'QueueModelId',
      union(by('queue')),
      'Model ids accepted by the queue (`queue.enqueue`, `queue.run`): the image and video models.',
    ],
    ['ChatModelId', union(by('chat')), 'Model ids served by `chat.completions.create`.'],
  ];
  for (const [name, type, doc] of aliases)
    st.push({
      kind: K.TypeAlias,
      isExported: true,
      name,
      type,
      docs: docs(`${doc}\nGenerated from \`${label}/models.json\`.`),
    });
  st.push({
    kind: K.Interface,
    isExported: true,
    name: 'ModelParams',
    docs: docs("Model id -> that model's own parameters (`ModelParams['flux-2-pro']` is `Flux2ProParams`)."),
    properties: models.map((m) => ({ name: stringLiteral(m.id), type: m.names.params })),
  });
  st.push(modelRegistryInterface(K, "The snapshot's models as the runtime `Client` is generic over them."));
  st.push({
    kind: K.VariableStatement,
    isExported: true,
    declarationKind: V.Const,
    docs: docs('Every model id of the snapshot, in the order of `models.json`.'),
    declarations: [
      {
        name: 'MODEL_IDS',
        type: 'readonly ModelId[]',
        initializer: `[${models.map((m) => stringLiteral(m.id)).join(', ')}]`,
      },
    ],
  });
  const withValidator = models.filter((m) => validated.has(m.id));
  st.push({
    kind: K.VariableStatement,
    declarationKind: V.Const,
    docs: docs(
      "Loads one model's compiled validator module on demand (a bundler splits each into its own chunk). Plain `import()` arrows: the table is in every bundle of the root `Client`, so each entry is kept short.",
    ),
    declarations: [
      {
        name: 'validatorLoaders',
        type: 'ReadonlyMap<string, () => Promise<{ validate: CompiledValidator }>>',
        initializer: `new Map([\n${withValidator.map((m) => `[${stringLiteral(m.id)}, () => import(${stringLiteral(`./validators/${m.id}.ts`)})],`).join('\n')}\n])`,
      },
    ],
  });
  st.push({
    kind: K.VariableStatement,
    isExported: true,
    declarationKind: V.Const,
    docs: docs(
      "The compiled request validators of the snapshot's queue models, by model id, loaded lazily: a validator; `null` for a model of the snapshot without one (not validated); `undefined` for an id the snapshot does not have. The generated `Client` validates queue requests with it.",
    ),
    declarations: [
      {
        name: 'snapshotValidators',
        type: 'ValidatorSource',
        initializer:
          '(model) => validatorLoaders.get(model)?.().then((m) => m.validate) ?? Promise.resolve((MODEL_IDS as readonly string[]).includes(model) ? null : undefined)',
      },
    ],
  });
  st.push({
    kind: K.Class,
    isExported: true,
    name: 'Client',
    extends: 'RuntimeClient<ModelRegistry>',
    docs: docs(
      "The SDK client, typed with the snapshot's models: `model` autocompletes per endpoint, each model's parameters are checked, results are typed by `response_format`.\nOptions: `apiKey` (default env `OXEN_API_KEY`), `baseUrl` (default env `OXEN_BASE_URL`, then https://hub.oxen.ai), `fetch`, `timeoutMs` (milliseconds), `maxRetries` and the other `ClientOptions`; queue requests are validated with the snapshot's compiled validators (`snapshotValidators`).\nFor a model newer than the snapshot, use `client.untyped`.\n@throws Error at construction for a `baseUrl` that is not https (except to a loopback host), and in a browser for an `apiKey` without `dangerouslyAllowBrowser`.",
    ),
    ctors: [
      {
        parameters: [{ name: 'options', type: 'ClientOptions', initializer: '{}' }],
        statements: 'super({ validators: snapshotValidators, ...options });',
      },
    ],
  });
  return print(tm, st);
}

/**
 * The body of `generated/openapi.ts`: openapi-typescript's types of the description, built in a
 * worker thread (openapi-typescript loads TypeScript and Redocly's core: seconds of start-up) so that
 * it overlaps the per-model work. The result depends only on the description and the generator
 * (`key`), so it is kept in `<repo>/.tmp/openapi-<key>.ts` and the worker runs only when one of them
 * changed: a run into another output directory reuses it. Resolves to the text (unformatted).
 */
export async function openapiModule(doc: OpenApiDoc, file: string, key: string): Promise<string> {
  const cached = path.join(REPO_ROOT, '.tmp', `openapi-${key.slice(0, 32)}.ts`);
  const hit = await readFile(cached, 'utf8').catch(() => undefined);
  if (hit !== undefined) return hit;
  const text = await new Promise<string>((resolve, reject) => {
    const worker = new Worker(path.join(REPO_ROOT, 'generator', 'stages', 'openapi-worker.mjs'), {
      workerData: { doc },
    });
    worker.once('message', (m: { text?: string; error?: string }) => {
      void worker.terminate();
      if (m.text !== undefined) resolve(m.text);
      else reject(new Error(`openapi-typescript failed on ${file}: ${m.error}`));
    });
    worker.once('error', reject);
  });
  // best effort: a cache that cannot be written only makes the next run slower
  await mkdir(path.dirname(cached), { recursive: true })
    .then(() => writeFile(`${cached}.${process.pid}`, text))
    .then(() => rename(`${cached}.${process.pid}`, cached))
    .catch(() => undefined);
  return text;
}

/** Body of `generated/MODELS.md`. */
export function modelsMarkdown(t: Templates, models: IndexModel[], label: string, packageName: string): string {
  return t.modelsMd({ count: models.length, label, models: models.map((m) => modelReference(m, packageName)) });
}

/**
 * `ModelRegistry`, the type argument of the runtime `Client`: the index module's `ModelParams` and
 * id unions by endpoint (the same for both targets; `description` says whose models they are).
 */
export function modelRegistryInterface(
  K: typeof import('ts-morph').StructureKind,
  description: string,
): StatementStructures {
  return {
    kind: K.Interface,
    isExported: true,
    name: 'ModelRegistry',
    extends: ['Registry'],
    docs: [{ description: commentText(description) }],
    properties: [
      { name: 'params', type: 'ModelParams' },
      { name: 'imageGenerate', type: 'ImageGenerateModelId' },
      { name: 'imageEdit', type: 'ImageEditModelId' },
      { name: 'video', type: 'VideoModelId' },
      { name: 'queue', type: 'QueueModelId' },
      { name: 'chat', type: 'ChatModelId' },
    ],
  };
}
