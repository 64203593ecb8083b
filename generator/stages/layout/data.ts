/**
 * Part of the layout (`./index.ts`): the JSON data of the modules (a schema as an object literal,
 * which the printer always breaks one property a line: `jsonExpression`'s `multiLine`) written as
 * text in prettier's layout, without building and printing a document for it.
 *
 * Such an object's layout depends on nothing before it but the indentation of its lines: every
 * decision in it is taken after a line break, from the line's start. So the module's document holds
 * a placeholder for it (a broken group with one line, `placeholder(i)`, which lays out what is
 * around it exactly as the object's group does), and once the document is printed the placeholder's
 * line, at the indentation prettier gave it, is replaced by the object's properties written here by
 * the rules of `./expressions.ts` (which the proof in test/generator/layout.test.ts holds against
 * prettier): a property whose layout depends on the width of text prettier measures otherwise than
 * by its length (outside ASCII), or a syntax these rules do not cover, is laid out by its document
 * instead, printed at the same indentation.
 */
import type { ts as TS } from 'ts-morph';
import { ExpressionDocs } from './expressions.ts';
import { printString, stringText, type Doc } from './text.ts';

/** The line width of the layout (`LAYOUT_OPTIONS.printWidth`). */
const WIDTH = 120;

/** Text prettier measures by its length (its `getStringWidth`'s test). */
const NARROW = /^[\x20-\x7f]*$/;

/** Thrown where the text rules leave a property to its document (one instance: no stack taken per throw). */
const UNSURE = new Error('layout: a property left to its document');

/** The line that holds the place of the `i`th broken object (no data text holds a NUL: `escape.ts` escapes it). */
const MARK = '\u0000data ';
const placeholder = (i: number): string => `${MARK}${i}\u0000`;

/** The documents of expressions, the broken objects written as text (`fillData`). */
export class DataDocs extends ExpressionDocs {
  /** prettier's document printer with the layout's options (`layoutParts` sets it). */
  printDoc: (doc: Doc) => string = () => {
    throw new Error('layout: no document printer');
  };
  private readonly data: TS.ObjectLiteralExpression[] = [];

  protected override object(o: TS.ObjectLiteralExpression): Doc {
    if (!this.broken(o)) return super.object(o);
    this.data.push(o);
    const b = this.b;
    return b.group(['{', b.indent([b.hardline, placeholder(this.data.length - 1)]), b.hardline, '}'], {
      shouldBreak: true,
    });
  }

  /** `text` (printed from this instance's documents) with each placeholder's line replaced by its object's properties. */
  fillData(text: string): string {
    let at = text.indexOf(MARK);
    if (at < 0) return text;
    let out = '';
    let from = 0;
    while (at >= 0) {
      // the placeholder is alone on its line, after its indentation
      const start = text.lastIndexOf('\n', at) + 1;
      const end = text.indexOf('\u0000', at + MARK.length);
      out +=
        text.slice(from, start) + this.properties(this.data[Number(text.slice(at + MARK.length, end))]!, at - start);
      from = end + 1;
      at = text.indexOf(MARK, from);
    }
    return out + text.slice(from);
  }

  /** A non-empty object literal the printer breaks (prettier keeps it broken). */
  private broken(o: TS.ObjectLiteralExpression): boolean {
    return o.properties.length > 0 && (o as { multiLine?: boolean }).multiLine === true;
  }

  private commented(n: TS.Node): boolean {
    return (
      (this.ts.getSyntheticLeadingComments(n)?.length ?? 0) > 0 ||
      (this.ts.getSyntheticTrailingComments(n)?.length ?? 0) > 0
    );
  }

  /** The lines of `o`'s properties at indentation `ind`, each ending with `,`. */
  private properties(o: TS.ObjectLiteralExpression, ind: number): string {
    return o.properties.map((p) => this.propertyText(p, ind)).join('\n');
  }

  private propertyText(p: TS.ObjectLiteralElementLike, ind: number): string {
    try {
      return this.propertyLines(p, ind);
    } catch (err) {
      if (err !== UNSURE) throw err;
    }
    // its document, printed at the line's start and indentation (nothing before it there counts)
    const b = this.b;
    return this.fillData(this.printDoc(b.align(ind, [b.hardline, this.property(p), ','])).slice(1));
  }

