/**
 * The V8 heap settings of a generator process: `oxen-inference-codegen`'s bin (`cli/bin.ts`) and
 * `npm run generate` (`scripts/generate.ts`) call `setGeneratorHeap()` first. A full run makes much
 * short-lived garbage (prettier's documents, the printers' nodes, ajv's code) and keeps about 60 MiB
 * alive; with V8's defaults (16 MiB semi-spaces, an old generation grown by up to 4x its live size)
 * its heap grew to about 200 MiB between full collections, for a peak RSS of about 300 MiB on a full
 * regeneration. Smaller semi-spaces and 20% growth steps keep the peak near 215 MiB at about the
 * same CPU time (docs/measurements/regeneration.md). Process-wide, so never set by
 * `generate()` itself, which also runs inside other programs (the tests, a user's scripts).
 */
import v8 from 'node:v8';

/** V8's flags for a generator process (each a `node` option). */
export const GENERATOR_HEAP_FLAGS = ['--max-semi-space-size=4', '--heap-growing-percent=20'] as const;

/** Set `GENERATOR_HEAP_FLAGS` for this process; call before the run allocates. */
export function setGeneratorHeap(): void {
  for (const flag of GENERATOR_HEAP_FLAGS) v8.setFlagsFromString(flag);
}
