/**
 * `npm run generate`'s entry: runs `scripts/generate.ts` precompiled, with plain `node` (no TypeScript
 * loader at start-up; `scripts/lib/precompiled.mjs`). Arguments are passed through
 * (`npm run generate -- --check`).
 */
import { runPrecompiled } from './lib/precompiled.mjs';

await runPrecompiled('generate');
