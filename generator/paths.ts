/** Where the repository is, and how specs directories are named in messages and headers. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The generator's root: the nearest directory at or above this module that holds
 * `templates/header.hbs`. It is the repository (this file is `<root>/generator/paths.ts`; in the
 * precompiled generator that `npm run generate` runs, `scripts/run-generate.mjs`, it is bundled
 * into `<root>/.tmp/`), or the installed generator package's `dist/` (its bin, `dist/cli.js`,
 * beside the templates, `specs/openapi.yaml`, `generator/stages/worker.mjs` and `.prettierrc.json`).
 */
export const REPO_ROOT = findRoot(path.dirname(fileURLToPath(import.meta.url)));

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'templates', 'header.hbs'))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(from, '..');
  }
}

/** The label of a specs directory: its path relative to the repository (posix), e.g. `specs`. */
export function specsLabel(specsDir: string): string {
  return path.relative(REPO_ROOT, path.resolve(specsDir)).split(path.sep).join('/') || '.';
}
