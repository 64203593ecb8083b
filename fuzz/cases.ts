/**
 * The case list: families in a fixed round-robin order (`ORDER`, so that every slice of a run
 * covers every family), and `buildCase(seed, index)`, which builds case `index` of seed `seed` from a PRNG of its
 * own: a case is reproduced alone exactly as it was built in a run.
 */
import type { Family } from './build.ts';
import type { FuzzCase } from './case.ts';
import { BOUNDS_FAMILIES } from './families/bounds.ts';
import { MODEL_FAMILIES } from './families/model.ts';
import { PATTERN_FAMILIES } from './families/patterns.ts';
import { REGRESSION_FAMILIES } from './families/regressions.ts';
import { SCHEMA_FAMILIES } from './families/schema.ts';
import { Planter } from './hostile.ts';
import { Rng } from './rng.ts';

/** Every family. */
export const FAMILIES: readonly Family[] = [
  ...SCHEMA_FAMILIES,
  ...PATTERN_FAMILIES,
  ...BOUNDS_FAMILIES,
  ...MODEL_FAMILIES,
  ...REGRESSION_FAMILIES,
];

/**
 * The order cases cycle through: every family once, and the issue-8 regressions three times (so
 * that a slice of `ORDER.length` cases runs each of them at least once).
 */
export const ORDER: readonly Family[] = [...FAMILIES, ...REGRESSION_FAMILIES, ...REGRESSION_FAMILIES];

/** The family of case `index`, and how many cases of that family come before it (cheap: nothing is built). */
export function familyOf(index: number): { family: Family; ordinal: number } {
  const slot = index % ORDER.length;
  const family = ORDER[slot]!;
  const perRound = ORDER.filter((f) => f === family).length;
  const before = ORDER.slice(0, slot).filter((f) => f === family).length;
  return { family, ordinal: Math.floor(index / ORDER.length) * perRound + before };
}

/** Build case `index` of the run with seed `seed`. Deterministic. */
export function buildCase(seed: number, index: number): FuzzCase {
  const { family, ordinal } = familyOf(index);
  const rng = new Rng(seed, index);
  const plant = new Planter(rng);
  const spec = family.build({ rng, plant, ordinal });
  return { ...spec, seed, index, family: family.name, sentinels: plant.planted };
}
