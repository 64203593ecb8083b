/** The declarations of `root.mjs` (JavaScript, so that plain `node` scripts import it too). */

/** The nearest directory at or above `from` (absolute) that holds `templates/header.hbs`, else the parent of `from`. */
export declare function findRoot(from: string): string;

/** The repository root (absolute, no trailing separator); in the installed generator package, its `dist/`. */
export declare const REPO_ROOT: string;
