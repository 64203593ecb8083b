/**
 * A model object is untrusted data: the payloads found by the fuzzer stay data in every
 * generated file, unsupported JSON Schema features and ids outside the documented character set
 * are refused with a SpecError naming file, model and JSON pointer, and a write that fails midway
 * leaves generated/ as it was, with no temporary file.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';
import { generate } from '../../generator/index.ts';
import { SpecError } from '../../generator/errors.ts';
import { write, type WriteFs } from '../../generator/stages/write.ts';
import { writeFile } from 'node:fs/promises';
import { fixtureModel, tempSpecs, type TempSpecs } from './helpers.ts';
import { hashTree } from '../support/index.ts';

let temps: TempSpecs[] = [];
afterEach(async () => {
  await Promise.all(temps.map((t) => t.cleanup()));
  temps = [];
});

/** Identifiers and other code nodes whose text contains `sentinel` (comments and string contents are not nodes). */
function codeMentions(file: string, text: string, sentinel: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const parse = (sf as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
  expect(
    parse.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')),
    file,
  ).toEqual([]);
  const found: string[] = [];
  const visit = (n: ts.Node): void => {
    if ((ts.isIdentifier(n) || ts.isPrivateIdentifier(n)) && n.text.includes(sentinel)) found.push(n.text);
    n.forEachChild(visit);
  };
  visit(sf);
  return found;
}

async function run(id: string, model: Record<string, unknown>) {
  const t = await tempSpecs([], { [id]: model });
  temps.push(t);
  const r = await generate({ specsDir: t.specsDir, outRoot: t.root });
  return { t, r };
}

async function refusal(id: string, model: unknown, list?: unknown[]): Promise<SpecError> {
  const t = await tempSpecs([], { [id]: model });
  temps.push(t);
  if (list) await writeFile(path.join(t.specsDir, 'models.json'), JSON.stringify(list));
  const err = await generate({ specsDir: t.specsDir, outRoot: t.root }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SpecError);
  expect(hashTree(path.join(t.root, 'generated'))).toEqual({});
  return err as SpecError;
}

const PAYLOAD =
  'x*/y*/ } export const INJECTED = (globalThis as any).console.log("INJECTED CODE RAN at import"); export interface Z { /*';
/**
 * The same, as a valid regular expression (a patternProperties key is one) that matches in linear
 * time: anchored, its stars escaped (`\*` still ends a comment). The report's own key, unanchored
 * `x*` then `/`, takes quadratic time and is refused (test/generator/patterns.test.ts).
 */
const PATTERN =
  '^x\\*/y\\*/ export const INJECTED = (globalThis as any).console.log("INJECTED CODE RAN at import"); /\\*';

describe('hostile model objects stay data', () => {
  it(
    'the patternProperties key of the report, [k: string] property names, `*/` in enums, and nested __proto__',
    { timeout: 60_000 },
    async () => {
      const schema = {
        type: 'object',
        required: ['prompt', '[k: string]'],
        properties: {
          prompt: { type: 'string', description: PAYLOAD },
          '[k: string]': { type: 'string' },
          '[j: string]': { type: 'number' },
          paths: { type: 'string', enum: ['C:\\', 'image/*', PAYLOAD, '\u2028\u2029\r'] },
          meta: {
            type: 'object',
            properties: { __proto__: { type: 'string' }, a: { type: 'integer' } },
            patternProperties: { [PATTERN]: { type: 'string' } },
            additionalProperties: { type: 'boolean' },
          },
          open: { type: 'object', patternProperties: { [PATTERN]: { type: 'string' } } },
        },
      };
      // (`__proto__` in the literal above set a prototype; JSON.parse makes it an own key, as the service's JSON would)
      const text0 = JSON.stringify(
        fixtureModel('evil', schema, { description: PAYLOAD, display_name: PAYLOAD }),
      ).replace('"properties":{"a"', '"properties":{"__proto__":{"type":"string"},"a"');
      expect(text0).toContain('"__proto__"');
      const { t } = await run('evil', JSON.parse(text0) as Record<string, unknown>);
      const generated = hashTree(path.join(t.root, 'generated'));
      for (const file of Object.keys(generated).filter((f) => f.endsWith('.ts'))) {
        const text = await readFile(path.join(t.root, 'generated', file), 'utf8');
        expect(codeMentions(file, text, 'INJECTED'), file).toEqual([]);
      }
      const text = await readFile(path.join(t.root, 'generated/models/evil.ts'), 'utf8');
      // a property named [k: string] is a quoted key, never an index signature; the interface stays closed
      expect(text).toMatch(/'\[k: string\]': string;/);
      expect(text).toMatch(/'\[j: string\]'\?: number;/);
      expect(text).not.toMatch(/^\s+\[k: string\]: string;/m);
      // an object that the schema opens (patternProperties, additionalProperties) takes any key, typed unknown
      expect(text).toMatch(/meta\?: \{[^}]*\[k: string\]: unknown;/s);
      // the enum values are string literal types, escaped
      expect(text).toMatch(/'C:\\\\'\s*\|\s*'image\/\*'/);
      expect(text).toContain(`'\\u2028\\u2029\\r'`);
      // the nested __proto__ property is kept as data in the schema const (computed key), and typed
      expect(text).toMatch(/\['__proto__'\]: \{\s*type: 'string',/);
      expect(text).toMatch(/\s'?__proto__'?\?: string;/); // a property name in an interface is only a name
    },
  );

  it('a chat model whose schema is not null gets its schema as its parameter type', { timeout: 60_000 }, async () => {
    const schema = {
      type: 'object',
      required: ['messages'],
      properties: { messages: { type: 'array', items: { type: 'object' } }, temperature: { type: 'number' } },
    };
    const { t } = await run(
      'chatty',
      fixtureModel('chatty', schema, {
        endpoint: '/chat/completions',
        capabilities: { input: ['text'], output: ['text'] },
      }),
    );
    const text = await readFile(path.join(t.root, 'generated/models/chatty.ts'), 'utf8');
    expect(text).toMatch(/export function chattyCreateChatCompletion\(\s*client: Transport,\s*params: ChattyParams,/);
    expect(text).toContain("return createChatCompletion(client, { ...params, model: 'chatty' }, options);");
  });
});

describe('unsupported input is refused with a named SpecError', () => {
  const schema = (extra: Record<string, unknown>) => ({
    type: 'object',
    properties: { prompt: { type: 'string' } },
    ...extra,
  });
  it('another JSON Schema dialect', async () => {
    const e = await refusal(
      'm',
      fixtureModel('m', schema({ $schema: 'https://json-schema.org/draft/2020-12/schema' })),
    );
    expect(e.file).toMatch(/specs\/models\/m\.json$/);
    expect([e.model, e.pointer]).toEqual(['m', '/request_schema/$schema']);
    expect(e.problem).toMatch(/dialect .* is not supported: only draft-07/);
  });
  it('a draft-07 $schema is accepted', { timeout: 60_000 }, async () => {
    const { r } = await run('m', fixtureModel('m', schema({ $schema: 'http://json-schema.org/draft-07/schema#' })));
    expect(r.models).toBe(1);
  });
  it('a remote, a malformed and a recursive $ref', async () => {
    expect(
      (await refusal('m', fixtureModel('m', schema({ properties: { a: { $ref: 'https://example.com/s.json' } } }))))
        .problem,
    ).toMatch(/remote \$ref/);
    expect((await refusal('m', fixtureModel('m', schema({ properties: { a: { $ref: '#/%E0%A4%A' } } })))).pointer).toBe(
      '/request_schema/properties/a/$ref',
    );
    const rec = await refusal(
      'm',
      fixtureModel(
        'm',
        schema({
          definitions: { node: { type: 'object', properties: { next: { $ref: '#/definitions/node' } } } },
          properties: { a: { $ref: '#/definitions/node' } },
        }),
      ),
    );
    expect(rec.problem).toMatch(/recursive \$ref/);
  });
  it('the patternProperties key of the report: not a regular expression', async () => {
    const e = await refusal('m', fixtureModel('m', schema({ patternProperties: { [PAYLOAD]: { type: 'string' } } })));
    expect(e.pointer).toMatch(/^\/request_schema\/patternProperties\//);
    expect(e.problem).toBe('a patternProperties key is not a valid regular expression (ECMA-262, unicode mode)');
  });
  it('nesting deeper than the limit, without a stack overflow', async () => {
    const n = 20_000; // written as text: JSON.stringify itself would overflow on it
    const deep = `${'{"type":"object","properties":{"a":'.repeat(n)}{"type":"string"}${'}}'.repeat(n)}`;
    const e = await refusal(
      'm',
      `{"id":"m","capabilities":{"input":["text"],"output":["image"]},"request_schema":${deep}}`,
    );
    expect(e.problem).toMatch(/nested deeper than 64 levels/);
    expect(e.pointer).toMatch(/^\/request_schema(\/properties\/a)+/);
  });
  it('model ids outside the documented character set, named in the error', async () => {
    for (const id of ['a\rb', 'a#b', 'a?b', 'a%b', 'a\nb', '__proto__', 'a..b', 'x'.repeat(129), 'a b']) {
      const e = await refusal('ok', fixtureModel('ok', schema({})), [id]);
      expect(e.file).toMatch(/specs\/models\.json$/);
      expect(e.problem).toContain(JSON.stringify(id));
      expect(e.problem).toMatch(/letters, digits|cannot contain/);
    }
  });
  it('a lone surrogate in a property name (JSON can carry it, no UTF-8 file can hold it)', async () => {
    const e = await refusal(
      'm',
      '{"id":"m","capabilities":{"input":["text"],"output":["image"]},"request_schema":{"type":"object","properties":{"a\\ud800":{"type":"string"}}}}',
    );
    expect(e.pointer).toBe('/request_schema/properties/a\uFFFD');
    expect(e.problem).toMatch(/not well-formed Unicode/);
  });
  it('required: ["toString"] is a property that is not defined', async () => {
    const e = await refusal('m', fixtureModel('m', schema({ required: ['toString'] })));
    expect([e.pointer, e.problem]).toEqual([
      '/request_schema/required/0',
      'required property "toString" is not in properties',
    ]);
  });
});

describe('write is all or nothing', () => {
  it('a write that fails midway leaves the tree byte-identical, with no temporary file', async () => {
    const t = await tempSpecs([]);
    temps.push(t);
    const root = t.root;
    await mkdir(path.join(root, 'generated'), { recursive: true });
    await writeFile(path.join(root, 'generated/a.ts'), 'old a\n');
    await writeFile(path.join(root, 'generated/b.ts'), 'old b\n');
    await writeFile(path.join(root, 'generated/stale.ts'), 'stale\n');
    const before = hashTree(root);
    let writes = 0;
    const failing: WriteFs = {
      writeFile: async (f, text) => {
        if (++writes === 2) throw Object.assign(new Error('EIO: simulated'), { code: 'EIO' });
        await writeFile(f, text);
      },
    };
    const files = new Map([
      ['generated/a.ts', 'new a\n'],
      ['generated/b.ts', 'new b\n'],
      ['generated/c.ts', 'new c\n'],
    ]);
    await expect(write(files, root, { fs: failing })).rejects.toThrow('EIO: simulated');
    expect(hashTree(root)).toEqual(before);
    // and the same write without the fault does it all
    await write(files, root);
    expect(Object.keys(hashTree(path.join(root, 'generated'))).sort()).toEqual(['a.ts', 'b.ts', 'c.ts']);
  });
});
