#!/usr/bin/env node
/**
 * The generator package's bin (`oxen-inference-codegen`, bundled into `dist/cli.js`): runs `main` of `index.ts`.
 * On Node.js 22.1 and later it first turns on Node's module compile cache, as TypeScript's own `tsc`
 * does, so that the libraries it loads are compiled once, not on every run: in the folder of
 * TypeScript's code cache (`../code-cache.ts`, which every Node.js version uses), never in Node's default,
 * the system's temporary folder, which other users of the machine can write (a code cache is
 * executable). Not when that cache is turned off (`OXEN_CODEGEN_CODE_CACHE=0`) or this file is in no
 * `node_modules` folder.
 * Its heap settings are the generator's (`heap.ts`).
 * Output piped to a reader that stops early (`| head`) ends the output, not the command: the files
 * are written by then, and the exit code stays the command's.
 */
import module from 'node:module';
import { fileURLToPath } from 'node:url';
import { main } from './index.ts';
import { setGeneratorHeap } from '../heap.ts';
import { codeCacheDir } from '../code-cache.ts';

setGeneratorHeap();
const cacheDir = codeCacheDir(fileURLToPath(import.meta.url));
if (cacheDir) (module as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache?.(cacheDir);
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
  });
process.exitCode = await main(process.argv.slice(2));
