/**
 * Part of stage 6 (emit): `generated/validator-table.ts` (`validatorTableModule`, syntax nodes printed
 * by `printer.ts`), the table of lazy validator loaders that `snapshotValidators` (`index-module.ts`)
 * loads with `import()` on its first call; with `user`, a user's `<out>/validator-table.ts`, which
 * its index's `validators` (`user-index.ts`) loads.
 */
import type { ts as TS } from 'ts-morph';
import { printModuleAs, type LaidOut } from './layout/index.ts';
import { loadTsMorph } from './emit.ts';
import { arrow, callMethod, dynamicImport, type IndexModel } from './index-module.ts';
import { fileStem } from './name.ts';
import {
  blockLayout,
  constStatement,
  exported,
  importDeclaration,
  ref,
  stringNode,
  typeNode,
  withDoc,
  type Ts,
} from './printer.ts';

/**
 * Body of `generated/validator-table.ts`, which `snapshotValidators` (`generated/index.ts`) loads with
 * `import()` on its first call: the loader of each validated model's validator, and the snapshot's
 * models without one. Kept out of `index.ts` so that a page of the root `Client` that validates nothing
 * (an image call, a chat) carries none of the table (111 `import()`s, each naming a chunk).
 * With `user` (a user's `<out>/validator-table.ts`, loaded by its index's `validators`): the added
 * models', the runtime's types from the package (`user.runtimeTypes`), `.js` specifiers, and
 * `// @ts-nocheck` first (the same text compiles here, strict): checking the loaders' `import()`s
 * cost every compile of the user's program as much as the rest of the index. Its specifiers are
 * `'./validators/<id>.js' as string` (`dynamicImport`'s `unseen`): a literal one made TypeScript parse
 * every added validator (most of a 250-model program's source) in every compile that reaches the
 * index. A `tsc` build to an `outDir` emits them only when its `include` covers `<out>/` (as it
 * covers the rest of the user's sources); a program of `files` alone would miss them at run time.
 */
export async function validatorTableModule(
  models: IndexModel[],
  validated: ReadonlySet<string>,
  user?: { runtimeTypes: string },
): Promise<string>;
/** With `layOut`, in prettier's layout where `layout/` covers it (`LaidOut`, prettier formatting the rest). */
export async function validatorTableModule(
  models: IndexModel[],
  validated: ReadonlySet<string>,
  user: { runtimeTypes: string } | undefined,
  layOut: boolean,
): Promise<string | LaidOut>;
export async function validatorTableModule(
  models: IndexModel[],
  validated: ReadonlySet<string>,
  user?: { runtimeTypes: string },
  layOut = false,
): Promise<string | LaidOut> {
  const { ts } = await loadTsMorph();
  const f = ts.factory;
  const unvalidated = models.filter((m) => !validated.has(m.id)).map((m) => stringNode(ts, m.id));
  const model = f.createIdentifier('model');
  const whose = user ? 'The added' : "The snapshot's";
  const st: TS.Statement[] = [
    importDeclaration(ts, ['CompiledValidator'], user?.runtimeTypes ?? '../runtime/index.ts', true),
    validatorLoaders(ts, {
      withValidator: models.filter((m) => validated.has(m.id)),
      loadersDoc: `Loads one ${user ? 'added ' : ''}model's compiled validator module on demand (a bundler splits each into its own chunk). Plain \`import()\` arrows, each kept short${user ? '; each specifier `as string`, so that TypeScript leaves the validators out of the program (bundlers and `tsc` output keep the literal): compile `<out>/` whole (tsconfig `include`)' : ''}.`,
      loaderPath: (m) => `./validators/${fileStem(m.id)}${user ? '.js' : '.ts'}`,
      unseen: user !== undefined,
    }),
    withDoc(
      ts,
      constStatement(
        ts,
        'unvalidated',
        typeNode(ts, ref('ReadonlySet', 'string')),
        f.createNewExpression(f.createIdentifier('Set'), undefined, [f.createArrayLiteralExpression(unvalidated)]),
        false,
      ),
      `${whose} models without a compiled validator (not validated).`,
    ),
    withDoc(
      ts,
      f.createFunctionDeclaration(
        exported(ts),
        undefined,
        'validatorOf',
        undefined,
        [f.createParameterDeclaration(undefined, undefined, 'model', undefined, typeNode(ts, 'string'))],
        f.createTypeReferenceNode('Promise', [
          f.createUnionTypeNode([
            typeNode(ts, 'CompiledValidator'),
            f.createLiteralTypeNode(f.createNull()),
            f.createKeywordTypeNode(ts.SyntaxKind.UndefinedKeyword),
          ]),
        ]),
        f.createBlock(
          [
            f.createReturnStatement(
              f.createBinaryExpression(
                loadedValidator(ts),
                ts.SyntaxKind.QuestionQuestionToken,
                resolved(
                  ts,
                  f.createConditionalExpression(
                    callMethod(ts, 'unvalidated', 'has', [model]),
                    undefined,
                    f.createNull(),
                    undefined,
                    f.createIdentifier('undefined'),
                  ),
                ),
              ),
            ),
          ],
          true,
        ),
      ),
      user
        ? "The compiled validator of added model `model` (loaded on first use), `null` for an added model without one, `undefined` for an id not added (the index's `validators` asks the package then)."
        : "The compiled validator of `model` (loaded on first use), `null` for a model of the snapshot without one, `undefined` for an id the snapshot does not have: `snapshotValidators`' answer.",
    ),
  ];
  return printModuleAs(ts, [...(user ? [USER_NOCHECK] : []), ...blockLayout(ts, st)], layOut, true);
}

