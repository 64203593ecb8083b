/**
 * The package's declaration files: one TypeScript program over the entry points, declarations only and
 * no type check (`noCheck`: `npm run typecheck` checks; the package tests compile consumers against the
 * result with `skipLibCheck: false`), emitted twice from that program:
 * - `.d.ts` for the ES module entries, whose relative imports name `.js` files, and
 * - `.d.cts` for the CommonJS entries (`require` conditions, `typesVersions`), whose relative imports name
 *   `.cjs` files, so that a CommonJS consumer's types never resolve into an ES module declaration.
 * A file keeps its path in the repository (`runtime/errors.ts` -> `dist/runtime/errors.d.ts`) except the
 * entry points, which take their entry's name (`generated/models/flux-2-pro.ts` -> `dist/models/flux-2-pro.d.ts`).
 * Import specifiers are rewritten on the syntax tree (an `afterDeclarations` transformer), not in the text.
 * The generated index's parameter modules are written into the index (`inlineDeclarations`), and what no entry
 * reaches is left out (`prune-declarations.mjs`): only the files the entries' declarations reach are written.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { pruneDeclarations } from './prune-declarations.mjs';

const toPosix = (p) => p.split(path.sep).join('/');

/**
 * Emits the declarations of `entries` (`{ output name: source path }`, relative to `root`, e.g.
 * `{ 'node/index': 'runtime/node/index.ts' }`) into `outDir` with the compiler options of `tsconfig`.
 * Returns `{ outputs, sources }`: the files written (relative to `root`) and the source files of the
 * program outside the TypeScript library (relative to `root`, for the stamp). Throws with the
 * compiler's messages when the configuration or a declaration cannot be emitted.
 */
export function emitDeclarations({ root, entries, outDir, tsconfig }) {
  const configPath = path.join(root, tsconfig);
  const host = {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  };
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, host);
  if (!parsed) throw new Error(`cannot read ${tsconfig}`);
  const options = {
    ...parsed.options,
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    declarationMap: false,
    noCheck: true,
    rootDir: root,
    outDir: root, // never written: the emit goes through writeFile below
  };
  const program = ts.createProgram({ rootNames: Object.values(entries).map((e) => path.join(root, e)), options });
  const configErrors = [...parsed.errors, ...program.getOptionsDiagnostics()];
  if (configErrors.length) throw new Error(format(configErrors));

  /** Output name (no extension, relative to outDir) of a source file (relative to root, `.ts`). */
  const byEntry = new Map(Object.entries(entries).map(([name, source]) => [source, name]));
  const outName = (sourceRel) => byEntry.get(sourceRel) ?? sourceRel.replace(/\.ts$/, '');
  const taken = new Map();
  for (const sf of program.getSourceFiles()) {
    const rel = toPosix(path.relative(root, sf.fileName));
    if (program.isSourceFileDefaultLibrary(sf) || sf.isDeclarationFile) continue;
    const name = outName(rel);
    if (taken.has(name) && taken.get(name) !== rel)
      throw new Error(`${rel} and ${taken.get(name)} both map to ${name}`);
    taken.set(name, rel);
  }

  /** Output name of a relative specifier in `fromSource` (absolute), or undefined when it is not a local file. */
  const targetOf = (fromSource, specifier) => {
    if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
    const resolved = ts.resolveModuleName(specifier, fromSource, options, ts.sys).resolvedModule;
    if (!resolved || resolved.isExternalLibraryImport) return undefined;
    return outName(toPosix(path.relative(root, resolved.resolvedFileName)));
  };

  const texts = { '.d.ts': new Map(), '.d.cts': new Map() };
  const deps = new Map();
  for (const [ext, jsExt] of [
    ['.d.ts', '.js'],
    ['.d.cts', '.cjs'],
  ]) {
    const rewrite = (context) => (node) => {
      if (!ts.isSourceFile(node)) return node;
      const from = outName(toPosix(path.relative(root, node.fileName)));
      const reached = deps.get(from) ?? new Set();
      deps.set(from, reached);
      const specifier = (literal) => {
        const target = targetOf(node.fileName, literal.text);
        if (target === undefined) return literal;
        reached.add(target);
        let rel = path.posix.relative(path.posix.dirname(from), target);
        if (!rel.startsWith('.')) rel = `./${rel}`;
        return context.factory.createStringLiteral(`${rel}${jsExt}`);
      };
      const f = context.factory;
      const visit = (n) => {
        if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier))
          return f.updateImportDeclaration(n, n.modifiers, n.importClause, specifier(n.moduleSpecifier), n.attributes);
        if (ts.isExportDeclaration(n) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier))
          return f.updateExportDeclaration(
            n,
            n.modifiers,
            n.isTypeOnly,
            n.exportClause,
            specifier(n.moduleSpecifier),
            n.attributes,
          );
        if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal)) {
          const argument = f.updateLiteralTypeNode(n.argument, specifier(n.argument.literal));
          const visited = ts.visitEachChild(n, visit, context);
          return f.updateImportTypeNode(
            visited,
            argument,
            visited.attributes,
            visited.qualifier,
            visited.typeArguments,
            visited.isTypeOf,
          );
        }
        if (
          ts.isModuleDeclaration(n) &&
          ts.isStringLiteral(n.name) &&
          targetOf(node.fileName, n.name.text) !== undefined
        )
          throw new Error(`${node.fileName}: module augmentation of ${n.name.text} is not supported by the build`);
        return ts.visitEachChild(n, visit, context);
      };
      return ts.visitEachChild(node, visit, context);
    };
    const writeFile = (fileName, text, _bom, _onError, sourceFiles) => {
      const source = sourceFiles?.[0];
      if (!source) throw new Error(`declaration ${fileName} has no source file`);
      texts[ext].set(outName(toPosix(path.relative(root, source.fileName))), text);
    };
    const result = program.emit(undefined, writeFile, undefined, true, { afterDeclarations: [rewrite] });
    if (result.diagnostics.length) throw new Error(format(result.diagnostics));
  }

  // the declarations the entries reach
  const reached = new Set();
  const visit = (name) => {
    if (reached.has(name)) return;
    reached.add(name);
    for (const d of deps.get(name) ?? []) visit(d);
  };
  for (const name of Object.keys(entries)) visit(name);
  inlineDeclarations(texts, deps, reached);
  const written = pruneDeclarations({ texts, entries: Object.keys(entries), outDir, options });
  const outputs = [];
  for (const [ext, byName] of Object.entries(texts)) {
    for (const name of [...written].sort()) {
      const text = byName.get(name);
      if (text === undefined) throw new Error(`no declaration emitted for ${name}`);
      const file = path.join(outDir, `${name}${ext}`);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, text);
      outputs.push(toPosix(path.relative(root, file)));
    }
  }
  const sources = program
    .getSourceFiles()
    .filter((sf) => !program.isSourceFileDefaultLibrary(sf))
    .map((sf) => toPosix(path.relative(root, sf.fileName)));
  return { outputs, sources };
}

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
function inlineDeclarations(texts, deps, reached) {
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

/** The output name a relative specifier of the declaration `from` names (`./params/x.js` -> `generated/params/x`). */
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

function format(diagnostics) {
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => process.cwd(),
    getNewLine: () => '\n',
  });
}
