/**
 * `npm run bench:user-generate`: the generator package's CLI (`oxen-inference-codegen`, built as it
 * ships: `generator/dist/cli.js`) in a user's project, whole process, wall time and peak RSS (GNU
 * time), as medians of interleaved rounds. A benchmark, not a test: it asserts nothing about time.
 *
 * The models are the package snapshot's with their ids suffixed `-user` (so that they are new to
 * the package), served by the local server (`fake-service/`) on 127.0.0.1.
 * Cases:
 * - `add 1 into existing out`: `add <id>` of one model into an out that already holds 8;
 * - `add N into empty out`: `add` of N (64) models at once into an empty out (the files as printed,
 *   the CLI's default), and the same with `--format` (prettier with the project's configuration);
 * - `up to date generate`: `generate` in the out of N models (nothing to rebuild);
 * - beside each, json-schema-to-typescript alone compiling the same schemas (1, N, N), its default
 *   formatting: the reference of the aims.
 * The breakdown of the large adds (milliseconds per activity, summed) is the
 * generator's own (`GENERATE_TIMING`).
 * Aims: one model added in at most 1.5 s; up to date at most 0.8 s; N models at most 2x
 * json-schema-to-typescript alone; peak RSS under 300 MiB.
 *   --runs N     rounds (default 5)
 *   --models N   models of the large add (default 64)
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { REPO_ROOT } from '../../generator/paths.ts';
import { startServer } from '../../fake-service/index.ts';
import { timed } from '../lib/process.ts';
import { breakdownLine, median, printRounds, runRoundsDetailed, type BenchCase } from '../lib/rounds.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    models: { type: 'string', default: '64' },
  },
});
const runs = Number(values.runs);
const count = Number(values.models);
const sh = promisify(execFile);

const root = await mkdtemp(path.join(tmpdir(), 'bench-user-generate-'));
const server = await (async () => {
  // the models: the snapshot's media models (the ones with a schema) first, ids suffixed
  const all = JSON.parse(await readFile(path.join(REPO_ROOT, 'specs/models.json'), 'utf8')) as string[];
  const served = path.join(root, 'served');
  await mkdir(served, { recursive: true });
  const ids: string[] = [];
  for (const id of all) {
    const obj = JSON.parse(await readFile(path.join(REPO_ROOT, 'specs/models', `${id}.json`), 'utf8')) as Record<
      string,
      unknown
    >;
    obj['id'] = `${id}-user`;
    await writeFile(path.join(served, `${id}-user.json`), `${JSON.stringify(obj, null, 2)}\n`);
    ids.push(`${id}-user`);
  }
  return { ids, s: await startServer({ modelsDir: served }) };
})();
const env = { OXEN_API_KEY: 'test-key', OXEN_BASE_URL: server.s.url };
try {
  console.error('bench: building the generator package (scripts/build-codegen.mjs)...');
  await sh(process.execPath, [path.join(REPO_ROOT, 'scripts', 'build-codegen.mjs')]);
  const cli = path.join(REPO_ROOT, 'generator', 'dist', 'cli.js');
  const ids = server.ids.slice(0, count);
  if (ids.length < count) throw new Error(`only ${ids.length} models to serve`);
  const base = ids.slice(0, 8);
  const extra = ids[8]!;
  // prepared outs: 8 models (copied before each single add), N models (the up-to-date case)
  const out8 = path.join(root, 'out-8');
  const outN = path.join(root, 'out-n');
  await sh(process.execPath, [cli, 'add', ...base, '--out', out8], { cwd: root, env: { ...process.env, ...env } });
  await sh(process.execPath, [cli, 'add', ...ids, '--out', outN], { cwd: root, env: { ...process.env, ...env } });
  const schemas = async (list: string[]) => {
    const dir = path.join(root, `schemas-${list.length}`);
    await mkdir(dir, { recursive: true });
    for (const id of list) await cp(path.join(root, 'served', `${id}.json`), path.join(dir, `${id}.json`));
    const script = path.join(root, `jstt-${list.length}.mjs`);
    await writeFile(
      script,
      `import { compile } from ${JSON.stringify(path.join(REPO_ROOT, 'node_modules/json-schema-to-typescript/dist/src/index.js'))};\nimport fs from 'node:fs';\nconst dir = ${JSON.stringify(dir)};\nfor (const f of fs.readdirSync(dir).sort()) { const m = JSON.parse(fs.readFileSync(dir + '/' + f, 'utf8')); const s = m.request_schema ?? m.json_request_schema; if (s) await compile(s, 'Params', { bannerComment: '' }); }\n`,
    );
    return script;
  };
  const jstt1 = await schemas([extra]);
  const jsttN = await schemas(ids);

  let n = 0;
  const addAll = (flags: string[]) => async () => {
    const out = path.join(root, `run-${n++}`);
    const r = await timed(process.execPath, [cli, 'add', ...ids, '--out', out, ...flags], root, {
      ...env,
      GENERATE_TIMING: '1',
    });
    await rm(out, { recursive: true, force: true });
    return r;
  };
  const cases: BenchCase[] = [
    {
      name: 'add 1 into existing out',
      run: async () => {
        const out = path.join(root, `run-${n++}`);
        await cp(out8, out, { recursive: true });
        const r = await timed(process.execPath, [cli, 'add', extra, '--out', out], root, env);
        await rm(out, { recursive: true, force: true });
        return r;
      },
    },
    { name: 'jstt, 1 schema', run: () => timed(process.execPath, [jstt1], root) },
    { name: `add ${count} into empty out`, run: addAll([]) },
    { name: `add ${count}, --format`, run: addAll(['--format']) },
    { name: `jstt, ${count} schemas`, run: () => timed(process.execPath, [jsttN], root) },
    { name: 'up to date generate', run: () => timed(process.execPath, [cli, 'generate', '--out', outN], root) },
  ];
  const results = await runRoundsDetailed(cases, runs);
  printRounds(
    `bench:user-generate (${runs} interleaved rounds; medians (min-max); whole processes; this machine: ${os.cpus().length} cores, load average at the end ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
    results,
  );
  const med = (name: string) => median(results.get(name)!.map((x) => x.ms));
  const peak = (name: string) => Math.max(...results.get(name)!.map((x) => x.rssMiB));
  const line = (label: string, value: string, aim: string) => console.log(`  ${label.padEnd(52)} ${value}  ${aim}`);
  console.log('breakdown (ms per activity, summed; medians)');
  for (const [name, samples] of results)
    if (samples.some((x) => x.breakdown)) console.log(`  ${name.padEnd(32)} ${breakdownLine(samples)}`);
  console.log('aims');
  const jsttAll = `jstt, ${count} schemas`;
  line(
    'add 1 into existing out',
    `${(med('add 1 into existing out') / 1000).toFixed(2)} s`,
    `(aim <= 1.5 s; jstt alone ${(med('jstt, 1 schema') / 1000).toFixed(2)} s)`,
  );
  line('up to date generate', `${(med('up to date generate') / 1000).toFixed(2)} s`, '(aim <= 0.8 s)');
  line(
    `add ${count} / json-schema-to-typescript alone`,
    (med(`add ${count} into empty out`) / med(jsttAll)).toFixed(2),
    '(aim <= 2)',
  );
  line(
    `add ${count} peak RSS / json-schema-to-typescript's`,
    (peak(`add ${count} into empty out`) / peak(jsttAll)).toFixed(2),
    '(aim <= 2)',
  );
  line(
    `add ${count} --format / json-schema-to-typescript alone`,
    (med(`add ${count}, --format`) / med(jsttAll)).toFixed(2),
    '(no aim: prettier formats the files too)',
  );
} finally {
  await server.s.close();
  await rm(root, { recursive: true, force: true });
}
