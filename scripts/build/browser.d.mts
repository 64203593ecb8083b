/** `{ source file: its browser version }`, relative to the repository root, `/`-separated. */
export declare const BROWSER_FILES: Readonly<Record<string, string>>;
/** The output directory of the browser variant, relative to `dist/`. */
export declare const BROWSER_DIR: string;
/** Whether an output entry (`node/index`, `models/flux-2-pro`) has a browser variant: all but the Node-only ones. */
export declare function hasBrowserVariant(name: string): boolean;
/** A rolldown plugin that resolves each file of `BROWSER_FILES` (under `root`) to its browser version. */
export declare function browserFilesPlugin(root: string): unknown;
