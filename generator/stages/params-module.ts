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
import { commentText, stringLiteral } from '../escape.ts';
import type { ModelType } from './types.ts';
import type { ModelNames } from './name.ts';
import { fileStem } from './name.ts';
import type { Target } from '../output/target.ts';
import { loadTsMorph } from '../libraries.ts';

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

/** Body of `<prefix>params/<id>.ts`, unformatted: the runtime types it names, then `m.type.code` without comments. */
export function printParamsModule(ts: typeof TS, m: ParamsModel, target: Target): string {
  const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed, removeComments: true });
  const source = ts.createSourceFile('params.ts', m.type.code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const declarations = source.statements.map((s) => printer.printNode(ts.EmitHint.Unspecified, s, source));
  const doc = commentText(
    `Parameters of model \`${m.id}\` (\`${m.file}\`), documented per field in \`${target.prefix}models/${fileStem(m.id)}.ts\`.`,
  );
  const parts = [
    ...(target.kind === 'user' ? [USER_NOCHECK] : []),
    ...(m.type.runtimeImports.length > 0
      ? [`import type { ${[...m.type.runtimeImports].sort().join(', ')} } from ${stringLiteral(target.runtime.types)};`]
      : []),
    `/** ${doc} */\n${declarations.join('\n')}`,
  ];
  return `${parts.join('\n\n')}\n`;
}

/** `printParamsModule` with ts-morph's copy of TypeScript. */
export function paramsModule(m: ParamsModel, target: Target): Promise<string> {
  return Promise.resolve(printParamsModule(loadTsMorph().ts, m, target));
}
