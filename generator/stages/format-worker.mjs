/**
 * Part of stage 7 (write), run in a worker thread: prettier formats output files here while the
 * main thread goes on typing, compiling and emitting the next ones (prettier is most of a full
 * run's work). Plain JavaScript so that the worker starts without a TypeScript loader.
 * Messages in: { id, text, options }. Messages out: { id, text } or { id, error }.
 */
import { parentPort } from 'node:worker_threads';

const prettier = import('prettier');
parentPort.on('message', async ({ id, text, options }) => {
  try {
    parentPort.postMessage({ id, text: await (await prettier).format(text, options) });
  } catch (err) {
    parentPort.postMessage({ id, error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
  }
});
