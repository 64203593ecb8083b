/**
 * The generator's one TypeScript printer (generator/stages/printer.ts): types given as data print
 * as type nodes, model text enters a node only through escape.ts, and the layout is ts-morph's.
 */
import { randomUUID } from 'node:crypto';
import vm from 'node:vm';
import ts from 'typescript';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadTsMorph } from '../../generator/libraries.ts';
import { stringLiteral } from '../../generator/escape.ts';
import {
  blockLayout,
  constStatement,
  importDeclaration,
  jsonExpression,
  literalUnion,
  printModule,
  ref,
  stringNode,
  typeNode,
  typeParameters,
  withDoc,
} from '../../generator/stages/printer.ts';

const tm = loadTsMorph();
const T = tm.ts;
const f = T.factory;

/** `export type X<params> = type;` printed alone. */
function alias(type: Parameters<typeof typeNode>[1], params: Parameters<typeof typeParameters>[1] = []): string {
  return printModule(T, [
    f.createTypeAliasDeclaration(undefined, 'X', typeParameters(T, params), typeNode(T, type)),
  ]).trim();
}

/** The exports of a module's text, run as CommonJS (ES2022: a computed key stays a key). */
function evaluate(text: string): Record<string, unknown> {
  const options = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 };
  const js = ts.transpileModule(text, { compilerOptions: options }).outputText;
  const exports: Record<string, unknown> = {};
  (vm.runInThisContext(`(function (exports) {\n${js}\n})`) as (e: object) => void)(exports);
  return exports;
}

/** The syntax errors of a module's text. */
function syntaxErrors(text: string): string[] {
  const out = ts.transpileModule(text, {
    reportDiagnostics: true,
    compilerOptions: { target: ts.ScriptTarget.ES2022 },
  });
  return (out.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('printer.ts', () => {
  it('prints types given as data as type nodes', () => {
    expect(alias(ref('APIPromise', ref('ImageResult', 'F')))).toBe('type X = APIPromise<ImageResult<F>>;');
    expect(alias(ref('Promise', { array: 'QueueRunOutcome' }))).toBe('type X = Promise<QueueRunOutcome[]>;');
    expect(
      alias(ref('MediaParams', 'P', 'F'), [{ name: 'F', constraint: 'ResponseFormat', default: { literal: 'url' } }]),
    ).toBe('type X<F extends ResponseFormat = "url"> = MediaParams<P, F>;');
    const union = printModule(T, [
      f.createTypeAliasDeclaration(undefined, 'U', undefined, literalUnion(T, ['a', 'b'])),
    ]);
    expect(union.trim()).toBe('type U = "a" | "b";');
    expect(printModule(T, [f.createTypeAliasDeclaration(undefined, 'U', undefined, literalUnion(T, []))]).trim()).toBe(
      'type U = never;',
    );
  });

  it('refuses type text as a type name: a type is data (a TypeSpec), never text', () => {
    for (const text of ['Promise<X>', 'A | B', 'X[]', 'Record<string, unknown>', 'a b', ''])
      expect(() => typeNode(T, text), text).toThrow(/is not an identifier: give the type as a TypeSpec/);
    expect(() => typeNode(T, ref('Promise', 'A & B'))).toThrow(/"A & B" is not an identifier/);
    expect(() => typeNode(T, { name: 'Map<string>', args: [] })).toThrow(/is not an identifier/);
  });

  it('writes model text only as escape.ts writes it, and it reads back as the same value', () => {
    const hostile = 'x"\u2028</script>*/\u202e\\';
    const text = printModule(T, [
      withDoc(
        T,
        constStatement(T, 'v', undefined, jsonExpression(T, { [hostile]: hostile, __proto__x: [1, -2, null, true] })),
        `doc ${hostile}`,
      ),
    ]);
    expect(text).toContain(stringLiteral(hostile));
    expect(syntaxErrors(text)).toEqual([]);
    // the comment holds: it ends where the printer closed it, before the statement
    expect(text.indexOf('*/')).toBe(text.indexOf('*/\nexport const v'));
    const exports = evaluate(text);
    expect(exports['v']).toEqual({ [hostile]: hostile, __proto__x: [1, -2, null, true] });
  });

  it('prints any JSON value as an expression that evaluates to it', () => {
    // the value as JSON.parse gives it back (own `__proto__` keys as data), -0 kept: JSON.parse reads a
    // model file's `-0` as -0, which the printer writes as it is
    const negativeZero = `-0 ${randomUUID()}`;
    const asParsed = (v: unknown): unknown =>
      JSON.parse(
        JSON.stringify(v, (_, x: unknown) => (Object.is(x, -0) ? negativeZero : x)),
        (_, x: unknown) => (x === negativeZero ? -0 : x),
      );
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = printModule(T, [constStatement(T, 'v', undefined, jsonExpression(T, v))]);
        expect(evaluate(text)['v']).toEqual(asParsed(v));
      }),
      { numRuns: 50 },
    );
  });

  it('keeps a "__proto__" key of data an own key (a computed key)', () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    const text = printModule(T, [constStatement(T, 'v', undefined, jsonExpression(T, value))]);
    const exports = evaluate(text);
    const v = exports['v'] as Record<string, unknown>;
    expect(Object.hasOwn(v, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(stringNode(T, '__proto__').text).toBe('"__proto__"');
  });

  it("lays statements out as ts-morph's printer did: a blank line around interfaces, classes and functions", () => {
    const statements = [
      importDeclaration(T, ['A', 'B as C'], '../runtime/index.ts', true, true),
      constStatement(T, 'x', undefined, f.createNumericLiteral(1)),
      f.createInterfaceDeclaration(undefined, 'I', undefined, undefined, []),
      constStatement(T, 'y', undefined, f.createNumericLiteral(2)),
      constStatement(T, 'z', undefined, f.createNumericLiteral(3)),
    ];
    expect(printModule(T, blockLayout(T, statements))).toBe(
      "import type { A, B as C } from '../runtime/index.ts';\nexport const x = 1;\n\ninterface I {\n}\n\nexport const y = 2;\nexport const z = 3;\n",
    );
  });
});
