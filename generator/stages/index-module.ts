/**
 * Part of stage 6 (emit): `generated/index.ts` (ts-morph): `ModelId`, the per-endpoint id unions,
 * `ModelParams`, the per-model request bodies (`ModelMediaBodies`, `ModelQueueBodies`),
 * `ModelRegistry`, `MODEL_IDS`, `snapshotValidators` (which loads `generated/validator-table.ts`,
 * one lazy `import()` per model, on first use: `validator-table-module.ts`) and `Client`
 * specialised with them. `modelRegistryInterface`, `bodyInterfaces` and the expression helpers
 * (`arrow`, `callMethod`, `dynamicImport`) are shared with the user target's index (`user-index.ts`)
 * and the validator table.
 */
import type { ts as TS } from 'ts-morph';
import { printModuleAs, type LaidOut } from './layout/index.ts';
import type { ClassifiedModel, Endpoint } from './classify.ts';
import { loadTsMorph } from './emit.ts';
import { fileStem, type ModelNames } from './name.ts';
import { SDK_QUEUE_FIELDS } from './validators.ts';
import { isObject } from '../order.ts';
import {
  blockLayout,
  constStatement,
  exported,
  importDeclaration,
  literalUnion,
  ref,
  stringNode,
  typeNode,
  withDoc,
  type Ts,
  type TypeSpec,
} from './printer.ts';

/** A model as the index needs it. */
export type IndexModel = ClassifiedModel & { names: ModelNames };

/** `export type name = type;` with its doc comment. */
export function typeAlias(ts: Ts, name: string, type: TS.TypeNode, doc: string): TS.TypeAliasDeclaration {
  return withDoc(ts, ts.factory.createTypeAliasDeclaration(exported(ts), name, undefined, type), doc);
}

/** `export type { names };` */
export function exportTypes(ts: Ts, names: readonly string[]): TS.ExportDeclaration {
  const f = ts.factory;
  return f.createExportDeclaration(
    undefined,
    true,
    f.createNamedExports(names.map((n) => f.createExportSpecifier(false, undefined, n))),
  );
}

/** `export interface name extends bases { "<id>": type; ... }` with its doc comment (`bases`: type specs). */
export function idInterface(
  ts: Ts,
  name: string,
  doc: string,
  entries: ReadonlyArray<[id: string, type: TS.TypeNode]>,
  bases: readonly TypeSpec[] = [],
): TS.InterfaceDeclaration {
  const f = ts.factory;
  return withDoc(
    ts,
    f.createInterfaceDeclaration(
      exported(ts),
      name,
      undefined,
      heritage(ts, bases),
      entries.map(([id, type]) => f.createPropertySignature(undefined, stringNode(ts, id), undefined, type)),
    ),
    doc,
  );
}

/** An `extends` clause naming `bases`, or undefined for none. */
function heritage(ts: Ts, bases: readonly TypeSpec[]): TS.HeritageClause[] | undefined {
  const f = ts.factory;
  if (bases.length === 0) return undefined;
  return [
    f.createHeritageClause(
      ts.SyntaxKind.ExtendsKeyword,
      bases.map((b) =>
        typeof b === 'string'
          ? f.createExpressionWithTypeArguments(f.createIdentifier(b), undefined)
          : 'name' in b
            ? f.createExpressionWithTypeArguments(
                f.createIdentifier(b.name),
                b.args.map((a) => typeNode(ts, a)),
              )
            : (() => {
                throw new Error('an extends clause names a type');
              })(),
      ),
    ),
  ];
}

/** `(param) => body` */
export function arrow(ts: Ts, params: readonly string[], body: TS.ConciseBody): TS.ArrowFunction {
  const f = ts.factory;
  return f.createArrowFunction(
    undefined,
    undefined,
    params.map((p) => f.createParameterDeclaration(undefined, undefined, p)),
    undefined,
    f.createToken(ts.SyntaxKind.EqualsGreaterThanToken),
    body,
  );
}

/** `object.name(args)` (`object` an identifier's name or an expression). */
export function callMethod(
  ts: Ts,
  object: string | TS.Expression,
  name: string,
  args: TS.Expression[],
): TS.CallExpression {
  const f = ts.factory;
  const target = typeof object === 'string' ? f.createIdentifier(object) : object;
  return f.createCallExpression(f.createPropertyAccessExpression(target, name), undefined, args);
}

/**
 * `import(specifier)`; with `unseen`, `import(specifier as string)`: TypeScript adds the target of a
 * string literal `import()` to the program (parsed and bound, even from a `@ts-nocheck` file), not
 * that of any other expression, while esbuild, rolldown (Vite) and `tsc`'s own output see the literal.
 */
