/**
 * Part of the layout (`./index.ts`): types as prettier lays them out (its `printUnionType`,
 * `printIntersectionType`, `shouldHugType`, type arguments and parameters, members of interfaces
 * and type literals).
 */
import type { ts as TS } from 'ts-morph';
import { NodeDocs } from './base.ts';
import { NotLaidOut } from './not-laid-out.ts';
import { printString, stringText, type Doc } from './text.ts';

/** The documents of types. */
export class TypeDocs extends NodeDocs {
  /** A property or index signature, without its separator. */
  protected member(m: TS.TypeElement, quiet: boolean): Doc {
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

  /** Where a type is printed: it decides a union's indentation. */
  protected type(
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
    // `readonly T[]` (an array type of a name: nothing to break)
    if (ts.isTypeOperatorNode(t) && t.operator === K.ReadonlyKeyword && ts.isArrayTypeNode(t.type)) {
      if (!ts.isTypeReferenceNode(t.type.elementType) || t.type.elementType.typeArguments)
        throw new NotLaidOut('readonly');
      return ['readonly ', this.type(t.type, 'member', quiet)];
    }
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

  protected unparen(t: TS.TypeNode): TS.TypeNode {
    if (this.ts.isParenthesizedTypeNode(t)) throw new NotLaidOut('parentheses');
    return t;
  }

  protected isObjectType(t: TS.TypeNode): boolean {
    return this.ts.isTypeLiteralNode(t);
  }

  protected union(t: TS.UnionTypeNode, where: string, quiet: boolean): Doc {
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
  protected typeArguments(args: readonly TS.TypeNode[], quiet: boolean): Doc {
    const b = this.b;
    const docs = args.map((a) => this.type(a, 'argument', quiet));
    if (args.length === 1 && this.hugs(args[0]!)) return ['<', docs[0]!, '>'];
    return b.group(['<', b.indent([b.softline, b.join([',', b.line], docs)]), b.softline, '>']);
  }

  /** prettier's `shouldHugType`: a keyword, a reference without arguments, an object type, a union of one object-like type and nulls. */
  protected hugs(t: TS.TypeNode): boolean {
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

  /** `<T extends C = D, ...>` of a declaration. */
  protected typeParameters(params: readonly TS.TypeParameterDeclaration[] | undefined, quiet: boolean): Doc {
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
}
