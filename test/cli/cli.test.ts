/**
 * The generator as users run it: both tarballs (`npm pack --workspaces --include-workspace-root`)
 * installed into a fresh project, `oxen-inference-codegen` against the local server on 127.0.0.1
 * (`GET /api/ai/models/{id}`), and the generated `oxen-models/` compiled with the strictest
 * consumer flags (nodenext and bundler) and run. One pack, one install and one server serve the
 * whole file; the steps run in order on one `oxen-models/`, then `serve` (serve-steps.ts) on it.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type LocalServer } from '../../fake-service/index.ts';
import { REPO_ROOT, run, tempDir } from '../support/index.ts';
import { STRICT_FLAGS_OWN_DECLARATIONS } from '../package/helpers.ts';
import { codegen, installBoth, treeHash, tsc } from './support.ts';
import { serveTests } from './serve-steps.ts';
import { EXIT } from '../../generator/cli/exit-codes.ts';

const KEY = 'test-key';
const tmp = tempDir('inference-sdk-cli-');
const project = path.join(tmp.dir, 'project');
const modelsDir = path.join(tmp.dir, 'served');
const out = path.join(project, 'oxen-models');
let server: LocalServer;

const flux = () =>
  JSON.parse(readFileSync(path.join(REPO_ROOT, 'specs', 'models', 'flux-2-pro.json'), 'utf8')) as Record<
    string,
    unknown
  > & {
    json_request_schema: { properties: Record<string, unknown>; required: string[] };
  };
const serve = (obj: Record<string, unknown>) =>
  writeFileSync(path.join(modelsDir, `${String(obj['id'])}.json`), `${JSON.stringify(obj, null, 2)}\n`);

/** A model newer than the package (not in its snapshot). */
const acme = { ...flux(), id: 'acme-flux-9', display_name: 'Acme Flux 9' };
/** A fine-tuned model (a user's own id), saved as a file and also served. */
const fineTuned = (() => {
  const m = flux();
  m.json_request_schema.properties['lora_scale'] = {
    type: 'number',
    minimum: 0,
    maximum: 2,
    description: 'LoRA strength',
  };
  return { ...m, id: 'ft-alice-flux-v1', display_name: 'Alice fine-tune' };
})();
/** A deployed fine-tune, served under its `oxen:` slug (what `fineTunes.deploy` answers as `deployment.model_slug`). */
const SLUG = 'oxen:acme-ft_123';
const deployed = { ...flux(), id: SLUG, display_name: 'acme-ft_123', model_type: 'custom' };
/** The package's flux-2-pro, newer: one more parameter. */
const newerFlux = (() => {
  const m = flux();
  m.json_request_schema.properties['sharpness'] = { type: 'integer', minimum: 0, maximum: 10 };
  return m;
})();

beforeAll(async () => {
  mkdirSync(modelsDir, { recursive: true });
  // qwen-image-edit: the base model of the fine-tune that the walk-through test deploys
  for (const id of ['gpt-4o-mini', 'qwen-image-edit'])
    cpSync(path.join(REPO_ROOT, 'specs', 'models', `${id}.json`), path.join(modelsDir, `${id}.json`));
  for (const m of [acme, fineTuned, newerFlux, deployed]) serve(m);
  writeFileSync(path.join(tmp.dir, 'ft-alice-flux-v1.json'), `${JSON.stringify(fineTuned, null, 2)}\n`);
  const [, s] = await Promise.all([installBoth(project), startServer({ modelsDir })]);
  server = s;
}, 900_000);

afterAll(async () => {
  await server?.close();
  tmp.remove();
});

const withServer = () => ({ OXEN_API_KEY: KEY, OXEN_BASE_URL: server.url });

/**
 * The packages an ES module loads before it runs: its static `import`s and theirs, through relative files
 * (esbuild's chunks), not through `import()`.
 */
