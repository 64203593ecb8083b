/**
 * json-schema-to-typescript as the type emitter's oracle (fuzz/oracle.ts): for every model of the
 * snapshot with a schema, the emitted `<Pascal>Params` (generated/models/<id>.ts) and jstt's type
 * of the same schema are mutually assignable, in one TypeScript program, unless a named rule of
 * `ORACLE_RULES` explains the failing direction. Each rule has a fixture that shows its difference
 * (so a rule that no longer explains anything fails here), and the models it applies to are
 * computed and printed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../generator/paths.ts';
import { fileStem, modelNames } from '../../generator/stages/name.ts';
import {
  ORACLE_RULES,
  compareAll,
  emittedModule,
  jsttModule,
  rulesFor,
  unexplained,
  type OracleEntry,
  type OracleResult,
} from '../../fuzz/oracle.ts';

type Schema = Record<string, unknown>;

/** The snapshot's models with a schema. */
function snapshot(): Array<{ id: string; schema: Schema }> {
  const ids = JSON.parse(readFileSync(path.join(REPO_ROOT, 'specs', 'models.json'), 'utf8')) as string[];
  return ids.flatMap((id) => {
    const m = JSON.parse(
      readFileSync(path.join(REPO_ROOT, 'specs', 'models', `${fileStem(id)}.json`), 'utf8'),
    ) as Schema;
    const schema = (m['request_schema'] ?? m['json_request_schema']) as Schema | null | undefined;
    return schema ? [{ id, schema }] : [];
  });
}

/** One fixture per rule: a schema that differs from jstt's type by that rule alone. */
const RULE_FIXTURES: Record<string, Schema> = {
  'pattern-properties-unknown': {
    type: 'object',
    properties: { prompt: { type: 'string' } },
    patternProperties: { '^x-': { type: 'number' } },
  },
  'additional-properties-unknown': {
    type: 'object',
    properties: { prompt: { type: 'string' } },
    additionalProperties: { type: 'number' },
  },
  'structured-enum': { type: 'object', properties: { fixed: { const: ['x'] } } },
  'default-is-not-a-type': { type: 'object', properties: { keep: { type: 'boolean', default: 'yes' } } },
  'untyped-subschema': {
    type: 'object',
    properties: { deep: { type: 'object', additionalProperties: { not: { type: 'string' } } } },
  },
  'untyped-root': { description: 'no type, no properties' },
};

/** Fixtures of differences the oracle found and the generator fixed: they must agree with jstt both ways. */
const AGREEING_FIXTURES: Record<string, Schema> = {
  // OpenAPI's nullable beside type: the validators accept null, so the type does
  nullable: { type: 'object', properties: { p: { type: 'string', nullable: true } } },
  // a property that takes any value (`true`, `{}`): unknown, not an object
  'any-property': { type: 'object', properties: { a: true, b: {} }, required: ['a'] },
};

const models = snapshot();
let results: OracleResult[] = [];
let ruleResults: Record<string, OracleResult> = {};
let agreeingResults: Record<string, OracleResult> = {};

beforeAll(async () => {
  const entries: OracleEntry[] = [];
  for (const m of models) {
    const jstt = await jsttModule(m.schema);
    if (!jstt.ok) throw new Error(`json-schema-to-typescript refused ${m.id}: ${jstt.reason}`);
    const emitted = readFileSync(path.join(REPO_ROOT, 'generated', 'models', `${fileStem(m.id)}.ts`), 'utf8');
    entries.push({ emitted, params: modelNames(m.id).params, jstt: jstt.text });
  }
  const fixtures = { ...RULE_FIXTURES, ...AGREEING_FIXTURES };
  for (const [name, schema] of Object.entries(fixtures)) {
    const jstt = await jsttModule(schema);
    if (!jstt.ok) throw new Error(`json-schema-to-typescript refused fixture ${name}: ${jstt.reason}`);
    const emitted = emittedModule(`fixture-${name}`, schema);
    entries.push({ emitted: emitted.text, params: emitted.params, jstt: jstt.text });
  }
  const all = compareAll(entries); // one program for every model and fixture
  results = all.slice(0, models.length);
  const names = Object.keys(fixtures);
  const byName = Object.fromEntries(names.map((n, i) => [n, all[models.length + i]!]));
  ruleResults = Object.fromEntries(Object.keys(RULE_FIXTURES).map((n) => [n, byName[n]!]));
  agreeingResults = Object.fromEntries(Object.keys(AGREEING_FIXTURES).map((n) => [n, byName[n]!]));
}, 120_000);

describe('json-schema-to-typescript as the oracle of the emitted parameter types', () => {
  it(`every snapshot model with a schema (${models.length}) is mutually assignable with jstt's type, or a rule explains it`, () => {
    expect(models.length).toBeGreaterThan(60);
    const problems = models.flatMap((m, i) => {
      const r = results[i]!;
      const rules = rulesFor(m.schema);
      const open = unexplained(
        r.failing.map((f) => f.direction),
        rules,
      );
      return [
        ...r.errors.map((e) => `${m.id}: check module: ${e}`),
        ...r.jsttBroken.map((e) => `${m.id}: jstt's module: ${e}`),
        ...r.failing.filter((f) => open.includes(f.direction)).map((f) => `${m.id}: ${f.direction}: ${f.message}`),
      ];
    });
    expect(problems).toEqual([]);
    // the table: each rule with the snapshot models it applies to (computed)
    const table = ORACLE_RULES.map((rule) => {
      const applied = models.filter((m) => rule.applies(m.schema)).map((m) => m.id);
      return `${rule.name} (${applied.length}): ${applied.join(', ') || 'none'}`;
    });
    console.log(`oracle rules over the snapshot:\n  ${table.join('\n  ')}`);
  });

  it.each(ORACLE_RULES.map((r) => [r.name, r] as const))(
    'rule %s: its fixture differs from jstt only in a direction the rule allows',
    (name, rule) => {
      const schema = RULE_FIXTURES[name];
      expect(schema, `a fixture for rule ${name}`).toBeDefined();
      expect(rulesFor(schema).map((r) => r.name)).toEqual([name]);
      const r = ruleResults[name]!;
      expect(r.errors).toEqual([]);
      expect(r.jsttBroken).toEqual([]);
      expect(r.failing.length, `rule ${name} explains a difference the fixture shows`).toBeGreaterThan(0);
      expect(
        unexplained(
          r.failing.map((f) => f.direction),
          [rule],
        ),
      ).toEqual([]);
    },
  );

  it('the fixed differences (OpenAPI nullable, a property of any value) agree with jstt both ways', () => {
    for (const [name, r] of Object.entries(agreeingResults)) {
      expect(r.errors, name).toEqual([]);
      expect(r.jsttBroken, name).toEqual([]);
      expect(r.failing, name).toEqual([]);
    }
  });

  it("a const array value is assignable to the emitted type (jstt's literal tuple to the emitted array)", () => {
    const r = ruleResults['structured-enum']!;
    expect(r.failing.map((f) => f.direction)).toEqual(['emitted-to-jstt']);
  });
});
