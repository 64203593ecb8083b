/**
 * `oxen-inference-sdk/runtime`: the hand-written runtime, light entry (`exports.ts` is its list and
 * says what it holds), and `Redactor`, `REDACTED` and `PUBLIC_HEADERS`.
 *
 * `redact.ts` is loaded on demand (by a transport that has a secret), and esbuild puts a module
 * that a page reaches through a named re-export of a module the page uses into that page's first
 * load, even when the name itself is unused. Names taken through `export *` do not make this module
 * used, so a page that imports only names of `exports.ts` (a per-model call through
 * `createTransport`) does not load `redact.ts`; named here, beside that list, `Redactor` stays
 * public without being loaded by every page. The same holds for `checkRequest` (`validation.ts`, which
 * `enqueueGenerations` loads on demand).
 */
export * from './exports.ts';
// The answers' classes (`BadRequestError`, `NotFoundError`, ..., `OutcomeUnknownError`, `OutcomeUnknownReason`), made
// only by modules loaded on demand. Every export of `error-classes.ts` is public. Re-exported with `export *` here,
// beside `exports.ts` rather than in it: esbuild puts into a page's first load every module that a module the page
// uses imports (`exports.ts` is one: a page's names resolve through it), even by `export *`, when any chunk uses it.
export * from './error-classes.ts';
export { PUBLIC_HEADERS, REDACTED, Redactor } from './redact.ts';
// The helper generated validators' callers use; `validation.ts` is loaded on demand, by the first validated enqueue.
export { checkRequest } from './validation.ts';
// Thrown by validation (`validation.ts`, `standard-schema.ts`, a queue call's check), all loaded on demand.
export { ValidationError } from './validation-error.ts';
