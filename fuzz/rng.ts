/**
 * The fuzzer's randomness: one small seeded PRNG per case, so that case K of seed N is built the
 * same way on every machine, alone (`--case K`) or in a run of many. fast-check supplies the
 * arbitraries that are tedious to write by hand (any JSON value, any unicode string); they are
 * sampled with a seed drawn from the case's PRNG, so they are reproducible too.
 */
import fc from 'fast-check';

/** 32-bit FNV-1a of a string: mixes the run seed and the case index into one case seed. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A seeded pseudo-random generator (sfc32) with the helpers the families use. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** @param seed any integer; @param stream a label that separates independent sequences of one seed (e.g. the case index). */
  constructor(seed: number, stream: string | number = '') {
    this.a = fnv1a(`a:${seed}:${stream}`);
    this.b = fnv1a(`b:${seed}:${stream}`);
    this.c = fnv1a(`c:${seed}:${stream}`);
    this.d = 1;
    for (let i = 0; i < 15; i++) this.next();
  }

  /** The next 32-bit unsigned integer. */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1). */
  float(): number {
    return this.next() / 2 ** 32;
  }

  /** An integer in [min, max] (inclusive). */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  /** An integer in [min, max] drawn log-uniformly (small values as likely as large ranges). */
  logInt(min: number, max: number): number {
    const lo = Math.log(Math.max(1, min));
    const hi = Math.log(max + 1);
    return Math.min(max, Math.max(min, Math.floor(Math.exp(lo + this.float() * (hi - lo)))));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.float() < p;
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Rng.pick of an empty list');
    return items[this.int(0, items.length - 1)]!;
  }

  /** `n` elements of `items`, with repetition. */
  pickMany<T>(items: readonly T[], n: number): T[] {
    return Array.from({ length: n }, () => this.pick(items));
  }

  /** A shuffled copy. */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }

  /** One value of a fast-check arbitrary, seeded from this generator. */
  sample<T>(arb: fc.Arbitrary<T>): T {
    return fc.sample(arb, { seed: this.next() | 0, numRuns: 1 })[0]!;
  }
}

/** Any JSON value (fast-check), up to `maxDepth` levels. */
export function anyJson(rng: Rng, maxDepth = 3): unknown {
  return rng.sample(fc.jsonValue({ maxDepth }));
}

/** Any string of unicode code points (lone surrogates included), up to `maxLength` units. */
export function anyString(rng: Rng, maxLength = 24): string {
  return rng.sample(
    fc.oneof(
      fc.string({ unit: 'binary', maxLength }),
      fc.string({ unit: 'grapheme', maxLength }),
      fc.string({ maxLength }),
    ),
  );
}
