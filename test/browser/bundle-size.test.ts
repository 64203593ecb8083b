/**
 * Browser bundle size: ceilings on what a page loads before one call, with each of the two bundlers users
 * build with (Vite 8, rolldown; esbuild), and what a per-model image call must not carry. The figures
 * themselves are reported by `npm run bench:bundle`. Built here from the repository's source, each case on
 * its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkText } from '../../scripts/lib/browser-bundle.ts';
import {
  EVAL_PATTERN,
  MACHINERY_MARKERS,
  markersIn,
  measureCase,
  type CaseMeasure,
} from '../../scripts/lib/bundle-measure.ts';
import type { Bundler } from '../../scripts/lib/browser-bundle.ts';
import { SIZE_CASES } from '../../scripts/lib/bundle-size-cases.ts';
import { tempDir } from '../support/index.ts';

const measures = new Map<string, CaseMeasure>();
const work = tempDir('inference-sdk-bundle-size-');
const workRoot = work.dir;

const BUNDLERS: readonly Bundler[] = ['vite', 'esbuild'];

beforeAll(async () => {
  for (const c of SIZE_CASES)
    for (const b of BUNDLERS) measures.set(`${c.id} ${b}`, await measureCase(c, workRoot, 'source', undefined, b));
}, 240_000);

afterAll(() => {
  work.remove();
});

const measure = (id: string, bundler: Bundler = 'esbuild'): CaseMeasure => {
  const m = measures.get(`${id} ${bundler}`);
  if (!m) throw new Error(`no size case ${id} (${bundler})`);
  return m;
};

/** Every chunk of a case's build (loaded at once or later). */
const allText = (m: CaseMeasure): string => chunkText(m.bundle, [...m.bundle.chunks.values()]);

/** The models' validators whose code is in the chunks a case loads (esbuild's inputs list every file read). */
const validatorsIn = (m: CaseMeasure): string[] =>
  m.modules.filter((x) => x.bytes > 0 && x.input.startsWith('generated/validators/')).map((x) => x.input);

const report = (m: CaseMeasure): string =>
  `${m.gzipBytes} B gz: ${m.loaded.map((c) => `${c.file} ${c.gzipBytes}`).join(', ')}; largest modules ${m.modules
    .slice(0, 6)
    .map((x) => `${x.input} ${x.bytes}`)
    .join(', ')}`;

/**
 * The ceilings, in gzipped bytes, as `npm run bench:bundle -- --build` measures the built package (its
 * `browser` build, `dist/browser/`, which a browser bundler resolves), per bundler: its measured values
 * (issue 25's aims: 10 kB for a root client call is met, 5 kB for a per-model call is not: see "Bundle
 * size" in docs/entry-points.md). `runtimeUnsplit` is a worker's single file (`RuntimeClient` with one model
 * module, no code splitting).
 */
const CEILING_BYTES: Record<Bundler, Record<Ceiling, number>> = {
  vite: { perModel: 7_115, rootClient: 9_870, rootQueueRunWithLazy: 26_990, runtimeUnsplit: 30_054 },
  esbuild: { perModel: 6_345, rootClient: 8_461, rootQueueRunWithLazy: 24_918, runtimeUnsplit: 29_976 },
};
type Ceiling = 'perModel' | 'rootClient' | 'rootQueueRunWithLazy' | 'runtimeUnsplit';
/**
 * This test bundles the repository's source (the TypeScript, with the browser build's files:
 * `scripts/build/browser.mjs`), not the built `dist/`, and the two differ by the chunk boundaries of the
 * package's own build, measured (up to about 2.4 kB: the built package holds a first call's modules in one
 * chunk, `BROWSER_CHUNKS` of `scripts/build/package.mjs`, where a bundle of the source splits them by which
 * lazily loaded modules share each one, and each chunk is gzipped on its own). `MARGIN_BYTES`, 100 B
 * (about 1%), is headroom should the difference change (a bundler or zlib upgrade), and nothing more:
 * growth beyond it fails.
 */
const SOURCE_OVER_BUILT_BYTES: Record<Bundler, Record<Ceiling, number>> = {
  vite: { perModel: 873, rootClient: 2_421, rootQueueRunWithLazy: 972, runtimeUnsplit: 15 },
  esbuild: { perModel: 830, rootClient: 2_415, rootQueueRunWithLazy: 1_261, runtimeUnsplit: 47 },
};
const MARGIN_BYTES = 100;
const limit = (c: Ceiling, b: Bundler): number => CEILING_BYTES[b][c] + SOURCE_OVER_BUILT_BYTES[b][c] + MARGIN_BYTES;

