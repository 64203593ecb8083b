/**
 * Stage 6, emit: the text of each output file, without its generated-file header (the write stage
 * formats the body and adds the header). The stage's parts:
 * - `generated/models/<id>.ts`: `emit-model.ts` (its endpoint functions), as syntax nodes
 *   (`print-model.ts`), with the parameter type of `types.ts`;
 * - `generated/validators/<id>.ts`: `validators.ts` (ajv standalone code);
 * - `generated/index.ts`: `index-module.ts`; a user's `<out>/index.ts`: `user-index.ts`;
 * - `generated/validator-table.ts` (a user's too): `validator-table-module.ts`;
 * - `runtime/operations.ts`: `operations-module.ts`;
 * - `generated/openapi.ts`: `openapi.ts` (openapi-typescript in a worker thread);
 * - `generated/MODELS.md`: `reference.ts` (`templates/models.md.hbs`);
 * - the templates and the header: `templates.ts`; the endpoint docs: `endpoint-docs.ts`.
 * Every TypeScript module is printed by one printer, `printer.ts` (syntax nodes, the compiler's
 * printer); handlebars writes only Markdown and the generated-file header.
 * ts-morph and openapi-typescript are loaded only when a file that needs them is emitted.
 */
import type { EmitModel } from './emit-model.ts';
import type { OperationsTable } from './operations.ts';
import { printModelModule } from './print-model.ts';
import type { LaidOut } from './layout/index.ts';
import { packageTarget, type Target } from '../output/target.ts';
import { loadTsMorph as requireTsMorph } from '../libraries.ts';

export type { EmitModel } from './emit-model.ts';

/** Output: path relative to the output root -> file text. */
export type OutputFiles = Map<string, string>;

type TsMorph = ReturnType<typeof requireTsMorph>;
/** ts-morph's TypeScript, loaded on first use (a run that reuses every module never loads it; `require`: see libraries.ts). */
export function loadTsMorph(): Promise<TsMorph> {
  return Promise.resolve().then(requireTsMorph);
}

/** Body of `generated/models/<id>.ts` (or, for a user's target, `<out>/models/<id>.ts`); with `layOut`, in prettier's layout where covered (`LaidOut`). */
export async function modelModule(
  m: EmitModel,
  hasValidator: boolean,
  operations: OperationsTable,
  target: Target = packageTarget,
  layOut = false,
): Promise<string | LaidOut> {
  const tm = await loadTsMorph();
  return printModelModule(tm.ts, m, hasValidator, operations, target, layOut);
}
