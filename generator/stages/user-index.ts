/**
 * Emit, the user target's `<out>/index.ts` (ts-morph): the package's models plus the ones the user
 * added, under the type names the package root exports (`ModelId`, `ModelParams`, the per-endpoint
 * id unions), `ModelRegistry`, `ADDED_MODEL_IDS`, `validators` and `Client`.
 *
 * Everything the package already types comes from the installed `oxen-inference-sdk` by name, so
 * the file depends only on the added models: an SDK upgrade needs no regenerate. An added id that
 * the package also has takes the user's schema (it is newer): it is taken out of the package's
 * unions, `ModelParams` and request-body entries (`Exclude`, `Omit`) and put back with the added
 * model's types, and its compiled validator is the added one.
 */
import type { StatementStructures } from 'ts-morph';
import type { Endpoint } from './classify.ts';
import { loadTsMorph, print } from './emit.ts';
import {
  bodyInterfaces,
  bodyTypes,
  clientClass,
  idsConstant,
  modelRegistryInterface,
  union,
  type IndexModel,
} from './index-module.ts';
import { commentText, stringLiteral } from '../escape.ts';
import { SDK_PACKAGE } from '../output/target.ts';
import { fileStem } from './name.ts';

/** The package root's type names this index re-defines, with the endpoint each one is about (undefined: every model). */
const ALIASES: Array<[name: string, endpoint: Endpoint | undefined, doc: string]> = [
  ['ModelId', undefined, "Every model id: the package's and the added ones."],
  ['ImageGenerateModelId', 'images.generate', 'Model ids served by `images.generate`.'],
  ['ImageEditModelId', 'images.edit', 'Model ids served by `images.edit`.'],
  ['VideoModelId', 'videos.generate', 'Model ids served by `videos.generate`.'],
  ['QueueModelId', 'queue', 'Model ids accepted by the queue (`queue.enqueue`, `queue.run`).'],
  ['ChatModelId', 'chat', 'Model ids served by `chat.completions.create`.'],
];

/**
 * Body of `<out>/index.ts` (the added models' validators are `validator-table.ts`'s); `label` names
 * the snapshot (relative to `<out>`) in doc comments.
 */
export async function userIndexModule(models: IndexModel[], label: string): Promise<string> {
  const tm = await loadTsMorph();
  const { StructureKind: K, VariableDeclarationKind: V } = tm;
  const docs = (text: string) => [{ description: commentText(text) }];
  const st: Array<string | StatementStructures> = [];
  st.push({
    kind: K.ImportDeclaration,
    moduleSpecifier: SDK_PACKAGE,
    namedImports: ['RuntimeClient', 'snapshotValidators'],
  });
  st.push({
    kind: K.ImportDeclaration,
    isTypeOnly: true,
    moduleSpecifier: SDK_PACKAGE,
    namedImports: [
      ...ALIASES.map(([n]) => `${n} as Package${n}`),
      'ModelParams as PackageModelParams',
      'ModelMediaBodies as PackageModelMediaBodies',
      'ModelQueueBodies as PackageModelQueueBodies',
    ],
  });
  st.push({
    kind: K.ImportDeclaration,
    isTypeOnly: true,
    moduleSpecifier: `${SDK_PACKAGE}/runtime`,
    namedImports: ['ClientOptions', 'Registry', 'ValidatorSource', ...bodyTypes(models)].sort(),
  });
  for (const m of models)
    st.push({
      kind: K.ImportDeclaration,
      isTypeOnly: true,
      moduleSpecifier: `./params/${fileStem(m.id)}.js`,
      namedImports: [m.names.params],
    });
  if (models.length > 0)
    st.push({ kind: K.ExportDeclaration, isTypeOnly: true, namedExports: models.map((m) => m.names.params) });
  st.push({
    kind: K.TypeAlias,
    isExported: true,
    name: 'AddedModelId',
    type: union(models.map((m) => m.id)),
    docs: docs(`The model ids of this directory's snapshot (\`${label}/models.json\`, ${models.length}).`),
  });
  for (const [name, endpoint, doc] of ALIASES) {
    const added = models.filter((m) => endpoint === undefined || m.endpoints.includes(endpoint)).map((m) => m.id);
    const type = `Exclude<Package${name}, AddedModelId>${added.length > 0 ? ` | ${union(added)}` : ''}`;
    st.push({
      kind: K.TypeAlias,
      isExported: true,
      name,
      type,
      docs: docs(`${doc} An added id that the package also has is typed by the added schema.`),
    });
  }
  st.push({
    kind: K.Interface,
    isExported: true,
    name: 'ModelParams',
    extends: ['Omit<PackageModelParams, AddedModelId>'],
    docs: docs(
      "Model id -> that model's own parameters: the package's, with the added models' (which win for an id both have).",
    ),
    properties: models.map((m) => ({ name: stringLiteral(m.id), type: m.names.params })),
  });
  st.push(
    ...bodyInterfaces(K, models, "the package's and the added", {
      media: 'Omit<PackageModelMediaBodies, AddedModelId>',
      queue: 'Omit<PackageModelQueueBodies, AddedModelId>',
    }),
  );
  st.push(
    modelRegistryInterface(K, "The package's and the added models, as the runtime `Client` is generic over them."),
  );
  st.push(
    idsConstant(tm, {
      name: 'ADDED_MODEL_IDS',
      idType: 'AddedModelId',
      idsDoc: `The added model ids, in the order of \`${label}/models.json\`.`,
      models,
    }),
  );
  st.push({
    kind: K.VariableStatement,
    isExported: true,
    declarationKind: V.Const,
    docs: docs(
      "The compiled request validators by model id, loaded lazily: an added model's own (`null` for an added model without one: not validated), else the package's (`snapshotValidators`). The `Client` below validates queue requests with it. The added models' table of loaders (`validator-table.ts`) loads with the first validation.",
    ),
    declarations: [
      {
        name: 'validators',
        type: 'ValidatorSource',
        initializer:
          "(model) => import('./validator-table.js').then((t) => t.validatorOf(model)).then((v) => (v === undefined ? snapshotValidators(model) : v))",
      },
    ],
  });
  st.push(
    clientClass(
      K,
      // The options, errors and example are documented once, on the runtime's `Client` and `ClientOptions`.
      "The runtime's `Client` typed with the package's models and the added ones: `model` autocompletes per endpoint, each model's parameters are checked, and `queue.enqueue`/`queue.run` refuse a body that breaks the model's schema before sending it (`ValidationError`).\nOptions (`ClientOptions`), errors and an example: see the runtime's `Client`.\n@throws SDKError at construction for a bad option (which ones: the runtime's `Client`).",
      'validators',
    ),
  );
  return print(tm, st);
}
