/**
 * The package as users get it: `npm pack` (whose `prepack` runs the build), the tarball
 * installed into fresh projects, then
 * - ES module and CommonJS JavaScript consumers run with plain `node` against the local server,
 * - TypeScript consumers (nodenext ESM, node16 CommonJS, bundler) compile valid calls and
 *   `@ts-expect-error` negative cases with the strictest flags and `skipLibCheck: false`,
 * - @arethetypeswrong/cli (`--profile node16`) and publint (`--strict`) find no problem.
 * One pack and one install serve every test of this file; all of it lives in one temporary directory.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type LocalServer } from '../../fake-service/index.ts';
import { REPO_ROOT, run, tempDir, type RunResult } from '../support/index.ts';
import {
  FIXTURES,
  STRICT_FLAGS,
  STRICT_FLAGS_OWN_DECLARATIONS,
  compile,
  formatDiagnostics,
  writeTsProject,
  type Diagnostic,
  type PackResult,
  type ResolutionKind,
} from './helpers.ts';
import { linkInstalled, packedTarballs } from '../support/packed.ts';

const KINDS: ResolutionKind[] = ['nodenext', 'node16', 'bundler'];
// the slow checks (attw, the compiles) start in beforeAll and are awaited by the tests: on a busy machine
// they take longer than vitest's default
const TEST_TIMEOUT_MS = 180_000;
const MODEL_IDS = readdirSync(path.join(REPO_ROOT, 'generated', 'models'))
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.slice(0, -'.ts'.length))
  .sort();

let root: ReturnType<typeof tempDir> | undefined;
let pack: PackResult;
let consumers: string;
let server: LocalServer;
const compiled = new Map<ResolutionKind, Promise<{ diagnostics: Diagnostic[]; output: string }>>();
let attw: Promise<RunResult>;
let shapes: Map<string, string[]>;

/**
 * The models of the installed package grouped by the imports of their files (ES module, CommonJS, both
 * declarations, the browser build), the model's own id written `<id>`: shape -> ids, in MODEL_IDS order.
 * attw's verdict on a `./models/<id>` entry follows from the one `./models/*` export pattern, each file's
 * module kind (its extension) and how each import inside the files resolves, so models of one shape get
 * one verdict; attw reads the first of each (all 111 took about 15 s of CPU).
 */
function importShapes(distDir: string): Map<string, string[]> {
  const imports = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)["']([^"']+)["']/g;
  const byShape = new Map<string, string[]>();
  for (const id of MODEL_IDS) {
    const specifiers = ['.js', '.cjs', '.d.ts', '.d.cts', 'browser']
      .map((ext) => (ext === 'browser' ? `browser/models/${id}.js` : `models/${id}${ext}`))
      .flatMap((file) =>
        [...readFileSync(path.join(distDir, file), 'utf8').matchAll(imports)].map(
          (m) => `${file.replace(id, '<id>')}: ${m[1]!.split(id).join('<id>')}`,
        ),
      );
    const shape = [...new Set(specifiers)].sort().join('\n');
    byShape.set(shape, [...(byShape.get(shape) ?? []), id]);
  }
  return byShape;
}

