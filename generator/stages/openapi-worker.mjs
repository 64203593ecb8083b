/**
 * Part of stage 6 (emit), run in a worker thread so that it overlaps the per-model work on the
 * other core: openapi-typescript turns the parsed OpenAPI document into the types of the fixed
 * endpoints (the write stage formats them). Plain JavaScript so that the worker starts without a
 * TypeScript loader; started only when `generated/openapi.ts` must be rebuilt.
 * Input (workerData): { doc }. Output (message): { text } or { error }.
 */
import { parentPort, workerData } from 'node:worker_threads';

const { doc } = workerData;
try {
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  // defaultNonNullable: false keeps request properties that have a default optional.
  const ast = await openapiTS(doc, { silent: true, defaultNonNullable: false });
  parentPort.postMessage({ text: astToString(ast) });
} catch (err) {
  parentPort.postMessage({ error: err instanceof Error ? err.message : String(err) });
}
