// The one computation of the repository root, for every side that needs it: the generator (through
// `paths.ts`), scripts/ (plain `node` runs the .mjs ones, hence JavaScript), test/ and fake-service/.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The nearest directory at or above `from` that holds `templates/header.hbs`, else the parent of `from`
 * (a copy of only the build's inputs, as the package benchmarks make, has no templates).
 * @param {string} from an absolute directory
 * @returns {string}
 */
export function findRoot(from) {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'templates', 'header.hbs'))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(from, '..');
  }
}

/**
 * The repository root (absolute, no trailing separator), found from this module's place: it is
 * `<root>/generator/root.mjs`, or bundled into `<root>/.tmp/` (the precompiled `npm run generate`), or into
 * the installed generator package's `dist/cli.js`, whose `dist/` holds the templates and so is the root.
 */
export const REPO_ROOT = findRoot(path.dirname(fileURLToPath(import.meta.url)));
