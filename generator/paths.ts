/** Where the repository is, and how specs directories are named in messages and headers. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is `<root>/generator/paths.ts`). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The label of a specs directory: its path relative to the repository (posix), e.g. `specs`. */
export function specsLabel(specsDir: string): string {
  return path.relative(REPO_ROOT, path.resolve(specsDir)).split(path.sep).join('/') || '.';
}
