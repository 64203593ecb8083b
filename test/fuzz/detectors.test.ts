// The fuzzer's own checks (fuzz/): the injection scan, the named-refusal rule, the batched
// compile, case reproducibility and the case writer. Each is shown to fire on a bad input and to
// stay quiet on a good one, so that a zero in `npm run fuzz` means something.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { SpecError } from '../../generator/errors.ts';
import { contentText, writeCase } from '../../fuzz/case.ts';
import { buildCase, FAMILIES, familyOf, ORDER } from '../../fuzz/cases.ts';
import { compileCases, compilerOptions, findInjections } from '../../fuzz/compile.ts';
import { caseIndices } from '../../fuzz/run.ts';
import { namedRefusalProblem } from '../../fuzz/verdict.ts';
import { tempDir } from '../support/index.ts';

const dirs: Array<{ remove(): void }> = [];
const temp = () => {
  const d = tempDir('fuzz-detectors-');
  dirs.push(d);
  return d.dir;
};
afterAll(() => dirs.forEach((d) => d.remove()));

describe('findInjections', () => {
  test('finds a sentinel that became code, also behind a unicode escape and in a template expression', () => {
    const code = [
      '/** x*/ export const INJECTED_1 = (globalThis as any).__sentinel(1); /* */',
      'export const \\u0049NJECTED_2 = 2;',
      'export const t = `a ${(globalThis as any).__sentinel(3)} b`;',
    ].join('\n');
    expect(findInjections('a.ts', code)).toEqual([
      'INJECTED_1 at 1:22',
      '__sentinel at 1:55',
      'INJECTED_2 at 2:14',
      '__sentinel at 3:43',
    ]);
  });

  test('a sentinel kept as data (string, template text, comment, JSDoc, quoted key) is not an injection', () => {
    const code = [
      "export const s = 'x*/ export const INJECTED_1 = (globalThis as any).__sentinel(1); /*';",
      'export const t = `export const INJECTED_2 = __sentinel(2)`;',
      '// export const INJECTED_3 = __sentinel(3);',
      '/** x*\\/ export const INJECTED_4 = (globalThis as any).__sentinel(4); /* */',
      "export interface P { 'INJECTED_5 = __sentinel(5)': string; XExportConstINJECTED_6Params?: number }",
    ].join('\n');
    expect(findInjections('a.ts', code)).toEqual([]);
  });
});

describe('namedRefusalProblem', () => {
  const doc = { found: true, value: { id: 'm', request_schema: { properties: { a: { type: 5 } } } } };
  const err = (pointer: string, problem: string, model: string | undefined = 'm', file = 'specs/models/m.json') =>
    new SpecError(file, model, pointer, problem);

  test('a SpecError naming file, model and an existing pointer is a named refusal', () => {
    expect(namedRefusalProblem(err('/request_schema/properties/a/type', 'must be string'), doc)).toBeUndefined();
    expect(
      namedRefusalProblem(err('/request_schema/required', 'missing member: the parent exists'), doc),
    ).toBeUndefined();
    expect(
      namedRefusalProblem(err('', 'malformed JSON: Unexpected end of JSON input'), { found: false }),
    ).toBeUndefined();
  });

  test('internal exception texts, no model, a pointer that is not in the file: not named', () => {
    for (const text of [
      'URI malformed',
      'schema.hasOwnProperty is not a function',
      'Maximum call stack size exceeded',
      "Cannot read properties of undefined (reading '$defs')",
      'no schema with key or ref "https://x"',
      'Unexpected token (26:1)',
      'ENAMETOOLONG: name too long',
    ]) {
      expect(namedRefusalProblem(err('/request_schema', `could not compile: ${text}`), doc), text).toMatch(
        /internal exception/,
      );
    }
    expect(namedRefusalProblem(err('/id', 'bad', ''), doc)).toMatch(/names no model/);
    expect(namedRefusalProblem(err('/request_schema/nowhere/deeper', 'bad'), doc)).toMatch(/does not exist/);
    expect(namedRefusalProblem(err('request_schema', 'bad'), doc)).toMatch(/not a JSON pointer/);
  });
});

