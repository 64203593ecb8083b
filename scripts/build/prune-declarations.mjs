/**
 * Leaves out of the package's declaration files what no entry point reaches: a module's declarations are
 * emitted whole, with the helpers it exports to other modules of the runtime (`resolveOptions`,
 * `SharedEventStream`, `issuesOf`, ...) and the imports those need, though no entry exports them and no
 * exported type names them. A consumer's compile parses and binds every declaration of every file it reaches;
 * left out, those declarations and the files reached only through them (`queue/states`, `internal/log-lines`,
 * ...) cost it nothing.
 *
 * What stays: every declaration an entry exports, and, transitively, every declaration a kept one names (in a
 * type, `typeof`, `extends`, a qualified name), found by the type checker over the emitted `.d.ts` texts; the
 * import and export specifiers through which those names travel; `export *` statements whole. The `.d.cts`
 * texts, the same declarations with other specifiers, are cut at the same places.
 */
import path from 'node:path';
import ts from 'typescript';

/**
 * Prunes `texts` (`{ '.d.ts': Map(name -> text), '.d.cts': ... }`, names relative to `outDir` without
 * extension) in place, for the entry names `entries`, with the compiler `options` of the build (module
 * resolution of the emitted files, which sit at `outDir/<name>.d.ts`).
 * @returns the names still reached from the entries (the files to write).
 * @throws Error when the `.d.ts` and `.d.cts` text of a file do not have the same statements.
 */
export function pruneDeclarations({ texts, entries, outDir, options }) {
  const dts = texts['.d.ts'];
  const fileOf = (name) => path.join(outDir, `${name}.d.ts`);
  const byFile = new Map([...dts.keys()].map((name) => [path.resolve(fileOf(name)), name]));
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile, directoryExists } = host;
  // the texts are not written yet (and the build emptied outDir): their files and folders exist for the compiler
  const dirs = new Set([...byFile.keys()].flatMap((f) => ancestors(path.dirname(f))));
  host.fileExists = (f) => byFile.has(path.resolve(f)) || fileExists.call(host, f);
  host.directoryExists = (d) => dirs.has(path.resolve(d)) || (directoryExists?.call(host, d) ?? true);
  host.readFile = (f) => (byFile.has(path.resolve(f)) ? dts.get(byFile.get(path.resolve(f))) : readFile.call(host, f));
  host.getSourceFile = (f, language, ...rest) => {
    const name = byFile.get(path.resolve(f));
    return name === undefined
      ? getSourceFile.call(host, f, language, ...rest)
      : ts.createSourceFile(f, dts.get(name), language, true, ts.ScriptKind.TS);
  };
  const program = ts.createProgram({
    rootNames: entries.map(fileOf),
    options: { ...options, noEmit: true, declaration: false, emitDeclarationOnly: false, noCheck: false },
    host,
  });
  const checker = program.getTypeChecker();
  const ours = (node) => byFile.has(path.resolve(node.getSourceFile().fileName));

  /** Statements and import/export specifiers kept. */
  const kept = new Set();
  const queue = [];
  const keep = (node) => {
    if (kept.has(node)) return false;
    kept.add(node);
    return true;
  };
  const topOf = (node) => {
    while (node.parent && !ts.isSourceFile(node.parent)) node = node.parent;
    return node;
  };
  const markSymbol = (symbol) => {
    for (let s = symbol, seen = 0; s && seen < 100; seen++) {
      for (const d of s.declarations ?? []) {
        if (!ours(d)) continue;
        if (ts.isImportSpecifier(d) || ts.isExportSpecifier(d) || ts.isImportClause(d) || ts.isNamespaceImport(d)) {
          keep(d);
          keep(topOf(d));
        } else if (ts.isExportDeclaration(d) || ts.isNamespaceExport(d)) keep(topOf(d));
        else {
          const top = topOf(d);
          if (keep(top)) queue.push(top);
        }
      }
      if (!(s.flags & ts.SymbolFlags.Alias)) break;
      s = checker.getImmediateAliasedSymbol(s);
    }
  };
  for (const name of entries) {
    const sf = program.getSourceFile(fileOf(name));
    const moduleSymbol = sf && checker.getSymbolAtLocation(sf);
    if (!moduleSymbol) throw new Error(`${name}.d.ts: no module to prune from`);
    for (const s of checker.getExportsOfModule(moduleSymbol)) markSymbol(s);
    // an entry's own statements stay as written (its `export *` lines, its header)
    for (const st of sf.statements) if (keep(st)) queue.push(st);
  }
  while (queue.length) {
    const visit = (node) => {
      if (ts.isIdentifier(node)) markSymbol(checker.getSymbolAtLocation(node));
      ts.forEachChild(node, visit);
    };
    const st = queue.pop();
    // `export *` (no clause) keeps the module it names; its exports are marked where an entry exports them
    if (ts.isExportDeclaration(st) && !st.exportClause) continue;
    ts.forEachChild(st, visit);
  }

  /** name -> { statements: indices dropped, elements: statement index -> element indices dropped } */
  const plans = new Map();
  for (const [name] of dts) {
    const sf = program.getSourceFile(fileOf(name));
    if (!sf) continue; // not reached by any entry
    const plan = { statements: new Set(), elements: new Map() };
    sf.statements.forEach((st, i) => {
      const elements = elementsOf(st);
      if (elements) {
        if (ts.isExportDeclaration(st) && (!st.exportClause || elements.length === 0)) return; // `export *`, `export {}`
        const dropped = elements.flatMap((e, j) => (kept.has(e) ? [] : [j]));
        if (
          dropped.length === elements.length &&
          !(ts.isImportDeclaration(st) && st.importClause?.name && kept.has(st.importClause))
        )
          plan.statements.add(i);
        else if (dropped.length) plan.elements.set(i, new Set(dropped));
      } else if (!kept.has(st)) plan.statements.add(i);
    });
    plans.set(name, plan);
  }
  for (const byName of Object.values(texts))
    for (const [name, plan] of plans) byName.set(name, applyPlan(name, byName.get(name), plan));

  // what the pruned declarations reach
  const reached = new Set();
  const visitFile = (name) => {
    if (reached.has(name) || !dts.has(name)) return;
    reached.add(name);
    const sf = ts.createSourceFile(`${name}.d.ts`, dts.get(name), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
    for (const st of sf.statements) {
      const specifier = (ts.isImportDeclaration(st) || ts.isExportDeclaration(st)) && st.moduleSpecifier;
      if (specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith('.'))
        visitFile(path.posix.join(path.posix.dirname(name), specifier.text).replace(/\.c?js$/, ''));
    }
  };
  for (const name of entries) visitFile(name);
  return reached;
}

