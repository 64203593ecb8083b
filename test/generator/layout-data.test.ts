/**
 * The schema data of the model modules written as text, in prettier's layout
 * (`generator/stages/layout/data.ts`) and as the compiler's printer prints it (`printer.ts`
 * `jsonText`), proved against prettier and the printer on seeded random JSON values: nested
 * objects and arrays, long and short strings, keys needing quotes, numbers, text outside ASCII,
 * empty containers, lines ending just before, at and after 120 columns, at the indentations the
 * modules put the data (a constant's initializer, a call's arguments).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as prettier from 'prettier';
import { builders, printer, utils } from 'prettier/doc';
import { describe, expect, it } from 'vitest';
import { ts } from 'ts-morph';
import { layoutModule } from '../../generator/stages/layout/index.ts';
import { Docs } from '../../generator/stages/layout/statements.ts';
import { constStatement, jsonExpression, printModule, ref, typeNode } from '../../generator/stages/printer.ts';
import { REPO_ROOT, seededRandom } from '../support/index.ts';

const repositoryOptions = JSON.parse(readFileSync(path.join(REPO_ROOT, '.prettierrc.json'), 'utf8')) as Record<
  string,
  unknown
>;
const format = (text: string) => prettier.format(text, { ...repositoryOptions, parser: 'babel-ts' });

/** A seeded random JSON value generator (`seededRandom`: the same values every run). */
function randomJson(seed: number) {
  const next = seededRandom(seed);
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const ALPHABET = [
    ...'abcdefghijklmnopqrstuvwxyz ABCXYZ0123456789',
    ...`'"\\\`/<>{}[]:,.-_*@$`,
    'é',
    'ß',
    '中',
    '文',
    '😀',
    '\u0301',
    '\u2028',
    '\n',
    '\t',
  ];
  const ascii = [...'abcdefghijklmnopqrstuvwxyz ABC0123456789-_.,'];
  const text = (length: number, wide: boolean) =>
    Array.from({ length }, () => pick(wide && next() < 0.3 ? ALPHABET : ascii)).join('');
  // lengths that put a property's line around 120 columns at the indentations of the data
  const stringValue = (): string => {
    const r = next();
    if (r < 0.3) return text(int(12), r < 0.05);
    if (r < 0.8) return text(70 + int(56), r > 0.7);
    return text(20 + int(100), false);
  };
  const key = (): string => {
    const r = next();
    if (r < 0.45) return text(1 + int(10), false).replace(/[^a-z]/g, 'k') || 'k';
    if (r < 0.6) return pick(['x-order', 'a b', '1abc', '10', '', '__proto__', '$ref', 'default', "it's", 'a"b']);
    if (r < 0.7) return `clé de ${text(8 + int(4), false)}`; // outside ASCII, quoted, long enough to lay out
    return `k${text(20 + int(90), false).replace(/[^A-Za-z0-9_]/g, '_')}`;
  };
  const number = (): number =>
    pick([0, 1, -1, 7, 28, -273, 1.5, -0.25, 1e21, 1e-7, 123456789, 3.14159, 0.1, Number.MAX_SAFE_INTEGER]);
  const value = (depth: number): unknown => {
    const r = next();
    if (r < 0.3) return stringValue();
    if (r < 0.4) return number();
    if (r < 0.45) return pick([true, false, null]);
    if (r < 0.5) return pick([{}, []]);
    if (depth >= 4 || r < 0.6) return array(depth);
    return object(depth);
  };
  const array = (depth: number): unknown[] => {
    const r = next();
    const n = int(r < 0.2 ? 40 : 7);
    if (r < 0.35) return Array.from({ length: n }, number);
    if (r < 0.6) return Array.from({ length: n }, () => stringValue().slice(0, 1 + int(30)));
    if (r < 0.7 && depth < 4) return Array.from({ length: n }, () => object(depth + 1));
    if (r < 0.8 && depth < 4) return Array.from({ length: n }, () => array(depth + 1));
    return Array.from({ length: n }, () => value(depth + 1));
  };
  const object = (depth: number): Record<string, unknown> => {
    const o: Record<string, unknown> = {};
    const n = 1 + int(6);
    for (let i = 0; i < n; i++) o[key()] = value(depth + 1);
    return o;
  };
  return { object: () => object(0), next };
}

/** The statements the model modules put their data in: a typed constant, and a pure call's arguments. */
function statements(values: Record<string, unknown>[]): ts.Statement[] {
  const f = ts.factory;
  return values.map((v, i) => {
    if (i % 2 === 0)
      return constStatement(
        ts,
        `s${i}Schema`,
        typeNode(ts, ref('Readonly', ref('Record', 'string', 'unknown'))),
        jsonExpression(ts, v),
      );
    const call = f.createCallExpression(f.createIdentifier('standardSchemaFor'), undefined, [
      f.createIdentifier('validate'),
      jsonExpression(ts, v),
      jsonExpression(ts, `m-${i}`),
      jsonExpression(ts, v),
    ]);
    ts.addSyntheticLeadingComment(call, ts.SyntaxKind.MultiLineCommentTrivia, ' @__PURE__ ', false);
    const type = typeNode(ts, ref('StandardQueueSchema', `M${'x'.repeat(i % 60)}QueueParams`));
    return constStatement(ts, `m${i}QueueSchema`, type, call);
  });
}

