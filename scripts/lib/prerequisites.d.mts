/** What the test suite needs from the machine: see prerequisites.mjs. */
export declare const CHROMIUM_PATH: string;
export declare const CHROMIUM_TESTS_DIR: string;
export declare class PrerequisiteError extends Error {}
export declare function isExecutable(file: string): boolean;
export declare function findOnPath(name: string, env?: NodeJS.ProcessEnv): string | undefined;
export declare function needsChromium(files: readonly string[]): boolean;
export declare function ensureChromium(options?: {
  chromiumPath?: string;
  env?: NodeJS.ProcessEnv;
  root?: boolean;
  log?: (line: string) => void;
}): Promise<boolean>;
