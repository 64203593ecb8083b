/**
 * Part of stage 6 (emit): a module's syntax nodes laid out as prettier lays out their printed text
 * (prettier 3's TypeScript printer, with this repository's `.prettierrc.json`), so that prettier need
 * not parse and print it again (stage 7a skips such a file). The nodes are the ones `printer.ts`
 * prints; this builds prettier's own layout document (`prettier/doc`'s builders) from them by
 * prettier's rules for the syntax the model and parameter modules hold (imports, interfaces, type
 * aliases, constants of JSON data, the endpoint functions), and prints it with prettier's document
 * printer.
 *
 * Anything else (a node kind, a comment or a key these rules do not cover, a layout they leave
 * unsure) throws `NotLaidOut`, and the caller formats the printed text with prettier instead. The
 * proof is test/generator/layout.test.ts: prettier leaves every file laid out here unchanged.
 */
import { createRequire } from 'node:module';
import type { ts as TS } from 'ts-morph';
import type { builders as Builders, printer as DocPrinter, utils as DocUtils } from 'prettier/doc';
import { printModule, type Layout, type Ts } from './printer.ts';

const require = createRequire(import.meta.url);

type Doc = Builders.Doc;

/** The options the layout targets: this repository's `.prettierrc.json` (the rest prettier's defaults). */
export const LAYOUT_OPTIONS: Readonly<Record<string, unknown>> = {
  printWidth: 120,
  singleQuote: true,
  trailingComma: 'all',
  proseWrap: 'preserve',
};

/** Prettier's defaults of the options that change how TypeScript is printed (prettier 3). */
const DEFAULTS: Readonly<Record<string, unknown>> = {
  tabWidth: 2,
  useTabs: false,
  semi: true,
  bracketSpacing: true,
  bracketSameLine: false,
  quoteProps: 'as-needed',
  jsxSingleQuote: false,
  arrowParens: 'always',
  endOfLine: 'lf',
  objectWrap: 'preserve',
  experimentalTernaries: false,
  experimentalOperatorPosition: 'end',
  singleAttributePerLine: false,
  embeddedLanguageFormatting: 'auto',
};

/** The prettier versions whose layout this reproduces (test/generator/layout.test.ts checks the installed one). */
export const LAYOUT_PRETTIER = /^3\.10\./;

/**
 * Whether prettier's options `config` (a resolved configuration, without `parser`/`filepath`) lay a
 * file out exactly as `LAYOUT_OPTIONS`: the same values, every other key absent or at its default;
 * no plugins, no overrides.
 */
export function laysOutAs(config: Readonly<Record<string, unknown>>): boolean {
  const keys = new Set([...Object.keys(config), ...Object.keys(LAYOUT_OPTIONS)]);
  for (const k of keys) {
    const want = k in LAYOUT_OPTIONS ? LAYOUT_OPTIONS[k] : DEFAULTS[k];
    if (want === undefined || config[k] !== want) {
      if (!(k in LAYOUT_OPTIONS) && config[k] === undefined) continue;
      return false;
    }
  }
  return true;
}

/** The module's syntax is outside what this lays out; the caller formats with prettier. */
export class NotLaidOut extends Error {}

type DocModule = { builders: typeof Builders; printer: typeof DocPrinter; utils: typeof DocUtils };
let docModule: DocModule | undefined;

/** `printModule`'s text of `layout`, laid out as prettier would (ending with a line break); the header is the caller's. @throws NotLaidOut */
export function layoutModule(ts: Ts, layout: Layout): string {
  docModule ??= require('prettier/doc') as DocModule;
  const docs = new Docs(ts, docModule.builders, docModule.utils.willBreak);
  const parts: Doc[] = [];
  for (const entry of layout) {
    if (typeof entry === 'string') {
      // a line of the generator's own (a `// @ts-nocheck` directive): prettier keeps a line comment as it is
      if (!entry.startsWith('//') || entry.includes('\n') || entry !== entry.trimEnd()) throw new NotLaidOut('text');
      parts.push(entry);
      continue;
    }
    const run = (Array.isArray(entry) ? entry : [entry]) as readonly TS.Statement[];
    if (run.length === 0) continue;
    parts.push(
      docs.b.join(
        docs.b.hardline,
        run.map((s) => docs.statement(s)),
      ),
    );
  }
  const doc = docs.b.join([docs.b.hardline, docs.b.hardline], parts);
  const { formatted } = docModule.printer.printDocToString(doc, {
    printWidth: 120,
    tabWidth: 2,
    useTabs: false,
    endOfLine: 'lf',
  } as Parameters<typeof DocPrinter.printDocToString>[1]);
  if (formatted.includes(UNSURE)) throw new NotLaidOut('unsure layout');
  return `${formatted}\n`;
}

