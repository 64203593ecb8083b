/**
 * The pages measured by `npm run bench:bundle` and held to a ceiling by
 * `test/browser/bundle-size.test.ts`: each makes one call, importing the SDK by its package name
 * as a user's page would. Written to a scratch directory and bundled by `support/bundle.ts`.
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
  /**
   * Code splitting (default true). False: one file with every `import()` inlined, as a Cloudflare Worker's
   * bundle (wrangler) or a plain `esbuild --bundle` build; the whole file is what loads.
   */
  splitting?: boolean;
  /** For a case without splitting: the split case it is compared with, and the aim for the ratio. */
  splitOf?: { id: string; aimRatio: number };
}

/** The aim for a per-model image call, gzipped (issue 25: at most 5 kB, with both bundlers). */
export const PER_MODEL_AIM_BYTES = 5_000;
/** The aim for any call through the root `Client`, gzipped (issue 25: at most 10 kB, with both bundlers). */
export const ROOT_CLIENT_AIM_BYTES = 10_000;
/** The aim for a root client bundled without code splitting, as a multiple of its split first load. */
export const UNSPLIT_AIM_RATIO = 1.5;

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
    // `runtime/queue/run.ts`, the table of validator loaders and the model's validator (in the built package, chunks `dist/chunks/run-<hash>.js`, `validator-table-<hash>.js`)
    lazyInputs: [
      /(^|\/)(queue|chunks)\/run(\.ts|[-.])/,
      /(^|\/)validator-table(\.ts|[-.])/,
      /(^|\/)flux-2-pro(\.ts|[-.])/,
    ],
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
    id: 'root-client-image-unsplit',
    title: 'image call, root Client, no code splitting (a worker bundle: every import() inlined)',
    code: `import { Client } from 'oxen-inference-sdk';
const client = new Client({ baseUrl: '/api/oxen' });
const result = await client.images.generate({ model: 'flux-2-pro', prompt: 'a red fox in the snow' });
${show}`,
    aimBytes: undefined,
    lazyInputs: [],
    splitting: false,
    splitOf: { id: 'root-client-image', aimRatio: UNSPLIT_AIM_RATIO },
  },
  {
    id: 'runtime-client-unsplit',
    title:
      'image call and a validated queue.run, RuntimeClient<ModelRegistry> + the model module, no code splitting (the worker set-up)',
    code: `import { RuntimeClient } from 'oxen-inference-sdk';
import { flux2ProRun } from 'oxen-inference-sdk/models/flux-2-pro';
const client = new RuntimeClient({ baseUrl: '/api/oxen' });
const image = await client.images.generate({ model: 'flux-2-pro', prompt: 'a red fox in the snow' });
const result = [image, await flux2ProRun(client, { prompt: 'a red fox in the snow' })];
${show}`,
    aimBytes: undefined,
    lazyInputs: [],
    splitting: false,
    splitOf: { id: 'root-client-image', aimRatio: UNSPLIT_AIM_RATIO },
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