describe('cases', () => {
  test('case K of seed N is the same every time it is built, and seeds differ', () => {
    const text = (seed: number, i: number) => {
      const c = buildCase(seed, i);
      return `${c.family}\n${c.note}\n${contentText(c.list)}${c.files.map((f) => `${f.name}\n${contentText(f.content)}`).join('')}`;
    };
    for (const i of [0, 7, 21, 45, 199]) expect(text(3, i)).toBe(text(3, i));
    const differ = [0, 1, 2, 4, 5, 12].filter((i) => text(3, i) !== text(4, i));
    expect(differ.length).toBeGreaterThanOrEqual(5);
  });

  test('every family appears in every round of the order; --family selects only its cases', () => {
    expect(new Set(ORDER.slice(0, ORDER.length).map((f) => f.name))).toEqual(new Set(FAMILIES.map((f) => f.name)));
    const refs = caseIndices({ cases: 5, family: 'refs' });
    expect(refs).toHaveLength(5);
    for (const i of refs) expect(familyOf(i).family.name).toBe('refs');
    expect(() => caseIndices({ cases: 1, family: 'nope' })).toThrow(/unknown family/);
  });

  test('writeCase never writes outside its directory: unwritable names are skipped', () => {
    const dir = path.join(temp(), 'specs');
    const written = writeCase(
      {
        note: '',
        list: ['../x', 'ok', 'a/b', '..'],
        files: ['../x', 'ok', 'a/b', '..', 'm'.repeat(300)].map((name) => ({ name, content: { id: name } })),
      },
      dir,
    );
    expect(written).toEqual(['openapi.yaml', 'models.json', 'models/ok.json']);
    expect(readdirSync(path.dirname(dir))).toEqual(['specs']);
  });
});

describe('compileCases', () => {
  test('reports a case its own type errors, checks a file identical to the template once, and blames no case for the template', () => {
    const root = temp();
    writeFileSync(path.join(root, 'package.json'), '{ "type": "module" }\n');
    const put = (rel: string, text: string) => {
      mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      writeFileSync(path.join(root, rel), text);
      return path.join(root, rel);
    };
    const shared = "export const a = 1;\nexport const broken: number = 'template';\n";
    const template = { root: path.join(root, 'template'), files: [put('template/generated/shared.ts', shared)] };
    const good = {
      root: path.join(root, 'good'),
      files: [
        put('good/generated/shared.ts', shared),
        put('good/generated/use.ts', "import { a } from './shared.ts';\nexport const b: number = a;\n"),
      ],
    };
    const bad = {
      root: path.join(root, 'bad'),
      files: [put('bad/generated/use.ts', "export const b: string = 1;\nexport const broken: number = 'template';\n")],
    };
    const r = compileCases([good, bad], template, compilerOptions());
    expect(r.perUnit[0]).toEqual([]);
    expect(r.perUnit[1]).toEqual([
      expect.stringMatching(/^generated\/use\.ts:1:14 TS2322: Type 'number' is not assignable to type 'string'/),
    ]);
    expect(r.shared).toEqual([expect.stringMatching(/template\/generated\/shared\.ts:2:14 TS2322/)]);
    expect(r.programFiles.filter((f) => f.endsWith('/shared.ts'))).toEqual([
      path.join(template.root, 'generated/shared.ts'),
    ]);
  });
});

