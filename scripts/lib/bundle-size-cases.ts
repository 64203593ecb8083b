/**
 * The pages measured by `npm run bench:bundle` and held to a ceiling by
 * `test/browser/bundle-size.test.ts`: each makes one call, importing the SDK by its package name
 * as a user's page would. Written to a scratch directory and bundled by `bundle-measure.ts`.
 */

/** One measured page. */
export interface SizeCase {
  /** Output name of the entry chunk (`<id>.js`). */
  id: string;
  /** What it measures, for the report. */
  title: string;
  /** The page's module (JavaScript importing `oxen-inference-sdk...`). */
  code: string;
  /** The aim for it, in gzipped bytes (undefined: no aim, shown for information). */
  aimBytes: number | undefined;
  /**
   * Lazily loaded chunks the call needs before it sends anything (the root client's `queue.run`
   * loads the queue machinery and the model's validator with `import()`): source files whose
   * chunks are added to the "with lazy chunks" figure.
   */
  lazyInputs: RegExp[];
}

/** The aim for a per-model image call, gzipped. */
export const PER_MODEL_AIM_BYTES = 8_000;
/** The aim for any call through the root `Client`, gzipped. */
export const ROOT_CLIENT_AIM_BYTES = 15_000;

// Every page shows its result, so that nothing is dropped as dead code.
const show = 'document.body.textContent = JSON.stringify(result);';

export const SIZE_CASES: readonly SizeCase[] = [
  {
    id: 'per-model-image',
    title: 'image call, per-model function (createTransport + flux2ProGenerateImage)',
    code: `import { createTransport } from 'oxen-inference-sdk/runtime';
import { flux2ProGenerateImage } from 'oxen-inference-sdk/models/flux-2-pro';
const transport = createTransport({ baseUrl: '/api/oxen' });
const result = await flux2ProGenerateImage(transport, { prompt: 'a red fox in the snow' });
${show}`,
    aimBytes: PER_MODEL_AIM_BYTES,
    lazyInputs: [],
  },
  {
    id: 'root-client-image',
    title: 'image call, root Client (client.images.generate)',
    code: `import { Client } from 'oxen-inference-sdk';
const client = new Client({ baseUrl: '/api/oxen' });
const result = await client.images.generate({ model: 'flux-2-pro', prompt: 'a red fox in the snow' });
${show}`,
    aimBytes: ROOT_CLIENT_AIM_BYTES,
    lazyInputs: [],
  },
  {
    id: 'root-client-queue-run',
    title: 'queue.run, root Client (client.queue.run)',
    code: `import { Client } from 'oxen-inference-sdk';
const client = new Client({ baseUrl: '/api/oxen' });
const result = await client.queue.run({ model: 'flux-2-pro', prompt: 'a red fox in the snow' });
${show}`,
    aimBytes: ROOT_CLIENT_AIM_BYTES,
    // `runtime/queue/run.ts` in the source; the built package's chunk of it is `dist/chunks/run-<hash>.js`
    lazyInputs: [/(^|\/)(queue|chunks)\/run(\.ts|[-.])/, /(^|\/)flux-2-pro(\.ts|[-.])/],
  },
  {
    id: 'per-model-run',
    title: 'queue.run, per-model function (createTransport + flux2ProRun)',
    code: `import { createTransport } from 'oxen-inference-sdk/runtime';
import { flux2ProRun } from 'oxen-inference-sdk/models/flux-2-pro';
const transport = createTransport({ baseUrl: '/api/oxen' });
const result = await flux2ProRun(transport, { prompt: 'a red fox in the snow' });
${show}`,
    aimBytes: undefined,
    lazyInputs: [],
  },
  {
    id: 'raw-fetch',
    title: 'raw fetch (the same request by hand, for scale)',
    code: `const response = await fetch('/api/oxen/api/ai/images/generate', {
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ model: 'flux-2-pro', prompt: 'a red fox in the snow' }),
});
if (!response.ok) throw new Error('HTTP ' + response.status);
const result = await response.json();
${show}`,
    aimBytes: undefined,
    lazyInputs: [],
  },
];

/** Reference figures the issue measured on this machine (one call, gzipped bytes). */
export const REFERENCE_FIGURES: ReadonlyArray<{ name: string; gzipBytes: number }> = [
  { name: '@fal-ai/client, one call', gzipBytes: 21_000 },
  { name: 'openai, one call', gzipBytes: 35_900 },
  { name: 'raw fetch', gzipBytes: 260 },
];
