/** Where the repository is, and how specs directories are named in messages and headers. */
import path from 'node:path';
import { REPO_ROOT } from './root.mjs';

/**
 * The generator's root (`root.mjs`): this repository, or the installed generator package's `dist/` (its bin,
 * `dist/cli.js`, beside the templates, `specs/openapi.yaml` and
 * `.prettierrc.json`).
 */
export { REPO_ROOT };

/** The label of a specs directory: its path relative to the repository (posix), e.g. `specs`. */
export function specsLabel(specsDir: string): string {
  return path.relative(REPO_ROOT, path.resolve(specsDir)).split(path.sep).join('/') || '.';
}
