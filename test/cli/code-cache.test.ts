/**
 * The installed CLI's V8 code cache of TypeScript (generator/code-cache.ts) across processes: a run
 * leaves it in the `node_modules` that holds TypeScript, the next run's V8 accepts it
 * (`NODE_DEBUG=oxen-codegen` says so), and a run with it turned off writes the same files and prints the
 * same. The cases of a torn, foreign or unwritable cache: test/generator/code-cache.test.ts.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { REPO_ROOT, tempDir } from '../support/index.ts';
import { codegen, installBoth, treeHash } from './support.ts';

const tmp = tempDir('inference-sdk-cli-code-cache-');
const project = path.join(tmp.dir, 'project');
const model = path.join(tmp.dir, 'acme-flux-9.json');

beforeAll(async () => {
  const flux = JSON.parse(readFileSync(path.join(REPO_ROOT, 'specs', 'models', 'flux-2-pro.json'), 'utf8')) as object;
  writeFileSync(model, `${JSON.stringify({ ...flux, id: 'acme-flux-9' }, null, 2)}\n`);
  await installBoth(project);
}, 900_000);
afterAll(() => tmp.remove());

/** `add --from` of the saved model into `out`, offline, with the cache's debug lines on stderr. */
const add = (out: string, env: Record<string, string> = {}) =>
  codegen(project, ['add', '--from', model, '--out', out], {
    OXEN_BASE_URL: 'http://127.0.0.1:9',
    NODE_DEBUG: 'oxen-codegen',
    ...env,
  });
/** What a run printed, without the cache's debug lines and durations, its out folder named `<out>`. */
const printed = (text: string, out: string) =>
  text
    .split('\n')
    .filter((l) => !l.startsWith('OXEN-CODEGEN '))
    .join('\n')
    .replaceAll(out, '<out>')
    .replace(/\(\d+(\.\d+)? m?s\)/g, '(<duration>)');

test("a run leaves TypeScript's code cache in its node_modules' .cache, the next run uses it, and a run without it writes and prints the same", async () => {
  const first = await add('first');
  expect(first.code, first.stderr).toBe(0);
  expect(first.stderr).toMatch(/typescript\.js: code cache (absent|accepted|rejected|corrupt) /);

  const second = await add('second');
  expect(second.code, second.stderr).toBe(0);
  const used = /typescript\.js: code cache accepted \((.+)\)/.exec(second.stderr)?.[1];
  expect(used, second.stderr).toMatch(
    /node_modules[\\/]\.cache[\\/]oxen-inference-codegen[\\/]typescript-[0-9a-f]{16}\.v8cache$/,
  );
  expect(existsSync(used!)).toBe(true);
  expect(used!.startsWith(project)).toBe(false); // beside the installed TypeScript, not in the project

  const off = await add('off', { OXEN_CODEGEN_CODE_CACHE: '0' });
  expect(off.code, off.stderr).toBe(0);
  expect(off.stderr).toMatch(/typescript\.js: code cache off/);
  const outs = ['first', 'second', 'off'].map((o) => treeHash(path.join(project, o)));
  expect(outs[0]).not.toBe('absent');
  expect(new Set(outs).size).toBe(1);
  expect(printed(off.stdout, 'off')).toBe(printed(second.stdout, 'second'));
  expect(printed(off.stderr, 'off')).toBe(printed(second.stderr, 'second'));
}, 240_000);
