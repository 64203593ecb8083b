/**
 * Part of the layout (`./index.ts`): what the documents of every syntax family share: comments,
 * modifiers, names, keys, literals and prettier's assignment layouts.
 */
import type { ts as TS } from 'ts-morph';
import type { Ts } from '../printer.ts';
import { NotLaidOut } from './not-laid-out.ts';
import { NON_ASCII, PLAIN_KEY, printNumber, printString, stringText, stringValue, type B, type Doc } from './text.ts';

/** The documents of one module's nodes: what the syntax families share. */
export class NodeDocs {
  protected readonly K: typeof TS.SyntaxKind;
  constructor(
    protected readonly ts: Ts,
    readonly b: B,
    protected readonly willBreak: (doc: Doc) => boolean,
  ) {
    this.K = ts.SyntaxKind;
  }

  /** `node`'s leading comments (synthetic: `withDoc`'s, a `@__PURE__` mark), unless `quiet`. */
  protected comments(node: TS.Node, doc: Doc, quiet: boolean): Doc {
    const list = quiet ? undefined : this.ts.getSyntheticLeadingComments(node);
    if (this.ts.getSyntheticTrailingComments(node)?.length) throw new NotLaidOut('trailing comment');
    if (!list || list.length === 0) return doc;
    const b = this.b;
    const parts: Doc[] = [];
    for (const c of list) {
      if (c.kind !== this.K.MultiLineCommentTrivia) throw new NotLaidOut('line comment');
      parts.push(this.blockComment(c.text), c.hasTrailingNewLine ? b.hardline : ' ');
    }
    return [...parts, doc];
  }

  /** prettier's block comment: a comment whose lines all start with `*` is indented again, each inner line trimmed. */
  protected blockComment(text: string): Doc {
    const lines = text.split('\n');
    const indentable = lines.length > 1 && `*${text}*`.split('\n').every((l) => l.trimStart()[0] === '*');
    if (!indentable) {
      if (lines.length > 1) throw new NotLaidOut('block comment');
      return `/*${text}*/`;
    }
    const last = lines.length - 1;
    return [
      '/*',
      this.b.join(
        this.b.hardline,
        lines.map((l, i) => (i === 0 ? l.trimEnd() : ` ${i < last ? l.trim() : l.trimStart()}`)),
      ),
      '*/',
    ];
  }

  /** The compiler's emit flags of `node` (`setEmitFlags`), read where its printer reads them. */
  protected emitFlags(node: TS.Node): number {
    return (node as { emitNode?: { flags?: number } }).emitNode?.flags ?? 0;
  }

  protected quiet(node: TS.Node): boolean {
    return (this.emitFlags(node) & this.ts.EmitFlags.NoNestedComments) !== 0;
  }

  protected exported(modifiers: readonly TS.ModifierLike[] | undefined): string {
    if (!modifiers || modifiers.length === 0) return '';
    if (modifiers.length === 1 && modifiers[0]!.kind === this.K.ExportKeyword) return 'export ';
    throw new NotLaidOut('modifier');
  }

  protected identifier(n: TS.Node): string {
    if (!this.ts.isIdentifier(n) || stringText(this.ts, n) !== undefined) throw new NotLaidOut('name');
    return n.text;
  }

  /** `readonly ` for a member's modifiers (none, or `readonly`). */
  protected readonly(modifiers: readonly TS.ModifierLike[] | undefined): string {
    if (!modifiers || modifiers.length === 0) return '';
    if (modifiers.length === 1 && modifiers[0]!.kind === this.K.ReadonlyKeyword) return 'readonly ';
    throw new NotLaidOut('modifier');
  }

  /** A property name as prettier prints it (`quoteProps: 'as-needed'`): a quoted ES5 identifier name is unquoted. */
  protected key(name: TS.PropertyName): string {
    const ts = this.ts;
    if (ts.isNumericLiteral(name)) return printNumber(name.text);
    if (!ts.isIdentifier(name) && !ts.isStringLiteral(name)) throw new NotLaidOut('key');
    const raw = stringText(ts, name);
    if (raw === undefined) return name.text;
    const value = stringValue(raw);
    if (value === undefined) throw new NotLaidOut('key');
    const printed = printString(raw);
    if (PLAIN_KEY.test(value) && printed.slice(1, -1) === value) return value;
    // a non-ASCII identifier name: prettier's identifier test is Unicode's
    if (/^[^\s"'\\]*$/.test(value) && NON_ASCII.test(value)) throw new NotLaidOut('key');
    return printed;
  }

  /** A literal (of a literal type or an expression): string, number, negative number, true, false, null. */
  protected literal(n: TS.Node): string {
    const ts = this.ts;
    const K = this.K;
    if (n.kind === K.NullKeyword) return 'null';
    if (n.kind === K.TrueKeyword) return 'true';
    if (n.kind === K.FalseKeyword) return 'false';
    if (ts.isNumericLiteral(n)) return printNumber(n.text);
    if (ts.isPrefixUnaryExpression(n) && n.operator === K.MinusToken && ts.isNumericLiteral(n.operand))
      return `-${printNumber(n.operand.text)}`;
    const raw = stringText(ts, n);
    if (raw !== undefined) return printString(raw);
    throw new NotLaidOut(ts.SyntaxKind[n.kind]);
  }

  /** `op` then `right`, breaking after `op` only when `right` does not start on the line (a type parameter's constraint or default). */
  protected attached(op: string, right: Doc): Doc {
    const b = this.b;
    const id = Symbol('attached');
    return [op, b.group(b.indent(b.line), { id }), b.lineSuffixBoundary, b.indentIfBreak(right, { groupId: id })];
  }

  /** prettier's `fluid` assignment layout. */
  protected fluid(left: Doc, op: string, right: Doc): Doc {
    const b = this.b;
    return b.group([b.group(left), this.attached(op, right)]);
  }
}
