/**
 * Browser bundle size: ceilings on what a page loads before one call, and what
 * a per-model image call must not carry. The figures themselves are reported by
 * `npm run bench:bundle`. Built here from the repository's source, each case on its own.
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
import { SIZE_CASES } from '../../scripts/lib/bundle-size-cases.ts';
import { tempDir } from '../support/index.ts';

const measures = new Map<string, CaseMeasure>();
const work = tempDir('inference-sdk-bundle-size-');
const workRoot = work.dir;

beforeAll(async () => {
  for (const c of SIZE_CASES) measures.set(c.id, await measureCase(c, workRoot, 'source'));
}, 120_000);

afterAll(() => {
  work.remove();
});

const measure = (id: string): CaseMeasure => {
  const m = measures.get(id);
  if (!m) throw new Error(`no size case ${id}`);
  return m;
};

/** Every chunk of a case's build (loaded at once or later). */
const allText = (m: CaseMeasure): string => chunkText(m.bundle, [...m.bundle.chunks.values()]);

const report = (m: CaseMeasure): string =>
  `${m.gzipBytes} B gz: ${m.loaded.map((c) => `${c.file} ${c.gzipBytes}`).join(', ')}; largest modules ${m.modules
    .slice(0, 6)
    .map((x) => `${x.input} ${x.bytes}`)
    .join(', ')}`;

/**
 * The ceilings, in gzipped bytes. The aims (`scripts/lib/bundle-size-cases.ts`: `PER_MODEL_AIM_BYTES`, 8 kB; `ROOT_CLIENT_AIM_BYTES`,
 * 15 kB) are not met yet: `npm run bench:bundle -- --build` measures 8.86 kB for the per-model image
 * call and 16.23 kB for a root client call (queue.run with its lazy chunks: 25.63 kB). The ceilings
 * are those figures plus `MARGIN_BYTES`, so that any growth shows; lower them (down to the aims) as
 * the figures come down.
 */
const CEILING_BYTES = { perModel: 8_860, rootClient: 16_230, rootQueueRunWithLazy: 25_630 };
/**
 * The ceilings are the built package's figures, while this test bundles the repository's source
 * (the TypeScript through esbuild, not tsup's `dist/`), which comes out 50 to 90 B smaller today
 * (tsup's output and chunk names differ). The margin, 100 B (about 1%), is headroom should that
 * difference change sign (a tsup, esbuild or zlib upgrade), and nothing more: growth beyond it fails.
 */
const MARGIN_BYTES = 100;

describe('browser bundle size (gzip -9, entry chunk plus static imports)', () => {
  it(`a per-model image call loads at most ${(CEILING_BYTES.perModel + MARGIN_BYTES) / 1000} kB`, () => {
    const m = measure('per-model-image');
    expect(m.gzipBytes, report(m)).toBeLessThanOrEqual(CEILING_BYTES.perModel + MARGIN_BYTES);
  });

  it.each(['root-client-image', 'root-client-queue-run'])(
    `%s loads at most ${(CEILING_BYTES.rootClient + MARGIN_BYTES) / 1000} kB before its request`,
    (id) => {
      const m = measure(id);
      expect(m.gzipBytes, report(m)).toBeLessThanOrEqual(CEILING_BYTES.rootClient + MARGIN_BYTES);
    },
  );

  it(`queue.run through the root client loads at most ${(CEILING_BYTES.rootQueueRunWithLazy + MARGIN_BYTES) / 1000} kB with its lazy chunks`, () => {
    const m = measure('root-client-queue-run');
    expect(m.gzipBytesWithLazy, report(m)).toBeLessThanOrEqual(CEILING_BYTES.rootQueueRunWithLazy + MARGIN_BYTES);
  });

  it('the root client loads queue.run and the model validator lazily, as separate chunks', () => {
    const m = measure('root-client-queue-run');
    expect(m.lazy.map((c) => c.entryPoint)).toEqual(
      expect.arrayContaining(['runtime/queue/run.ts', 'generated/validators/flux-2-pro.ts']),
    );
    // (Fine-tunes and the queue's own validation are part of the root client's resources.)
    expect(
      markersIn(m.loadedText, [
        'queue coordinator (queue.run)',
        'event-stream (SSE) parser',
        'compiled validators',
        'retries (p-retry)',
      ]),
      report(m),
    ).toEqual([]);
  });

  it('the markers of the machinery are real: the root client bundle carries each of them', () => {
    const text = allText(measure('root-client-queue-run'));
    const all = Object.entries(MACHINERY_MARKERS).flatMap(([what, markers]) =>
      markers.map((s) => `${what} (${JSON.stringify(s)})`),
    );
    expect(markersIn(text)).toEqual(all);
  });

  it('a per-model image call carries no queue coordinator, event-stream parser, fine-tunes, validator or p-retry code', () => {
    const m = measure('per-model-image');
    expect(markersIn(m.loadedText), report(m)).toEqual([]);
  });

  it('no case evaluates code from strings (new Function, eval)', () => {
    for (const m of measures.values()) expect(EVAL_PATTERN.exec(allText(m))?.[0], m.case.id).toBeUndefined();
  });
});