function staticPackages(file: string, seen = new Set<string>(), packages = new Set<string>()): Set<string> {
  if (seen.has(file)) return packages;
  seen.add(file);
  for (const [, spec] of readFileSync(file, 'utf8').matchAll(/^import\s+(?:[^'"]*?\s+from\s+)?["']([^"']+)["']/gm)) {
    if (spec!.startsWith('.')) staticPackages(path.resolve(path.dirname(file), spec!), seen, packages);
    else if (!spec!.startsWith('node:')) packages.add(spec!.split('/')[0]!);
  }
  return packages;
}

/** A project config for `tsc`: the strictest flags (TypeScript's lib files unchecked) with `kind`'s resolution, over the user's files and `oxen-models/`. */
function tsconfig(kind: 'nodenext' | 'bundler'): string {
  const file = path.join(project, `tsconfig.${kind}.json`);
  const module =
    kind === 'nodenext'
      ? { module: 'NodeNext', moduleResolution: 'NodeNext', noEmit: false, outDir: 'build' }
      : { module: 'ESNext', moduleResolution: 'Bundler' };
  writeFileSync(
    file,
    JSON.stringify(
      { compilerOptions: { ...STRICT_FLAGS_OWN_DECLARATIONS, ...module }, include: ['*.ts', 'oxen-models/**/*.ts'] },
      null,
      2,
    ),
  );
  return file;
}

describe('oxen-inference-codegen in a user project', () => {
  test('the SDK stays light and the generator package ships one bin with its libraries as dependencies, and the LICENSE', () => {
    const pkg = (name: string) =>
      JSON.parse(readFileSync(path.join(project, 'node_modules', name, 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
        bin?: Record<string, string>;
        files?: string[];
      };
    // @standard-schema/spec: types only (the models' Standard Schema objects), nothing of it runs
    expect(Object.keys(pkg('oxen-inference-sdk').dependencies ?? {}).sort()).toEqual([
      '@standard-schema/spec',
      'eventsource-parser',
      'p-retry',
    ]);
    const gen = pkg('oxen-inference-codegen');
    expect(gen.bin).toEqual({ 'oxen-inference-codegen': 'dist/cli.js' });
    expect(Object.keys(gen.dependencies ?? {})).toEqual(
      expect.arrayContaining(['ajv', 'prettier', 'ts-morph', 'handlebars']),
    );
    // generator/LICENSE is a copy of the repository's LICENSE (npm packs only a package's own files)
    expect(readFileSync(path.join(project, 'node_modules', 'oxen-inference-codegen', 'LICENSE'), 'utf8')).toBe(
      readFileSync(path.join(REPO_ROOT, 'LICENSE'), 'utf8'),
    );
    for (const f of ['dist/cli.js', 'dist/templates/header.hbs', 'dist/specs/openapi.yaml', 'dist/.prettierrc.json'])
      expect(existsSync(path.join(project, 'node_modules', 'oxen-inference-codegen', f)), f).toBe(true);
  });

  test('the bin starts without the generator: what dist/cli.js imports statically reaches none of its heavy libraries', async () => {
    const dist = path.join(project, 'node_modules', 'oxen-inference-codegen', 'dist');
    const packages = staticPackages(path.join(dist, 'cli.js'));
    for (const heavy of ['ajv', 'handlebars', 'js-yaml', 'microdiff', 'prettier', 'ts-morph', 'typescript'])
      expect(packages, heavy).not.toContain(heavy);
    // the chunks a command loads are shipped: --help runs, and add (above and below) loads the generator's
    const help = await codegen(project, ['--help']);
    expect(help.code, help.stderr).toBe(EXIT.ok);
    expect(help.stdout).toMatch(/^usage: oxen-inference-codegen /);
  });

  test('add <id>... fetches from the server, stores the snapshot as fetched and generates', async () => {
    const r = await codegen(project, ['add', 'acme-flux-9', 'flux-2-pro'], withServer());
    expect(r.stderr + r.stdout).not.toContain(KEY);
    expect(r.code, r.stderr).toBe(0);
    // not a terminal: one plain progress line per model, named for the command
    expect(r.stderr).toMatch(/^add: \[1\/2\] ok {6}\S+$/m);
    expect(r.stderr).not.toContain('refresh: [');
    expect(JSON.parse(readFileSync(path.join(out, 'specs', 'models.json'), 'utf8'))).toEqual([
      'acme-flux-9',
      'flux-2-pro',
    ]);
    expect(JSON.parse(readFileSync(path.join(out, 'specs', 'models', 'acme-flux-9.json'), 'utf8'))).toEqual(acme);
    for (const f of [
      'index.ts',
      'validator-table.ts',
      'models/acme-flux-9.ts',
      'validators/acme-flux-9.ts',
      'models/flux-2-pro.ts',
      'manifest.json',
    ])
      expect(existsSync(path.join(out, f)), f).toBe(true);
    // the index declares the parameter types itself
    expect(existsSync(path.join(out, 'params'))).toBe(false);
    expect(readFileSync(path.join(out, 'index.ts'), 'utf8')).toContain('export interface AcmeFlux9Params {');
    const model = readFileSync(path.join(out, 'models', 'acme-flux-9.ts'), 'utf8');
    expect(
      model.startsWith(
        '/**\n * GENERATED FILE: do not edit by hand.\n * Generated by `oxen-inference-codegen generate`',
      ),
    ).toBe(true);
    expect(model).toContain('`specs/models/acme-flux-9.json`');
    // as the TypeScript printer gives it (no --format): its string literals are double-quoted
    expect(model).toContain('from "oxen-inference-sdk/runtime"');
    expect(model).toContain('from "../validators/acme-flux-9.js"');
    expect(model).not.toMatch(/from ["']\.{1,2}\/[^"']*\.ts["']/);
    expect(JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8'))).toMatchObject({ format: false });
    // the validator's helpers come from their own entry (neither the root nor ./runtime exports them)
    const validator = readFileSync(path.join(out, 'validators', 'acme-flux-9.ts'), 'utf8');
    const helpers = /import \{ ([^}]*) \} from '([^']*)';/.exec(
      validator.split('\n').find((l) => /\b(equal|ucs2length)\b/.test(l) && l.startsWith('import')) ?? '',
    );
    expect(helpers?.[2]).toBe('oxen-inference-sdk/validator-support');
  });

  test('add --from adds a saved model object offline (a fine-tuned model, by its id)', async () => {
    const r = await codegen(project, ['add', '--from', path.join(tmp.dir, 'ft-alice-flux-v1.json')], {
      OXEN_BASE_URL: 'http://127.0.0.1:9',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path.join(out, 'specs', 'models.json'), 'utf8'))).toEqual([
      'acme-flux-9',
      'flux-2-pro',
      'ft-alice-flux-v1',
    ]);
    expect(existsSync(path.join(out, 'models', 'ft-alice-flux-v1.ts'))).toBe(true);
  });

  test('the generated files compile under the strictest flags (nodenext and bundler): typed calls, @ts-expect-error negatives', async () => {
    writeFileSync(
      path.join(project, 'check.ts'),
      `import { Client, ADDED_MODEL_IDS, type ModelId, type ModelParams, type QueueModelId, type ImageGenerateModelId, type VideoModelId, type ChatModelId } from './oxen-models/index.js';
import { acmeFlux9GenerateImage, acmeFlux9Enqueue, acmeFlux9QueueSchema, type AcmeFlux9Params, type AcmeFlux9QueueParams } from './oxen-models/models/acme-flux-9.js';
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(_: T): void {}
assertType<Equal<ModelParams['acme-flux-9'], AcmeFlux9Params>>(true);
assertType<Equal<StandardSchemaV1.InferInput<typeof acmeFlux9QueueSchema>, AcmeFlux9QueueParams>>(true);
export const standard: StandardSchemaV1<AcmeFlux9QueueParams> & StandardJSONSchemaV1<AcmeFlux9QueueParams> = acmeFlux9QueueSchema;
export const ids: ModelId[] = ['acme-flux-9', 'ft-alice-flux-v1', 'flux-2-pro', 'gpt-4o-mini', ...ADDED_MODEL_IDS];
export const queued: QueueModelId = 'ft-alice-flux-v1';
export const image: ImageGenerateModelId = 'acme-flux-9';
export const video: VideoModelId = 'google-veo-3-1';
export const chat: ChatModelId = 'gpt-4o-mini';
export async function typed(client: Client): Promise<void> {
  await client.images.generate({ model: 'acme-flux-9', prompt: 'a fox', aspect_ratio: '16:9' });
  await client.images.generate({ model: 'flux-2-pro', prompt: 'a fox', sharpness: 3 });
  await client.queue.enqueue({ model: 'ft-alice-flux-v1', prompt: 'a fox', lora_scale: 0.5 });
  await acmeFlux9GenerateImage(client, { prompt: 'a fox' });
  // @ts-expect-error an unknown parameter of the added model
  await client.images.generate({ model: 'acme-flux-9', prompt: 'a fox', not_a_param: 1 });
  // @ts-expect-error prompt is a string
  await acmeFlux9GenerateImage(client, { prompt: 1 });
  // @ts-expect-error prompt is required
  await acmeFlux9Enqueue(client, {});
  // @ts-expect-error lora_scale is a number
  await client.queue.enqueue({ model: 'ft-alice-flux-v1', prompt: 'x', lora_scale: 'high' });
  // @ts-expect-error not a model id
  await client.images.generate({ model: 'no-such-model', prompt: 'x' });
  // @ts-expect-error a chat model is not an image model
  await client.images.generate({ model: 'gpt-4o-mini', prompt: 'x' });
}
`,
    );
    writeFileSync(
      path.join(project, 'run.ts'),
      `import { Client } from './oxen-models/index.js';
import { acmeFlux9QueueSchema } from './oxen-models/models/acme-flux-9.js';
import { ftAliceFluxV1QueueSchema } from './oxen-models/models/ft-alice-flux-v1.js';
import { ValidationError } from 'oxen-inference-sdk/runtime';
const env = (globalThis as unknown as { process: { env: Record<string, string | undefined> } }).process.env;
const client = new Client({ apiKey: env['KEY'] ?? '', baseUrl: env['BASE'] ?? '' });
const result: Record<string, unknown> = {};
try {
  await client.queue.enqueue({ model: 'acme-flux-9', prompt: 42 } as never);
  result['bad'] = 'sent';
} catch (err) {
  result['bad'] = err instanceof ValidationError ? 'ValidationError' : String(err);
}
const ok = await client.queue.enqueue({ model: 'acme-flux-9', prompt: 'a fox' });
result['ok'] = ok.generations.length;
// the added models' Standard Schema objects validate with their compiled validators
result['standardBad'] = acmeFlux9QueueSchema['~standard'].validate({ prompt: 42, input_image: ['a', 1] }).issues;
result['standardOk'] = acmeFlux9QueueSchema['~standard'].validate({ prompt: 'a fox' }).issues ?? 'valid';
result['loraScale'] = ftAliceFluxV1QueueSchema['~standard'].validate({ prompt: 'x', lora_scale: 3 }).issues;
const json = ftAliceFluxV1QueueSchema['~standard'].jsonSchema.input({ target: 'draft-2020-12' });
result['jsonSchema'] = [json['$schema'], (json['properties'] as Record<string, unknown>)['lora_scale']];
console.log(JSON.stringify(result));
`,
    );
    // the index as generated starts with `// @ts-nocheck` (user-index.ts): compiled here also without it
    const index = readFileSync(path.join(out, 'index.ts'), 'utf8');
    expect(index).toMatch(/^\/\/ @ts-nocheck /m);
    writeFileSync(path.join(out, 'index-checked.ts'), index.replace(/^\/\/ @ts-nocheck .*$/m, ''));
    const [nodenext, bundler] = await Promise.all([tsc(tsconfig('nodenext')), tsc(tsconfig('bundler'))]).finally(() =>
      rmSync(path.join(out, 'index-checked.ts')),
    );
    expect(nodenext.stdout + nodenext.stderr).toBe('');
    expect(nodenext.code).toBe(0);
    expect(bundler.stdout + bundler.stderr).toBe('');
    expect(bundler.code).toBe(0);
  }, 180_000);

  test("queue.enqueue refuses a bad body before sending (ValidationError; the server received nothing); the models' Standard Schema objects validate", async () => {
    const before = server.count('POST', '/api/ai/queue');
    const r = await run(process.execPath, [path.join(project, 'build', 'run.js')], {
      cwd: project,
      env: { ...process.env, KEY, BASE: server.url },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.trim())).toEqual({
      bad: 'ValidationError',
      ok: 1,
      standardBad: [
        { message: 'must be string', path: ['prompt'] },
        { message: 'must be string', path: ['input_image', 1] },
      ],
      standardOk: 'valid',
      loraScale: [{ message: 'must be <= 2', path: ['lora_scale'] }],
      jsonSchema: [
        'https://json-schema.org/draft/2020-12/schema',
        { type: 'number', minimum: 0, maximum: 2, description: 'LoRA strength' },
      ],
    });
    expect(server.count('POST', '/api/ai/queue') - before).toBe(1); // only the good body
  });

  test('models lists the catalog through the installed bin, marking what the snapshot has; --search; --json', async () => {
    const r = await codegen(project, ['models'], withServer());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^acme-flux-9 +base +image +yes$/m);
    expect(r.stdout).toMatch(/^gpt-4o-mini +base +text +no$/m);
    expect(r.stdout).toMatch(new RegExp(`^${SLUG} +custom +image +no$`, 'm'));
    const found = await codegen(project, ['models', '--search', 'acme', '--json'], withServer());
    expect(found.code, found.stderr).toBe(0);
    const ids = (JSON.parse(found.stdout) as { data: Array<{ id: string }> }).data.map((m) => m.id).sort();
    expect(ids).toEqual(['acme-flux-9', SLUG]);
    expect(r.stdout + r.stderr + found.stdout + found.stderr).not.toContain(KEY);
  });

  test('add of a deployed fine-tune slug (oxen:...): files named with ~, typed by its slug, compiled', async () => {
    const r = await codegen(project, ['add', SLUG], withServer());
    expect(r.code, r.stderr).toBe(0);
    for (const f of [
      'models/oxen~acme-ft_123.ts',
      'validators/oxen~acme-ft_123.ts',
      'specs/models/oxen~acme-ft_123.json',
    ])
      expect(existsSync(path.join(out, f)), f).toBe(true);
    writeFileSync(
      path.join(project, 'slug.ts'),
      `import { Client, type ModelId } from './oxen-models/index.js';
import { oxenAcmeFt123Id, type OxenAcmeFt123Params } from './oxen-models/models/oxen~acme-ft_123.js';
export const id: ModelId = oxenAcmeFt123Id;
export const p: OxenAcmeFt123Params = { prompt: 'a fox' };
export async function call(client: Client): Promise<void> {
  await client.queue.enqueue({ model: '${SLUG}', prompt: 'a fox' });
  // @ts-expect-error a parameter the deployed model does not take
  await client.queue.enqueue({ model: '${SLUG}', prompt: 'a fox', not_a_param: 1 });
}
`,
    );
    const bundler = await tsc(tsconfig('bundler'));
    expect(bundler.stdout + bundler.stderr).toBe('');
    expect((await codegen(project, ['generate', '--check'])).code).toBe(0);
    expect((await codegen(project, ['remove', SLUG])).code).toBe(0);
    expect(existsSync(path.join(out, 'models', 'oxen~acme-ft_123.ts'))).toBe(false);
    rmSync(path.join(project, 'slug.ts'));
  }, 180_000);

  test('generate --check passes when up to date, and exits 1 naming a hand-edited file; generate repairs it', async () => {
    expect((await codegen(project, ['generate', '--check'])).code).toBe(0);
    const file = path.join(out, 'models', 'acme-flux-9.ts');
    writeFileSync(file, `${readFileSync(file, 'utf8')}\nexport const handEdit = 1;\n`);
    const before = treeHash(out);
    const check = await codegen(project, ['generate', '--check']);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain('changed  oxen-models/models/acme-flux-9.ts');
    expect(treeHash(out)).toBe(before);
    expect((await codegen(project, ['generate'])).code).toBe(0);
    expect((await codegen(project, ['generate', '--check'])).code).toBe(0);
  });

  test('a wrong key: one clear error, the key never printed, nothing written', async () => {
    const before = treeHash(out);
    const r = await codegen(project, ['add', 'gpt-4o-mini'], {
      OXEN_API_KEY: 'wrong-key-0123456789',
      OXEN_BASE_URL: server.url,
    });
    expect(r.code).toBe(EXIT.failed);
    expect(r.stderr).toContain('rejected the API key (HTTP 401)');
    expect(r.stderr.match(/failed, nothing was written/g)).toHaveLength(1);
    expect(r.stdout + r.stderr).not.toContain('wrong-key-0123456789');
    expect(treeHash(out)).toBe(before);
  });

  test.each([
    [
      'a remote $ref',
      'hostile-ref',
      { type: 'object', properties: { a: { $ref: 'https://evil.example/schema.json' } } },
      '/json_request_schema/properties/a',
    ],
    [
      'a schema nested past the depth limit',
      'hostile-deep',
      (() => {
        let s: Record<string, unknown> = { type: 'string' };
        for (let i = 0; i < 80; i++) s = { type: 'object', properties: { x: s } };
        return s;
      })(),
      '/json_request_schema',
    ],
    [
      'a property name with a lone surrogate',
      'hostile-surrogate',
      { type: 'object', properties: { '\ud800x': { type: 'string' } } },
      '/json_request_schema/properties',
    ],
  ])('a hostile model object (%s): a named SpecError, nothing written', async (_what, id, schema, pointer) => {
    const file = path.join(tmp.dir, `${id}.json`);
    writeFileSync(file, JSON.stringify({ ...flux(), id, json_request_schema: schema }));
    const before = treeHash(out);
    const r = await codegen(project, ['add', '--from', file]);
    expect(r.code).toBe(EXIT.failed);
    expect(r.stderr).toContain(`${file} (model ${id}) at ${pointer}`);
    expect(treeHash(out)).toBe(before);
  });

  test('a hostile model id (path traversal) is refused by name, nothing written', async () => {
    const file = path.join(tmp.dir, 'traversal.json');
    writeFileSync(file, JSON.stringify({ ...flux(), id: '../../escape' }));
    const before = treeHash(out);
    const r = await codegen(project, ['add', '--from', file]);
    expect(r.code).toBe(EXIT.failed);
    expect(r.stderr).toContain(`${file} (model "../../escape") at /id`);
    expect(treeHash(out)).toBe(before);
    expect(existsSync(path.join(project, 'escape.json'))).toBe(false);
  });

  test('refresh after the server changed a model: the breaking change is reported, exit 2', async () => {
    await server.close();
    const changed = {
      ...acme,
      json_request_schema: { ...acme.json_request_schema, properties: { ...acme.json_request_schema.properties } },
    };
    delete changed.json_request_schema.properties['seed'];
    serve(changed);
    server = await startServer({ modelsDir });
    const r = await codegen(project, ['refresh'], withServer());
    expect(r.code, r.stderr).toBe(EXIT.breaking);
    expect(r.stdout).toMatch(/acme-flux-9[^\n]*\n[^]*BREAKING[^\n]*seed/);
    expect(JSON.parse(readFileSync(path.join(out, 'specs', 'models', 'acme-flux-9.json'), 'utf8'))).toEqual(changed);
    expect(readFileSync(path.join(out, 'models', 'acme-flux-9.ts'), 'utf8')).not.toContain('seed?:');
    expect((await codegen(project, ['generate', '--check'])).code).toBe(0);
  }, 120_000);

  test('refresh after the service removed a model: exit 2 naming it, the model kept, the others refreshed', async () => {
    const listed = JSON.parse(readFileSync(path.join(out, 'specs', 'models.json'), 'utf8')) as string[];
    expect(listed).toContain('acme-flux-9');
    expect(server.removeModel('acme-flux-9')).toBe(true);
    const kept = readFileSync(path.join(out, 'models', 'acme-flux-9.ts'), 'utf8');
    const before = server.count('GET', '/api/ai/models/');
    const r = await codegen(project, ['refresh'], withServer());
    expect(r.code, r.stderr).toBe(EXIT.breaking);
    expect(server.count('GET', '/api/ai/models/') - before).toBe(listed.length); // every model asked for
    expect(r.stdout).toMatch(/no longer served \(HTTP 404\), kept in oxen-models\/specs until removed: acme-flux-9/);
    expect(r.stdout).toMatch(/acme-flux-9 \(removed[^\n]*\n +BREAKING +\(model\) +no longer served/);
    expect(JSON.parse(readFileSync(path.join(out, 'specs', 'models.json'), 'utf8'))).toEqual(listed);
    expect(readFileSync(path.join(out, 'models', 'acme-flux-9.ts'), 'utf8')).toBe(kept);
    expect((await codegen(project, ['generate', '--check'])).code).toBe(0);
    await server.close();
    server = await startServer({ modelsDir }); // serving it again, for what follows
  }, 120_000);

  test('remove <id> removes the model and its files', async () => {
    const r = await codegen(project, ['remove', 'ft-alice-flux-v1']);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(path.join(out, 'models', 'ft-alice-flux-v1.ts'))).toBe(false);
    expect(existsSync(path.join(out, 'validators', 'ft-alice-flux-v1.ts'))).toBe(false);
    expect(existsSync(path.join(out, 'specs', 'models', 'ft-alice-flux-v1.json'))).toBe(false);
    expect(readFileSync(path.join(out, 'index.ts'), 'utf8')).not.toContain('ft-alice-flux-v1');
  });

  test('output piped to a reader that stops early ends quietly: exit 0', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn(path.join(project, 'node_modules', '.bin', 'oxen-inference-codegen'), ['generate'], {
      cwd: project,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy(); // the reader is gone before the command writes its summary
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).not.toContain('EPIPE');
    expect(code, stderr).toBe(0);
  });

  test("--format formats with the project's prettier configuration, and later commands keep it until --no-format", async () => {
    const dir = path.join(project, 'formatted');
    mkdirSync(dir, { recursive: true });
    const config = { tabWidth: 4, printWidth: 100, singleQuote: false };
    writeFileSync(path.join(dir, '.prettierrc.json'), JSON.stringify(config));
    const fmtOut = path.join(dir, 'oxen-models');
    const saved = path.join(tmp.dir, 'ft-alice-flux-v1.json');
    const add = await codegen(project, ['add', '--from', saved, '--out', 'formatted/oxen-models', '--format']);
    expect(add.code, add.stderr).toBe(0);
    const { format } = await import('prettier');
    const modelFile = path.join(fmtOut, 'models', 'ft-alice-flux-v1.ts');
    for (const f of [modelFile, path.join(fmtOut, 'index.ts')]) {
      const text = readFileSync(f, 'utf8');
      expect(await format(text, { ...config, parser: 'babel-ts' }), f).toBe(text);
    }
    expect(readFileSync(modelFile, 'utf8')).toMatch(/^ {4}prompt: string;$/m); // the project's tabWidth
    expect(JSON.parse(readFileSync(path.join(fmtOut, 'manifest.json'), 'utf8'))).toMatchObject({ format: true });
    // kept: a plain generate --check (no flag) compares with formatted files
    const check = await codegen(project, ['generate', '--check', '--out', 'formatted/oxen-models']);
    expect(check.code, check.stderr + check.stdout).toBe(0);
    // a changed configuration changes the files: --check names them
    writeFileSync(path.join(dir, '.prettierrc.json'), JSON.stringify({ ...config, tabWidth: 2 }));
    const drift = await codegen(project, ['generate', '--check', '--out', 'formatted/oxen-models']);
    expect(drift.code).toBe(1);
    expect(drift.stderr).toContain('formatted/oxen-models/models/ft-alice-flux-v1.ts');
    // --no-format: the files as printed again, and kept
    const plain = await codegen(project, ['generate', '--out', 'formatted/oxen-models', '--no-format']);
    expect(plain.code, plain.stderr).toBe(0);
    expect(readFileSync(modelFile, 'utf8')).toContain('from "oxen-inference-sdk/runtime"');
    expect(JSON.parse(readFileSync(path.join(fmtOut, 'manifest.json'), 'utf8'))).toMatchObject({ format: false });
    expect((await codegen(project, ['generate', '--check', '--out', 'formatted/oxen-models'])).code).toBe(0);
    const both = await codegen(project, ['generate', '--out', 'formatted/oxen-models', '--format', '--no-format']);
    expect(both.code).toBe(EXIT.failed);
    expect(both.stderr).toContain('give --format or --no-format, not both');
  }, 180_000); // seven runs of the CLI, each loading TypeScript (and prettier): over 30 s on a busy machine

  test('a fine-tune from creation to a typed call: create, run, wait, deploy, add the slug, queue.run it typed', async () => {
    // the SDK as installed from the packed tarball, driven by scripts the project compiles (strictest flags)
    const deploySource = `import { Client } from 'oxen-inference-sdk';
const env = (globalThis as unknown as { process: { env: Record<string, string | undefined> } }).process.env;
const client = new Client({ apiKey: env['KEY'] ?? '', baseUrl: env['BASE'] ?? '' });
const repo = { namespace: 'alice', repo_name: 'data' };
const { fine_tune: created } = await client.fineTunes.create(repo, {
  resource: 'main/edits.parquet',
  base_model: 'Qwen/Qwen-Image-Edit',
  script_type: 'image_editing',
  training_params: { caption_column: 'caption', image_column: 'edited', control_image_column: 'control' },
});
const ref = { ...repo, id: created.id };
await client.fineTunes.run(ref);
const done = await client.fineTunes.wait(ref, { intervalMs: 20 });
const { deployment } = await client.fineTunes.deploy(ref);
console.log(JSON.stringify({ status: done.status, slug: deployment.model_slug }));
`;
    writeFileSync(path.join(project, 'deploy.ts'), deploySource);
    // this test's own files only: earlier tests leave files of models since removed
    const config = path.join(project, 'tsconfig.walk.json');
    writeFileSync(
      config,
      JSON.stringify({
        extends: './tsconfig.nodenext.json',
        include: ['deploy.ts', 'call-slug.ts', 'oxen-models/**/*.ts'],
      }),
    );
    // run before the slug exists, so only transpiled here; the one compile below type-checks it with the slug's call
    mkdirSync(path.join(project, 'build'), { recursive: true });
    const esm = { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 };
    writeFileSync(
      path.join(project, 'build', 'deploy.js'),
      ts.transpileModule(deploySource, { compilerOptions: esm }).outputText,
    );
    const env = { ...process.env, KEY, BASE: server.url };
    const deployed = await run(process.execPath, [path.join(project, 'build', 'deploy.js')], { cwd: project, env });
    expect(deployed.code, deployed.stderr).toBe(0);
    const { status, slug } = JSON.parse(deployed.stdout.trim()) as { status: string; slug: string };
    expect(status).toBe('completed');
    expect(slug).toMatch(/^oxen:alice-ft_[0-9a-f]+$/);

    const added = await codegen(project, ['add', slug], withServer());
    expect(added.code, added.stderr).toBe(0);
    // typed by the slug: the base model's required input_image is required, a wrong parameter does not compile
    writeFileSync(
      path.join(project, 'call-slug.ts'),
      `import { Client } from './oxen-models/index.js';
const env = (globalThis as unknown as { process: { env: Record<string, string | undefined> } }).process.env;
const client = new Client({ apiKey: env['KEY'] ?? '', baseUrl: env['BASE'] ?? '' });
export async function wrong(): Promise<void> {
  // @ts-expect-error input_image is required by the deployed model (its base model's schema)
  await client.queue.run({ model: '${slug}', prompt: 'make it blue' });
}
const outcomes = await client.queue.run(
  { model: '${slug}', prompt: 'make it blue', input_image: 'https://example.com/a.png' },
  { timeoutMs: 20_000 },
);
console.log(JSON.stringify(outcomes.map((o) => o.status)));
`,
    );
    tsconfig('nodenext'); // (re)writes the base config
    const compiled = await tsc(config);
    expect(compiled.stdout + compiled.stderr).toBe('');
    const called = await run(process.execPath, [path.join(project, 'build', 'call-slug.js')], { cwd: project, env });
    expect(called.code, called.stderr).toBe(0);
    expect(JSON.parse(called.stdout.trim())).toEqual(['succeeded']);
    expect((await codegen(project, ['remove', slug])).code).toBe(0);
    for (const f of ['deploy.ts', 'call-slug.ts', 'tsconfig.walk.json']) rmSync(path.join(project, f));
  }, 300_000);
});

// after the steps above, on the same project and its oxen-models/
serveTests({ project: () => project, fixture: (id) => ({ ...flux(), id, display_name: id }) });
