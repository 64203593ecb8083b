/**
 * Part of stage 6 (emit): `generated/params/<id>.ts` (a user's `<out>/params/<id>.ts`): a model's
 * parameter type alone, as the index's `ModelParams` and request-body entries name it.
 *
 * The index reaches every model it knows, and the compiler parses every module the index imports: a
 * model module (its doc comments, schema data, endpoint functions and, in a user's project, its
 * validator's import) made every consumer's compile grow with the catalog. This module holds only
 * the declaration of `models/<id>.ts`' parameter type, printed again without its comments, under a
 * one-line doc that points to the documented one; the model module keeps that (a user who imports
 * it, or its functions, sees the full docs).
 */
import type { ts as TS } from 'ts-morph';
import type { ModelType } from './types.ts';
import type { ModelNames } from './name.ts';
import { fileStem } from './name.ts';
import type { Target } from '../output/target.ts';
import { loadTsMorph } from '../libraries.ts';
import { importDeclaration, withDoc, withoutComments, type Ts } from './printer.ts';
import { printModuleAs, type LaidOut } from './layout/index.ts';

/**
 * The first line of a user's `<out>/params/<id>.ts`: source in the user's program (not a declaration
 * file, which `skipLibCheck` would spare); the same text compiles under strict flags here
 * (`generated/params/`).
 */
const USER_NOCHECK =
  "// @ts-nocheck -- generated declarations, type-checked where they are generated; the user's program uses them";

/** What the params module needs of a model. */
export interface ParamsModel {
  id: string;
  /** The model's spec file (`specs/models/<id>.json`), named in the doc line. */
  file: string;
  names: ModelNames;
  type: ModelType;
}

/**
 * Body of `<prefix>params/<id>.ts`, unformatted: the runtime types the declaration names, then the
 * model module's declaration (`m.type.declaration`) without its comments, under one line of doc.
 * With `layOut`, in prettier's layout where `layout/` covers it (`LaidOut`).
 * @throws Error when the declaration is neither an interface nor a type alias (`types.ts` emits no other).
 */
export function printParamsModule(ts: Ts, m: ParamsModel, target: Target, layOut = false): string | LaidOut {
  const d = m.type.declaration;
  if (!ts.isInterfaceDeclaration(d) && !ts.isTypeAliasDeclaration(d))
    throw new Error(`the parameter type of model ${JSON.stringify(m.id)} is not an interface or a type alias`);
  const declaration: TS.Statement = withDoc(
    ts,
    withoutComments(ts, d),
    `Parameters of model \`${m.id}\` (\`${m.file}\`), documented per field in \`${target.prefix}models/${fileStem(m.id)}.ts\`.`,
  );
  const imports = [...m.type.runtimeImports].sort();
  return printModuleAs(
    ts,
    [
      ...(target.kind === 'user' ? [USER_NOCHECK] : []),
      ...(imports.length > 0 ? [importDeclaration(ts, imports, target.runtime.types, true)] : []),
      declaration,
    ],
    layOut,
  );
}

/** `printParamsModule` with ts-morph's copy of TypeScript (`layOut`: in prettier's layout where covered). */
export function paramsModule(m: ParamsModel, target: Target, layOut?: false): Promise<string>;
export function paramsModule(m: ParamsModel, target: Target, layOut: boolean): Promise<string | LaidOut>;
export function paramsModule(m: ParamsModel, target: Target, layOut = false): Promise<string | LaidOut> {
  return Promise.resolve(printParamsModule(loadTsMorph().ts, m, target, layOut));
}
