/**
 * The operations table (generator/stages/operations.ts): derived from specs/openapi.yaml, checked
 * (SpecError with file and JSON pointer), written as runtime/operations.ts (printed by the
 * generator's printer, formatted by prettier), and the one source of method and path: the endpoint
 * docs name operations it has, the runtime uses every operation through it and writes no API path
 * of its own, the proxy forwards exactly its operations and the local server routes every one of
 * them.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../../generator/index.ts';
import { SpecError } from '../../generator/errors.ts';
import type { OpenApiDoc } from '../../generator/stages/load.ts';
import { ENDPOINT_DOCS } from '../../generator/stages/endpoint-docs.ts';
import { operationsOf } from '../../generator/stages/operations.ts';
import { RUNTIME_OPERATIONS_FILE } from '../../generator/output/target.ts';
import { OPERATIONS } from '../../runtime/operations.ts';
import { OPERATION_ROUTES } from '../../runtime/proxy/routes.ts';
import { startServer } from '../../fake-service/index.ts';
import { REPO_ROOT } from '../support/index.ts';
import { repositoryOperations } from './helpers.ts';

/** A description holding only `paths` (and parameter components). */
const docOf = (paths: Record<string, unknown>, parameters: Record<string, unknown> = {}): OpenApiDoc =>
  ({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths, components: { parameters } }) as OpenApiDoc;
const op = (operationId: string, extra: Record<string, unknown> = {}) => ({ operationId, responses: {}, ...extra });
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };

/** The SpecError `f` throws. */
function specError(f: () => unknown): SpecError {
  try {
    f();
  } catch (err) {
    if (err instanceof SpecError) return err;
    throw err;
  }
  throw new Error('expected a SpecError');
}

describe('operationsOf', () => {
  it('gives each operation its method, path template, path and query parameters, a literal path before a template it shadows', async () => {
    const table = await repositoryOperations();
    expect(table.get('fineTunesDeploy')).toEqual({
      id: 'fineTunesDeploy',
      method: 'POST',
      path: '/api/repos/{namespace}/{repo_name}/fine_tunes/{id}/deploy',
      pathParams: ['namespace', 'repo_name', 'id'],
      query: [],
    });
    expect(table.get('modelsRetrieve')?.query).toEqual(['deployment_status']);
    expect(table.get('modelsSearch')?.query).toEqual(['search']);
    const ids = [...table.keys()];
    expect(ids.indexOf('modelsSearch')).toBeLessThan(ids.indexOf('modelsRetrieve'));
    // otherwise the description's order
    expect(ids.slice(0, 4)).toEqual(['chatCompletionsCreate', 'imagesGenerate', 'imagesEdit', 'videosGenerate']);
  });

  it('orders a shadowing operation before the one it shadows, whatever the description’s order', () => {
    const table = operationsOf(
      docOf({
        '/m/{id}': { parameters: [idParam], get: op('get') },
        '/m/{id}/x': { parameters: [idParam], post: op('x') },
        '/m/search': { get: op('search') },
      }),
      'x.yaml',
    );
    expect([...table.keys()]).toEqual(['search', 'get', 'x']);
  });

  it('refuses what the runtime cannot send, naming the file and the JSON pointer', () => {
    const dup = specError(() =>
      operationsOf(docOf({ '/a': { get: op('same') }, '/b': { get: op('same') } }), 'x.yaml'),
    );
    expect(dup.message).toBe('x.yaml at /paths/~1b/get/operationId: operationId same is used twice');
    expect(specError(() => operationsOf(docOf({ '/a': { put: op('p') } }), 'x.yaml')).pointer).toBe('/paths/~1a/put');
    expect(specError(() => operationsOf(docOf({ '/a': { get: op('bad-id') } }), 'x.yaml')).problem).toMatch(
      /operationId must match/,
    );
    const mismatch = specError(() => operationsOf(docOf({ '/a/{id}': { get: op('g') } }), 'x.yaml'));
    expect(mismatch.problem).toContain('template: id; listed: none');
    const ref = specError(() =>
      operationsOf(
        docOf({ '/a/{id}': { get: op('g', { parameters: [{ $ref: '#/components/parameters/Nope' }] }) } }),
        'x.yaml',
      ),
    );
    expect(ref.problem).toContain('#/components/parameters/Nope');
    for (const bad of ['/a b', '/a/{id}x', "/a/'b"])
      expect(specError(() => operationsOf(docOf({ [bad]: { get: op('g') } }), 'x.yaml')).file).toBe('x.yaml');
  });
});

