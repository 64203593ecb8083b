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
import type { ts as TS } from 'ts-morph';
import type { Endpoint } from './classify.ts';
import { loadTsMorph } from './emit.ts';
import {
  bodyInterfaces,
  bodyTypes,
  clientClass,
  exportTypes,
  idInterface,
  idsAndLoaders,
  loadedValidator,
  modelRegistryInterface,
  resolved,
  typeAlias,
  type IndexModel,
} from './index-module.ts';
import {
  blockLayout,
  constStatement,
  importDeclaration,
  literalUnion,
  printModule,
  ref,
  typeNode,
  withDoc,
} from './printer.ts';
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
 * Body of `<out>/index.ts`. `validated` holds the ids that have a compiled validator; `label` names
 * the snapshot (relative to `<out>`) in doc comments.
 */
export async function userIndexModule(
  models: IndexModel[],
  validated: ReadonlySet<string>,
  label: string,
): Promise<string> {
  const { ts } = await loadTsMorph();
  const f = ts.factory;
  const st: TS.Statement[] = [];
  st.push(importDeclaration(ts, ['RuntimeClient', 'snapshotValidators'], SDK_PACKAGE, false));
  st.push(
    importDeclaration(
      ts,
      [
        ...ALIASES.map(([n]) => `${n} as Package${n}`),
        'ModelParams as PackageModelParams',
        'ModelMediaBodies as PackageModelMediaBodies',
        'ModelQueueBodies as PackageModelQueueBodies',
      ],
      SDK_PACKAGE,
      true,
    ),
  );
  st.push(
    importDeclaration(
      ts,
      ['ClientOptions', 'CompiledValidator', 'Registry', 'ValidatorSource', ...bodyTypes(models)].sort(),
      `${SDK_PACKAGE}/runtime`,
      true,
    ),
  );
  for (const m of models) st.push(importDeclaration(ts, [m.names.params], `./models/${fileStem(m.id)}.js`, true));
  if (models.length > 0)
    st.push(
      exportTypes(
        ts,
        models.map((m) => m.names.params),
      ),
    );
  st.push(
    typeAlias(
      ts,
      'AddedModelId',
      literalUnion(
        ts,
        models.map((m) => m.id),
      ),
      `The model ids of this directory's snapshot (\`${label}/models.json\`, ${models.length}).`,
    ),
  );
  for (const [name, endpoint, doc] of ALIASES) {
    const added = models.filter((m) => endpoint === undefined || m.endpoints.includes(endpoint)).map((m) => m.id);
    const kept = typeNode(ts, ref('Exclude', `Package${name}`, 'AddedModelId'));
    const union = literalUnion(ts, added);
    const type =
      added.length === 0 ? kept : f.createUnionTypeNode([kept, ...(ts.isUnionTypeNode(union) ? union.types : [union])]);
    st.push(typeAlias(ts, name, type, `${doc} An added id that the package also has is typed by the added schema.`));
  }
  st.push(
    idInterface(
      ts,
      'ModelParams',
      "Model id -> that model's own parameters: the package's, with the added models' (which win for an id both have).",
      models.map((m) => [m.id, typeNode(ts, m.names.params)]),
      [ref('Omit', 'PackageModelParams', 'AddedModelId')],
    ),
  );
  st.push(
    ...bodyInterfaces(ts, models, "the package's and the added", {
      media: ref('Omit', 'PackageModelMediaBodies', 'AddedModelId'),
      queue: ref('Omit', 'PackageModelQueueBodies', 'AddedModelId'),
    }),
  );
  st.push(
    modelRegistryInterface(ts, "The package's and the added models, as the runtime `Client` is generic over them."),
  );
  st.push(
    ...idsAndLoaders(ts, {
      name: 'ADDED_MODEL_IDS',
      idType: 'AddedModelId',
      idsDoc: `The added model ids, in the order of \`${label}/models.json\`.`,
      models,
      withValidator: models.filter((m) => validated.has(m.id)),
      loadersDoc:
        "Loads one added model's compiled validator module on demand (a bundler splits each into its own chunk). Plain `import()` arrows: each costs a compile of the user's program one module check.",
      loaderPath: (m) => `./validators/${fileStem(m.id)}.js`,
    }),
  );
  // `validatorLoaders.get(model)?.().then((m) => m.validate) ?? ((ADDED_MODEL_IDS as readonly string[]).includes(model) ? Promise.resolve(null) : snapshotValidators(model))`
  const model = f.createIdentifier('model');
  const addedIds = f.createAsExpression(
    f.createIdentifier('ADDED_MODEL_IDS'),
    f.createTypeOperatorNode(ts.SyntaxKind.ReadonlyKeyword, f.createArrayTypeNode(typeNode(ts, 'string'))),
  );
  const fallback = f.createConditionalExpression(
    f.createCallExpression(f.createPropertyAccessExpression(addedIds, 'includes'), undefined, [model]),
    undefined,
    resolved(ts, f.createNull()),
    undefined,
    f.createCallExpression(f.createIdentifier('snapshotValidators'), undefined, [model]),
  );
  st.push(
    withDoc(
      ts,
      constStatement(
        ts,
        'validators',
        typeNode(ts, 'ValidatorSource'),
        f.createArrowFunction(
          undefined,
          undefined,
          [f.createParameterDeclaration(undefined, undefined, 'model')],
          undefined,
          f.createToken(ts.SyntaxKind.EqualsGreaterThanToken),
          f.createBinaryExpression(loadedValidator(ts), ts.SyntaxKind.QuestionQuestionToken, fallback),
        ),
      ),
      "The compiled request validators by model id, loaded lazily: an added model's own (`null` for an added model without one: not validated), else the package's (`snapshotValidators`). The `Client` below validates queue requests with it.",
    ),
  );
  st.push(
    clientClass(
      ts,
      // The options, errors and example are documented once, on the runtime's `Client` and `ClientOptions`.
      "The runtime's `Client` typed with the package's models and the added ones: `model` autocompletes per endpoint, each model's parameters are checked, and `queue.enqueue`/`queue.run` refuse a body that breaks the model's schema before sending it (`ValidationError`).\nOptions (`ClientOptions`), errors and an example: see the runtime's `Client`.\n@throws SDKError at construction for a bad option (which ones: the runtime's `Client`).",
      'validators',
    ),
  );
  return printModule(ts, blockLayout(ts, st));
}
