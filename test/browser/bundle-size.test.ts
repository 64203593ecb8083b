/**
 * Browser bundle size: generous ceilings (twice the aims in scripts/lib/bundle-size-cases.ts) so that a regression
 * shows, and what a per-model image call must not carry. The figures themselves are reported by
 * `npm run bench:bundle`. Built from the repository's source, each case on its own.
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
import { PER_MODEL_AIM_BYTES, ROOT_CLIENT_AIM_BYTES, SIZE_CASES } from '../../scripts/lib/bundle-size-cases.ts';
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

describe('browser bundle size (gzip -9, entry chunk plus static imports)', () => {
  it(`a per-model image call loads at most ${(2 * PER_MODEL_AIM_BYTES) / 1000} kB (twice the aim)`, () => {
    const m = measure('per-model-image');
    expect(m.gzipBytes, report(m)).toBeLessThanOrEqual(2 * PER_MODEL_AIM_BYTES);
  });

  it.each(['root-client-image', 'root-client-queue-run'])(
    `%s loads at most ${(2 * ROOT_CLIENT_AIM_BYTES) / 1000} kB (twice the aim), lazy chunks included`,
    (id) => {
      const m = measure(id);
      expect(m.gzipBytes, report(m)).toBeLessThanOrEqual(2 * ROOT_CLIENT_AIM_BYTES);
      expect(m.gzipBytesWithLazy, report(m)).toBeLessThanOrEqual(2 * ROOT_CLIENT_AIM_BYTES);
    },
  );

  it('the root client loads queue.run and the model validator lazily, as separate chunks', () => {
    const m = measure('root-client-queue-run');
    expect(m.lazy.map((c) => c.entryPoint)).toEqual(
      expect.arrayContaining(['runtime/queue/run.ts', 'generated/validators/flux-2-pro.ts']),
    );
    // (Fine-tunes and the queue's own validation are part of the root client's resources.)
    expect(
      markersIn(m.loadedText, ['queue coordinator (queue.run)', 'event-stream (SSE) parser', 'compiled validators']),
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

  it('a per-model image call carries no queue coordinator, event-stream parser, fine-tunes or validator code', () => {
    const m = measure('per-model-image');
    expect(markersIn(m.loadedText), report(m)).toEqual([]);
  });

  it('no case evaluates code from strings (new Function, eval)', () => {
    for (const m of measures.values()) expect(EVAL_PATTERN.exec(allText(m))?.[0], m.case.id).toBeUndefined();
  });
});
