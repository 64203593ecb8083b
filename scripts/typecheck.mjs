/**
 * `npm run typecheck` and `npm run typecheck:ts5`: the project's strict type check, one compile per
 * TypeScript project that holds other files or other flags:
 *   - `tsconfig.json`: the whole project (generated/, runtime/, generator/, scripts, fake-service, fuzz and
 *     test/, the compiled type tests of test/types/ included);
 *   - `tsconfig.build.json`: the files that ship, without Node.js's types (the published code uses web
 *     globals only, so a Node-only name there is an error);
 *   - `test/types/tsconfig.strict.json`: the chat, video and Standard Schema type tests under
 *     `exactOptionalPropertyTypes` and the other strictest flags a consumer may use.
 *
 * The compiler: TypeScript 7's native compiler (`@typescript/native`, what `npm test` runs), or with
 * `--ts5` TypeScript 5.9 (`typescript`: the compiler API's version, the one ts-morph, TypeDoc, API
 * Extractor and typescript-eslint load; what `.ci/run` runs after the tests). Other arguments go to every
 * compile (`npm run typecheck -- --pretty false`). Every project is compiled; the exit code is the first
 * failing compile's, else 0.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
/** The TypeScript projects the check compiles, relative to the repository. */
const TYPECHECK_PROJECTS = ['tsconfig.json', 'tsconfig.build.json', 'test/types/tsconfig.strict.json'];

const args = process.argv.slice(2);
const ts5 = args.includes('--ts5');
const tsc = ts5
  ? path.join(root, 'node_modules', 'typescript', 'bin', 'tsc')
  : path.join(root, 'node_modules', '@typescript', 'native', 'bin', 'tsc');
const passed = args.filter((a) => a !== '--ts5');

let code = 0;
for (const project of TYPECHECK_PROJECTS) {
  const r = spawnSync(process.execPath, [tsc, '--noEmit', '-p', path.join(root, project), ...passed], {
    stdio: 'inherit',
  });
  const status = r.status ?? 1;
  if (status !== 0 && code === 0) code = status;
}
process.exit(code);
