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
 * `redact`, `timer` → `errors` → `env`, `validation`, `validator-support`, `hooks`, `log` (which
 * loads `log-lines` on demand) → `options` → `scope`, `http` → `api-promise`, `transport-state`,
 * `retry` → `transport` → `endpoints`, `outputs`, `sse`, `chat-accumulate` → `chat-stream`,
 * `shared-event-stream`, `queue-outcomes`, `queue-run-state`, `queue-coordinator` → `queue-reconcile`
 * → `queue-run` → `queue-follow` → `resources` → `client`; `proxy` (server side) uses only `redact`,
 * `errors`, `env`, `options`, `proxy-forward` and `proxy-support`. `node/` (the entry
 * `oxen-inference-sdk/node`, not exported here) holds the proxy's Node adapter and `saveOutput` (which
 * uses `outputs`). The client loads `queue-run`, `chat-stream` and `sse` with a dynamic `import()` (a
 * bundler splits them off), so this index exports only their types; the generated `<model>Run`
 * functions import `queue-run` directly, and `followGenerations` (`queue-follow`, with its dynamic
 * `import()`) is exported from the package root.
 * `types` (with `chat-types`), `registry` and `fine-tunes` hold types only.
 */
export * from './api-promise.ts';
export * from './chat-accumulate.ts';
export * from './endpoints.ts';
export * from './errors.ts';
export * from './fine-tunes.ts';
export type {
  BeforeRetryHook,
  HookOptions,
  HookRequest,
  HookResponse,
  Hooks,
  OnRequestHook,
  OnResponseHook,
  RetryContext,
} from './hooks.ts';
export * from './http.ts';
export { DEFAULT_LOG_LEVEL, type Logger, type LogLevel } from './log.ts'; // the rest of log (and log-lines, loaded on demand) is internal
export * from './options.ts';
export * from './outputs.ts';
export * from './proxy.ts';
export * from './queue-outcomes.ts';
export { Redactor, REDACTED } from './redact.ts';
export * from './registry.ts';
export * from './retry.ts';
export * from './scope.ts';
// Types only from the modules the client loads on demand (a value export would pull them into
// every bundle of the root entry): `queue-run.ts` (with `shared-event-stream.ts`,
// `queue-coordinator.ts`, `queue-run-state.ts`), `chat-stream.ts` and `sse.ts`.
export type { ChatCompletionStream } from './chat-stream.ts';
export type { EventStream, EventStreamOptions, EventStreamSettings, SseReadOptions } from './sse.ts';
export type { SharedEventListener, SharedEventStreamOptions } from './shared-event-stream.ts';
export * from './transport.ts';
export * from './transport-state.ts';
export * from './types.ts';
export * from './validation.ts';
export * from './validator-support.ts';
