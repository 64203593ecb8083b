/**
 * The hand-written runtime of inference-sdk: client, HTTP and retries, errors, SSE, the queue,
 * validation and resources. It knows no model; `generated/index.ts` specialises `Client` with the
 * snapshot's models.
 */
export * from './client.ts';
export * from './errors.ts';
export * from './fine-tunes.ts';
export * from './http.ts';
export * from './queue.ts';
export * from './registry.ts';
export * from './resources.ts';
export * from './retry.ts';
export * from './sse.ts';
export * from './types.ts';
export * from './validation.ts';