describe.each(BUNDLERS)('browser bundle size with %s (gzip -9, entry chunk plus static imports)', (b) => {
  it(`a per-model image call loads at most its ceiling (from source)`, () => {
    const m = measure('per-model-image', b);
    expect(m.gzipBytes, report(m)).toBeLessThanOrEqual(limit('perModel', b));
  });

  it.each(['root-client-image', 'root-client-queue-run'])(
    `%s loads at most the root client's ceiling before its request (from source)`,
    (id) => {
      const m = measure(id, b);
      expect(m.gzipBytes, report(m)).toBeLessThanOrEqual(limit('rootClient', b));
    },
  );

  it(`queue.run through the root client loads at most its ceiling with its lazy chunks (from source)`, () => {
    const m = measure('root-client-queue-run', b);
    expect(m.gzipBytesWithLazy, report(m)).toBeLessThanOrEqual(limit('rootQueueRunWithLazy', b));
  });

  it("without code splitting, RuntimeClient with one model module carries that model's validator only, within its ceiling", () => {
    const m = measure('runtime-client-unsplit', b);
    expect(m.loaded.length).toBe(1);
    expect(validatorsIn(m)).toEqual(['generated/validators/flux-2-pro.ts']);
    expect(m.gzipBytes, report(m)).toBeLessThanOrEqual(limit('runtimeUnsplit', b));
  });

  it('without code splitting, the root Client carries every validator (what the worker set-up avoids)', () => {
    const m = measure('root-client-image-unsplit', b);
    expect(validatorsIn(m).length).toBeGreaterThan(50);
  });

  it("no call loads the answers' error classes before its request (they load with the failure path)", () => {
    // (`runtime/index.ts` re-exports them beside `exports.ts`, not from it: esbuild puts into a page's first
    // load every module that a module the page uses imports, `export *` included, once any chunk uses it.)
    for (const id of ['per-model-image', 'root-client-image', 'root-client-queue-run']) {
      const m = measure(id, b);
      expect(m.loadedText, id).not.toContain('UnprocessableEntityError');
      expect(m.loadedText, id).not.toContain('OutcomeUnknownError');
    }
  });

  it('a root client call loads neither the models nor the fine-tunes endpoints, nor the retry policy, before its request', () => {
    // (`client.models.*` and `client.fineTunes.*` load their functions on the first call; the retry policy,
    // `internal/retry-policy.ts`, loads with a first failed attempt)
    const markers = ['a model object', 'a wrapped fine-tune', 'fineTunes.wait was aborted', '/credit/i'];
    for (const id of ['root-client-image', 'root-client-queue-run', 'per-model-image']) {
      const m = measure(id, b);
      for (const marker of markers) expect(m.loadedText, `${id}: ${marker}`).not.toContain(marker);
    }
    // (the markers are real: the root client's lazily loaded chunks carry each of them)
    for (const marker of markers) expect(allText(measure('root-client-image', b))).toContain(marker);
  });

  it('a root client page that validates nothing loads no validator loader: the table loads with the first validation', () => {
    const m = measure('root-client-image', b);
    expect(m.modules.map((x) => x.input)).not.toContain('generated/validator-table.ts');
    expect(m.loadedText).not.toMatch(/flux-2-pro-[\w-]*\.js/);
  });

  it('the root client loads queue.run, the validator table and the model validator lazily, as separate chunks', () => {
    const m = measure('root-client-queue-run', b);
    expect(m.lazy.map((c) => c.entryPoint)).toEqual(
      expect.arrayContaining([
        'runtime/queue/run.ts',
        'generated/validator-table.ts',
        'generated/validators/flux-2-pro.ts',
      ]),
    );
    // (Fine-tunes are part of the root client's resources; the mapping of a validator's errors to issues loads
    // only when a body fails its validator, or has none.)
    expect(
      markersIn(m.loadedText, [
        'queue coordinator (queue.run)',
        'event-stream (SSE) parser',
        'compiled validators',
        'queue validation (ValidationError issues)',
        'retries (p-retry)',
      ]),
      report(m),
    ).toEqual([]);
  });

  it('the markers of the machinery are real: the root client bundle carries each of them', () => {
    const text = allText(measure('root-client-queue-run', b));
    const all = Object.entries(MACHINERY_MARKERS).flatMap(([what, markers]) =>
      markers.map((s) => `${what} (${JSON.stringify(s)})`),
    );
    expect(markersIn(text)).toEqual(all);
  });

  it('a per-model image call carries no queue coordinator, event-stream parser, fine-tunes, validator or p-retry code', () => {
    const m = measure('per-model-image', b);
    expect(markersIn(m.loadedText), report(m)).toEqual([]);
  });

  it("no case carries Node's util.inspect hook nor the errors' brand (the browser build's inspect.browser.ts, brand.browser.ts)", () => {
    for (const m of measures.values()) {
      if (m.bundler !== b) continue;
      expect(allText(m), m.case.id).not.toContain('nodejs.util.inspect.custom');
      expect(allText(m), m.case.id).not.toContain('oxen-inference-sdk.error');
    }
  });

  it('no case evaluates code from strings (new Function, eval)', () => {
    for (const m of measures.values())
      if (m.bundler === b) expect(EVAL_PATTERN.exec(allText(m))?.[0], m.case.id).toBeUndefined();
  });
});
