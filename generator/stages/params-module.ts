/**
 * Part of stage 6 (emit): a model's parameter type alone, as an index's `ModelParams` and request-body
 * entries name it: `generated/params/<id>.ts` (the package target, one module per model, which the
 * package's build folds into one declaration file), and, in a user's project, the declarations
 * `<out>/index.ts` holds itself (`stages/user-index.ts`), so a user's compile parses one file for them.
 *
 * The index reaches every model it knows, and the compiler parses every module the index imports: a
 * model module (its doc comments, schema data, endpoint functions and, in a user's project, its
 * validator's import) made every consumer's compile grow with the catalog. This holds only
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

/** What the params module needs of a model. */
export interface ParamsModel {
  id: string;
  /** The model's spec file (`specs/models/<id>.json`), named in the doc line. */
  file: string;
  names: ModelNames;
  type: ModelType;
}

/**
 * The model module's declaration (`m.type.declaration`) without its comments, under one line of doc
 * naming the documented one (`<prefix>models/<id>.ts`, `prefix` the target's).
 * @throws Error when the declaration is neither an interface nor a type alias (`types.ts` emits no other).
 */
export function paramsDeclaration(ts: Ts, m: ParamsModel, prefix: string): TS.Statement {
  const d = m.type.declaration;
  if (!ts.isInterfaceDeclaration(d) && !ts.isTypeAliasDeclaration(d))
    throw new Error(`the parameter type of model ${JSON.stringify(m.id)} is not an interface or a type alias`);
  return withDoc(
    ts,
    withoutComments(ts, d),
    `Parameters of model \`${m.id}\` (\`${m.file}\`), documented per field in \`${prefix}models/${fileStem(m.id)}.ts\`.`,
  );
}

/**
 * Body of `generated/params/<id>.ts` (the package target's; a user's index holds the declarations
 * itself), unformatted: the runtime types the declaration names, then `paramsDeclaration`.
 * With `layOut`, in prettier's layout where `layout/` covers it (`LaidOut`).
 * @throws Error when the declaration is neither an interface nor a type alias (`types.ts` emits no other).
 */
export function printParamsModule(ts: Ts, m: ParamsModel, target: Target, layOut = false): string | LaidOut {
  const declaration = paramsDeclaration(ts, m, target.prefix);
  const imports = [...m.type.runtimeImports].sort();
  return printModuleAs(
    ts,
    [...(imports.length > 0 ? [importDeclaration(ts, imports, target.runtime.types, true)] : []), declaration],
    layOut,
  );
}

/** `printParamsModule` with ts-morph's copy of TypeScript (`layOut`: in prettier's layout where covered). */
export function paramsModule(m: ParamsModel, target: Target, layOut?: false): Promise<string>;
export function paramsModule(m: ParamsModel, target: Target, layOut: boolean): Promise<string | LaidOut>;
export function paramsModule(m: ParamsModel, target: Target, layOut = false): Promise<string | LaidOut> {
  return Promise.resolve(printParamsModule(loadTsMorph().ts, m, target, layOut));
}
