/**
 * Switches for measuring the run machinery (`npm run bench:generate -- --layers`): the environment
 * variable `OXEN_GENERATE_OFF`, a comma-separated list of layer names, turns each named layer off,
 * so that a benchmark can time a run with and without it. Not for use otherwise: every layer is on
 * by default and the output is the same either way (only time and memory differ).
 */

/**
 * The layers that can be switched off, as `OXEN_GENERATE_OFF` names them: `manifest` (no file reused: neither
 * by the manifest nor by this machine's record, as in a fresh clone without a manifest), and
 * `inputs` (no file reused by its inputs hash, as after a change to the generator, which changes
 * every file's: the record of how texts were formatted still serves), and `precompile` (read by `scripts/lib/precompiled.mjs`: the sources run through tsx).
 */
export type Layer = 'manifest' | 'inputs' | 'precompile';

/** Whether `layer` is switched off for this process (`OXEN_GENERATE_OFF`). */
export function layerOff(layer: Layer): boolean {
  return (process.env['OXEN_GENERATE_OFF'] ?? '').split(',').includes(layer);
}

/**
 * Where the time of a run went, in milliseconds summed per activity : the benchmark's breakdown, printed by `generate` when
 * `GENERATE_TIMING` is set.
 */
export interface Breakdown {
  /** The parameter types (`stages/types.ts`). */
  types: number;
  /** Printing the model modules, the index modules and the reference. */
  emit: number;
  /** ajv's standalone code of the validators, and their finishing (`stages/validators.ts`). */
  validators: number;
  /** openapi-typescript (`stages/openapi.ts`). */
  openapi: number;
  /** prettier over the formatted files. */
  format: number;
  /** Comparing with the disk and writing (`stages/write.ts`). */
  write: number;
}

/** A breakdown with every activity at zero. */
export function emptyBreakdown(): Breakdown {
  return { types: 0, emit: 0, validators: 0, openapi: 0, format: 0, write: 0 };
}