  /** `property`'s layout as text, by prettier's chooseLayout for a property. */
  private propertyLines(p: TS.ObjectLiteralElementLike, ind: number): string {
    const ts = this.ts;
    const K = this.K;
    if (!ts.isPropertyAssignment(p) || this.commented(p)) throw UNSURE;
    const key = this.propertyKey(p);
    const v = p.initializer;
    if (!NARROW.test(key) || this.commented(v)) throw UNSURE;
    const pad = ' '.repeat(ind);
    const shortKey = key.length < 5;
    const raw = stringText(ts, v);
    let value: string;
    // whether prettier puts the value on the next line when the property's line is too long
    let breaks = !shortKey;
    if (raw !== undefined) value = printString(raw);
    else if (ts.isNumericLiteral(v) || v.kind === K.TrueKeyword || v.kind === K.FalseKeyword) {
      value = this.literal(v);
      breaks = false;
    } else if (v.kind === K.NullKeyword || this.isNumber(v)) value = this.literal(v);
    else if (ts.isObjectLiteralExpression(v) && v.properties.length === 0) value = '{}';
    else if (ts.isArrayLiteralExpression(v) && v.elements.length === 0) value = '[]';
    else if (ts.isObjectLiteralExpression(v) || ts.isArrayLiteralExpression(v)) {
      // `key: {` and `key: [` stay on the line (where they fit)
      if (ind + key.length + 3 > WIDTH) throw UNSURE;
      if (ts.isArrayLiteralExpression(v)) return `${pad}${key}: ${this.arrayText(v, ind, ind + key.length + 2)},`;
      if (!this.broken(v)) throw UNSURE;
      return `${pad}${key}: {\n${this.properties(v, ind + 2)}\n${pad}},`;
    } else throw UNSURE;
    if (breaks) {
      if (!NARROW.test(value)) throw UNSURE;
      if (ind + key.length + 2 + value.length + 1 > WIDTH) return `${pad}${key}:\n${pad}  ${value},`;
    }
    return `${pad}${key}: ${value},`;
  }

  /** Whether prettier breaks `e` whatever the width (a broken object, or an array that holds one or breaks itself). */
  private alwaysBreaks(e: TS.Expression): boolean {
    const ts = this.ts;
    if (this.commented(e)) throw UNSURE;
    if (ts.isObjectLiteralExpression(e)) {
      if (e.properties.length > 0 && !this.broken(e)) throw UNSURE;
      return e.properties.length > 0;
    }
    if (!ts.isArrayLiteralExpression(e)) return false;
    // every element is looked at: one the rules do not cover leaves the array to its document
    const inner = e.elements.map((el) => this.alwaysBreaks(el));
    return this.arrayBreaks(e) || inner.some(Boolean);
  }

  /** `e` on one line: a literal, an empty object, an array of such. */
  private flatText(e: TS.Expression): string {
    const ts = this.ts;
    const K = this.K;
    const raw = stringText(ts, e);
    if (raw !== undefined) return printString(raw);
    if (ts.isNumericLiteral(e) || e.kind === K.TrueKeyword || e.kind === K.FalseKeyword) return this.literal(e);
    if (e.kind === K.NullKeyword || this.isNumber(e)) return this.literal(e);
    if (ts.isObjectLiteralExpression(e) && e.properties.length === 0) return '{}';
    if (ts.isArrayLiteralExpression(e)) return `[${e.elements.map((el) => this.flatText(el)).join(', ')}]`;
    throw UNSURE;
  }

  /**
   * A non-empty array starting at column `col` of a line indented `ind`, followed by `,`: on that
   * line when it fits and nothing in it breaks, else one element a line (numbers: as many a line as fit).
   */
  private arrayText(a: TS.ArrayLiteralExpression, ind: number, col: number): string {
    const els = a.elements;
    const pad = ' '.repeat(ind + 2);
    if (!this.alwaysBreaks(a)) {
      const flat = this.flatText(a);
      if (!NARROW.test(flat)) throw UNSURE;
      if (col + flat.length + 1 <= WIDTH) return flat;
      if (els.every((e) => this.isNumber(e))) {
        // prettier's fill: the next number on the line when it fits there with its comma
        const lines: string[] = [];
        let line = '';
        for (const e of els) {
          const item = `${this.literal(e)},`;
          if (line !== '' && line.length + 1 + item.length <= WIDTH) line += ` ${item}`;
          else {
            if (line !== '') lines.push(line);
            line = pad + item;
          }
        }
        lines.push(line);
        return `[\n${lines.join('\n')}\n${' '.repeat(ind)}]`;
      }
    }
    const lines = els.map((e) => `${pad}${this.elementText(e, ind + 2)},`);
    return `[\n${lines.join('\n')}\n${' '.repeat(ind)}]`;
  }

  /** An element of a broken array, at the start of a line indented `ind`. */
  private elementText(e: TS.Expression, ind: number): string {
    const ts = this.ts;
    if (this.commented(e)) throw UNSURE;
    if (ts.isObjectLiteralExpression(e) && e.properties.length > 0) {
      if (!this.broken(e)) throw UNSURE;
      return `{\n${this.properties(e, ind + 2)}\n${' '.repeat(ind)}}`;
    }
    if (ts.isArrayLiteralExpression(e) && e.elements.length > 0) return this.arrayText(e, ind, ind);
    return this.flatText(e);
  }
}
