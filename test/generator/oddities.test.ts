/**
 * The oddities of real model objects, one small synthetic model each (fixtures/oddities/<name>.ts,
 * the model next to its expectations), generated together into a temporary snapshot: for each,
 * the parameter interface has exactly the expected properties (name, required or optional, type;
 * enum values as literal unions in schema order), the module exports exactly the expected
 * functions, the generated validator accepts and refuses the given bodies, and the usage snippet
 * compiles with the whole output (its `@ts-expect-error` cases included). Doc-comment prose is
 * not asserted: only what users program against.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { mkdir, writeFile } from 'node:fs/promises';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, type GenerateResult } from '../../generator/index.ts';
import { fileStem, modelNames } from '../../generator/stages/name.ts';
import type { CompiledValidator } from '../../runtime/validation.ts';
import {
  compileErrors,
  linkRuntime,
  membersOf,
  tempSpecs,
  tsFilesUnder,
  type Oddity,
  type OddityOutput,
  type TempSpecs,
} from './helpers.ts';

const FIXTURES = fileURLToPath(new URL('./fixtures/oddities/', import.meta.url));
const names = (await readdir(FIXTURES)).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3));
const oddities = new Map<string, Oddity>();
for (const name of names)
  oddities.set(
    name,
    ((await import(pathToFileURL(path.join(FIXTURES, `${name}.ts`)).href)) as { default: Oddity }).default,
  );

let t: TempSpecs;
let run: GenerateResult;
let errors: string[];
const outputs = new Map<string, OddityOutput>();

beforeAll(async () => {
  t = await tempSpecs([], Object.fromEntries([...oddities.values()].map((o) => [o.model.id, o.model])));
  run = await generate({ specsDir: t.specsDir, outRoot: t.root });
  await linkRuntime(t.root);
  await mkdir(path.join(t.root, 'usage'));
  for (const [name, o] of oddities)
    if (o.usage) await writeFile(path.join(t.root, 'usage', `${name}.ts`), o.usage.trimStart());
  errors = compileErrors(t.root, [
    ...(await tsFilesUnder(path.join(t.root, 'generated'))),
    ...(await tsFilesUnder(path.join(t.root, 'usage'))),
  ]);
  const reference = await readFile(path.join(t.root, 'generated', 'MODELS.md'), 'utf8');
  for (const [name, o] of oddities) {
    const file = path.join(t.root, 'generated', 'models', `${fileStem(o.model.id)}.ts`);
    const text = await readFile(file, 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const wanted = modelNames(o.model.id).params;
    const params = source.statements.find(
      (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === wanted,
    );
    if (!params) throw new Error(`${name}: no interface ${wanted} in ${file}`);
    const exports = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    outputs.set(name, { module: text, source, params, exports, reference });
  }
}, 180_000);

afterAll(async () => {
  await t?.cleanup();
});

describe('oddities of model objects, one synthetic model each', () => {
  it('found the cases', () => {
    expect(names.length).toBeGreaterThanOrEqual(10);
  });

  it('the whole output and every usage snippet compile (strict, the repository options)', () => {
    expect(errors).toEqual([]);
  });

  describe.each(names)('%s', (name) => {
    const o = oddities.get(name)!;
    const out = () => outputs.get(name)!;

    it(`${o.about}: the parameter interface has exactly the expected properties and types`, () => {
      expect(membersOf(out().params, out().source)).toEqual(o.params);
    });

    it('the module exports exactly the expected functions', () => {
      const functions = Object.entries(out().exports)
        .filter(([, v]) => typeof v === 'function')
        .map(([k]) => k);
      expect(functions.sort()).toEqual([...o.functions].sort());
    });

    // defined only for the oddities that give bodies or checks, so that no case shows as skipped
    if (o.accepts ?? o.refuses)
      it('the generated validator accepts and refuses the given bodies', async () => {
        const file = path.join(t.root, 'generated', 'validators', `${fileStem(o.model.id)}.ts`);
        const { validate } = (await import(pathToFileURL(file).href)) as { validate: CompiledValidator };
        for (const body of o.accepts ?? [])
          expect(validate({ model: o.model.id, ...body }), JSON.stringify(body)).toBe(true);
        for (const body of o.refuses ?? [])
          expect(validate({ model: o.model.id, ...body }), JSON.stringify(body)).toBe(false);
      });

    const check = o.check;
    if (check)
      it('keeps what else matters', async () => {
        await check(out());
      });
  });
});

describe('every file of the run', () => {
  it('starts with the generated-file header', () => {
    expect(run.files.size).toBeGreaterThan(oddities.size);
    for (const [file, text] of run.files) {
      if (file.endsWith('.json'))
        expect(JSON.parse(text)['//'], file).toMatch(/^GENERATED FILE: do not edit by hand\..*npm run generate/);
      else
        expect(text, file).toMatch(
          /^\/\*\*\n \* GENERATED FILE: do not edit by hand\.\n \* Generated by `npm run generate`|^<!--\nGENERATED FILE: do not edit by hand\.\nGenerated by `npm run generate`/,
        );
    }
  });

  it('has validators compiled at generate time (no ajv, no eval at run time), loaded lazily through the index', () => {
    // the index loads the table of loaders on first use, and the table each validator
    expect(run.files.get('generated/index.ts')).toContain(`import('./validator-table.ts')`);
    expect(run.files.get('generated/index.ts')).not.toContain(`import('./validators/`);
    for (const o of oddities.values()) {
      const v = run.files.get(`generated/validators/${fileStem(o.model.id)}.ts`);
      expect(v, o.model.id).toBeDefined();
      expect(v).toMatch(/export const validate: CompiledValidator = validate\d+;\n$/);
      expect(v).not.toMatch(/require\(|new Function|eval\(|from 'ajv/);
      // descriptions are annotations: no prose of the model in its validator
      for (const p of Object.values(
        (o.model.request_schema as { properties: Record<string, { description?: string }> }).properties,
      ))
        if (p.description) expect(v).not.toContain(JSON.stringify(p.description).slice(1, -1));
      expect(run.files.get('generated/validator-table.ts')).toContain(
        `import('./validators/${fileStem(o.model.id)}.ts')`,
      );
    }
  });
});