describe('runtime/operations.ts', () => {
  it('is what the generator makes from specs/openapi.yaml, as prettier prints it', { timeout: 60_000 }, async () => {
    const r = await generate({ check: true, runtime: true });
    const text = r.files.get(RUNTIME_OPERATIONS_FILE)!;
    expect(text).toContain('export const OPERATIONS = {');
    expect(r.changed).not.toContain(RUNTIME_OPERATIONS_FILE);
    expect(await readFile(path.join(REPO_ROOT, RUNTIME_OPERATIONS_FILE), 'utf8')).toBe(text);
    const prettier = await import('prettier');
    const config = JSON.parse(await readFile(path.join(REPO_ROOT, '.prettierrc.json'), 'utf8')) as object;
    expect(await prettier.format(text, { ...config, filepath: RUNTIME_OPERATIONS_FILE })).toBe(text);
    expect(Object.keys(OPERATIONS)).toEqual([...r.operations.keys()]);
  });
});

/** Every `.ts` file under `dir`, relative to the repository. */
async function tsFiles(dir: string): Promise<string[]> {
  const entries = await readdir(path.join(REPO_ROOT, dir), { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.relative(REPO_ROOT, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
}

describe('one source of method and path', () => {
  it('the endpoint docs name only operations of the description, and cover every one', async () => {
    const table = await repositoryOperations();
    const documented = new Set(Object.values(ENDPOINT_DOCS).map((d) => d.operation));
    expect([...documented].filter((id) => !table.has(id))).toEqual([]);
    // the event stream is documented by hand (`events.stream`: many events, not one answer)
    expect([...table.keys()].filter((id) => !documented.has(id))).toEqual(['eventsStream']);
  });

  it('the runtime performs every operation through the table and writes no API path itself', async () => {
    const files = (await tsFiles('runtime')).filter((f) => f !== RUNTIME_OPERATIONS_FILE);
    const code = new Map(
      await Promise.all(files.map(async (f) => [f, await readFile(path.join(REPO_ROOT, f), 'utf8')] as const)),
    );
    const all = [...code.values()].join('\n');
    for (const id of Object.keys(OPERATIONS))
      expect(new RegExp(`\\bops\\.${id}\\b|\\b${id}\\.(method|path)\\b`).test(all), id).toBe(true);
    // no API path in a string literal (comments aside)
    const literal = /['`]\/api\/[^'`]*['`]/;
    const offenders = files.filter((f) =>
      code
        .get(f)!
        .split('\n')
        .some((line) => !/^\s*(\*|\/\/|\/\*)/.test(line) && literal.test(line)),
    );
    expect(offenders).toEqual([]);
  });

  it('the proxy forwards exactly the operations, each template a pattern of its own', () => {
    const ops = Object.values(OPERATIONS);
    expect(OPERATION_ROUTES.map((r) => r.method)).toEqual(ops.map((o) => o.method));
    for (const [i, o] of ops.entries()) {
      const sample = o.path.replace(/\{\w+\}/g, 'x1');
      expect(OPERATION_ROUTES[i]!.pattern.test(sample), o.path).toBe(true);
      expect(OPERATION_ROUTES[i]!.pattern.test(`${sample}/more`), o.path).toBe(false);
      expect(OPERATION_ROUTES[i]!.query).toEqual(o.query);
    }
  });

  it('the local server routes every operation (no "No route", no 405)', { timeout: 30_000 }, async () => {
    const server = await startServer({ workerDelayMs: 5 });
    try {
      for (const o of Object.values(OPERATIONS)) {
        if (o.path === '/api/events') continue; // an endless stream: routed, see test/runtime/events.test.ts
        const res = await fetch(`${server.url}${o.path.replace(/\{\w+\}/g, 'x1')}`, {
          method: o.method,
          headers: { authorization: 'Bearer test-key' },
        });
        const text = await res.text();
        expect(res.status, `${o.method} ${o.path}`).not.toBe(405);
        expect(text, `${o.method} ${o.path}`).not.toContain('No route');
      }
    } finally {
      await server.close();
    }
  });
});
