/**
 * Part of the layout (`./index.ts`): expressions as prettier lays them out: the JSON data of the
 * modules (objects, arrays, literals), calls, `as` expressions.
 */
import type { ts as TS } from 'ts-morph';
import { TypeDocs } from './types.ts';
import { NotLaidOut } from './not-laid-out.ts';
import { NON_ASCII, printString, stringText, type Doc } from './text.ts';

/** The documents of expressions. */
export class ExpressionDocs extends TypeDocs {
  protected expression(e: TS.Expression): Doc {
    const ts = this.ts;
    let doc: Doc;
    if (ts.isObjectLiteralExpression(e)) doc = this.object(e);
    else if (ts.isArrayLiteralExpression(e)) doc = this.array(e);
    else if (ts.isCallExpression(e)) doc = this.call(e);
    else if (ts.isAsExpression(e)) {
      const type =
        ts.isTypeReferenceNode(e.type) && ts.isIdentifier(e.type.typeName) && e.type.typeName.text === 'const'
          ? 'const'
          : this.type(e.type, 'annotation', false);
      doc = [this.expression(e.expression), ' as ', type];
    } else if (ts.isSatisfiesExpression(e))
      doc = [this.expression(e.expression), ' satisfies ', this.type(e.type, 'annotation', false)];
    else if (ts.isIdentifier(e) && stringText(ts, e) === undefined) doc = e.text;
    else doc = this.literal(e);
    return this.comments(e, doc, false);
  }

  protected object(o: TS.ObjectLiteralExpression): Doc {
    const b = this.b;
    if (o.properties.length === 0) return '{}';
    const props = o.properties.map((p) => this.property(p));
    return b.group(['{', b.indent([b.line, b.join([',', b.line], props)]), b.ifBreak(','), b.line, '}'], {
      // prettier keeps an object broken when its text breaks after `{`: the compiler's printer does so for `multiLine`
      shouldBreak: (o as { multiLine?: boolean }).multiLine === true,
    });
  }

  protected property(p: TS.ObjectLiteralElementLike): Doc {
    const ts = this.ts;
    const b = this.b;
    if (ts.getSyntheticLeadingComments(p)?.length) throw new NotLaidOut('comment');
    if (ts.isSpreadAssignment(p)) return ['...', this.expression(p.expression)];
    if (!ts.isPropertyAssignment(p)) throw new NotLaidOut(ts.SyntaxKind[p.kind]);
    const key = this.propertyKey(p);
    const v = p.initializer;
    const value = this.expression(v);
    // prettier's chooseLayout for a property (its key cannot break)
    if (NON_ASCII.test(key) && key.length < 12) throw new NotLaidOut('key width');
    const shortKey = key.length < 5;
    if (stringText(ts, v) !== undefined && !shortKey) return b.group([key, ':', b.group(b.indent([b.line, value]))]);
    const numeric = ts.isNumericLiteral(v) || v.kind === this.K.TrueKeyword || v.kind === this.K.FalseKeyword;
    if (shortKey || numeric) return b.group([key, ': ', value]);
    if (ts.isCallExpression(v) || ts.isAsExpression(v) || ts.isIdentifier(v)) throw new NotLaidOut('property value');
    return this.fluid(key, ':', value);
  }

  /** A property's key as prettier prints it (a computed key: a string literal in brackets). */
  protected propertyKey(p: TS.PropertyAssignment): string {
    if (!this.ts.isComputedPropertyName(p.name)) return this.key(p.name);
    const raw = stringText(this.ts, p.name.expression);
    if (raw === undefined) throw new NotLaidOut('computed key');
    return `[${printString(raw)}]`;
  }

  /** A number literal, negative or not (prettier fills an array of them). */
  protected isNumber(e: TS.Expression): boolean {
    const ts = this.ts;
    return (
      ts.isNumericLiteral(e) ||
      (ts.isPrefixUnaryExpression(e) && e.operator === this.K.MinusToken && ts.isNumericLiteral(e.operand))
    );
  }

  /** prettier's `shouldBreak` of an array: more than one element, all objects of more than one property or all arrays of more than one element. */
  protected arrayBreaks(a: TS.ArrayLiteralExpression): boolean {
    const ts = this.ts;
    const els = a.elements;
    return (
      els.length > 1 &&
      els.every((e, i) => {
        const next = els[i + 1];
        if (ts.isObjectLiteralExpression(e))
          return (!next || ts.isObjectLiteralExpression(next)) && e.properties.length > 1;
        if (ts.isArrayLiteralExpression(e))
          return (!next || ts.isArrayLiteralExpression(next)) && e.elements.length > 1;
        return false;
      })
    );
  }

  protected array(a: TS.ArrayLiteralExpression): Doc {
    const b = this.b;
    const els = a.elements;
    if (els.length === 0) return '[]';
    const id = Symbol('array');
    const shouldBreak = this.arrayBreaks(a);
    if (els.every((e) => this.isNumber(e))) {
      const trailing = b.ifBreak(',', '', { groupId: id });
      const parts: Doc[] = [];
      els.forEach((e, i) => {
        parts.push([this.expression(e), i === els.length - 1 ? trailing : ',']);
        if (i < els.length - 1) parts.push(b.line);
      });
      return b.group(['[', b.indent([b.softline, b.fill(parts)]), b.softline, ']'], { shouldBreak, id });
    }
    const items = els.map((e) => b.group(this.expression(e)));
    return b.group(['[', b.indent([b.softline, b.join([',', b.line], items), b.ifBreak(',')]), b.softline, ']'], {
      shouldBreak,
      id,
    });
  }

  protected call(c: TS.CallExpression): Doc {
    const ts = this.ts;
    const b = this.b;
    if (c.typeArguments || !ts.isIdentifier(c.expression) || stringText(ts, c.expression) !== undefined)
      throw new NotLaidOut('call');
    const callee = c.expression.text;
    if (/^(?:skip|[fx]?(?:it|describe|test)|require|define|useEffect|useMemo|useCallback)$/.test(callee))
      throw new NotLaidOut('call');
    const args = c.arguments;
    if (args.length === 0) return [callee, '()'];
    const docs = args.map((a) => this.expression(a));
    const last = args[args.length - 1]!;
    const first = args[0]!;
    const expandable = (e: TS.Expression) =>
      (ts.isObjectLiteralExpression(e) && e.properties.length > 0) ||
      (ts.isArrayLiteralExpression(e) && e.elements.length > 0) ||
      ts.isArrowFunction(e) ||
      ts.isFunctionExpression(e);
    // prettier hugs a first function argument, and a last object or array argument unless another
    // argument breaks: only the latter is laid out here (all arguments broken out)
    if (ts.isArrowFunction(first) || ts.isFunctionExpression(first)) throw new NotLaidOut('first argument');
    const penultimate = args[args.length - 2];
    const breaks = docs.map((d) => this.willBreak(d));
    if (expandable(last) && (!penultimate || penultimate.kind !== last.kind) && !breaks.slice(0, -1).some(Boolean))
      throw new NotLaidOut('last argument');
    const printed = docs.map((d, i) => (i === docs.length - 1 ? d : [d, ',', b.line]));
    return [
      callee,
      b.group(['(', b.indent([b.softline, ...printed]), b.ifBreak(','), b.softline, ')'], {
        shouldBreak: breaks.some(Boolean),
      }),
    ];
  }
}