beforeAll(async () => {
  root = tempDir('inference-sdk-package-');
  server = await startServer();
  pack = (await packedTarballs()).sdk;
  consumers = path.join(root.dir, 'consumers');
  await linkInstalled(consumers, 'sdk', { name: 'consumers', version: '0.0.0', private: true });
  const typed = readFileSync(path.join(FIXTURES, 'typed.ts.txt'), 'utf8');
  // the slow checks start here and run while the first tests do
  const attwCli = path.join(REPO_ROOT, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js');
  shapes = importShapes(path.join(consumers, 'node_modules', 'oxen-inference-sdk', 'dist'));
  const entrypoints = [...shapes.values()].map((ids) => `models/${ids[0]!}`);
  attw = run(
    process.execPath,
    [attwCli, pack.tarball, '--profile', 'node16', '--format', 'json', '--include-entrypoints', ...entrypoints],
    { cwd: root.dir },
  );
  // nodenext with every lib file checked, as a user's skipLibCheck: false does; the others check all but
  // TypeScript's own lib files (STRICT_FLAGS_OWN_DECLARATIONS)
  for (const kind of KINDS) {
    const flags = kind === 'nodenext' ? STRICT_FLAGS : STRICT_FLAGS_OWN_DECLARATIONS;
    compiled.set(kind, compile(writeTsProject(consumers, kind, { 'typed.ts': typed }, flags)));
  }
}, 300_000);

afterAll(async () => {
  await server?.close();
  // let running compiles finish before their files go
  await Promise.allSettled([...compiled.values(), attw]);
  root?.remove();
});

describe('the tarball', { timeout: TEST_TIMEOUT_MS }, () => {
  test('ships dist/, package.json, README.md, LICENSE, CHANGELOG.md and the model reference, nothing else', () => {
    const outside = pack.files.filter((f) => !f.startsWith('dist/'));
    expect(outside).toEqual(['CHANGELOG.md', 'LICENSE', 'README.md', 'generated/MODELS.md', 'package.json']);
    // JavaScript and declarations of both formats for the root, ./runtime, ./node, ./chat and every model
    for (const entry of [
      'index',
      'runtime/index',
      'node/index',
      'chat/index',
      'validator-support',
      ...MODEL_IDS.map((id) => `models/${id}`),
    ]) {
      for (const ext of ['.js', '.cjs', '.d.ts', '.d.cts'])
        expect(pack.files, `dist/${entry}${ext}`).toContain(`dist/${entry}${ext}`);
      // the browser build (the `browser` export condition) of every entry but the Node-only one
      if (entry === 'node/index') expect(pack.files).not.toContain(`dist/browser/${entry}.js`);
      else expect(pack.files, `dist/browser/${entry}.js`).toContain(`dist/browser/${entry}.js`);
    }
    expect(pack.files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.endsWith('.d.cts'))).toEqual([]);
  });

  test('depends only on what the built JavaScript imports, and on packages of types its declarations import', () => {
    const distDir = path.join(consumers, 'node_modules', 'oxen-inference-sdk', 'dist');
    const imported = { esm: new Set<string>(), cjs: new Set<string>(), types: new Set<string>() };
    const walk = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
      );
    for (const file of walk(distDir)) {
      const format = /\.d\.c?ts$/.test(file)
        ? 'types'
        : file.endsWith('.cjs')
          ? 'cjs'
          : file.endsWith('.js')
            ? 'esm'
            : undefined;
      if (!format) continue;
      const text = readFileSync(file, 'utf8');
      // in declarations, only statements and import types: their doc comments show example imports
      const pattern =
        format === 'types'
          ? /(?:^\s*(?:import|export)\s[^;]*?\bfrom\s*|\bimport\(\s*)["']([^"'.][^"']*)["']/gm
          : /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^import\s+)["']([^"'.][^"']*)["']/gm;
      for (const m of text.matchAll(pattern)) {
        if (!m[1]!.startsWith('node:')) imported[format].add(packageName(m[1]!)); // Node built-ins (the ./node entry) are no dependency
      }
    }
    const dependencies = Object.keys(pack.manifest.dependencies ?? {}).sort();
    // every bare import of the built code is a dependency, and every dependency is imported: by the
    // JavaScript, or (@standard-schema/spec, whose interfaces the models' schema objects implement) by
    // the declarations only, so that nothing of it runs
    expect([...new Set([...imported.esm, ...imported.types])].sort()).toEqual(dependencies);
    expect(imported.esm.has('@standard-schema/spec') || imported.cjs.has('@standard-schema/spec')).toBe(false);
    for (const name of imported.cjs) expect(dependencies).toContain(name);
    // p-retry is ESM-only: the CommonJS build carries its own copy instead of require('p-retry')
    expect(imported.cjs.has('p-retry')).toBe(false);
  });

  // what lets most consumer compiles leave TypeScript's own lib files unchecked (STRICT_FLAGS_OWN_DECLARATIONS):
  // a declaration that adds to the global scope could make them fail
  test('every declaration file is a module that declares nothing global', () => {
    const distDir = path.join(consumers, 'node_modules', 'oxen-inference-sdk', 'dist');
    const declarations = readdirSync(distDir, { recursive: true, encoding: 'utf8' }).filter((f) =>
      /\.d\.c?ts$/.test(f),
    );
    expect(declarations.length).toBeGreaterThan(MODEL_IDS.length * 2);
    for (const file of declarations) {
      const source = ts.createSourceFile(file, readFileSync(path.join(distDir, file), 'utf8'), ts.ScriptTarget.Latest);
      expect(ts.isExternalModule(source), file).toBe(true);
      const global = source.statements.filter(
        (s) => ts.isModuleDeclaration(s) && (s.flags & ts.NodeFlags.GlobalAugmentation) !== 0,
      );
      expect(global.length, `${file}: declare global`).toBe(0);
    }
  });

  test('the root entry loads no validator code until it is needed (dynamic import in both formats)', () => {
    const distDir = path.join(consumers, 'node_modules', 'oxen-inference-sdk', 'dist');
    const validators = readdirSync(path.join(REPO_ROOT, 'generated', 'validators')).filter((f) =>
      f.endsWith('.ts'),
    ).length;
    // ajv's standalone code: every generated validator records the schema path of each error
    const isValidator = (file: string): boolean => readFileSync(file, 'utf8').includes('schemaPath:');
    const formats = {
      esm: {
        entry: 'index.js',
        staticImport:
          /^import\s[^;]*?from\s*["'](\.\.?\/[^"']+)["']|^import\s*["'](\.\.?\/[^"']+)["']|^export\s[^;]*?from\s*["'](\.\.?\/[^"']+)["']/gm,
        dynamicImport: /\bimport\(\s*["'](\.\.?\/[^"']+)["']\s*\)/g,
      },
      cjs: {
        entry: 'index.cjs',
        staticImport:
          /^(?:var|const|let)\s+[\w$]+\s*=\s*require\(["'](\.\.?\/[^"']+)["']\)|^require\(["'](\.\.?\/[^"']+)["']\)/gm,
        // a lazy chunk is an import() (a .cjs file imports fine) or a require() deferred by a promise, as
        // rolldown writes it: `Promise.resolve().then(() => require("./chunks/...cjs"))`
        dynamicImport:
          /\bimport\(\s*["'](\.\.?\/[^"']+)["']\s*\)|\bthen\((?:function\s*\(\)\s*\{\s*return|\(\)\s*=>)\s*(?:[\w$]+\()?require\(["'](\.\.?\/[^"']+)["']\)/g,
      },
    };
    for (const [format, { entry, staticImport, dynamicImport }] of Object.entries(formats)) {
      /** The files loaded when `file` is imported: its static import closure. */
      const closure = (file: string, seen = new Set<string>()): Set<string> => {
        if (seen.has(file)) return seen;
        seen.add(file);
        for (const m of readFileSync(file, 'utf8').matchAll(staticImport))
          closure(path.resolve(path.dirname(file), (m[1] ?? m[2] ?? m[3])!), seen);
        return seen;
      };
      const loaded = closure(path.join(distDir, entry));
      expect(
        [...loaded].filter(isValidator).map((f) => path.relative(distDir, f)),
        `${format}: validator code loaded with ${entry}`,
      ).toEqual([]);
      const lazyOf = (files: string[]): string[] =>
        files.flatMap((f) =>
          [...readFileSync(f, 'utf8').matchAll(dynamicImport)].map((m) =>
            path.resolve(path.dirname(f), (m[1] ?? m[2])!),
          ),
        );
      // two steps on demand: the table of loaders (generated/validator-table.ts), then each validator
      const table = lazyOf([...loaded]);
      const lazy = [...table, ...lazyOf(table.flatMap((f) => [...closure(f)]))];
      const lazyValidators = new Set(lazy.filter((f) => [...closure(f)].some(isValidator)));
      expect(lazyValidators.size, `${format}: validators ${entry} loads on demand`).toBeGreaterThanOrEqual(validators);
    }
  });

  test('the browser-safe entries (root, ./runtime, ./models/*, and their browser builds) load no node: module and nothing of ./node, even on demand', () => {
    const distDir = path.join(consumers, 'node_modules', 'oxen-inference-sdk', 'dist');
    // every relative import, static or dynamic, in either format
    const relative = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^import\s+)["'](\.\.?\/[^"']+)["']/gm;
    const builtin = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^import\s+)["']node:[^"']+["']/m;
    const closure = (file: string, seen = new Set<string>()): Set<string> => {
      if (seen.has(file)) return seen;
      seen.add(file);
      for (const m of readFileSync(file, 'utf8').matchAll(relative))
        closure(path.resolve(path.dirname(file), m[1]!), seen);
      return seen;
    };
    const nodeEntry = readFileSync(path.join(distDir, 'node', 'index.js'), 'utf8');
    expect(nodeEntry).toMatch(builtin); // the check below can see a node: import
    for (const ext of ['.js', '.cjs']) {
      const entries = [
        'index',
        'runtime/index',
        'chat/index',
        'validator-support',
        ...MODEL_IDS.map((id) => `models/${id}`),
      ].flatMap((e) => [
        path.join(distDir, `${e}${ext}`),
        ...(ext === '.js' ? [path.join(distDir, 'browser', `${e}.js`)] : []),
      ]);
      const loaded = new Set<string>();
      for (const entry of entries) closure(entry, loaded);
      const offending = [...loaded].filter(
        (f) => f.startsWith(path.join(distDir, 'node') + path.sep) || builtin.test(readFileSync(f, 'utf8')),
      );
      expect(
        offending.map((f) => path.relative(distDir, f)),
        ext,
      ).toEqual([]);
    }
  });

  test(
    '@arethetypeswrong/cli --profile node16 finds no problem in any entry point (for ./models/*, one model of each import shape)',
    { timeout: 2 * TEST_TIMEOUT_MS },
    async () => {
      const result = await attw;
      const report = JSON.parse(result.stdout) as {
        analysis: { entrypoints: Record<string, unknown> };
        problems?: unknown;
      };
      const problems = Array.isArray(report.problems) ? report.problems : Object.values(report.problems ?? {}).flat();
      expect(problems).toEqual([]);
      const models = [...shapes.values()].map((ids) => `./models/${ids[0]!}`);
      expect(Object.keys(report.analysis.entrypoints)).toEqual(
        expect.arrayContaining(['.', './runtime', './node', './package.json', ...models]),
      );
      // every model is in a shape, and the shapes tell apart what differs (a queue model with its validator,
      // a chat model, a model with no call of its own)
      expect([...shapes.values()].flat().sort()).toEqual(MODEL_IDS);
      expect(shapes.size).toBeGreaterThan(1);
      expect(result.code).toBe(0);
    },
  );

  test('publint --strict reports nothing', async () => {
    const { publint } = await import('publint');
    const { formatMessage } = await import('publint/utils');
    const tarball = readFileSync(pack.tarball);
    const { messages, pkg } = await publint({
      pack: { tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength) },
      strict: true,
      level: 'suggestion',
    });
    expect(messages.map((m) => `${m.type}: ${formatMessage(m, pkg) ?? m.code}`)).toEqual([]);
  });
});

