/**
 * Part of stage 6 (emit): `generated/openapi.ts`, openapi-typescript's types of the fixed endpoints,
 * built in a worker thread (`openapi-worker.mjs`) and cached by its inputs. Its own entry point
 * (`oxen-inference-sdk/openapi`), not re-exported by the index, so that a consumer's compile does
 * not load the description's types with the client's.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { OpenApiDoc } from './load.ts';
import { REPO_ROOT } from '../paths.ts';
import { layerOff } from '../output/layers.ts';

/** openapi-typescript on this thread (its worker switched off, to measure what it saves). */
async function openapiHere(doc: OpenApiDoc): Promise<string> {
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  // a copy: openapi-typescript writes into the document, which load froze
  return astToString(await openapiTS(structuredClone(doc) as never, { silent: true, defaultNonNullable: false }));
}

/**
 * The body of `generated/openapi.ts`: openapi-typescript's types of the description, built in a
 * worker thread (openapi-typescript loads TypeScript and Redocly's core: seconds of start-up) so that
 * it overlaps the per-model work. The result depends only on the description and the generator
 * (`key`), so it is kept in `<repo>/.tmp/openapi-<key>.ts` and the worker runs only when one of them
 * changed: a run into another output directory reuses it. Resolves to the text (unformatted).
 */
export async function openapiModule(doc: OpenApiDoc, file: string, key: string): Promise<string> {
  const cached = path.join(REPO_ROOT, '.tmp', `openapi-${key.slice(0, 32)}.ts`);
  const hit = layerOff('openapi-cache') ? undefined : await readFile(cached, 'utf8').catch(() => undefined);
  if (hit !== undefined) return hit;
  const text = layerOff('openapi-worker')
    ? await openapiHere(doc)
    : await new Promise<string>((resolve, reject) => {
        const worker = new Worker(path.join(REPO_ROOT, 'generator', 'stages', 'openapi-worker.mjs'), {
          workerData: { doc },
        });
        worker.once('message', (m: { text?: string; error?: string }) => {
          void worker.terminate();
          if (m.text !== undefined) resolve(m.text);
          else reject(new Error(`openapi-typescript failed on ${file}: ${m.error}`));
        });
        worker.once('error', reject);
      });
  // best effort: a cache that cannot be written only makes the next run slower
  await mkdir(path.dirname(cached), { recursive: true })
    .then(() => writeFile(`${cached}.${process.pid}`, text))
    .then(() => rename(`${cached}.${process.pid}`, cached))
    .catch(() => undefined);
  return text;
}
