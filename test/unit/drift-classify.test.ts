/**
 * Drift classification in memory (`diffSnapshots`, generator/drift/): a snapshot compared with
 * itself has no change, and each direction of a change gets its documented severity. The report
 * on snapshot directories and its renderings are tested in test/drift/report.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffSnapshots, type Snapshot } from '../../generator/drift/index.ts';

type Schema = { type: 'object'; properties: Record<string, Record<string, unknown>>; required: string[] };

const model = (id: string, schema: Schema) => ({
  id,
  object: 'model',
  display_name: id,
  description: 'd',
  endpoint: '/images/generate',
  capabilities: { input: ['text'], output: ['image'] },
  request_schema: schema,
});
const snap = (label: string, schemas: Record<string, Schema>): Snapshot => ({
  label,
  ids: Object.keys(schemas),
  models: new Map(Object.entries(schemas).map(([id, s]) => [id, model(id, s)])),
});
const one = (properties: Schema['properties'], required: string[] = []): Record<string, Schema> => ({
  m: { type: 'object', properties, required },
});
const kinds = (a: Record<string, Schema>, b: Record<string, Schema>) =>
  diffSnapshots(snap('old', a), snap('new', b)).changes.map((c) => `${c.param ?? ''} ${c.kind} ${c.severity}`);

const param = fc.oneof(
  fc.record({ type: fc.constantFrom('string', 'integer', 'number', 'boolean') }),
  fc.record({ type: fc.constant('string'), enum: fc.uniqueArray(fc.constantFrom('a', 'b', '16:9'), { minLength: 1 }) }),
  fc.record({ type: fc.constant('integer'), minimum: fc.integer({ max: 0 }), maximum: fc.integer({ min: 1 }) }),
);
const schema = fc
  .dictionary(fc.constantFrom('prompt', 'seed', 'fps', 'aspect_ratio'), param)
  .chain((properties) =>
    fc.subarray(Object.keys(properties)).map((required): Schema => ({ type: 'object', properties, required })),
  );

describe('diffSnapshots', () => {
  it('finds no change between a snapshot and itself', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('a', 'b-1.0', 'C'), schema), (schemas) => {
        const r = diffSnapshots(snap('old', schemas), snap('new', structuredClone(schemas)));
        expect(r.changes).toEqual([]);
        expect(r.unchanged).toBe(Object.keys(schemas).length);
      }),
    );
  });

  it('a narrowed type is breaking, the widening back is compatible', () => {
    const num = one({ x: { type: 'number' } });
    const int = one({ x: { type: 'integer' } });
    expect(kinds(num, int)).toEqual(['x type-changed breaking']);
    expect(kinds(int, num)).toEqual(['x type-changed compatible']);
  });

  it('a removed enum value is breaking, an added one compatible', () => {
    const two = one({ r: { type: 'string', enum: ['1 MP', '2 MP'] } });
    const three = one({ r: { type: 'string', enum: ['1 MP', '2 MP', '0.5 MP'] } });
    expect(kinds(three, two)).toEqual(['r enum-removed breaking']);
    expect(kinds(two, three)).toEqual(['r enum-added compatible']);
  });

  it('a new required parameter is breaking, a new optional one compatible, a removed one breaking', () => {
    const base = one({ prompt: { type: 'string' } }, ['prompt']);
    expect(kinds(base, one({ prompt: { type: 'string' }, seed: { type: 'integer' } }, ['prompt', 'seed']))).toEqual([
      'seed param-added breaking',
    ]);
    expect(kinds(base, one({ prompt: { type: 'string' }, seed: { type: 'integer' } }, ['prompt']))).toEqual([
      'seed param-added compatible',
    ]);
    expect(kinds(one({ prompt: { type: 'string' }, seed: { type: 'integer' } }, ['prompt']), base)).toEqual([
      'seed param-removed breaking',
    ]);
  });

  it('counts breaking and compatible changes as the changes say, whatever the two sides', () => {
    fc.assert(
      fc.property(schema, schema, (a, b) => {
        const r = diffSnapshots(snap('old', { m: a }), snap('new', { m: b }));
        expect(r.breaking + r.compatible).toBe(r.changes.length);
        expect(r.breaking).toBe(r.changes.filter((c) => c.severity === 'breaking').length);
        expect(r.changed).toEqual(r.changes.length > 0 ? ['m'] : []);
      }),
    );
  });
});
