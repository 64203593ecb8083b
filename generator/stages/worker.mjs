/**
 * The generator's worker thread (started by `worker-thread.ts`): the two jobs of a run that need
 * no TypeScript, done here while the main thread loads TypeScript and prints the model modules.
 * - `validator`: ajv's standalone code for one schema (stage 6a, `validators.ts` prepares the
 *   schema and the options, and finishes the code);
 * - `format`: prettier over one output file (stage 7a).
 * Plain JavaScript so that the worker starts without a TypeScript loader; ajv is loaded on the
 * first validator job (`ajv-compile.mjs`, which the main thread's `compileHere` runs too).
 * Messages in: { id, kind: 'format', text, options } or { id, kind: 'validator', schema, options },
 * each with `claim`, a shared Int32 that the thread which does the job sets first (1 here, 2 on
 * the main thread, which compiles the validators not yet started once its own work is done).
 * Messages out: { id, text, ms } (ms: the job's time, for the run's breakdown), { id, error, name } (the error's message and class name), or
 * { id, skipped: true } when the main thread had claimed the job.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { compileStandalone } from './ajv-compile.mjs';

// When files will be formatted, prettier loads at once, with the TypeScript parser it loads on first
// use (the first files come after TypeScript has loaded on the main thread); else on the first job.
let prettier = workerData?.preloadPrettier ? import('prettier') : undefined;
prettier?.then((p) => p.format(';', { parser: 'babel-ts' })).catch(() => undefined); // a failed load is reported by the first format job

async function run(message) {
  if (message.kind === 'validator') return compileStandalone(message.schema, message.options);
  prettier ??= import('prettier');
  return (await prettier).format(message.text, message.options);
}

// One job at a time, in order: a job is claimed when its turn comes (so the main thread can still
// take a later validator) and its time is its own.
let queue = Promise.resolve();
parentPort.on('message', (message) => {
  queue = queue.then(() => handle(message));
});

async function handle(message) {
  if (Atomics.compareExchange(new Int32Array(message.claim), 0, 0, 1) !== 0) {
    parentPort.postMessage({ id: message.id, skipped: true });
    return;
  }
  const t0 = performance.now();
  try {
    const text = await run(message);
    parentPort.postMessage({ id: message.id, text, ms: performance.now() - t0 });
  } catch (err) {
    parentPort.postMessage({
      id: message.id,
      error: err instanceof Error ? err.message : String(err),
      name: err instanceof Error ? err.name : 'Error',
    });
  }
}
