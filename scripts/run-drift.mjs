/**
 * `npm run drift`'s entry: runs `scripts/drift.ts` precompiled, with plain `node` (no TypeScript loader at
 * start-up; `scripts/lib/precompiled.mjs`). Arguments are passed through (`npm run drift -- a b`).
 */
import { runPrecompiled } from './lib/precompiled.mjs';

await runPrecompiled('drift');