/** `dir` and the folders above it. */
function ancestors(dir) {
  const out = [];
  for (let d = dir; ; d = path.dirname(d)) {
    out.push(d);
    if (path.dirname(d) === d) return out;
  }
}

/**
 * The specifiers of an import or export declaration with a list of them (`import { a, type B }`, `export { c }`),
 * `[]` for one with none (`import X from`, `import * as`), undefined for any other statement.
 */
function elementsOf(st) {
  if (ts.isImportDeclaration(st)) {
    const bindings = st.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings)) return [...bindings.elements];
    return bindings ? [bindings] : [];
  }
  if (ts.isExportDeclaration(st))
    return st.exportClause && ts.isNamedExports(st.exportClause) ? [...st.exportClause.elements] : [];
  return undefined;
}

/** `text` of `name` (a `.d.ts` or `.d.cts`) without the statements and specifiers `plan` drops. */
function applyPlan(name, text, plan) {
  const sf = ts.createSourceFile(`${name}.d.ts`, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const edits = [];
  sf.statements.forEach((st, i) => {
    if (plan.statements.has(i)) {
      // the statement with its doc comment, but not the file's header before the first statement
      const start = i === 0 ? st.getStart(sf) : st.pos;
      edits.push({ start, end: st.end, text: '' });
      return;
    }
    const dropped = plan.elements.get(i);
    if (!dropped) return;
    const elements = elementsOf(st);
    const list = ts.isImportDeclaration(st) ? st.importClause.namedBindings : st.exportClause;
    const keptTexts = elements.filter((_, j) => !dropped.has(j)).map((e) => e.getText(sf));
    edits.push({ start: list.getStart(sf), end: list.end, text: `{ ${keptTexts.join(', ')} }` });
  });
  const count = sf.statements.length;
  const planned = Math.max(-1, ...plan.statements, ...plan.elements.keys());
  if (planned >= count) throw new Error(`${name}: its .d.ts and .d.cts declarations differ`);
  let out = text;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}
