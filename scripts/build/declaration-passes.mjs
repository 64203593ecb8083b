/**
 * The passes over the package's emitted declaration texts (`declarations.mjs`), before they are written:
 *
 * - `inlineDeclarations`: the generated index's parameter modules are written into the index.
 * - `pruneDeclarations`: what no entry point reaches is left out. A module's declarations are
 *   emitted whole, with the helpers it exports to other modules of the runtime (`resolveOptions`,
 *   `SharedEventStream`, `issuesOf`, ...) and the imports those need, though no entry exports them and no
 *   exported type names them. A consumer's compile parses and binds every declaration of every file it
 *   reaches; left out, those declarations and the files reached only through them (`queue/states`,
 *   `internal/log-lines`, ...) cost it nothing.
 *
 *   What stays: every declaration an entry exports, and, transitively, every declaration a kept one names (in a
 *   type, `typeof`, `extends`, a qualified name), found by the type checker over the emitted `.d.ts` texts; the
 *   import and export specifiers through which those names travel; `export *` and `export {}` statements whole.
 *   The `.d.cts` texts, the same declarations with other specifiers, are cut at the same places.
 */
import { createRequire } from 'node:module';
import path from 'node:path';

// `require`, not `import`: see declarations.mjs
const ts = createRequire(import.meta.url)('typescript');

/**
 * Declarations written into the one declaration that imports them instead of a file of their own: the
 * generated index's parameter modules (`generated/params/<id>`, one short interface or type alias each). A
 * consumer of the package root parses them all (the index names every model's parameters), and each file
 * costs a module resolution, a file read and a source file of the compiler's beyond its few hundred bytes,
 * more than its text: one file instead of 112 is what a consumer's compile saves. The per-model entries
 * (`models/<id>`) declare their own, documented, parameter types and do not import these.
 */
const INLINED = /^generated\/params\//;

/**
 * Writes each reached declaration whose name matches `INLINED` into the one reached declaration that imports
 * it (both `.d.ts` and `.d.cts`), in place of that import: its declarations keep their doc comment and lose
 * their `export` (the importer exports what it re-exported before), its own type-only imports join the
 * importer's. `texts`: `{ '.d.ts': Map(name -> text), ... }`, changed in place; `deps`: name -> the names its
 * declaration imports (the importer's gain the inlined file's). Throws when an inlined file is imported by more
 * than one declaration, under another name, or holds anything but type-only imports, interfaces and type aliases.
 * @returns the names inlined (no file is written for them).
 */
export function inlineDeclarations(texts, deps, reached) {
  const inlined = new Set([...reached].filter((name) => INLINED.test(name)));
  if (inlined.size === 0) return inlined;
  const importers = new Map();
  for (const name of reached)
    for (const d of deps.get(name) ?? [])
      if (inlined.has(d)) {
        if (importers.has(d)) throw new Error(`${d} is imported by ${importers.get(d)} and ${name}: cannot inline it`);
        importers.set(d, name);
      }
  for (const importer of new Set(importers.values())) {
    if (inlined.has(importer)) throw new Error(`${importer} is inlined and imports another inlined declaration`);
    for (const [ext, byName] of Object.entries(texts)) byName.set(importer, inlineInto(importer, ext, byName, inlined));
    const own = deps.get(importer);
    for (const d of [...own]) if (inlined.has(d)) for (const dd of deps.get(d) ?? []) own.add(dd);
  }
  return inlined;
}

/** The output name a relative specifier of the declaration `from` names (from `generated/index`, `./params/flux-2-pro.js` -> `generated/params/flux-2-pro`). */
const specifierTarget = (from, specifier) =>
  path.posix.join(path.posix.dirname(from), specifier).replace(/\.c?js$/, '');