describe('JavaScript consumers against the local server', { timeout: TEST_TIMEOUT_MS }, () => {
  for (const [kind, file] of [
    ['ES module', 'esm.mjs'],
    ['CommonJS', 'cjs.cjs'],
  ] as const) {
    test(`${kind}: root Client (images, queue.run), per-model functions on the Client and on a transport, typed errors, the proxy behind the Node adapter`, async () => {
      const dir = path.join(consumers, kind === 'CommonJS' ? 'js-cjs' : 'js-esm');
      const script = path.join(dir, file);
      writeProject(dir, kind === 'CommonJS' ? 'commonjs' : 'module', file);
      // CommonJS without require(esm) (as on Node 20 before 20.19): every ESM-only dependency must be bundled
      const noRequireEsm =
        kind === 'CommonJS' && process.allowedNodeEnvironmentFlags.has('--no-experimental-require-module')
          ? ['--no-experimental-require-module']
          : [];
      const result = await run(process.execPath, [...noRequireEsm, script], {
        cwd: dir,
        env: { PATH: process.env['PATH'] ?? '', OXEN_BASE_URL: server.url, OXEN_API_KEY: 'test-key' },
        timeoutMs: 60_000,
      });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const seen = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
      expect(seen).toMatchObject({
        imageUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//),
        b64Type: 'string',
        outcomes: ['succeeded', 'succeeded'],
        outcomeUrls: ['string', 'string'],
        directUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//),
        viaTransportType: 'string',
        notFound: { name: 'NotFoundError', status: 404, isNotFound: true, isAPIError: true },
        unauthorized: { name: 'AuthenticationError', status: 401, isAuthentication: true, isAPIError: true },
        invalid: { name: 'ValidationError', isValidation: true, pointers: ['/aspect_ratio'] },
        sameClasses: true,
        // oxen-inference-sdk/node: createProxyHandler behind createNodeProxyListener adds the key (the list needs one)
        proxied: { status: 200 },
      });
      expect(result.stdout).not.toContain('test-key');
    });
  }
});

