/**
 * `oxen-inference-sdk/node`: what needs Node's APIs (also available in Deno and Bun), kept out of
 * the browser-safe entries.
 */
export { saveOutput, type SaveOutputOptions, type SavedOutput } from './save-output.ts';
