/**
 * The package entry of inference-sdk: the hand-written runtime (`runtime/`) and the generated,
 * per-model typed SDK (`generated/`). `Client` is the generated client (typed with the snapshot's
 * models); the runtime's generic client is `RuntimeClient`.
 */
export * from './runtime/index.ts';
export { Client as RuntimeClient } from './runtime/index.ts';
export * from './generated/index.ts';
export { Client } from './generated/index.ts';
