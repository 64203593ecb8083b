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
 * reaches is left out (`declaration-passes.mjs`): only the files the entries' declarations reach are written.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { inlineDeclarations, pruneDeclarations } from './declaration-passes.mjs';

// `require`, not `import`: an ES module import of TypeScript's 9 MB CommonJS file scans it for export names
// first (cjs-module-lexer), about 0.8 s of CPU on this project's machine.
const ts = createRequire(import.meta.url)('typescript');

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

function format(diagnostics) {
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => process.cwd(),
    getNewLine: () => '\n',
  });
}
