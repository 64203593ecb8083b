/**
 * The generator's CommonJS libraries, loaded with `require` on first use. An ES module `import()` of a
 * CommonJS package makes Node scan its source for export names first (cjs-module-lexer): for
 * TypeScript's 9 MB `typescript.js` that is about 1.7 s on this project's 2-core machine, against about
 * 0.65 s for `require`; for ts-morph about 1.1 s against 0.6 s. A run that reuses every file loads none.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** ts-morph (with TypeScript), for the modules emitted from structures. */
export const loadTsMorph = (): typeof import('ts-morph') => require('ts-morph') as typeof import('ts-morph');

/** ajv-formats' format tables. */
export const loadAjvFormats = (): Record<'fullFormats' | 'fastFormats', Record<string, unknown>> =>
  require('ajv-formats/dist/formats') as Record<'fullFormats' | 'fastFormats', Record<string, unknown>>;

/** redos-detector, the check that a schema's pattern cannot backtrack catastrophically (`stages/pattern-check.ts`). */
export const loadRedosDetector = (): typeof import('redos-detector') =>
  require('redos-detector') as typeof import('redos-detector');
