/**
 * Part of the layout (`./index.ts`): statements as prettier lays them out: imports, interfaces,
 * type aliases, constants and the endpoint functions.
 */
import type { ts as TS } from 'ts-morph';
import { DataDocs } from './data.ts';
import { NotLaidOut } from './not-laid-out.ts';
import { printString, stringText, type Doc } from './text.ts';

/** The documents of a module's statements. */
export class Docs extends DataDocs {
  statement(s: TS.Statement): Doc {
    const ts = this.ts;
    let doc: Doc;
    const quiet = this.quiet(s);
    if (ts.isImportDeclaration(s)) doc = this.importDeclaration(s);
    else if (ts.isExportDeclaration(s)) doc = this.exportDeclaration(s);
    else if (ts.isInterfaceDeclaration(s)) doc = this.interfaceDeclaration(s, quiet);
    else if (ts.isTypeAliasDeclaration(s)) doc = this.typeAlias(s, quiet);
    else if (ts.isVariableStatement(s)) doc = this.variableStatement(s);
    else if (ts.isFunctionDeclaration(s)) doc = this.functionDeclaration(s);
    else throw new NotLaidOut(ts.SyntaxKind[s.kind]);
    return this.comments(s, doc, false);
  }

  protected importDeclaration(s: TS.ImportDeclaration): Doc {
    const clause = s.importClause;
    const bindings = clause?.namedBindings;
    if (!clause || clause.name || !bindings || !this.ts.isNamedImports(bindings) || s.modifiers?.length || s.attributes)
      throw new NotLaidOut('import');
    const names = bindings.elements.map((e) =>
      e.propertyName ? `${this.identifier(e.propertyName)} as ${e.name.text}` : e.name.text,
    );
    const source = stringText(this.ts, s.moduleSpecifier);
    if (source === undefined || names.length === 0) throw new NotLaidOut('import');
    return ['import ', clause.isTypeOnly ? 'type ' : '', this.specifiers(names), ' from ', printString(source), ';'];
  }

  /** `{ a, b }` of an import or export: broken one a line when too long (one alone never breaks). */
  private specifiers(names: string[]): Doc {
    const b = this.b;
    return names.length > 1
      ? b.group(['{', b.indent([b.line, b.join([',', b.line], names)]), b.ifBreak(','), b.line, '}'])
      : ['{ ', names[0]!, ' }'];
  }

  /** `export { names };` or `export type { names };` (no source module, no renaming). */
  protected exportDeclaration(s: TS.ExportDeclaration): Doc {
    const clause = s.exportClause;
    if (s.moduleSpecifier || s.modifiers?.length || s.attributes || !clause || !this.ts.isNamedExports(clause))
      throw new NotLaidOut('export');
    const names = clause.elements.map((e) => {
      if (e.propertyName || e.isTypeOnly) throw new NotLaidOut('export');
      return this.identifier(e.name);
    });
    if (names.length === 0) throw new NotLaidOut('export');
    return ['export ', s.isTypeOnly ? 'type ' : '', this.specifiers(names), ';'];
  }

  protected interfaceDeclaration(s: TS.InterfaceDeclaration, quiet: boolean): Doc {
    if (s.typeParameters || (s.heritageClauses?.length ?? 0) > 1) throw new NotLaidOut('interface');
    const b = this.b;
    const members = s.members.map((m) => [this.member(m, quiet), ';']);
    const name = this.identifier(s.name);
    // prettier's interface (its class printer): one `extends` of a name stays on the name's line, never broken
    const clause = s.heritageClauses?.[0];
    let head: Doc = name;
    if (clause) {
      const [base, ...more] = clause.types;
      if (clause.token !== this.K.ExtendsKeyword || !base || more.length > 0 || !this.ts.isIdentifier(base.expression))
        throw new NotLaidOut('heritage');
      const baseName = this.identifier(base.expression);
      head = [name, ' extends ', baseName, base.typeArguments ? this.typeArguments(base.typeArguments, quiet) : ''];
    }
    return [
      this.exported(s.modifiers),
      'interface ',
      head,
      ' {',
      members.length > 0 ? [b.indent([b.hardline, b.join(b.hardline, members)]), b.hardline] : '',
      '}',
    ];
  }

  protected typeAlias(s: TS.TypeAliasDeclaration, quiet: boolean): Doc {
    const left = [
      this.exported(s.modifiers),
      'type ',
      this.identifier(s.name),
      this.typeParameters(s.typeParameters, quiet),
    ];
    if ((s.typeParameters?.length ?? 0) > 1) throw new NotLaidOut('type parameters');
    // prettier's assignment layouts: `break-after-operator` for a union of literals, `fluid` for a type reference
    if (this.ts.isUnionTypeNode(s.type) && s.type.types.every((t) => this.ts.isLiteralTypeNode(t))) {
      // prettier's printUnionType under that layout: `| ` before each member when broken, aligned
      const b = this.b;
      const members = s.type.types.map((t, i) => [
        i === 0 ? b.ifBreak('| ') : [b.line, '| '],
        b.align(2, this.type(t, 'member', quiet)),
      ]);
      return [b.group([b.group(left), ' =', b.group(b.indent([b.line, b.group(members)]))]), ';'];
    }
    // `keyof typeof name`: nothing to break
    const t = s.type;
    if (
      this.ts.isTypeOperatorNode(t) &&
      t.operator === this.K.KeyOfKeyword &&
      this.ts.isTypeQueryNode(t.type) &&
      !t.type.typeArguments
    )
      return [left, ' = keyof typeof ', this.identifier(t.type.exprName), ';'];
    if (!this.ts.isTypeReferenceNode(s.type)) throw new NotLaidOut('type alias');
    return [this.fluid(left, ' =', this.type(s.type, 'annotation', quiet)), ';'];
  }

  protected variableStatement(s: TS.VariableStatement): Doc {
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

  protected functionDeclaration(s: TS.FunctionDeclaration): Doc {
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

  protected bodyStatement(s: TS.Statement): Doc {
    if (!this.ts.isReturnStatement(s) || !s.expression) throw new NotLaidOut(this.ts.SyntaxKind[s.kind]);
    return this.comments(s, ['return ', this.expression(s.expression), ';'], false);
  }
}
