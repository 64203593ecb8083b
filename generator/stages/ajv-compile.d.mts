// Types of ajv-compile.mjs (plain JavaScript, run by the worker thread without a TypeScript loader).
import type { Options } from 'ajv';

/** The module that ajv's code requires helper formats from (a name `validators.ts` replaces; never loaded). */
export declare const HELPER_MODULE: string;

/** ajv's options, and the formats checked by a helper of the SDK's `validator-support` (by format name). */
export interface CompileOptions extends Options {
  helperFormats?: readonly string[];
}

/** The standalone code (an ES module's text) of a validator for `schema`. @throws what ajv throws. */
export declare function compileStandalone(schema: Record<string, unknown>, options: CompileOptions): string;