/** `importer`'s `ext` text with the declarations of `inlined` it imports written in place of their imports. */
function inlineInto(importer, ext, byName, inlined) {
  const parse = (name) =>
    ts.createSourceFile(`${name}${ext}`, byName.get(name), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const sf = parse(importer);
  /** local name -> the output name it is imported from, for the importer's imports */
  const bound = new Map();
  const importsOf = (file, name, each) => {
    for (const s of file.statements) {
      if (!ts.isImportDeclaration(s)) continue;
      const target = specifierTarget(name, s.moduleSpecifier.text);
      const clause = s.importClause;
      const elements =
        clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : [];
      each(s, target, clause, elements);
    }
  };
  importsOf(sf, importer, (_s, target, clause, elements) => {
    if (clause?.name) bound.set(clause.name.text, target);
    for (const e of elements) bound.set(e.name.text, target);
  });

  const edits = [];
  /** target -> names the inlined declarations import from it that the importer does not */
  const added = new Map();
  let firstInlined;
  importsOf(sf, importer, (s, target, clause, elements) => {
    if (!inlined.has(target)) return;
    const where = `${importer}${ext}: import of ${target}`;
    if (!clause?.isTypeOnly || clause.name || elements.some((e) => e.propertyName))
      throw new Error(`${where}: only \`import type { Name }\` is inlined`);
    const file = parse(target);
    const declared = [];
    const parts = [];
    importsOf(file, target, (i, from, iclause, ielements) => {
      if (!iclause?.isTypeOnly || iclause.name || ielements.some((e) => e.propertyName))
        throw new Error(`${target}${ext}: only \`import type { Name }\` imports are inlined`);
      for (const e of ielements) {
        const name = e.name.text;
        if (bound.has(name) && bound.get(name) !== from)
          throw new Error(`${where}: ${name} is imported from ${bound.get(name)} and from ${from}`);
        if (!bound.has(name)) {
          bound.set(name, from);
          added.set(from, [...(added.get(from) ?? []), name]);
        }
      }
    });
    for (const d of file.statements) {
      if (ts.isImportDeclaration(d)) continue;
      if (!ts.isInterfaceDeclaration(d) && !ts.isTypeAliasDeclaration(d))
        throw new Error(`${target}${ext}: only interfaces and type aliases are inlined, not ${ts.SyntaxKind[d.kind]}`);
      declared.push(d.name.text);
      // the doc comment right before the declaration (not the file's header)
      const comments = ts.getLeadingCommentRanges(file.text, d.pos) ?? [];
      const doc = comments.at(-1);
      const exported = d.modifiers?.find((m) => m.kind === ts.SyntaxKind.ExportKeyword);
      const start = d.getStart(file);
      const body = exported
        ? file.text.slice(start, exported.getStart(file)) + file.text.slice(exported.end, d.end).trimStart()
        : file.text.slice(start, d.end);
      parts.push(
        `${doc && file.text.startsWith('/**', doc.pos) ? `${file.text.slice(doc.pos, doc.end)}\n` : ''}${body}`,
      );
    }
    const imported = elements.map((e) => e.name.text);
    if (imported.some((n) => !declared.includes(n)))
      throw new Error(
        `${where}: imports ${imported.join(', ')}, which it does not all declare (${declared.join(', ')})`,
      );
    firstInlined ??= s.getStart(sf);
    edits.push({ start: s.getStart(sf), end: s.end, text: parts.join('\n') });
  });
  if (added.size) {
    const jsExt = ext === '.d.cts' ? '.cjs' : '.js';
    const lines = [...added].map(([from, names]) => {
      let rel = path.posix.relative(path.posix.dirname(importer), from);
      if (!rel.startsWith('.')) rel = `./${rel}`;
      return `import type { ${names.join(', ')} } from "${rel}${jsExt}";\n`;
    });
    edits.push({ start: firstInlined, end: firstInlined, text: lines.join('') });
  }
  let text = sf.text;
  for (const e of edits.sort((a, b) => b.start - a.start || b.end - a.end))
    text = text.slice(0, e.start) + e.text + text.slice(e.end);
  return text;
}

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
    // noLib: which of these declarations a name reaches never depends on TypeScript's lib files (their
    // symbols are not ours), and not loading them keeps the build's peak memory down
    options: { ...options, noEmit: true, declaration: false, emitDeclarationOnly: false, noCheck: false, noLib: true },
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
