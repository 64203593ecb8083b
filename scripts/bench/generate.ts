/**
 * `npm run bench:generate`: how long `npm run generate` takes, as medians (and min-max) of
 * interleaved runs (one case after the other, round after round, so that the machine's load spreads
 * evenly), with the peak RSS of each case. A benchmark, not a test: it asserts nothing about time.
 *
 * Cases:
 * - `fresh clone`: `git clone` of this repository's last commit with its `node_modules` linked
 *   (once), then each run times the first `npm run generate` as a fresh clone does it: no `.tmp/`
 *   (so the precompiled generator is bundled first) and the committed `generated/`;
 * - `up to date`: `npm run generate` again in this repository (nothing to rebuild);
 * - `every file rebuilt`: `npm run generate` in this repository reusing no file and no record (as in
 *   a fresh clone after a change to the generator; the output is the committed one, so nothing is
 *   written);
 * - `generator changed`: the same on this machine, whose record of formatted texts serves
 *   (`OXEN_GENERATE_OFF=inputs`): every file is rebuilt, as after a change to the generator, but
 *   prettier runs only on texts it has not formatted before (here none);
 * - `empty output`: the snapshot into a new, empty output directory (everything is typed,
 *   compiled, emitted, formatted and written);
 * - `4x empty output` / `4x up to date`: the snapshot copied 4x (ids suffixed `-copy2`..`-copy4`);
 * - `json-schema-to-typescript`: json-schema-to-typescript alone over the same schemas with its
 *   default formatting, the reference of the aims.
 * The breakdown (milliseconds per activity: types, emit, validators,
 * openapi, format, write) is the generator's own (`GENERATE_TIMING`), medians of the rebuilt and
 * empty-output runs.
 * Aims: fresh clone under 2 s; up to date under 1 s; every file rebuilt and empty output within
 * 2.5x json-schema-to-typescript, peak RSS within 2x its; 4x under 2x the 1x time.
 *   --runs N        rounds (default 5)
 *   --no-clone      skip the fresh-clone case
 *   --layers        also each layer of the run machinery switched off (`OXEN_GENERATE_OFF`,
 *                   generator/output/layers.ts) in the cases it serves, and what it saves
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { REPO_ROOT } from '../../generator/paths.ts';
import { timed } from '../lib/process.ts';
import { breakdownLine, median, printRounds, runRoundsDetailed, type BenchCase } from '../lib/rounds.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    'no-clone': { type: 'boolean', default: false },
    layers: { type: 'boolean', default: false },
  },
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
  const layers = values.layers;
  // the 4x cases are left out when measuring the layers (they take as long as all the others)
  const specs4 = layers ? '' : await makeSpecs(root, 4);
  const jstt = path.join(root, 'jstt.mjs');
  await writeFile(
    jstt,
    `import { compile } from ${JSON.stringify(path.join(REPO_ROOT, 'node_modules/json-schema-to-typescript/dist/src/index.js'))};\nimport fs from 'node:fs';\nconst dir = ${JSON.stringify(path.join(specs1, 'models'))};\nfor (const f of fs.readdirSync(dir).sort()) { const m = JSON.parse(fs.readFileSync(dir + '/' + f, 'utf8')); const s = m.request_schema ?? m.json_request_schema; if (s) await compile(s, 'Params', { bannerComment: '' }); }\n`,
  );
  // the up-to-date 4x case starts from a generated 4x tree
  const out4Kept = path.join(root, 'out-4x-kept');
  if (!layers) await sh(process.execPath, [generate, '--specs', specs4, '--out', out4Kept]);

  let clone: string | undefined;
  if (!values['no-clone']) {
    clone = path.join(root, 'clone');
    await sh('git', ['clone', '--quiet', REPO_ROOT, clone]);
    await symlink(path.join(REPO_ROOT, 'node_modules'), path.join(clone, 'node_modules'), 'dir');
  }
  const off = (...names: string[]) => ({ OXEN_GENERATE_OFF: names.join(','), GENERATE_TIMING: '1' });
  const timing = { GENERATE_TIMING: '1' };

  const cases: BenchCase[] = [];
  if (clone) {
    const c = clone;
    const fresh = (env: Record<string, string>) => async () => {
      await rm(path.join(c, '.tmp'), { recursive: true, force: true });
      await sh('git', ['checkout', '--quiet', '--', 'generated'], { cwd: c });
      return timed(process.execPath, [path.join(c, 'scripts', 'run-generate.mjs')], c, env);
    };
    cases.push({ name: 'fresh clone', run: fresh({}) });
    if (layers) cases.push({ name: 'fresh clone, manifest off', run: fresh(off('manifest')) });
  }
  cases.push({ name: 'up to date', run: () => timed(process.execPath, [generate], REPO_ROOT) });
  if (layers)
    cases.push({
      name: 'up to date, precompile off',
      run: () => timed(process.execPath, [generate], REPO_ROOT, off('precompile')),
    });
  const rebuilt = (env: Record<string, string>) => () => timed(process.execPath, [generate], REPO_ROOT, env);
  cases.push({ name: 'every file rebuilt', run: rebuilt(off('manifest')) });
  cases.push({ name: 'generator changed', run: rebuilt(off('inputs')) });
  let n = 0;
  const empty =
    (specs: string, env: Record<string, string> = timing) =>
    async () => {
      const out = path.join(root, `out-${n++}`);
      const r = await timed(process.execPath, [generate, '--specs', specs, '--out', out], REPO_ROOT, env);
      await rm(out, { recursive: true, force: true });
      return r;
    };
  cases.push({ name: 'empty output', run: empty(specs1) });
  if (!layers) {
    cases.push({ name: '4x empty output', run: empty(specs4) });
    cases.push({
      name: '4x up to date',
      run: () => timed(process.execPath, [generate, '--specs', specs4, '--out', out4Kept], REPO_ROOT),
    });
  }
  cases.push({ name: 'json-schema-to-typescript', run: () => timed(process.execPath, [jstt], REPO_ROOT) });

  const results = await runRoundsDetailed(cases, runs);
  const load = os.loadavg().map((l) => l.toFixed(1));
  printRounds(
    `bench:generate (${runs} interleaved rounds; medians (min-max); this machine: ${os.cpus().length} cores, load average at the end ${load.join(' ')})`,
    results,
  );
  const med = (name: string) => median(results.get(name)!.map((x) => x.ms));
  const peak = (name: string) => Math.max(...results.get(name)!.map((x) => x.rssMiB));
  const has = (name: string) => results.has(name);
  const ref = med('json-schema-to-typescript');
  const refPeak = peak('json-schema-to-typescript');
  console.log('breakdown (ms per activity; medians)');
  for (const name of ['every file rebuilt', 'generator changed', 'empty output'])
    if (has(name)) console.log(`  ${name.padEnd(32)} ${breakdownLine(results.get(name)!)}`);
  console.log('ratios');
  const line = (label: string, value: string, aim: string) => console.log(`  ${label.padEnd(48)} ${value}  ${aim}`);
  for (const name of ['every file rebuilt', 'generator changed', 'empty output']) {
    if (!has(name)) continue;
    line(`${name} / json-schema-to-typescript`, (med(name) / ref).toFixed(2), '(aim <= 2.5)');
    line(`${name} peak RSS / json-schema-to-typescript's`, (peak(name) / refPeak).toFixed(2), '(aim <= 2)');
  }
  if (has('4x empty output')) {
    line('4x empty output / empty output', (med('4x empty output') / med('empty output')).toFixed(2), '(aim < 2)');
    line('4x up to date / up to date', (med('4x up to date') / med('up to date')).toFixed(2), '(aim < 2)');
  }
  if (clone) line('fresh clone', `${(med('fresh clone') / 1000).toFixed(2)} s`, '(aim < 2 s)');
  line('up to date', `${(med('up to date') / 1000).toFixed(2)} s`, '(aim < 1 s)');
  if (layers) {
    console.log('what each layer saves (1 - on / off, medians; kept when >= 20%)');
    const saves = (layer: string, onCase: string, offCase: string) => {
      if (has(onCase) && has(offCase))
        line(`${layer} (${onCase})`, `${((1 - med(onCase) / med(offCase)) * 100).toFixed(0)}%`, '');
    };
    saves('manifest', 'fresh clone', 'fresh clone, manifest off');
    saves('precompile', 'up to date', 'up to date, precompile off');
  }
} finally {
  await rm(root, { recursive: true, force: true });
}
