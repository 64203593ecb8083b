#!/usr/bin/env node
/**
 * The generator package's bin (`oxen-inference-codegen`, bundled into `dist/cli.js`): runs `main` of `index.ts`.
 * On Node.js 22.1 and later it first turns on Node's module compile cache (in the system's temporary
 * folder), as TypeScript's own `tsc` does: the libraries it loads (TypeScript alone is 9 MB of
 * JavaScript) are then compiled once, not on every run. Node.js 20 has no such cache and runs without.
 * Its heap settings are the generator's (`heap.ts`).
 * Output piped to a reader that stops early (`| head`) ends the output, not the command: the files
 * are written by then, and the exit code stays the command's.
 */
import module from 'node:module';
import { main } from './index.ts';
import { setGeneratorHeap } from '../heap.ts';

setGeneratorHeap();
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
  });
process.exitCode = await main(process.argv.slice(2));