export function dynamicImport(ts: Ts, specifier: string, unseen = false): TS.CallExpression {
  const f = ts.factory;
  const literal = stringNode(ts, specifier);
  return f.createCallExpression(f.createToken(ts.SyntaxKind.ImportKeyword) as TS.Expression, undefined, [
    unseen ? f.createAsExpression(literal, f.createKeywordTypeNode(ts.SyntaxKind.StringKeyword)) : literal,
  ]);
}

/** Body of `generated/index.ts`. `validated` holds the ids that have a compiled validator. */
export async function indexModule(
  models: IndexModel[],
  validated: ReadonlySet<string>,
  label: string,
  layOut = false,
): Promise<string | LaidOut> {
  const { ts } = await loadTsMorph();
  const f = ts.factory;
  const st: TS.Statement[] = [];
  st.push(importDeclaration(ts, ['Client as RuntimeClient'], '../runtime/client.ts', false));
  st.push(
    importDeclaration(
      ts,
      ['ClientOptions', 'Registry', 'ValidatorSource', ...bodyTypes(models)].sort(),
      '../runtime/index.ts',
      true,
    ),
  );
  for (const m of models) st.push(importDeclaration(ts, [m.names.params], `./params/${fileStem(m.id)}.ts`, true));
  st.push(
    exportTypes(
      ts,
      models.map((m) => m.names.params),
    ),
  );
  const by = (e: Endpoint) => models.filter((m) => m.endpoints.includes(e)).map((m) => m.id);
  const aliases: Array<[string, string[], string]> = [
    ['ModelId', models.map((m) => m.id), `Every model id of the snapshot (${models.length}).`],
    ['ImageGenerateModelId', by('images.generate'), 'Model ids served by `images.generate`.'],
    ['ImageEditModelId', by('images.edit'), 'Model ids served by `images.edit`.'],
    ['VideoModelId', by('videos.generate'), 'Model ids served by `videos.generate`.'],
    [
      'QueueModelId',
      by('queue'),
      'Model ids accepted by the queue (`queue.enqueue`, `queue.run`): the image and video models.',
    ],
    ['ChatModelId', by('chat'), 'Model ids served by `chat.completions.create`.'],
  ];
  for (const [name, ids, doc] of aliases)
    st.push(typeAlias(ts, name, literalUnion(ts, ids), `${doc}\nGenerated from \`${label}/models.json\`.`));
  st.push(
    idInterface(
      ts,
      'ModelParams',
      "Model id -> that model's own parameters (`ModelParams['flux-2-pro']` is `Flux2ProParams`).",
      models.map((m) => [m.id, typeNode(ts, m.names.params)]),
    ),
  );
  st.push(...bodyInterfaces(ts, models, "the snapshot's"));
  st.push(modelRegistryInterface(ts, "The snapshot's models as the runtime `Client` is generic over them."));
  st.push(
    idsConstant(ts, {
      name: 'MODEL_IDS',
      idType: 'ModelId',
      idsDoc: 'Every model id of the snapshot, in the order of `models.json`.',
      models,
    }),
  );
  st.push(
    withDoc(
      ts,
      constStatement(
        ts,
        'snapshotValidators',
        typeNode(ts, 'ValidatorSource'),
        arrow(
          ts,
          ['model'],
          callMethod(ts, dynamicImport(ts, './validator-table.ts'), 'then', [
            arrow(ts, ['t'], callMethod(ts, 't', 'validatorOf', [f.createIdentifier('model')])),
          ]),
        ),
      ),
      "The compiled request validators of the snapshot's queue models, by model id, loaded lazily: a validator; `null` for a model of the snapshot without one (not validated); `undefined` for an id the snapshot does not have. The generated `Client` validates queue requests with it. Its table of loaders (`validator-table.ts`) loads with the first validation: a page that validates nothing loads neither it nor any validator.",
    ),
  );
  st.push(
    clientClass(
      ts,
      // The options, errors and example are documented once, on the runtime's `Client` and `ClientOptions`.
      "The runtime's `Client` typed with the snapshot's models: `model` autocompletes per endpoint, each model's parameters are checked, results are typed by `response_format`, and queue requests are validated with the snapshot's compiled validators (`snapshotValidators`).\nOptions (`ClientOptions`), errors and an example: see the runtime's `Client`. For a model newer than the snapshot, use `client.untyped`.\n@throws SDKError at construction for a bad option (which ones: the runtime's `Client`).",
      'snapshotValidators',
    ),
  );
  return printModuleAs(ts, blockLayout(ts, st), layOut, true);
}

