/**
 * `runtime/operations.ts`: the operations table of the API description (`stages/operations.ts`) as
 * a data-only module of the runtime, written by `npm run generate` (checked by `--check`). The
 * runtime's endpoint functions, the proxy's routes and the local server's routes read method, path
 * and parameters from it.
 *
 * It lives in `runtime/`, not `generated/`: the runtime imports it, and the runtime may import
 * nothing of `generated/` (which imports the runtime: specs -> generator -> generated -> runtime). It
 * holds data and types only, so the runtime stays the one place of behaviour.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringLiteral } from '../escape.ts';
import type { OperationsTable } from '../stages/operations.ts';

/** The file, relative to the repository. */
export const RUNTIME_OPERATIONS_FILE = 'runtime/operations.ts';

/** A string literal as prettier writes it here (single quotes; the table's strings are checked to need no escape). */
const literal = (text: string): string => (/^[\w\-./{}]*$/.test(text) ? `'${text}'` : stringLiteral(text));

/** The repository's line width (`.prettierrc.json`). */
const WIDTH = 120;

/** `    name: [a, b],` as prettier prints it: on one line when it fits, else one item a line. */
function listProperty(name: string, items: readonly string[]): string {
  const line = `    ${name}: [${items.map(literal).join(', ')}],`;
  if (line.length <= WIDTH || items.length === 0) return line;
  return [`    ${name}: [`, ...items.map((i) => `      ${literal(i)},`), '    ],'].join('\n');
}

/**
 * The module's text after its generated-file header, exactly as prettier prints it with the
 * repository's settings (objects expanded, one property a line), so that no formatter is loaded to
 * write it; `test/generator/operations.test.ts` checks that prettier leaves it unchanged.
 *
 * Each operation's method and path are an export of their own, named by its operationId, so that a
 * bundle keeps only the operations its calls perform (a per-model image call carries one, not the
 * table); `OPERATIONS` repeats them with their parameters, for the code that needs every operation
 * (the proxy's routes, the local server's). It repeats rather than spreads them: a bundler keeps an
 * unused object whose literal spreads another (a spread may run a getter).
 */
export function operationsModuleBody(table: OperationsTable): string {
  const ops = [...table.values()];
  const consts = ops.map((o) =>
    [
      `/** \`${o.method} ${o.path}\`. */`,
      `export const ${o.id} = {`,
      `  method: ${literal(o.method)},`,
      `  path: ${literal(o.path)},`,
      `} as const satisfies Operation;`,
    ].join('\n'),
  );
  const entries = ops.map((o) =>
    [
      `  ${o.id}: {`,
      `    method: ${literal(o.method)},`,
      `    path: ${literal(o.path)},`,
      listProperty('pathParams', o.pathParams),
      listProperty('query', o.query),
      '  },',
    ].join('\n'),
  );
  return `/** One fixed operation of the API: its method and path template (\`{name}\` for each path parameter). */
export interface Operation {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly path: string;
}

/** An operation with its parameters, as \`OPERATIONS\` lists it. */
export interface OperationWithParams extends Operation {
  /** The path parameters, in the order of the path. */
  readonly pathParams: readonly string[];
  /** The query parameters the operation takes. */
  readonly query: readonly string[];
}

${consts.join('\n\n')}

/**
 * The API's fixed operations, by operationId, as \`specs/openapi.yaml\` describes them, in its order
 * except that an operation comes before those whose template it shadows (a literal segment where
 * the other has a parameter: \`/api/ai/models/search\` before \`/api/ai/models/{id}\`). A request path
 * is matched against the templates in this order; the first whose template and method fit is its
 * operation.
 */
export const OPERATIONS = {
${entries.join('\n')}
} as const satisfies Readonly<Record<string, OperationWithParams>>;

/** The operationIds of the API description. */
export type OperationId = keyof typeof OPERATIONS;
`;
}

/**
 * Bring the generator's files of the runtime under `root` (`GenerateResult.runtimeFiles`: path
 * relative to `root` -> whole text, header and formatting included) up to date; with `check`, only
 * report. Resolves to the files that differ.
 */
export async function syncRuntimeFiles(
  root: string,
  files: ReadonlyMap<string, string>,
  check: boolean,
): Promise<string[]> {
  const changed: string[] = [];
  for (const [file, text] of files) {
    const full = path.join(root, file);
    const current = await readFile(full, 'utf8').catch(() => undefined);
    if (current === text) continue;
    changed.push(file);
    if (!check) {
      await writeFile(`${full}.${process.pid}.tmp`, text);
      await rename(`${full}.${process.pid}.tmp`, full);
    }
  }
  return changed;
}
