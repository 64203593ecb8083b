/**
 * Part of stage 6 (emit): `generated/index.ts` (ts-morph): `ModelId`, the per-endpoint id unions,
 * `ModelParams`, the per-model request bodies (`ModelMediaBodies`, `ModelQueueBodies`),
 * `ModelRegistry`, `MODEL_IDS`, `snapshotValidators` (which loads `generated/validator-table.ts`, one lazy
 * `import()` per model, on first use: `validatorTableModule`) and `Client` specialised with them. `modelRegistryInterface` and `bodyInterfaces` are shared with the user
 * target's index (`user-index.ts`).
 */
import type { InterfaceDeclarationStructure, OptionalKind, StatementStructures } from 'ts-morph';
import type { ClassifiedModel, Endpoint } from './classify.ts';
import { commentText, stringLiteral } from '../escape.ts';
import { loadTsMorph, print } from './emit.ts';
import { fileStem, type ModelNames } from './name.ts';
import { SDK_QUEUE_FIELDS } from './validators.ts';
import { isObject } from '../order.ts';

/** Union of string literal types, or `never`. */
export function union(ids: string[]): string {
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
    namedImports: ['ClientOptions', 'Registry', 'ValidatorSource', ...bodyTypes(models)].sort(),
  });
  for (const m of models)
    st.push({
      kind: K.ImportDeclaration,
      isTypeOnly: true,
      moduleSpecifier: `./params/${fileStem(m.id)}.ts`,
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
  st.push(...bodyInterfaces(K, models, "the snapshot's"));
  st.push(modelRegistryInterface(K, "The snapshot's models as the runtime `Client` is generic over them."));
  st.push(idsAndLoaders(tm, snapshotTable(models, validated))[0]!);
  st.push({
    kind: K.VariableStatement,
    isExported: true,
    declarationKind: V.Const,
    docs: docs(
      "The compiled request validators of the snapshot's queue models, by model id, loaded lazily: a validator; `null` for a model of the snapshot without one (not validated); `undefined` for an id the snapshot does not have. The generated `Client` validates queue requests with it. Its table of loaders (`validator-table.ts`) loads with the first validation: a page that validates nothing loads neither it nor any validator.",
    ),
    declarations: [
      {
        name: 'snapshotValidators',
        type: 'ValidatorSource',
        initializer: "(model) => import('./validator-table.ts').then((t) => t.validatorOf(model))",
      },
    ],
  });
  st.push(
    clientClass(
      K,
      // The options, errors and example are documented once, on the runtime's `Client` and `ClientOptions`.
      "The runtime's `Client` typed with the snapshot's models: `model` autocompletes per endpoint, each model's parameters are checked, results are typed by `response_format`, and queue requests are validated with the snapshot's compiled validators (`snapshotValidators`).\nOptions (`ClientOptions`), errors and an example: see the runtime's `Client`. For a model newer than the snapshot, use `client.untyped`.\n@throws SDKError at construction for a bad option (which ones: the runtime's `Client`).",
      'snapshotValidators',
    ),
  );
  return print(tm, st);
}

/** `idsAndLoaders`' arguments for the snapshot's models (`MODEL_IDS` and the loaders of `validator-table.ts`). */
function snapshotTable(models: IndexModel[], validated: ReadonlySet<string>): Parameters<typeof idsAndLoaders>[1] {
  return {
    name: 'MODEL_IDS',
    idType: 'ModelId',
    idsDoc: 'Every model id of the snapshot, in the order of `models.json`.',
    models,
    withValidator: models.filter((m) => validated.has(m.id)),
    loadersDoc:
      "Loads one model's compiled validator module on demand (a bundler splits each into its own chunk). Plain `import()` arrows, each kept short.",
    loaderType: '() => Promise<{ validate: CompiledValidator }>',
    loader: (m) => `() => import(${stringLiteral(`./validators/${fileStem(m.id)}.ts`)})`,
  };
}

/**
 * Body of `generated/validator-table.ts`, which `snapshotValidators` (`generated/index.ts`) loads with
 * `import()` on its first call: the loader of each validated model's validator, and the snapshot's
 * models without one. Kept out of `index.ts` so that a page of the root `Client` that validates nothing
 * (an image call, a chat) carries none of the table (111 `import()`s, each naming a chunk).
 * With `user` (a user's `<out>/validator-table.ts`, loaded by its index's `validators`): the added
 * models', the runtime's types from the package, `.js` specifiers, and `// @ts-nocheck` first (the
 * same text compiles here, strict): checking the loaders' `import()`s cost every compile of the
 * user's program as much as the rest of the index.
 */
export async function validatorTableModule(
  models: IndexModel[],
  validated: ReadonlySet<string>,
  user?: { runtimeTypes: string },
): Promise<string> {
  const tm = await loadTsMorph();
  const { StructureKind: K, VariableDeclarationKind: V } = tm;
  const unvalidated = models.filter((m) => !validated.has(m.id)).map((m) => stringLiteral(m.id));
  const table = snapshotTable(models, validated);
  const whose = user ? 'The added' : "The snapshot's";
  const st: Array<string | StatementStructures> = [
    {
      kind: K.ImportDeclaration,
      isTypeOnly: true,
      moduleSpecifier: user?.runtimeTypes ?? '../runtime/index.ts',
      namedImports: ['CompiledValidator'],
    },
    idsAndLoaders(tm, {
      ...table,
      ...(user
        ? {
            loadersDoc: table.loadersDoc.replace("one model's", "one added model's"),
            loader: (m: IndexModel) => `() => import(${stringLiteral(`./validators/${fileStem(m.id)}.js`)})`,
          }
        : {}),
    })[1]!,
    {
      kind: K.VariableStatement,
      declarationKind: V.Const,
      docs: [{ description: commentText(`${whose} models without a compiled validator (not validated).`) }],
      declarations: [
        { name: 'unvalidated', type: 'ReadonlySet<string>', initializer: `new Set([${unvalidated.join(', ')}])` },
      ],
    },
    {
      kind: K.Function,
      isExported: true,
      name: 'validatorOf',
      docs: [
        {
          description: commentText(
            user
              ? "The compiled validator of added model `model` (loaded on first use), `null` for an added model without one, `undefined` for an id not added (the index's `validators` asks the package then)."
              : "The compiled validator of `model` (loaded on first use), `null` for a model of the snapshot without one, `undefined` for an id the snapshot does not have: `snapshotValidators`' answer.",
          ),
        },
      ],
      parameters: [{ name: 'model', type: 'string' }],
      returnType: 'Promise<CompiledValidator | null | undefined>',
      statements:
        'return validatorLoaders.get(model)?.().then((m) => m.validate) ?? Promise.resolve(unvalidated.has(model) ? null : undefined);',
    },
  ];
  const body = print(tm, st);
  return user ? `${USER_NOCHECK}\n\n${body}` : body;
}

/** The first line of a user's `<out>/validator-table.ts` (see `validatorTableModule`). */
const USER_NOCHECK =
  "// @ts-nocheck -- generated code, type-checked where it is generated; the user's program loads it on first validation";

/** The exported list of the models' ids (`name`, typed `readonly <idType>[]`, in the snapshot's order). */
export function idsConstant(
  tm: typeof import('ts-morph'),
  o: { name: string; idType: string; idsDoc: string; models: IndexModel[] },
): StatementStructures {
  const { StructureKind: K, VariableDeclarationKind: V } = tm;
  return {
    kind: K.VariableStatement,
    isExported: true,
    declarationKind: V.Const,
    docs: [{ description: commentText(o.idsDoc) }],
    declarations: [
      {
        name: o.name,
        type: `readonly ${o.idType}[]`,
        initializer: `[${o.models.map((m) => stringLiteral(m.id)).join(', ')}]`,
      },
    ],
  };
}

/**
 * The two constants of a model list: the exported list of the models' ids (`name`, typed
 * `readonly <idType>[]`, in the snapshot's order), and `validatorLoaders`, from model id to a loader
 * of its validator (an index declares the ids, `validator-table.ts` the loaders) (`loader` writes each entry's arrow, `loaderType` is their type, given to `Map`
 * so that the compiler checks each arrow against it instead of inferring one union of them all).
 */
export function idsAndLoaders(
  tm: typeof import('ts-morph'),
  o: {
    name: string;
    idType: string;
    idsDoc: string;
    models: IndexModel[];
    withValidator: IndexModel[];
    loadersDoc: string;
    loaderType: string;
    loader: (m: IndexModel) => string;
  },
): StatementStructures[] {
  const { StructureKind: K, VariableDeclarationKind: V } = tm;
  return [
    idsConstant(tm, o),
    {
      kind: K.VariableStatement,
      declarationKind: V.Const,
      docs: [{ description: commentText(o.loadersDoc) }],
      declarations: [
        {
          name: 'validatorLoaders',
          type: `ReadonlyMap<string, ${o.loaderType}>`,
          initializer: `new Map<string, ${o.loaderType}>([\n${o.withValidator.map((m) => `[${stringLiteral(m.id)}, ${o.loader(m)}],`).join('\n')}\n])`,
        },
      ],
    },
  ];
}

/**
 * Whether `X & P` is the same type as `OwnParams<P, X>` for the model's parameter type `P`, for every
 * SDK field set `X`: its schema types as a closed interface of its `properties` (no `$ref`,
 * composition, enum or index signature at the top: see `types.ts`) that declares none of the SDK's
 * own body fields. Then `OwnParams` omits nothing, and the plain intersection spares every
 * consumer's compile its mapped types.
 */
function plainParams(m: ClassifiedModel): boolean {
  const s = m.schema;
  if (!s || !isObject(s['properties'])) return false;
  if (['$ref', 'allOf', 'anyOf', 'oneOf', 'enum', 'const', 'items'].some((k) => Object.hasOwn(s, k))) return false;
  if (s['type'] !== undefined && s['type'] !== 'object') return false;
  if (Object.hasOwn(s, 'additionalProperties') && s['additionalProperties'] !== false) return false;
  if (isObject(s['patternProperties'])) return false;
  return !Object.keys(s['properties']).some((k) => Object.hasOwn(SDK_QUEUE_FIELDS, k));
}

/**
 * A model's request-body entry over the SDK fields `fields`: `OwnParams<P, X>`, written as `X & P`
 * where that is the same type; `uses` collects the runtime types it names.
 */
function bodyEntry(m: IndexModel, fields: 'SdkFields' | 'QueueFields', uses: Set<string>): string {
  // a video model's parameters carry the endpoint's `multi_prompt`, as its endpoint functions' do (emit-model.ts)
  const video = m.output === 'video';
  const own = video ? `VideoParams<${m.names.params}>` : m.names.params;
  const plain = plainParams(m);
  for (const t of [fields, ...(video ? ['VideoParams'] : []), ...(plain ? [] : ['OwnParams'])]) uses.add(t);
  return plain ? `${fields} & ${own}` : `OwnParams<${own}, ${fields}>`;
}

/** The runtime types the request-body entries of `models` name (to import), sorted. */
export function bodyTypes(models: IndexModel[]): string[] {
  const uses = new Set<string>();
  for (const m of models) {
    if (m.endpoints.some((e) => e !== 'queue' && e !== 'chat')) bodyEntry(m, 'SdkFields', uses);
    if (m.endpoints.includes('queue')) bodyEntry(m, 'QueueFields', uses);
  }
  return [...uses].sort();
}

/**
 * `ModelMediaBodies` and `ModelQueueBodies`: one entry per model of the media endpoints and of the
 * queue (`Registry['mediaBodies']`, `['queueBodies']`), each the body the endpoint takes but
 * `model` and `response_format`. `extendsFrom` (the user target) names the interfaces each extends
 * (the package's, without the ids the user's snapshot has); `whose` says whose models they hold.
 */
export function bodyInterfaces(
  K: typeof import('ts-morph').StructureKind,
  models: IndexModel[],
  whose: string,
  extendsFrom?: { media: string; queue: string },
): StatementStructures[] {
  const media = models.filter((m) => m.endpoints.some((e) => e !== 'queue' && e !== 'chat'));
  const queued = models.filter((m) => m.endpoints.includes('queue'));
  const one = (
    name: string,
    list: IndexModel[],
    fields: 'SdkFields' | 'QueueFields',
    doc: string,
    base: string | undefined,
  ): OptionalKind<InterfaceDeclarationStructure> & { kind: typeof K.Interface } => ({
    kind: K.Interface,
    isExported: true,
    name,
    ...(base ? { extends: [base] } : {}),
    docs: [{ description: commentText(doc) }],
    properties: list.map((m) => ({ name: stringLiteral(m.id), type: bodyEntry(m, fields, new Set()) })),
  });
  return [
    one(
      'ModelMediaBodies',
      media,
      'SdkFields',
      `Model id -> the body of its media requests (\`images.generate\`, \`images.edit\`; \`videos.generate\` with \`VideoParams\` for a video model) but \`model\` and \`response_format\`, for ${whose} models: one entry per model, so that a call resolves only its own (\`Registry['mediaBodies']\`).`,
      extendsFrom?.media,
    ),
    one(
      'ModelQueueBodies',
      queued,
      'QueueFields',
      `Model id -> the body of its queue requests (\`queue.enqueue\`, \`queue.run\`) but \`model\` and \`response_format\`, for ${whose} models: one entry per model (\`Registry['queueBodies']\`).`,
      extendsFrom?.queue,
    ),
  ];
}

/**
 * `ModelRegistry`, the type argument of the runtime `Client`: the index module's `ModelParams`,
 * request-body entries and id unions by endpoint (the same for both targets; `description` says
 * whose models they are).
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
      { name: 'mediaBodies', type: 'ModelMediaBodies' },
      { name: 'queueBodies', type: 'ModelQueueBodies' },
      { name: 'imageGenerate', type: 'ImageGenerateModelId' },
      { name: 'imageEdit', type: 'ImageEditModelId' },
      { name: 'video', type: 'VideoModelId' },
      { name: 'queue', type: 'QueueModelId' },
      { name: 'chat', type: 'ChatModelId' },
    ],
  };
}

/**
 * `Client`, the runtime client specialised with `ModelRegistry` (the same for both targets): `validators`
 * is the expression of the `ValidatorSource` it passes on, `description` its doc text.
 */
export function clientClass(
  K: typeof import('ts-morph').StructureKind,
  description: string,
  validators: string,
): StatementStructures {
  return {
    kind: K.Class,
    isExported: true,
    name: 'Client',
    extends: 'RuntimeClient<ModelRegistry>',
    docs: [{ description: commentText(description) }],
    ctors: [
      {
        parameters: [{ name: 'options', type: 'ClientOptions', initializer: '{}' }],
        statements: `super({ ${validators === 'validators' ? validators : `validators: ${validators}`}, ...options });`,
      },
    ],
  };
}
