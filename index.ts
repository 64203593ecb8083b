/**
 * The package entry of oxen-inference-sdk: the hand-written runtime (`runtime/`) and the generated,
 * per-model typed SDK (`generated/`). `Client` is the generated client (typed with the snapshot's
 * models); the runtime's generic client is `RuntimeClient`, and its resource classes are exported
 * here too (they are not part of `oxen-inference-sdk/runtime`, the light entry: see runtime/index.ts).
 */
import type { CompiledValidator, QueueRunOptions, QueueRunOutcome, Transport } from './runtime/index.ts';

// The runtime entry's list, as written in runtime/index.ts (each name chosen there).
export * from './runtime/index.ts';
// The client's resources and the runtime's generic client (the root entry only: see runtime/index.ts).
export { Chat, ChatCompletions, Events, Images, Queue, Videos } from './runtime/resources.ts';
export { FineTunes } from './runtime/fine-tunes/resource.ts';
export { Models } from './runtime/models/resource.ts';
export type { QueueBody, QueueParamsOf } from './runtime/resources.ts';
export { followGenerations, QueueFollow } from './runtime/queue/follow.ts';
export { Client as RuntimeClient } from './runtime/client.ts';
// The generated list of the snapshot's models: `Client`, `ModelId`, the per-endpoint id unions,
// `ModelParams`, `ModelRegistry`, `MODEL_IDS`, `snapshotValidators` and each model's `<Pascal>Params`.
export * from './generated/index.ts';

/**
 * `queue.run` for one body over any `Transport`: what the `<model>Run` functions of a user's
 * generated models (oxen-inference-codegen) call; the package's own per-model entries import it
 * directly. Loads the queue-run machinery on first call (a dynamic `import()`, as the client's
 * `queue.run` does), so the root entry stays light.
 * @param t the `Client` or a `createTransport(...)`; `body` the whole queue body (with `model`);
 * `options` `QueueRunOptions` (`timeoutMs` in milliseconds, `signal`, `onProgress`, `onEvent`,
 * `validate`); `validate` the model's compiled validator (null: not validated).
 * @returns one `QueueRunOutcome` per generation, in enqueue order.
 * @throws ValidationError (nothing sent), QueueRunTimeoutError, QueueRunAbortError, and the errors of enqueue.
 */
export async function runGenerations(
  t: Transport,
  body: Record<string, unknown>,
  options?: QueueRunOptions,
  validate?: CompiledValidator | null,
): Promise<QueueRunOutcome[]> {
  return (await import('./runtime/queue/run.ts')).runGenerations(t, body, options, validate);
}
