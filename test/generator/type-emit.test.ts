/**
 * The parameter types are emitted as syntax nodes by json-schema-to-typescript's rules
 * (generator/stages/type-emit.ts): the same types it gave, a tuple union kept whole where its
 * printed text lost the grouping, and every model string written by escape.ts.
 */
import { ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { interfaceDeclaration } from '../../generator/stages/type-emit.ts';

function emit(properties: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  const decl = interfaceDeclaration(
    ts,
    { type: 'object', properties, additionalProperties: false, ...extra },
    'P',
    'doc */ text',
  );
  if (!decl) return 'NOT_INTERFACE';
  const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed });
  const file = ts.createSourceFile('x.ts', '', ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  return printer
    .printNode(ts.EmitHint.Unspecified, decl, file)
    .replace(/\s+/g, ' ')
    .replace(/\[ /g, '[')
    .replace(/ \]/g, ']');
}

describe('type-emit', () => {
  it('types arrays with bounds as unions of tuples, grouped inside an array or an intersection', () => {
    expect(emit({ a: { type: 'array', items: { type: 'string' }, maxItems: 2 } })).toContain(
      'a?: [] | [string] | [string, string];',
    );
    expect(emit({ a: { type: 'array', items: { type: 'array', items: { type: 'string' }, maxItems: 1 } } })).toContain(
      'a?: ([] | [string])[];',
    );
    expect(emit({ a: { type: 'array', items: { type: 'string' }, minItems: 1 } })).toContain(
      'a?: [string, ...string[]];',
    );
  });

  it('keeps json-schema-to-typescript rules: enums as literal unions, open objects, unknown absorbing', () => {
    expect(emit({ a: { type: 'string', enum: ['x', "it's", '*/'] } })).toContain(`a?: "x" | "it's" | "*/";`);
    expect(emit({ a: { description: 'only a description' } })).toContain('a?: { [k: string]: unknown; };');
    expect(emit({ a: { type: 'object' } })).toContain('a?: { [k: string]: unknown; };');
    expect(emit({ a: { anyOf: [{ type: 'string' }, {}] } })).toContain('a?: unknown;');
    expect(emit({ a: { type: ['integer', 'null'] } })).toContain('a?: number | null;');
    expect(emit({ '[k: string]': { type: 'string' } }, { required: ['[k: string]'] })).toContain(
      '"[k: string]": string;',
    );
  });

  it('writes doc comments through commentText, and refuses what is not one object interface', () => {
    expect(emit({ a: { type: 'string', description: 'closes */ here' } })).toContain('closes *\\/ here');
    expect(emit({}, { anyOf: [{ type: 'object' }] })).toBe('NOT_INTERFACE');
  });
});