describe('exercise', () => {
  test('a sentinel that runs at import is an injection; a module or validator that throws is reported', async () => {
    const { exercise } = await import('../../fuzz/exercise.ts');
    const root = temp();
    writeFileSync(path.join(root, 'package.json'), '{ "type": "module" }\n');
    mkdirSync(path.join(root, 'generated', 'validators'), { recursive: true });
    writeFileSync(
      path.join(root, 'generated', 'a.ts'),
      'export const INJECTED_7 = (globalThis as any).__sentinel(7);\n',
    );
    writeFileSync(
      path.join(root, 'generated', 'b.ts'),
      "throw new SyntaxError('Invalid regular expression: /(/: Unterminated group');\n",
    );
    writeFileSync(
      path.join(root, 'generated', 'validators', 'm.ts'),
      'export const validate = (d: unknown): boolean => (d as { x: number }).x > 0;\n',
    );
    writeFileSync(
      path.join(root, 'generated', 'validators', 'ok.ts'),
      'export const validate = (d: unknown): boolean => d !== null;\n',
    );
    const r = await exercise(root);
    expect(r.slow).toEqual([]);
    expect(r.sentinels).toEqual(['sentinel 7 ran when generated/a.ts was imported or run']);
    expect(r.throws).toEqual([
      'importing generated/b.ts throws: SyntaxError: Invalid regular expression: /(/: Unterminated group',
      "generated/validators/m.ts: validate(null) throws: TypeError: Cannot read properties of null (reading 'x')",
    ]);
    expect((globalThis as { __sentinel?: unknown }).__sentinel).toBeUndefined();
  });
});

describe('slow validators', () => {
  test("a validator that backtracks on its schema's pattern is reported, at a small size; a linear one is not", async () => {
    const { exercise } = await import('../../fuzz/exercise.ts');
    const root = temp();
    writeFileSync(path.join(root, 'package.json'), '{ "type": "module" }\n');
    mkdirSync(path.join(root, 'generated', 'validators'), { recursive: true });
    const validator = (re: string) =>
      `const re = ${re};\nexport const validate = (d: unknown): boolean => typeof d !== 'object' || d === null || typeof (d as { tags?: unknown }).tags !== 'object' || Object.keys((d as { tags: object }).tags).every((k) => re.test(k));\n`;
    writeFileSync(path.join(root, 'generated', 'validators', 'slow.ts'), validator('/^(a+)+$/u'));
    writeFileSync(path.join(root, 'generated', 'validators', 'fast.ts'), validator('/^a+$/u'));
    const schema = (pattern: string) => ({
      type: 'object',
      properties: { tags: { type: 'object', patternProperties: { [pattern]: { type: 'string' } } } },
    });
    const r = await exercise(
      root,
      new Map([
        ['slow', schema('^(a+)+$')],
        ['fast', schema('^a+$')],
      ]),
    );
    expect(r.throws).toEqual([]);
    expect(r.slow).toEqual([
      expect.stringMatching(
        /^generated\/validators\/slow\.ts: validate took \d+ ms on (?:2\d|3\d) characters at \/tags\/<key> \(pattern "\^\(a\+\)\+\$"\): "" \+ "a" repeated \+ /,
      ),
    ]);
  });

  test('checkSites finds each pattern and format once, where the schema applies it (values, items, keys, $ref, allOf)', async () => {
    const { checkSites } = await import('../../fuzz/adversarial.ts');
    const sites = checkSites({
      type: 'object',
      properties: {
        prompt: { type: 'string', pattern: '^p$' },
        list: { type: 'array', items: { format: 'url' } },
        again: { type: 'string', pattern: '^p$' },
        ref: { $ref: '#/definitions/D' },
        both: { allOf: [{ format: 'email' }] },
        tags: { type: 'object', propertyNames: { pattern: '^k$' }, patternProperties: { '^x-': {} } },
      },
      definitions: { D: { format: 'uuid' } },
    });
    const placed = Object.fromEntries(sites.map((s) => [s.check, [s.where, s.place('S')]]));
    expect(placed).toEqual({
      'pattern "^p$"': ['/prompt', { prompt: 'S' }],
      'format "url"': ['/list/0', { list: ['S'] }],
      'format "uuid"': ['/ref', { ref: 'S' }],
      'format "email"': ['/both', { both: 'S' }],
      'pattern "^x-"': ['/tags/<key>', { tags: { S: null } }],
      'pattern "^k$"': ['/tags/<key>', { tags: { S: null } }],
    });
  });
});
