/**
 * The hand-written runtime of oxen-inference-sdk (`oxen-inference-sdk/runtime`): transports, the endpoint
 * functions, errors, validation, the proxy handler and the types. It knows no model.
 *
 * The `Client` class and its resources are not exported here but from the package root
 * (`oxen-inference-sdk`: `Client`, and the generic `RuntimeClient`): the resources load the queue and
 * event-stream machinery with dynamic `import()`s, and a bundler that sees those makes chunks of
 * them even when the client is unused, which would pull them into every bundle of a per-model
 * call made through `createTransport` from this entry.
 *
 * Modules, in dependency order (imports point only to earlier ones; no cycles):
 * `redact` → `errors` → `env`, `validation`, `validator-support` → `options` → `scope`, `http` →
 * `retry` → `transport` → `queue-link` → `endpoints`, `sse` → `shared-event-stream`,
 * `queue-outcomes`, `queue-run-state`, `queue-coordinator` → `queue-run` → `resources` → `client`;
 * `proxy` (server side) uses only `errors`, `env`, `options`, `proxy-forward` and `proxy-support`; its
 * Node adapter is in `runtime/node/` (the entry `oxen-inference-sdk/node`, not exported here). The
 * client loads `queue-run` and `sse` with a dynamic `import()` (a bundler splits them off), so this
 * index exports only their types; the generated `<model>Run` functions import `queue-run` directly.
 * `types`, `registry` and `fine-tunes` hold types only.
 */
export * from './endpoints.ts';
export * from './errors.ts';
export * from './fine-tunes.ts';
export * from './http.ts';
export * from './options.ts';
export * from './proxy.ts';
export { eventStreamStatus, type EventStreamStatus } from './queue-link.ts'; // the rest of queue-link is internal
export * from './queue-outcomes.ts';
export * from './registry.ts';
export * from './retry.ts';
export * from './scope.ts';
// Types only from the modules the client loads on demand (a value export would pull them into
// every bundle of the root entry): `queue-run.ts` (with `shared-event-stream.ts`,
// `queue-coordinator.ts`, `queue-run-state.ts`) and `sse.ts`.
export type { ChatCompletionStream, EventStream, EventStreamOptions, EventStreamSettings, SseReadOptions } from './sse.ts';
export type { SharedEventListener, SharedEventStreamOptions } from './shared-event-stream.ts';
export * from './transport.ts';
export * from './types.ts';
export * from './validation.ts';
export * from './validator-support.ts';
