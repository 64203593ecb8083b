/**
 * The package entry of oxen-inference-sdk: the hand-written runtime (`runtime/`) and the generated,
 * per-model typed SDK (`generated/`). `Client` is the generated client (typed with the snapshot's
 * models); the runtime's generic client is `RuntimeClient`, and its resource classes are exported
 * here too (they are not part of `oxen-inference-sdk/runtime`, the light entry: see runtime/index.ts).
 */
export * from './runtime/index.ts';
export * from './runtime/resources.ts';
export { Client as RuntimeClient } from './runtime/client.ts';
export * from './generated/index.ts';
export { Client } from './generated/index.ts';
// `<model>Run` of a user's generated models (oxen-inference-codegen) calls it; the package's own per-model entries bundle it
export { runGenerations } from './runtime/queue-run.ts';
