/**
 * The oracle in the fuzzer (fuzz/oracle-case.ts, fuzz/shrink.ts): how a case's diagnostics are
 * read back (a direction a rule allows is no failure; jstt's own broken output is a note), and the
 * shrinker, which removes parts of a schema while the same failure persists.
 */
import { describe, expect, it } from 'vitest';
import { judgeOracle, type OracleCase } from '../../fuzz/oracle-case.ts';
import { CHECK_LINES, ORACLE_RULES, rulesFor } from '../../fuzz/oracle.ts';
import { shrink, shrinkOracleFailure } from '../../fuzz/shrink.ts';

const oracleCase = (rules: string[]): OracleCase => ({
  models: [{ model: 'm', check: 'oracle/m.check.ts', jstt: 'oracle/m.jstt.ts', spec: 'models/m.json', rules }],
  skipped: [],
});
const at = (direction: keyof typeof CHECK_LINES) =>
  `oracle/m.check.ts:${CHECK_LINES[direction]}:40 TS2344: Type 'Emitted' does not satisfy the constraint 'Jstt'.`;

describe('judgeOracle', () => {
  it('a failing direction no rule allows is a failure; other diagnostics stay for invalid-ts', () => {
    const other = 'generated/models/m.ts:3:1 TS1005: ; expected.';
    const r = judgeOracle([at('emitted-to-jstt'), other], oracleCase([]));
    expect(r.failures).toEqual([
      { model: 'm', spec: 'models/m.json', direction: 'emitted-to-jstt', message: at('emitted-to-jstt') },
    ]);
    expect(r.rest).toEqual([other]);
  });

  it('a direction the applying rule allows is not a failure; the other direction still is', () => {
    const r = judgeOracle([at('emitted-to-jstt'), at('jstt-to-emitted')], oracleCase(['pattern-properties-unknown']));
    expect(r.failures.map((f) => f.direction)).toEqual(['jstt-to-emitted']);
  });

  it("jstt's own module not compiling is a note, and the model is not judged", () => {
    const r = judgeOracle(
      ['oracle/m.jstt.ts:2:5 TS1131: Property or signature expected.', at('jstt-to-emitted')],
      oracleCase([]),
    );
    expect(r.failures).toEqual([]);
    expect(r.notes).toHaveLength(1);
    expect(r.rest).toEqual([]);
  });
});

describe('shrinking', () => {
  it('removes every part whose removal keeps the failure', async () => {
    const value = { a: { b: [1, 2, { x: 1 }], c: 'drop' }, d: { x: 2 } };
    const hasX1 = (v: unknown): boolean =>
      v !== null && typeof v === 'object' && (('x' in v && v.x === 1) || Object.values(v).some(hasX1));
    const r = await shrink(value, (v) => Promise.resolve(hasX1(v)), 10_000);
    expect(r.value).toEqual({ a: { b: [{ x: 1 }] } });
    expect(r.tries).toBeGreaterThan(3);
  });

  it('shrinks a schema to the part that differs from jstt (the rule that explains it left out)', async () => {
    const schema = {
      type: 'object',
      properties: { prompt: { type: 'string', description: 'p' }, n: { type: 'integer', minimum: 1 } },
      required: ['prompt'],
      patternProperties: { '^x-': { type: 'number' } },
    };
    const r = await shrinkOracleFailure('m', schema, 'emitted-to-jstt', {
      rules: ORACLE_RULES.filter((x) => x.name !== 'pattern-properties-unknown'),
      budgetMs: 60_000,
    });
    expect(JSON.stringify(r.schema).length).toBeLessThan(JSON.stringify(schema).length);
    // what is left is what makes the difference: the patternProperties, named by its rule
    expect(rulesFor(r.schema).map((x) => x.name)).toContain('pattern-properties-unknown');
    expect(r.schema).not.toHaveProperty('required');
  }, 120_000);
});