/** Put where a layout is not known when a group breaks: its appearance in the output refuses the file. */
const UNSURE = '\u0000unsure\u0000';

/** A character outside ASCII (prettier measures such text by its display width). */
const NON_ASCII = /[\u0080-\u{10ffff}]/u;

/** ES5 identifier names of ASCII (prettier unquotes a key that is one). */
const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** prettier's `printNumber`. */
function printNumber(raw: string): string {
  if (raw.length === 1) return raw;
  return raw
    .toLowerCase()
    .replace(/^([+-]?[\d.]+e)(?:\+|(-))?0*(?=\d)/, '$1$2')
    .replace(/^([+-]?[\d.]+)e[+-]?0+$/, '$1')
    .replace(/^([+-])?\./, '$10.')
    .replace(/(\.\d+?)0+(?=e|$)/, '$1')
    .replace(/\.(?=e|$)/, '');
}

/** prettier's `printString` with `singleQuote` (a JavaScript string literal's text in either quote). */
function printString(raw: string): string {
  const content = raw.slice(1, -1);
  let single = 0;
  let double = 0;
  for (let i = 0; i < content.length; i++) {
    const c = content.charCodeAt(i);
    if (c === 39) single++;
    else if (c === 34) double++;
  }
  const quote = single > double ? '"' : "'";
  if (raw[0] === quote) return raw;
  const other = quote === '"' ? "'" : '"';
  const body = content.replace(/\\(["'\\])|(["'])/g, (match, escaped: string | undefined, unescaped: string) => {
    if (escaped) return escaped === other ? other : match;
    return unescaped === quote ? `\\${unescaped}` : unescaped;
  });
  return quote + body + quote;
}

/** The literal's source text when `node` is a string literal (`printer.ts`' `stringNode` is an identifier holding one). */
function stringText(ts: Ts, node: TS.Node): string | undefined {
  if (ts.isStringLiteral(node))
    return (node as { singleQuote?: boolean }).singleQuote ? `'${node.text}'` : JSON.stringify(node.text);
  if (ts.isIdentifier(node)) {
    const t = node.text;
    if (t.length >= 2 && (t[0] === '"' || t[0] === "'") && t.at(-1) === t[0]) return t;
  }
  return undefined;
}

/** The text of a JSON string literal's value (escape.ts writes `stringLiteral` with JSON's escapes, and `\u2028`, `\u2029`, `<\/`). */
function stringValue(raw: string): string | undefined {
  if (raw[0] === "'" && !raw.includes('\\')) return raw.slice(1, -1);
  if (raw[0] !== '"') return undefined;
  try {
    return JSON.parse(raw.replace(/<\\\//g, '</')) as string;
  } catch {
    return undefined;
  }
}

type B = typeof Builders;

/** The documents of one module's nodes. */
class Docs {
  private readonly K: typeof TS.SyntaxKind;
  constructor(
    private readonly ts: Ts,
    readonly b: B,
    private readonly willBreak: (doc: Doc) => boolean,
  ) {
    this.K = ts.SyntaxKind;
  }

  /** `node`'s leading comments (synthetic: `withDoc`'s, a `@__PURE__` mark), unless `quiet`. */
  private comments(node: TS.Node, doc: Doc, quiet: boolean): Doc {
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
  private blockComment(text: string): Doc {
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
  private emitFlags(node: TS.Node): number {
    return (node as { emitNode?: { flags?: number } }).emitNode?.flags ?? 0;
  }

  private quiet(node: TS.Node): boolean {
    return (this.emitFlags(node) & this.ts.EmitFlags.NoNestedComments) !== 0;
  }

  private exported(modifiers: readonly TS.ModifierLike[] | undefined): string {
    if (!modifiers || modifiers.length === 0) return '';
    if (modifiers.length === 1 && modifiers[0]!.kind === this.K.ExportKeyword) return 'export ';
    throw new NotLaidOut('modifier');
  }

  statement(s: TS.Statement): Doc {
    const ts = this.ts;
    let doc: Doc;
    const quiet = this.quiet(s);
    if (ts.isImportDeclaration(s)) doc = this.importDeclaration(s);
    else if (ts.isInterfaceDeclaration(s)) doc = this.interfaceDeclaration(s, quiet);
    else if (ts.isTypeAliasDeclaration(s)) doc = this.typeAlias(s, quiet);
    else if (ts.isVariableStatement(s)) doc = this.variableStatement(s);
    else if (ts.isFunctionDeclaration(s)) doc = this.functionDeclaration(s);
    else throw new NotLaidOut(ts.SyntaxKind[s.kind]);
    return this.comments(s, doc, false);
  }

  private importDeclaration(s: TS.ImportDeclaration): Doc {
    const b = this.b;
    const clause = s.importClause;
    const bindings = clause?.namedBindings;
    if (!clause || clause.name || !bindings || !this.ts.isNamedImports(bindings) || s.modifiers?.length || s.attributes)
      throw new NotLaidOut('import');
    const names = bindings.elements.map((e) =>
      e.propertyName ? `${this.identifier(e.propertyName)} as ${e.name.text}` : e.name.text,
    );
    const source = stringText(this.ts, s.moduleSpecifier);
    if (source === undefined || names.length === 0) throw new NotLaidOut('import');
    const specifiers: Doc =
      names.length > 1
        ? b.group(['{', b.indent([b.line, b.join([',', b.line], names)]), b.ifBreak(','), b.line, '}'])
        : ['{ ', names[0]!, ' }'];
    return ['import ', clause.isTypeOnly ? 'type ' : '', specifiers, ' from ', printString(source), ';'];
  }

  private identifier(n: TS.Node): string {
    if (!this.ts.isIdentifier(n) || stringText(this.ts, n) !== undefined) throw new NotLaidOut('name');
    return n.text;
  }

  private interfaceDeclaration(s: TS.InterfaceDeclaration, quiet: boolean): Doc {
    if (s.typeParameters || s.heritageClauses) throw new NotLaidOut('interface');
    const b = this.b;
    const members = s.members.map((m) => [this.member(m, quiet), ';']);
    return [
      this.exported(s.modifiers),
      'interface ',
      this.identifier(s.name),
      ' {',
      members.length > 0 ? [b.indent([b.hardline, b.join(b.hardline, members)]), b.hardline] : '',
      '}',
    ];
  }

  /** A property or index signature, without its separator. */
  private member(m: TS.TypeElement, quiet: boolean): Doc {
    const ts = this.ts;
    const b = this.b;
    let doc: Doc;
    if (ts.isPropertySignature(m)) {
      const readonly = this.readonly(m.modifiers);
      if (!m.type) throw new NotLaidOut('property signature');
      doc = b.group([
        readonly,
        this.key(m.name),
        m.questionToken ? '?' : '',
        ': ',
        this.type(m.type, 'annotation', quiet),
      ]);
    } else if (ts.isIndexSignatureDeclaration(m)) {
      const [p] = m.parameters;
      const readonly = this.readonly(m.modifiers);
      if (m.parameters.length !== 1 || !p!.type || p!.questionToken || p!.dotDotDotToken)
        throw new NotLaidOut('index signature');
      const param = [this.identifier(p!.name), ': ', this.type(p!.type, 'annotation', quiet)];
      doc = b.group([
        readonly,
        '[',
        b.group([b.indent([b.softline, param]), b.softline]),
        ']',
        ': ',
        this.type(m.type, 'annotation', quiet),
      ]);
    } else throw new NotLaidOut(ts.SyntaxKind[m.kind]);
    return this.comments(m, doc, quiet);
  }

  /** `readonly ` for a member's modifiers (none, or `readonly`). */
  private readonly(modifiers: readonly TS.ModifierLike[] | undefined): string {
    if (!modifiers || modifiers.length === 0) return '';
    if (modifiers.length === 1 && modifiers[0]!.kind === this.K.ReadonlyKeyword) return 'readonly ';
    throw new NotLaidOut('modifier');
  }

  /** A property name as prettier prints it (`quoteProps: 'as-needed'`): a quoted ES5 identifier name is unquoted. */
  private key(name: TS.PropertyName): string {
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

  /** Where a type is printed: it decides a union's indentation. */
  private type(
    t: TS.TypeNode,
    where: 'annotation' | 'argument' | 'tuple' | 'tuple-many' | 'member' | 'paren',
    quiet: boolean,
  ): Doc {
    const ts = this.ts;
    const K = this.K;
    const b = this.b;
    switch (t.kind) {
      case K.StringKeyword:
        return 'string';
      case K.NumberKeyword:
        return 'number';
      case K.BooleanKeyword:
        return 'boolean';
      case K.UnknownKeyword:
        return 'unknown';
      case K.NeverKeyword:
        return 'never';
      case K.ObjectKeyword:
        return 'object';
    }
    if (ts.isLiteralTypeNode(t)) return this.literal(t.literal);
    if (ts.isTypeReferenceNode(t)) {
      const name = this.identifier(t.typeName);
      return t.typeArguments ? [name, this.typeArguments(t.typeArguments, quiet)] : name;
    }
    if (ts.isArrayTypeNode(t)) {
      const e = t.elementType;
      if (ts.isParenthesizedTypeNode(e) || ts.isUnionTypeNode(e) || ts.isIntersectionTypeNode(e)) {
        const inner = ts.isParenthesizedTypeNode(e) ? e.type : e;
        return ['(', this.type(inner, 'paren', quiet), ')[]'];
      }
      return [this.type(e, 'member', quiet), '[]'];
    }
    if (ts.isParenthesizedTypeNode(t)) throw new NotLaidOut('parentheses');
    if (ts.isUnionTypeNode(t)) return this.union(t, where, quiet);
    if (ts.isIndexedAccessTypeNode(t))
      return [
        this.type(this.unparen(t.objectType), 'member', quiet),
        '[',
        this.type(t.indexType, 'member', quiet),
        ']',
      ];
    if (ts.isIntersectionTypeNode(t)) {
      if (where === 'paren') throw new NotLaidOut('intersection');
      // prettier's printIntersectionType
      let wasIndented = false;
      const types = t.types.map((m) => this.unparen(m));
      return b.group(
        types.map((m, i) => {
          const doc = this.type(m, 'member', quiet);
          if (i === 0) return doc;
          const isObject = this.isObjectType(m);
          const previousIsObject = this.isObjectType(types[i - 1]!);
          if (previousIsObject && isObject) return [' & ', wasIndented ? b.indent(doc) : doc];
          if (!previousIsObject && !isObject) return b.indent([' &', b.line, doc]);
          if (i > 1) wasIndented = true;
          return [' & ', i > 1 ? b.indent(doc) : doc];
        }),
      );
    }
    if (ts.isTupleTypeNode(t)) {
      if (t.elements.length === 0) return '[]';
      const many = t.elements.length > 1;
      const elements = t.elements.map((e) =>
        ts.isRestTypeNode(e)
          ? b.group(['...', this.type(e.type, 'member', quiet)])
          : b.group(this.type(this.unparen(e), many ? 'tuple-many' : 'tuple', quiet)),
      );
      return b.group(['[', b.indent([b.softline, b.join([',', b.line], elements), b.ifBreak(',')]), b.softline, ']']);
    }
    if (ts.isTypeLiteralNode(t)) {
      if (t.members.length === 0) return '{}';
      const members = t.members.map((m, i) => [
        this.member(m, quiet),
        i === t.members.length - 1 ? b.ifBreak(';') : ';',
      ]);
      // the compiler's printer writes a type literal over several lines (unless marked single-line):
      // prettier keeps it broken
      return b.group(['{', b.indent([b.line, b.join(b.line, members)]), b.line, '}'], {
        shouldBreak: (this.emitFlags(t) & this.ts.EmitFlags.SingleLine) === 0,
      });
    }
    // a string literal type written as an identifier holding the literal (openapi-typescript's `tsLiteral`)
    const raw = stringText(ts, t);
    if (raw !== undefined) return printString(raw);
    throw new NotLaidOut(ts.SyntaxKind[t.kind]);
  }

  private unparen(t: TS.TypeNode): TS.TypeNode {
    if (this.ts.isParenthesizedTypeNode(t)) throw new NotLaidOut('parentheses');
    return t;
  }

  private isObjectType(t: TS.TypeNode): boolean {
    return this.ts.isTypeLiteralNode(t);
  }

  private union(t: TS.UnionTypeNode, where: string, quiet: boolean): Doc {
    const ts = this.ts;
    const b = this.b;
    const K = this.K;
    const isVoid = (m: TS.TypeNode) => ts.isLiteralTypeNode(m) && m.literal.kind === K.NullKeyword;
    const objectLike = t.types.find((m) => ts.isTypeLiteralNode(m) || ts.isTypeReferenceNode(m));
    const docs = t.types.map((m) => {
      if (ts.isUnionTypeNode(m) || ts.isParenthesizedTypeNode(m)) throw new NotLaidOut('nested union');
      return this.type(m, 'member', quiet);
    });
    if (objectLike && t.types.every((m) => m === objectLike || isVoid(m))) return b.join(' | ', docs);
    const printed = b.group(docs.map((d, i) => [i === 0 ? b.ifBreak('| ') : [b.line, '| '], b.align(2, d)]));
    switch (where) {
      case 'paren':
        return b.group([b.indent([b.softline, printed]), b.softline]);
      case 'tuple-many':
        return b.group([b.indent([b.ifBreak(['(', b.softline]), printed]), b.softline, b.ifBreak(')')]);
      case 'tuple':
      case 'argument':
        return printed;
      case 'annotation':
        return b.group(b.indent([b.softline, printed]));
      default:
        // a union inside a union or an intersection: the factory parenthesizes it; not laid out here
        throw new NotLaidOut('union');
    }
  }

  /** `<A, B>` of a type reference (a `TSTypeParameterInstantiation`: no trailing comma). */
  private typeArguments(args: readonly TS.TypeNode[], quiet: boolean): Doc {
    const b = this.b;
    const docs = args.map((a) => this.type(a, 'argument', quiet));
    if (args.length === 1 && this.hugs(args[0]!)) return ['<', docs[0]!, '>'];
    return b.group(['<', b.indent([b.softline, b.join([',', b.line], docs)]), b.softline, '>']);
  }

  /** prettier's `shouldHugType`: a keyword, a reference without arguments, an object type, a union of one object-like type and nulls. */
  private hugs(t: TS.TypeNode): boolean {
    const ts = this.ts;
    const K = this.K;
    if (ts.isTypeReferenceNode(t)) return t.typeArguments === undefined;
    if (ts.isTypeLiteralNode(t)) return true;
    if (ts.isLiteralTypeNode(t)) return t.literal.kind === K.NullKeyword;
    if (ts.isUnionTypeNode(t)) {
      const objectLike = t.types.find((m) => ts.isTypeLiteralNode(m) || ts.isTypeReferenceNode(m));
      return (
        objectLike !== undefined &&
        t.types.every((m) => m === objectLike || (ts.isLiteralTypeNode(m) && m.literal.kind === K.NullKeyword))
      );
    }
    return [
      K.StringKeyword,
      K.NumberKeyword,
      K.BooleanKeyword,
      K.UnknownKeyword,
      K.NeverKeyword,
      K.ObjectKeyword,
    ].includes(t.kind);
  }

  /** A literal (of a literal type or an expression): string, number, negative number, true, false, null. */
  private literal(n: TS.Node): string {
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

  private typeAlias(s: TS.TypeAliasDeclaration, quiet: boolean): Doc {
    const left = [
      this.exported(s.modifiers),
      'type ',
      this.identifier(s.name),
      this.typeParameters(s.typeParameters, quiet),
    ];
    // prettier's assignment layout: a type reference is laid out `fluid`
    if (!this.ts.isTypeReferenceNode(s.type)) throw new NotLaidOut('type alias');
    if ((s.typeParameters?.length ?? 0) > 1) throw new NotLaidOut('type parameters');
    return [this.fluid(left, ' =', this.type(s.type, 'annotation', quiet)), ';'];
  }

  /** `<T extends C = D, ...>` of a declaration. */
  private typeParameters(params: readonly TS.TypeParameterDeclaration[] | undefined, quiet: boolean): Doc {
    if (!params || params.length === 0) return '';
    const b = this.b;
    const docs = params.map((p) => {
      if (p.modifiers?.length) throw new NotLaidOut('type parameter');
      const parts: Doc[] = [p.name.text];
      if (p.constraint) parts.push(this.attached(' extends', this.type(p.constraint, 'annotation', quiet)));
      if (p.default) parts.push(this.attached(' =', this.type(p.default, 'annotation', quiet)));
      return b.group(parts);
    });
    return b.group(['<', b.indent([b.softline, b.join([',', b.line], docs)]), b.ifBreak(','), b.softline, '>']);
  }

  /** `op` then `right`, breaking after `op` only when `right` does not start on the line (a type parameter's constraint or default). */
  private attached(op: string, right: Doc): Doc {
    const b = this.b;
    const id = Symbol('attached');
    return [op, b.group(b.indent(b.line), { id }), b.lineSuffixBoundary, b.indentIfBreak(right, { groupId: id })];
  }

  /** prettier's `fluid` assignment layout. */
  private fluid(left: Doc, op: string, right: Doc): Doc {
    const b = this.b;
    return b.group([b.group(left), this.attached(op, right)]);
  }

  private variableStatement(s: TS.VariableStatement): Doc {
    const list = s.declarationList;
    if (!(list.flags & this.ts.NodeFlags.Const) || list.declarations.length !== 1) throw new NotLaidOut('variable');
    const d = list.declarations[0]!;
    if (!d.initializer || d.exclamationToken) throw new NotLaidOut('variable');
    const left: Doc = [this.identifier(d.name), d.type ? [': ', this.type(d.type, 'annotation', false)] : ''];
    const init = d.initializer;
    const ts = this.ts;
    // prettier's layouts (chooseLayout) for what the generator assigns: `break-lhs` for a type with
    // more than one argument of which one has arguments; `fluid` for the rest but a string
    if (d.type && ts.isTypeReferenceNode(d.type)) {
      const args = d.type.typeArguments ?? [];
      if (args.length > 1 && args.some((a) => ts.isTypeReferenceNode(a) && a.typeArguments))
        throw new NotLaidOut('type');
    }
    if (stringText(ts, init) !== undefined) throw new NotLaidOut('string constant');
    // a call with at most one argument is laid out `break-after-operator`
    if (ts.isCallExpression(init) && init.arguments.length <= 1) throw new NotLaidOut('short call');
    return this.b.group([this.exported(s.modifiers), 'const ', this.fluid(left, ' =', this.expression(init)), ';']);
  }

  private functionDeclaration(s: TS.FunctionDeclaration): Doc {
    const b = this.b;
    if (!s.name || !s.body || s.asteriskToken || !s.type) throw new NotLaidOut('function');
    const tp = s.typeParameters ?? [];
    const params = s.parameters.map((p) => {
      if (p.modifiers?.length || p.dotDotDotToken || p.initializer || !p.type) throw new NotLaidOut('parameter');
      return [this.identifier(p.name), p.questionToken ? '?' : '', ': ', this.type(p.type, 'annotation', false)];
    });
    // prettier groups the parameters alone (so that the return type breaks first) only for one parameter
    if (params.length === 1 && (tp.length === 0 || (tp.length === 1 && !tp[0]!.constraint && !tp[0]!.default)))
      throw new NotLaidOut('one parameter');
    const paramsDoc: Doc =
      params.length === 0
        ? '()'
        : ['(', b.indent([b.softline, b.join([',', b.line], params)]), b.ifBreak(','), b.softline, ')'];
    const statements = s.body.statements.map((st) => this.bodyStatement(st));
    return [
      this.exported(s.modifiers),
      'function ',
      this.identifier(s.name),
      this.typeParameters(s.typeParameters, false),
      b.group([paramsDoc, ': ', this.type(s.type, 'annotation', false)]),
      ' {',
      statements.length > 0 ? [b.indent([b.hardline, b.join(b.hardline, statements)]), b.hardline] : '',
      '}',
    ];
  }

  private bodyStatement(s: TS.Statement): Doc {
    if (!this.ts.isReturnStatement(s) || !s.expression) throw new NotLaidOut(this.ts.SyntaxKind[s.kind]);
    return this.comments(s, ['return ', this.expression(s.expression), ';'], false);
  }

  private expression(e: TS.Expression): Doc {
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
    } else if (ts.isIdentifier(e) && stringText(ts, e) === undefined) doc = e.text;
    else doc = this.literal(e);
    return this.comments(e, doc, false);
  }

  private object(o: TS.ObjectLiteralExpression): Doc {
    const b = this.b;
    if (o.properties.length === 0) return '{}';
    const props = o.properties.map((p) => this.property(p));
    return b.group(['{', b.indent([b.line, b.join([',', b.line], props)]), b.ifBreak(','), b.line, '}'], {
      // prettier keeps an object broken when its text breaks after `{`: the compiler's printer does so for `multiLine`
      shouldBreak: (o as { multiLine?: boolean }).multiLine === true,
    });
  }

  private property(p: TS.ObjectLiteralElementLike): Doc {
    const ts = this.ts;
    const b = this.b;
    if (ts.getSyntheticLeadingComments(p)?.length) throw new NotLaidOut('comment');
    if (ts.isSpreadAssignment(p)) return ['...', this.expression(p.expression)];
    if (!ts.isPropertyAssignment(p)) throw new NotLaidOut(ts.SyntaxKind[p.kind]);
    let key: string;
    if (ts.isComputedPropertyName(p.name)) {
      const raw = stringText(ts, p.name.expression);
      if (raw === undefined) throw new NotLaidOut('computed key');
      key = `[${printString(raw)}]`;
    } else key = this.key(p.name);
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

  private array(a: TS.ArrayLiteralExpression): Doc {
    const ts = this.ts;
    const b = this.b;
    const els = a.elements;
    if (els.length === 0) return '[]';
    const isNumber = (e: TS.Expression) =>
      ts.isNumericLiteral(e) ||
      (ts.isPrefixUnaryExpression(e) && e.operator === this.K.MinusToken && ts.isNumericLiteral(e.operand));
    const id = Symbol('array');
    const shouldBreak =
      els.length > 1 &&
      els.every((e, i) => {
        const next = els[i + 1];
        if (ts.isObjectLiteralExpression(e))
          return (!next || ts.isObjectLiteralExpression(next)) && e.properties.length > 1;
        if (ts.isArrayLiteralExpression(e))
          return (!next || ts.isArrayLiteralExpression(next)) && e.elements.length > 1;
        return false;
      });
    if (els.every(isNumber)) {
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

  private call(c: TS.CallExpression): Doc {
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

/** A module's text already in prettier's layout (`layoutModule`): the write stage does not format it. */
export interface LaidOut {
  laidOut: string;
}

/**
 * `printModule(ts, layout)`, or with `layOut` the module laid out as prettier lays it out
 * (`layoutModule`) when its syntax is covered (else the printed text, which prettier formats).
 */
export function printModuleAs(ts: Ts, layout: Layout, layOut: boolean): string | LaidOut {
  if (layOut)
    try {
      return { laidOut: layoutModule(ts, layout) };
    } catch (err) {
      if (!(err instanceof NotLaidOut)) throw err;
    }
  return printModule(ts, layout);
}
