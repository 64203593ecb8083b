/**
 * Part of stage 6 (emit), run in a worker thread so that it overlaps the per-model work on the
 * other core: openapi-typescript turns the parsed OpenAPI document into the types of the fixed
 * endpoints, and prettier formats them (the same options the write stage applies).
 * Plain JavaScript so that the worker starts without a TypeScript loader.
 * Input (workerData): { doc, header, prettierOptions }. Output (message): { text } or { error }.
 */
import { parentPort, workerData } from 'node:worker_threads';

const { doc, header, prettierOptions } = workerData;
try {
  const [{ default: openapiTS, astToString }, prettier] = await Promise.all([import('openapi-typescript'), import('prettier')]);
  // defaultNonNullable: false keeps request properties that have a default optional.
  const ast = await openapiTS(doc, { silent: true, defaultNonNullable: false });
  const text = await prettier.format(header + '\n' + astToString(ast), prettierOptions);
  parentPort.postMessage({ text });
} catch (err) {
  parentPort.postMessage({ error: err instanceof Error ? err.message : String(err) });
}
