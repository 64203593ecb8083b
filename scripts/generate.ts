/**
 * `npm run generate`: generate `generated/` from `specs/` (offline).
 *   --check        write nothing; exit 1 listing every file that would change
 *   --specs DIR    read another specs directory (default specs/)
 *   --out DIR      write generated/ under another root (default the repository)
 * Exit codes: 0 done (or nothing to change), 1 `--check` found differences, 2 bad input or failure.
 */
import { parseArgs } from 'node:util';
import { generate } from '../generator/index.ts';
import { SpecError } from '../generator/errors.ts';

const { values } = parseArgs({
  options: {
    check: { type: 'boolean', default: false },
    specs: { type: 'string' },
    out: { type: 'string' },
  },
  strict: true,
});

try {
  const started = performance.now();
  const r = await generate({ check: values.check, ...(values.specs ? { specsDir: values.specs } : {}), ...(values.out ? { outRoot: values.out } : {}) });
  for (const n of r.notes) console.log(`note: ${n.model}: ${n.message}`);
  const diff = [...r.added.map((f) => `  added    ${f}`), ...r.changed.map((f) => `  changed  ${f}`), ...r.removed.map((f) => `  removed  ${f}`)];
  const ms = Math.round(performance.now() - started);
  if (values.check) {
    if (diff.length > 0) {
      console.error(`generate --check: ${diff.length} file(s) would change; run \`npm run generate\` and commit the result:\n${diff.join('\n')}`);
      process.exitCode = 1;
    } else console.log(`generate --check: generated/ is up to date (${r.files.size} files, ${r.models} models, ${ms} ms)`);
  } else {
    console.log(`generated ${r.models} models: ${r.added.length} added, ${r.changed.length} changed, ${r.removed.length} removed, ${r.unchanged} unchanged (${ms} ms)`);
    if (diff.length > 0) console.log(diff.join('\n'));
  }
} catch (err) {
  if (err instanceof SpecError) {
    console.error(`generate failed, nothing was written: ${err.message}`);
  } else {
    console.error('generate failed, nothing was written:', err);
  }
  process.exitCode = 2;
}
