/**
 * Emit, the user target's `<out>/index.ts` (ts-morph): the package's models plus the ones the user
 * added, under the type names the package root exports (`ModelId`, `ModelParams`, the per-endpoint
 * id unions), `ModelRegistry`, `ADDED_MODEL_IDS`, `validators` and `Client`.
 *
 * Everything the package already types comes from the installed `oxen-inference-sdk` by name, so
 * the file depends only on the added models: an SDK upgrade needs no regenerate. The added models'
 * parameter types are declared in the file itself (`params-module.ts`' `paramsDeclaration`, after
 * everything else): a compile parses one file for them, where one module per model cost it a file
 * to resolve, read and parse each. An added id that
 * the package also has takes the user's schema (it is newer): it is taken out of the package's
 * per-endpoint unions (`Exclude`, for a model whose endpoints changed) and put back with the added
 * model's types, its entry in `ModelParams` and the request-body maps is the added one (an interface's
 * own member wins over the one it extends), and its compiled validator is the added one.
 *
 * `ModelId` is the package's union and `AddedModelId`, and the maps extend the package's interfaces
 * themselves, not an `Omit` of them: the same types, but an `Omit` is a mapped type over every id of the
 * package that a program resolves whenever it looks an entry up (through a 250-model index, 225
 * instantiations more than the root for 1 call, about 500 for 20: `docs/measurements/type-cost.md`).
 * Unchecked (`USER_NOCHECK`), an added entry incompatible with the package's is no error; test/cli
 * compiles the index checked, with a newer schema of a package model.
 */
import type { ts as TS } from 'ts-morph';
import { printModuleAs, type LaidOut } from './layout/index.ts';
import type { Endpoint } from './classify.ts';
import { loadTsMorph } from './emit.ts';
import {
  arrow,
  bodyInterfaces,
  callMethod,
  dynamicImport,
  bodyTypes,
  clientClass,
  idInterface,
  idsConstant,
  modelRegistryInterface,
  typeAlias,
  type IndexModel,
} from './index-module.ts';
import { blockLayout, constStatement, importDeclaration, literalUnion, ref, typeNode, withDoc } from './printer.ts';
import { SDK_PACKAGE } from '../output/target.ts';
import { SpecError } from '../errors.ts';
import { paramsDeclaration, type ParamsModel } from './params-module.ts';

/** What the user index needs of an added model: its classification, names, spec file and parameter type. */
export type UserIndexModel = IndexModel & ParamsModel;

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
 * Body of `<out>/index.ts` (the added models' validators are `validator-table.ts`'s: `validator-table-module.ts`);
 * `label` names the snapshot (relative to `<out>`) in doc comments.
 */
export async function userIndexModule(
  models: UserIndexModel[],
  label: string,
  layOut = false,
): Promise<string | LaidOut> {
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
      [
        ...new Set([
          'ClientOptions',
          'Registry',
          'ValidatorSource',
          ...bodyTypes(models),
          ...models.flatMap((m) => m.type.runtimeImports),
        ]),
      ].sort(),
      `${SDK_PACKAGE}/runtime`,
      true,
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
    // every id: the package's and `AddedModelId`, not an `Exclude` (nothing to take out) nor the ids again
    if (endpoint === undefined) {
      st.push(
        typeAlias(
          ts,
          name,
          f.createUnionTypeNode([typeNode(ts, `Package${name}`), typeNode(ts, 'AddedModelId')]),
          `${doc} An added id that the package also has is typed by the added schema.`,
        ),
      );
      continue;
    }
    const added = models.filter((m) => m.endpoints.includes(endpoint)).map((m) => m.id);
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
      ['PackageModelParams'],
    ),
  );
  st.push(
    ...bodyInterfaces(ts, models, "the package's and the added", {
      media: 'PackageModelMediaBodies',
      queue: 'PackageModelQueueBodies',
    }),
  );
  st.push(
    modelRegistryInterface(ts, "The package's and the added models, as the runtime `Client` is generic over them."),
  );
  st.push(
    idsConstant(ts, {
      name: 'ADDED_MODEL_IDS',
      idType: 'AddedModelId',
      idsDoc: `The added model ids, in the order of \`${label}/models.json\`.`,
      models,
    }),
  );
  // `(model) => import('./validator-table.js').then((t) => t.validatorOf(model)).then((v) => v === undefined ? snapshotValidators(model) : v)`
  const model = f.createIdentifier('model');
  const v = f.createIdentifier('v');
  const added = callMethod(ts, dynamicImport(ts, './validator-table.js'), 'then', [
    arrow(ts, ['t'], callMethod(ts, 't', 'validatorOf', [model])),
  ]);
  const orPackage = f.createConditionalExpression(
    f.createStrictEquality(v, f.createIdentifier('undefined')),
    undefined,
    f.createCallExpression(f.createIdentifier('snapshotValidators'), undefined, [model]),
    undefined,
    v,
  );
  st.push(
    withDoc(
      ts,
      constStatement(
        ts,
        'validators',
        typeNode(ts, 'ValidatorSource'),
        arrow(ts, ['model'], callMethod(ts, added, 'then', [arrow(ts, ['v'], orPackage)])),
      ),
      "The compiled request validators by model id, loaded lazily: an added model's own (`null` for an added model without one: not validated), else the package's (`snapshotValidators`). The `Client` below validates queue requests with it. The added models' table of loaders (`validator-table.ts`) loads with the first validation.",
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
  const bound = boundNames(ts, st);
  for (const m of models) {
    if (bound.has(m.names.params))
      throw new SpecError(
        m.file,
        m.id,
        '/id',
        `its parameter type ${m.names.params} would be declared in <out>/index.ts beside a name the index already imports or declares: not supported`,
      );
    st.push(paramsDeclaration(ts, m, ''));
  }
  return printModuleAs(ts, [USER_NOCHECK, ...blockLayout(ts, st)], layOut, true);
}

/** The names the top-level `statements` import or declare. */
function boundNames(ts: typeof TS, statements: readonly TS.Statement[]): Set<string> {
  const names = new Set<string>();
  for (const s of statements) {
    if (ts.isImportDeclaration(s)) {
      const bindings = s.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) for (const e of bindings.elements) names.add(e.name.text);
    } else if (ts.isVariableStatement(s)) {
      for (const d of s.declarationList.declarations) if (ts.isIdentifier(d.name)) names.add(d.name.text);
    } else if (
      (ts.isTypeAliasDeclaration(s) || ts.isInterfaceDeclaration(s) || ts.isClassDeclaration(s)) &&
      s.name !== undefined
    ) {
      names.add(s.name.text);
    }
  }
  return names;
}

/**
 * The first line of `<out>/index.ts`. It is source in the user's program (`skipLibCheck` spares a
 * declaration file only): checking its declarations (the `Exclude`s over the package's ids, the
 * maps' `extends`, `ADDED_MODEL_IDS`, `validators`' loading) cost every compile as much as 20 calls, whether a
 * program names a model or not. Unchecked, the compiler resolves of it only what a program uses; a
 * program's own calls are checked as before. Test/cli compiles the same text without this line,
 * under the strictest flags.
 */
const USER_NOCHECK =
  "// @ts-nocheck -- generated code, type-checked where it is generated; the user's program resolves what it uses";
