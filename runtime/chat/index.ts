/**
 * `oxen-inference-sdk/chat`: `ChatCompletionAccumulator`, for chunks of a streamed chat completion
 * read without the client's stream (e.g. through a proxy or a framework). An entry of its own because
 * the client's chat stream, loaded on demand, shares the accumulator's module: exported by the package
 * root, that module would be loaded by every page that imports the root, streaming or not. The chat
 * format's types (`runtime/chat/types.ts`, the ones it reads and returns) are here too, as in the root
 * and `oxen-inference-sdk/runtime`.
 */
export { CHAT_ENTRY_BYTES, ChatCompletionAccumulator, type ChatCompletionAccumulatorOptions } from './accumulate.ts';
export type * from './types.ts';
