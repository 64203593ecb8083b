/**
 * Part of stage 6 (emit): `generated/index.ts` (ts-morph): `ModelId`, the per-endpoint id unions,
 * `ModelParams`, `ModelRegistry`, `MODEL_IDS`, `snapshotValidators` (one lazy `import()` per model)
 * and `Client` specialised with them. `modelRegistryInterface` is shared with the user target's
 * index (`user-index.ts`).
 */
import type { StatementStructures } from 'ts-morph';
import type { ClassifiedModel, Endpoint } from './classify.ts';
import { commentText, stringLiteral } from '../escape.ts';
import { loadTsMorph, print } from './emit.ts';
import { fileStem, type ModelNames } from './name.ts';

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
    namedImports: ['ClientOptions', 'CompiledValidator', 'Registry', 'ValidatorSource'],
  });
  for (const m of models)
    st.push({
      kind: K.ImportDeclaration,
      isTypeOnly: true,
      moduleSpecifier: `./models/${fileStem(m.id)}.ts`,
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
  st.push(
    ...idsAndLoaders(tm, {
      name: 'MODEL_IDS',
      idType: 'ModelId',
      idsDoc: 'Every model id of the snapshot, in the order of `models.json`.',
      models,
      withValidator: models.filter((m) => validated.has(m.id)),
      loadersDoc:
        "Loads one model's compiled validator module on demand (a bundler splits each into its own chunk). Plain `import()` arrows: the table is in every bundle of the root `Client`, so each entry is kept short.",
      loaderType: '() => Promise<{ validate: CompiledValidator }>',
      loader: (m) => `() => import(${stringLiteral(`./validators/${fileStem(m.id)}.ts`)})`,
    }),
  );
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
  st.push(
    clientClass(
      K,
      "The SDK client, typed with the snapshot's models: `model` autocompletes per endpoint, each model's parameters are checked, results are typed by `response_format`.\nOptions: `apiKey` (default env `OXEN_API_KEY`), `baseUrl` (default env `OXEN_BASE_URL`, then https://hub.oxen.ai), `fetch`, `timeoutMs` (milliseconds), `maxRetries` and the other `ClientOptions`; queue requests are validated with the snapshot's compiled validators (`snapshotValidators`).\nFor a model newer than the snapshot, use `client.untyped`.\n@throws Error at construction for a `baseUrl` that is not https (except to a loopback host), and in a browser for an `apiKey` without `dangerouslyAllowBrowser`.",
      'snapshotValidators',
    ),
  );
  return print(tm, st);
}

/**
 * The two constants both index modules declare: the exported list of the models' ids (`name`, typed
 * `readonly <idType>[]`, in the snapshot's order), and `validatorLoaders`, from model id to a loader
 * of its validator (`loader` writes each entry's arrow, `loaderType` is their type).
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
    {
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
    },
    {
      kind: K.VariableStatement,
      declarationKind: V.Const,
      docs: [{ description: commentText(o.loadersDoc) }],
      declarations: [
        {
          name: 'validatorLoaders',
          type: `ReadonlyMap<string, ${o.loaderType}>`,
          initializer: `new Map([\n${o.withValidator.map((m) => `[${stringLiteral(m.id)}, ${o.loader(m)}],`).join('\n')}\n])`,
        },
      ],
    },
  ];
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