describe('both copies in one process', { timeout: TEST_TIMEOUT_MS }, () => {
  test('an error of the ES module copy is instanceof the classes of the CommonJS copy, and the reverse, as of its own', async () => {
    const dir = path.join(consumers, 'js-dual');
    writeProject(dir, 'module', 'dual.mjs');
    const result = await run(process.execPath, [path.join(dir, 'dual.mjs')], {
      cwd: dir,
      env: { PATH: process.env['PATH'] ?? '', OXEN_BASE_URL: server.url, OXEN_API_KEY: 'test-key' },
      timeoutMs: 60_000,
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const seen = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(seen['twoCopies']).toBe(true);
    expect(seen['classNames']).toEqual(expect.arrayContaining(['APIError', 'SDKError', 'QueueRunTimeoutError']));
    expect(seen['disagreements']).toEqual([]);
    for (const copy of ['esm', 'cjs'])
      expect(seen['memberships']).toMatchObject({
        [`${copy} notFound`]: ['APIError', 'NotFoundError', 'SDKError'],
        [`${copy} unauthorized`]: ['APIError', 'AuthenticationError', 'SDKError'],
        [`${copy} invalid`]: ['SDKError', 'ValidationError'],
        [`${copy} runTimeout`]: ['APIError', 'QueueRunTimeoutError', 'SDKError', 'TimeoutError'],
        [`${copy} outputExpired`]: ['APIError', 'OutputExpiredError', 'SDKError'],
      });
    // a user's subclass of the ES module's APIError is an APIError of both copies; no package error is one of it
    expect(seen['mine']).toEqual({
      ofCjsAPIError: true,
      ofCjsSDKError: true,
      ofCjsNotFound: false,
      cjsNotFoundOfMine: false,
    });
    expect(seen['notErrorsOfAny']).toBe(0);
    expect(seen['names']).toEqual(['NotFoundError', 'ValidationError']);
  });
});

describe('the browser export condition', { timeout: TEST_TIMEOUT_MS }, () => {
  const runConditions = async (conditions: string[]) => {
    const dir = path.join(consumers, 'js-conditions');
    writeProject(dir, 'module', 'conditions.mjs');
    const result = await run(process.execPath, [...conditions, path.join(dir, 'conditions.mjs')], {
      cwd: dir,
      env: { PATH: process.env['PATH'] ?? '', OXEN_BASE_URL: server.url, OXEN_API_KEY: 'test-key' },
      timeoutMs: 60_000,
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('test-key');
    return JSON.parse(result.stdout.trim().split('\n').at(-1)!) as Record<string, unknown> & { inspected: string };
  };
  const notFound = {
    classes: [true, true, true],
    sameClasses: true,
    fields: {
      name: 'NotFoundError',
      status: 404,
      request: { method: 'GET', path: '/api/ai/queue/no-such-generation' },
    },
    json: expect.objectContaining({ name: 'NotFoundError', status: 404, headers: expect.any(Object) }),
  };

  test('a browser bundler gets dist/browser/: the same classes, fields and toJSON, without the util.inspect hook', async () => {
    const seen = await runConditions(['--conditions=browser']);
    expect(seen).toMatchObject({
      files: ['dist/browser/index.js', 'dist/browser/runtime/index.js', 'dist/browser/models/flux-2-pro.js'],
      imageUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//),
      ...notFound,
      hasInspectHook: false,
    });
  });

  test('Node (no browser condition) gets dist/ with the util.inspect hook: the stack, then the fields', async () => {
    const seen = await runConditions([]);
    expect(seen).toMatchObject({
      files: ['dist/index.js', 'dist/runtime/index.js', 'dist/models/flux-2-pro.js'],
      ...notFound,
      hasInspectHook: true,
    });
    expect(seen.inspected).toMatch(/^NotFoundError: [^\n]*\n\s+at /);
    expect(seen.inspected).toMatch(/status: 404/);
  });
});

describe(
  'TypeScript consumers (strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess, skipLibCheck: false; TypeScript lib files checked for nodenext)',
  { timeout: TEST_TIMEOUT_MS },
  () => {
    for (const kind of KINDS) {
      test(`${kind}: valid calls compile, every negative case is an error, the package's declarations have none`, async () => {
        const { diagnostics } = await compiled.get(kind)!;
        expect(formatDiagnostics(diagnostics)).toBe('');
      });
    }
  },
);

/** The package name of a bare import specifier (`@scope/name/sub` → `@scope/name`). */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

function writeProject(dir: string, type: 'module' | 'commonjs', file: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: path.basename(dir), private: true, type }, null, 2),
  );
  writeFileSync(path.join(dir, file), readFileSync(path.join(FIXTURES, file), 'utf8'));
}
