/**
 * The hand-written runtime of inference-sdk: client, HTTP, errors, resources. It knows no model;
 * `generated/index.ts` specialises `Client` with the snapshot's models.
 */
export * from './client.ts';
export * from './errors.ts';
export * from './http.ts';
export * from './registry.ts';
export * from './resources.ts';
export * from './types.ts';