/** The first line of a user's `<out>/validator-table.ts` (see `validatorTableModule`). */
const USER_NOCHECK =
  "// @ts-nocheck -- generated code, type-checked where it is generated; the user's program loads it on first validation";

/** `() => Promise<{ validate: CompiledValidator }>`: a loader of a validator module (one line, as written by hand). */
function loaderType(ts: Ts): TS.TypeNode {
  const f = ts.factory;
  const module = f.createTypeLiteralNode([
    f.createPropertySignature(undefined, 'validate', undefined, typeNode(ts, 'CompiledValidator')),
  ]);
  ts.setEmitFlags(module, ts.EmitFlags.SingleLine);
  return f.createFunctionTypeNode(undefined, [], f.createTypeReferenceNode('Promise', [module]));
}

/** `validatorLoaders.get(model)?.().then((m) => m.validate)`: the validator of `model`, when a loader has it. */
function loadedValidator(ts: Ts): TS.Expression {
  const f = ts.factory;
  const loaded = f.createCallChain(
    callMethod(ts, 'validatorLoaders', 'get', [f.createIdentifier('model')]),
    f.createToken(ts.SyntaxKind.QuestionDotToken),
    undefined,
    [],
  );
  return f.createCallChain(f.createPropertyAccessChain(loaded, undefined, 'then'), undefined, undefined, [
    arrow(ts, ['m'], f.createPropertyAccessExpression(f.createIdentifier('m'), 'validate')),
  ]);
}

/** `Promise.resolve(value)` */
function resolved(ts: Ts, value: TS.Expression): TS.Expression {
  return callMethod(ts, 'Promise', 'resolve', [value]);
}

/**
 * `validatorLoaders`, from model id to a loader of its validator (`validator-table.ts`). Each loader
 * is a plain `import()` of `loaderPath`; their type is given to `Map` so that the compiler checks
 * each arrow against it instead of inferring one union of them all.
 */
function validatorLoaders(
  ts: Ts,
  o: { withValidator: IndexModel[]; loadersDoc: string; loaderPath: (m: IndexModel) => string; unseen: boolean },
): TS.Statement {
  const f = ts.factory;
  const mapArgs = () => [typeNode(ts, 'string'), loaderType(ts)];
  return withDoc(
    ts,
    constStatement(
      ts,
      'validatorLoaders',
      f.createTypeReferenceNode('ReadonlyMap', mapArgs()),
      f.createNewExpression(f.createIdentifier('Map'), mapArgs(), [
        f.createArrayLiteralExpression(
          o.withValidator.map((m) =>
            f.createArrayLiteralExpression([
              stringNode(ts, m.id),
              arrow(ts, [], dynamicImport(ts, o.loaderPath(m), o.unseen)),
            ]),
          ),
          true,
        ),
      ]),
      false,
    ),
    o.loadersDoc,
  );
}