/** `layoutModule`'s text of `list` in one run, and how many properties went to their document. */
function laidOut(list: ts.Statement[]): { text: string; documents: number } {
  const docs = new Docs(ts, builders, utils.willBreak);
  let documents = 0;
  const options = { printWidth: 120, tabWidth: 2, useTabs: false, endOfLine: 'lf' } as const;
  docs.printDoc = (doc) => {
    documents++;
    return printer.printDocToString(doc, options).formatted;
  };
  const doc = builders.join(
    builders.hardline,
    list.map((s) => docs.statement(s)),
  );
  return { text: `${docs.fillData(printer.printDocToString(doc, options).formatted)}\n`, documents };
}

describe('the schema data as text', () => {
  it('is what prettier writes, for seeded random JSON values', { timeout: 120_000 }, async () => {
    const random = randomJson(25);
    let documents = 0;
    let properties = 0;
    const count = (v: unknown): number =>
      Array.isArray(v)
        ? v.reduce((n: number, x) => n + count(x), 0)
        : v !== null && typeof v === 'object'
          ? Object.values(v).reduce((n: number, x) => n + 1 + count(x), 0)
          : 0;
    for (let round = 0; round < 8; round++) {
      const values = Array.from({ length: 40 }, () => random.object());
      properties += values.reduce((n: number, v) => n + 2 * count(v), 0);
      const list = statements(values);
      const expected = await format(printModule(ts, [list]));
      // the module's own entry (its placeholders filled), and the documents it leaves properties to
      expect(layoutModule(ts, [list]), `round ${round}`).toBe(expected);
      const mine = laidOut(list);
      expect(mine.text).toBe(expected);
      documents += mine.documents;
    }
    // text outside ASCII at a width decision goes to the document printer; the rest is written as text
    expect(documents).toBeGreaterThan(0);
    expect(documents / properties).toBeLessThan(0.25);
  });

  it('writes ASCII data at every line-width boundary without a document', async () => {
    const list: ts.Statement[] = [];
    for (let n = 100; n <= 125; n++) {
      const value = {
        description: 'd'.repeat(n - 20),
        long_property_name: 'x'.repeat(n - 30),
        enum: Array.from({ length: 4 }, (_, i) => `${i}`.repeat(n / 5)),
        sizes: Array.from({ length: n }, (_, i) => i * 1000),
        items: { type: 'string', nested: [[1, 2], ['a'.repeat(n - 20)], { a: null, bbbbbbbb: -1 }] },
        [`k${'y'.repeat(n - 10)}`]: null,
      };
      list.push(...statements([value, value]));
    }
    const mine = laidOut(list);
    expect(mine.text).toBe(await format(printModule(ts, [list])));
    expect(mine.documents).toBe(0);
  });
});

describe("the schema data as the compiler's printer writes it", () => {
  it('is the text of its nodes, for seeded random JSON values where the modules put them', () => {
    const random = randomJson(26);
    const f = ts.factory;
    for (let round = 0; round < 8; round++) {
      const values: unknown[] = Array.from({ length: 40 }, () => random.object());
      // edge values: empty containers, arrays at the top, numbers the printer spells as given
      values.push({}, [], [[], [{}], [[1]]], { a: [-0, 1e21, -1e-7, 0.1 + 0.2, Infinity, NaN], __proto__x: null });
      values.push(JSON.parse('{"__proto__": {"a": 1}, "": [], "1": "x"}'));
      const list = [
        ...statements(values.filter((v): v is Record<string, unknown> => !Array.isArray(v) && v !== null)),
        // nested in an object of the generator's own, and under `satisfies` (runtime/operations.ts)
        constStatement(
          ts,
          'table',
          undefined,
          f.createObjectLiteralExpression(
            values.map((v, i) => f.createPropertyAssignment(`k${i}`, jsonExpression(ts, v))),
            true,
          ),
        ),
        constStatement(
          ts,
          'op',
          undefined,
          f.createSatisfiesExpression(jsonExpression(ts, values[round]), typeNode(ts, 'Operation')),
        ),
        // where an object needs parentheses (an arrow function's body, a statement), and with comments of its own
        constStatement(
          ts,
          'arrow',
          undefined,
          f.createArrowFunction(undefined, undefined, [], undefined, undefined, jsonExpression(ts, values[round])),
        ),
        f.createExpressionStatement(jsonExpression(ts, values[round + 1])),
        constStatement(
          ts,
          'commented',
          undefined,
          ts.addSyntheticLeadingComment(
            jsonExpression(ts, values[round + 2]),
            ts.SyntaxKind.MultiLineCommentTrivia,
            ' @__PURE__ ',
            false,
          ),
        ),
      ];
      const text = printModule(ts, [list]);
      expect(text, `round ${round}`).toBe(printModule(ts, [list], false));
      expect(text).toContain('=> ({\n');
    }
  });
});