/** `export const <name>: readonly <idType>[] = [...]`: the models' ids, in the snapshot's order, with `idsDoc`. */
export function idsConstant(
  ts: Ts,
  o: { name: string; idType: string; idsDoc: string; models: IndexModel[] },
): TS.Statement {
  const f = ts.factory;
  const ids = f.createTypeOperatorNode(ts.SyntaxKind.ReadonlyKeyword, f.createArrayTypeNode(typeNode(ts, o.idType)));
  return withDoc(
    ts,
    constStatement(ts, o.name, ids, f.createArrayLiteralExpression(o.models.map((m) => stringNode(ts, m.id)))),
    o.idsDoc,
  );
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
function bodyEntry(ts: Ts | undefined, m: IndexModel, fields: 'SdkFields' | 'QueueFields', uses: Set<string>) {
  // a video model's parameters carry the endpoint's `multi_prompt`, as its endpoint functions' do (emit-model.ts)
  const video = m.output === 'video';
  const own = video ? ref('VideoParams', m.names.params) : m.names.params;
  const plain = plainParams(m);
  for (const t of [fields, ...(video ? ['VideoParams'] : []), ...(plain ? [] : ['OwnParams'])]) uses.add(t);
  if (ts === undefined) return undefined;
  return plain
    ? ts.factory.createIntersectionTypeNode([typeNode(ts, fields), typeNode(ts, own)])
    : typeNode(ts, ref('OwnParams', own, fields));
}

/** The runtime types the request-body entries of `models` name (to import), sorted. */
export function bodyTypes(models: IndexModel[]): string[] {
  const uses = new Set<string>();
  for (const m of models) {
    if (m.endpoints.some((e) => e !== 'queue' && e !== 'chat')) bodyEntry(undefined, m, 'SdkFields', uses);
    if (m.endpoints.includes('queue')) bodyEntry(undefined, m, 'QueueFields', uses);
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
  ts: Ts,
  models: IndexModel[],
  whose: string,
  extendsFrom?: { media: TypeSpec; queue: TypeSpec },
): TS.InterfaceDeclaration[] {
  const media = models.filter((m) => m.endpoints.some((e) => e !== 'queue' && e !== 'chat'));
  const queued = models.filter((m) => m.endpoints.includes('queue'));
  const one = (
    name: string,
    list: IndexModel[],
    fields: 'SdkFields' | 'QueueFields',
    doc: string,
    base: TypeSpec | undefined,
  ) =>
    idInterface(
      ts,
      name,
      doc,
      list.map((m) => [m.id, bodyEntry(ts, m, fields, new Set())!]),
      base === undefined ? [] : [base],
    );
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
export function modelRegistryInterface(ts: Ts, description: string): TS.InterfaceDeclaration {
  const f = ts.factory;
  const members: Array<[string, string]> = [
    ['params', 'ModelParams'],
    ['mediaBodies', 'ModelMediaBodies'],
    ['queueBodies', 'ModelQueueBodies'],
    ['imageGenerate', 'ImageGenerateModelId'],
    ['imageEdit', 'ImageEditModelId'],
    ['video', 'VideoModelId'],
    ['queue', 'QueueModelId'],
    ['chat', 'ChatModelId'],
  ];
  return withDoc(
    ts,
    f.createInterfaceDeclaration(
      exported(ts),
      'ModelRegistry',
      undefined,
      heritage(ts, ['Registry']),
      members.map(([name, type]) => f.createPropertySignature(undefined, name, undefined, typeNode(ts, type))),
    ),
    description,
  );
}

/**
 * `Client`, the runtime client specialised with `ModelRegistry` (the same for both targets): `validators`
 * names the `ValidatorSource` it passes on, `description` is its doc text.
 */
export function clientClass(ts: Ts, description: string, validators: string): TS.ClassDeclaration {
  const f = ts.factory;
  const options = f.createObjectLiteralExpression([
    validators === 'validators'
      ? f.createShorthandPropertyAssignment(validators)
      : f.createPropertyAssignment('validators', f.createIdentifier(validators)),
    f.createSpreadAssignment(f.createIdentifier('options')),
  ]);
  const ctor = f.createConstructorDeclaration(
    undefined,
    [
      f.createParameterDeclaration(
        undefined,
        undefined,
        'options',
        undefined,
        typeNode(ts, 'ClientOptions'),
        f.createObjectLiteralExpression([]),
      ),
    ],
    f.createBlock([f.createExpressionStatement(f.createCallExpression(f.createSuper(), undefined, [options]))], true),
  );
  return withDoc(
    ts,
    f.createClassDeclaration(exported(ts), 'Client', undefined, heritage(ts, [ref('RuntimeClient', 'ModelRegistry')]), [
      ctor,
    ]),
    description,
  );
}
