/**
 * `npm run bench:generate`: how long `npm run generate` takes, as medians of interleaved runs
 * (one case after the other, round after round, so that the machine's load spreads evenly), with
 * the peak RSS of each case. A benchmark, not a test: it asserts nothing about time.
 *
 * Cases:
 * - `fresh clone`: `git clone` of this repository and `npm ci` (once), then each run times the
 *   first `npm run generate` as a fresh clone does it: no `.tmp/` (so the precompiled
 *   generator is bundled first) and the committed `generated/`;
 * - `up to date`: `npm run generate` again in this repository (nothing to rebuild);
 * - `empty output`: the snapshot into a new, empty output directory (everything is typed,
 *   compiled, emitted and formatted);
 * - `4x empty output` / `4x up to date`: the snapshot copied 4x (ids suffixed `-copy2`..`-copy4`);
 * - `json-schema-to-typescript`: json-schema-to-typescript alone over the same schemas with its
 *   default formatting, the reference of the aims.
 * Aims: fresh clone under 2 s; up to date under 1 s; empty output within 3x
 * json-schema-to-typescript; 4x under 2x the 1x time; peak RSS under 300 MiB.
 *   --runs N        rounds (default 5)
 *   --no-clone      skip the fresh-clone case (it needs `npm ci`, about a minute)
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { REPO_ROOT } from '../../generator/paths.ts';
import { timed } from '../lib/process.ts';
import { runRounds, type BenchCase } from '../lib/rounds.ts';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, 'no-clone': { type: 'boolean', default: false } },
});
const runs = Number(values.runs);
const sh = promisify(execFile);

/** A specs directory holding the snapshot `copies` times. */
async function makeSpecs(root: string, copies: number): Promise<string> {
  const specs = path.join(root, `specs-${copies}x`);
  await mkdir(path.join(specs, 'models'), { recursive: true });
  await cp(path.join(REPO_ROOT, 'specs/openapi.yaml'), path.join(specs, 'openapi.yaml'));
  const ids = JSON.parse(await readFile(path.join(REPO_ROOT, 'specs/models.json'), 'utf8')) as string[];
  const all: string[] = [];
  for (let c = 1; c <= copies; c++) {
    for (const id of ids) {
      const newId = c === 1 ? id : `${id}-copy${c}`;
      const obj = JSON.parse(await readFile(path.join(REPO_ROOT, 'specs/models', `${id}.json`), 'utf8')) as Record<
        string,
        unknown
      >;
      obj['id'] = newId;
      await writeFile(path.join(specs, 'models', `${newId}.json`), JSON.stringify(obj, null, 2) + '\n');
      all.push(newId);
    }
  }
  await writeFile(path.join(specs, 'models.json'), JSON.stringify(all.sort(), null, 2) + '\n');
  return specs;
}

const root = await mkdtemp(path.join(tmpdir(), 'bench-generate-'));
const generate = path.join(REPO_ROOT, 'scripts', 'run-generate.mjs');
try {
  const specs1 = await makeSpecs(root, 1);
  const specs4 = await makeSpecs(root, 4);
  const jstt = path.join(root, 'jstt.mjs');
  await writeFile(
    jstt,
    `import { compile } from ${JSON.stringify(path.join(REPO_ROOT, 'node_modules/json-schema-to-typescript/dist/src/index.js'))};\nimport fs from 'node:fs';\nconst dir = ${JSON.stringify(path.join(specs1, 'models'))};\nfor (const f of fs.readdirSync(dir).sort()) { const m = JSON.parse(fs.readFileSync(dir + '/' + f, 'utf8')); const s = m.request_schema ?? m.json_request_schema; if (s) await compile(s, 'Params', { bannerComment: '' }); }\n`,
  );
  // the up-to-date 4x case starts from a generated 4x tree
  const out4Kept = path.join(root, 'out-4x-kept');
  await sh(process.execPath, [generate, '--specs', specs4, '--out', out4Kept]);

  let clone: string | undefined;
  if (!values['no-clone']) {
    clone = path.join(root, 'clone');
    console.error('bench: cloning and installing (npm ci) once for the fresh-clone case...');
    await sh('git', ['clone', '--quiet', REPO_ROOT, clone]);
    await sh('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: clone, maxBuffer: 64 << 20 });
  }

  const cases: BenchCase[] = [];
  if (clone) {
    const c = clone;
    cases.push({
      name: 'fresh clone',
      run: async () => {
        await rm(path.join(c, '.tmp'), { recursive: true, force: true });
        await sh('git', ['checkout', '--quiet', '--', 'generated'], { cwd: c });
        return timed('npm', ['run', '-s', 'generate'], c);
      },
    });
  }
  cases.push({ name: 'up to date', run: () => timed('npm', ['run', '-s', 'generate'], REPO_ROOT) });
  let n = 0;
  const empty = (specs: string) => async () => {
    const out = path.join(root, `out-${n++}`);
    const r = await timed(process.execPath, [generate, '--specs', specs, '--out', out], REPO_ROOT);
    await rm(out, { recursive: true, force: true });
    return r;
  };
  cases.push({ name: 'empty output', run: empty(specs1) });
  cases.push({ name: '4x empty output', run: empty(specs4) });
  cases.push({
    name: '4x up to date',
    run: () => timed(process.execPath, [generate, '--specs', specs4, '--out', out4Kept], REPO_ROOT),
  });
  cases.push({ name: 'json-schema-to-typescript', run: () => timed(process.execPath, [jstt], REPO_ROOT) });

  const med = await runRounds(
    `bench:generate (${runs} interleaved rounds; medians; this machine: ${(await import('node:os')).cpus().length} cores)`,
    cases,
    runs,
  );
  const ref = med('json-schema-to-typescript');
  console.log('ratios');
  console.log(`  empty output / json-schema-to-typescript   ${(med('empty output') / ref).toFixed(2)}  (aim <= 3)`);
  console.log(
    `  4x empty output / empty output             ${(med('4x empty output') / med('empty output')).toFixed(2)}  (aim < 2)`,
  );
  console.log(
    `  4x up to date / up to date                 ${(med('4x up to date') / med('up to date')).toFixed(2)}  (aim < 2)`,
  );
  if (clone)
    console.log(`  fresh clone                                ${(med('fresh clone') / 1000).toFixed(2)} s (aim < 2 s)`);
  console.log(`  up to date                                 ${(med('up to date') / 1000).toFixed(2)} s (aim < 1 s)`);
} finally {
  await rm(root, { recursive: true, force: true });
}
