/**
 * The drift classifier judges a parameter by the values it accepts when its enum and its range or
 * type change together (generator/drift/values.ts): on the service's own pages (fixtures/doc-pages.ts)
 * an enum of durations replaced by a range is compatible when the range admits every old value
 * (flux-3-video: 5..20) and breaking, naming the value, when it does not (Seedance: -1, "auto",
 * is outside 4..15); keyword by keyword, the same pages gave 4 breaking findings, 3 of them ranges
 * that admit every old value.
 */
import { describe, expect, it } from 'vitest';
import { diffSnapshots, type Snapshot } from '../../generator/drift/index.ts';
import { after, before } from './fixtures/doc-pages.ts';

const snap = (label: string, models: ReadonlyArray<{ id: string }>): Snapshot => ({
  label,
  ids: models.map((m) => m.id),
  models: new Map(models.map((m) => [m.id, m])),
});
const drift = (a: ReadonlyArray<{ id: string }>, b: ReadonlyArray<{ id: string }>) =>
  diffSnapshots(snap('old', a), snap('new', b));

type Props = Record<string, Record<string, unknown>>;
const one = (properties: Props) => [
  {
    id: 'm',
    object: 'model',
    endpoint: '/images/generate',
    capabilities: { input: ['text'], output: ['image'] },
    request_schema: { type: 'object', properties },
  },
];
const judged = (from: Record<string, unknown>, to: Record<string, unknown>) =>
  drift(one({ p: from }), one({ p: to })).changes.map((c) => `${c.kind} ${c.severity}: ${c.message}`);

describe('the docs pages, before and after', () => {
  const report = drift(before, after);
  const of = (model: string) => report.changes.filter((c) => c.model === model);

  it('flux-3-video: duration enum -> 5..20 admits every old value: compatible', () => {
    const duration = of('flux-3-video').filter((c) => c.param === 'duration');
    expect(duration).toEqual([
      expect.objectContaining({
        kind: 'enum-replaced',
        severity: 'compatible',
        before: 'one of 10 values',
        after: 'integer from 5 to 20',
      }),
    ]);
    expect(of('flux-3-video').filter((c) => c.severity === 'breaking')).toEqual([]);
  });

  it('Seedance: duration enum with -1 -> 4..15 refuses -1: breaking, naming it', () => {
    const duration = of('bytedance-seedance-2-0-text-to-video').filter((c) => c.param === 'duration');
    expect(duration).toHaveLength(1);
    expect(duration[0]).toMatchObject({ kind: 'enum-replaced', severity: 'breaking' });
    expect(duration[0]!.message).toBe('one of 13 values replaced by integer from 4 to 15: no longer accepts -1');
    // the default changed on generate_audio stays its own, compatible, change
    expect(of('bytedance-seedance-2-0-text-to-video').filter((c) => c.severity === 'breaking')).toHaveLength(1);
  });

  it('minimax-h3: the range was already a range, only the order moved: nothing breaks', () => {
    expect(of('minimax-h3').map((c) => c.kind)).toEqual(['order-changed']);
  });

  it('1 breaking change in all, where keyword by keyword there were 4 (a bound that appears), 3 of them admitting every old value', () => {
    expect(report.breaking).toBe(1);
    // keyword by keyword: each bound that appears beside a dropped enum, and whether it alone admits the old values
    const bounds: string[] = [];
    for (const [i, m] of before.entries()) {
      const props = (x: (typeof before)[number]) => x.json_request_schema.properties;
      for (const [name, o] of Object.entries(props(m))) {
        const n = props(after[i]!)[name];
        if (!n || !Array.isArray(o['enum']) || n['enum'] !== undefined) continue;
        const old = o['enum'] as number[];
        if (typeof n['minimum'] === 'number' && o['minimum'] === undefined)
          bounds.push(`${m.id} minimum ${old.every((v) => v >= (n['minimum'] as number)) ? 'admits all' : 'drops'}`);
        if (typeof n['maximum'] === 'number' && o['maximum'] === undefined)
          bounds.push(`${m.id} maximum ${old.every((v) => v <= (n['maximum'] as number)) ? 'admits all' : 'drops'}`);
      }
    }
    expect(bounds).toEqual([
      'flux-3-video minimum admits all',
      'flux-3-video maximum admits all',
      'bytedance-seedance-2-0-text-to-video minimum drops',
      'bytedance-seedance-2-0-text-to-video maximum admits all',
    ]);
  });
});

describe('judging by values', () => {
  it('an enum replaced by a range that drops an old value is breaking', () => {
    expect(judged({ type: 'integer', enum: [1, 2, 3] }, { type: 'integer', minimum: 2, maximum: 3 })).toEqual([
      'enum-replaced breaking: one of 3 values replaced by integer from 2 to 3: no longer accepts 1',
    ]);
  });

  it('an enum of numbers replaced by a wider type and range is compatible', () => {
    expect(judged({ type: 'integer', enum: [1, 2] }, { type: 'number', minimum: 0.5, maximum: 2.5 })).toEqual([
      'enum-replaced compatible: one of 2 values replaced by number from 0.5 to 2.5: every value accepted before still is',
    ]);
  });

  it('exclusive bounds and multipleOf are judged too', () => {
    expect(
      judged({ type: 'integer', enum: [2, 4, 6] }, { type: 'integer', exclusiveMinimum: 1, multipleOf: 2 }),
    ).toEqual([
      'enum-replaced compatible: one of 3 values replaced by integer above 1 multiple of 2: every value accepted before still is',
    ]);
    expect(judged({ type: 'integer', enum: [2, 3] }, { type: 'integer', multipleOf: 2 })[0]).toMatch(
      /^enum-replaced breaking: .*no longer accepts 3$/,
    );
  });

  it('a bounded integer range replaced by an enum of all its values is compatible; one that misses a value is breaking', () => {
    expect(judged({ type: 'integer', minimum: 0, maximum: 3 }, { type: 'integer', enum: [0, 1, 2, 3] })).toEqual([
      'enum-replaced compatible: integer from 0 to 3 replaced by one of 4 values: every value accepted before still is',
    ]);
    expect(judged({ type: 'integer', minimum: 0, maximum: 3 }, { type: 'integer', enum: [0, 1, 3] })[0]).toMatch(
      /breaking: .*no longer accepts 2$/,
    );
  });

  it('an unbounded range replaced by an enum is judged keyword by keyword (breaking)', () => {
    expect(judged({ type: 'number', minimum: 0 }, { type: 'number', enum: [0, 1] })).toContain(
      'enum-introduced breaking: enum introduced (2 values: 0, 1)',
    );
  });

  it('an enum dropped with no other change keeps its own kind', () => {
    expect(judged({ type: 'string', enum: ['a'] }, { type: 'string' })).toEqual([
      'enum-dropped compatible: enum dropped (any value of the type accepted now)',
    ]);
  });

  it('names at most 10 refused values', () => {
    const values = Array.from({ length: 30 }, (_, i) => i);
    const [line] = judged({ type: 'integer', enum: values }, { type: 'integer', minimum: 20 });
    expect(line).toMatch(/no longer accepts 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 and 10 more$/);
  });
});
