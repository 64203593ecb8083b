/**
 * The fuzzer's two checks of generated TypeScript:
 * - `findInjections`: parse one file and list the Identifier nodes named like a sentinel
 *   (`SENTINEL_IDENTIFIER`). Text inside string literals, template text, comments and JSDoc is
 *   not an Identifier node, so only a sentinel that became code is found.
 * - `compileCases`: type-check the output of many cases in one `ts.createProgram` with the
 *   repository's compiler options (tsconfig.json, strict), and give each case its diagnostics.
 *   A file byte-identical to the template's file of the same path (e.g. `generated/openapi.ts`)
 *   is checked once: imports of it resolve to the template's copy.
 */
import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from '../generator/paths.ts';
import { SENTINEL_IDENTIFIER } from './hostile.ts';

/** One case's output to compile. */
export interface CompileUnit {
  /** The case's output root (holding `generated/` and the `runtime` link). */
  root: string;
  /** Absolute paths of every `.ts` file the run wrote. */
  files: string[];
}

/** The repository's compiler options (tsconfig.json), without emitting. */
export function compilerOptions(): ts.CompilerOptions {
  const file = path.join(REPO_ROOT, 'tsconfig.json');
  const read = ts.readConfigFile(file, (f) => ts.sys.readFile(f));
  if (read.error)
    throw new Error(`cannot read tsconfig.json: ${ts.flattenDiagnosticMessageText(read.error.messageText, '\n')}`);
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, REPO_ROOT, undefined, file);
  return { ...parsed.options, noEmit: true };
}

/** `file:line:col TScode: message` with the path relative to `root`. */
function describe(d: ts.Diagnostic, root: string): string {
  const text = ts.flattenDiagnosticMessageText(d.messageText, ' ').slice(0, 300);
  if (!d.file || d.start === undefined) return `TS${d.code}: ${text}`;
  const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
  return `${path.relative(root, d.file.fileName)}:${line + 1}:${character + 1} TS${d.code}: ${text}`;
}

/** Sentinel identifiers found as code in one TypeScript file (`name at line:col`). @throws when the parser itself fails (e.g. its stack overflows). */
export function findInjections(fileName: string, text: string): string[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const hits: Array<{ pos: number; text: string }> = [];
  const stack: ts.Node[] = [sf];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if ((ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) && SENTINEL_IDENTIFIER.test(node.text)) {
      const pos = node.getStart(sf);
      const { line, character } = sf.getLineAndCharacterOfPosition(pos);
      hits.push({ pos, text: `${node.text} at ${line + 1}:${character + 1}` });
    }
    ts.forEachChild(node, (child) => {
      stack.push(child);
    });
  }
  return hits.sort((a, b) => a.pos - b.pos).map((h) => h.text);
}

/**
 * Type-check the units in one program. Returns each unit's diagnostics (by index), and (with
 * `shared.check`) the diagnostics of the template and of files outside every unit (the runtime):
 * those are not any case's fault and are reported once. A unit's diagnostic with the same code and
 * message as one of the template's is left out of the unit's (it is reported as shared).
 * @param template the template output: its files are compiled once and shared.
 * @param shared `cache`: source files outside the cases, parsed once across calls.
 */
export function compileCases(
  units: readonly CompileUnit[],
  template: CompileUnit,
  options: ts.CompilerOptions,
  shared: { check: boolean; cache: Map<string, ts.SourceFile> } = { check: true, cache: new Map() },
): { perUnit: string[][]; shared: string[]; programFiles: string[] } {
  const cache = shared.cache;
  const host = ts.createCompilerHost(options, true);
  const getSourceFile = host.getSourceFile.bind(host);
  const caseRoots = [template, ...units].map((u) => path.resolve(u.root) + path.sep);
  const inCase = (f: string) => caseRoots.some((r) => f.startsWith(r));
  // Files outside the cases (runtime, lib and @types) are parsed once per run.
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    if (inCase(fileName)) return getSourceFile(fileName, languageVersion, onError, shouldCreate);
    let sf = cache.get(fileName);
    if (!sf) {
      sf = getSourceFile(fileName, languageVersion, onError, shouldCreate);
      if (sf) cache.set(fileName, sf);
    }
    return sf;
  };
  host.getCurrentDirectory = () => REPO_ROOT;

  // Dedupe: a case file with the template's bytes resolves to the template's copy.
  const templateText = new Map<string, string>();
  for (const f of template.files) templateText.set(path.relative(template.root, f), readFileSync(f, 'utf8'));
  const redirect = new Map<string, string>();
  const roots = [...template.files];
  for (const u of units) {
    for (const f of u.files) {
      const rel = path.relative(u.root, f);
      const t = templateText.get(rel);
      if (t !== undefined && readFileSync(f, 'utf8') === t)
        redirect.set(path.resolve(f), path.join(template.root, rel));
      else roots.push(f);
    }
  }
  const realpaths = new Map<string, string>();
  const realpath = (f: string): string => {
    let r = realpaths.get(f);
    if (r === undefined) {
      try {
        r = realpathSync(f);
      } catch {
        r = path.resolve(f);
      }
      realpaths.set(f, r);
    }
    return r;
  };
  const resolutionCache = ts.createModuleResolutionCache(REPO_ROOT, (f) => f, options);
  host.resolveModuleNameLiterals = (literals, containingFile, redirectedReference, opts, containingSourceFile) =>
    literals.map((lit) => {
      const r = ts.resolveModuleName(
        lit.text,
        containingFile,
        opts,
        host,
        resolutionCache,
        redirectedReference,
        ts.getModeForUsageLocation(containingSourceFile, lit, opts),
      );
      if (!r.resolvedModule) return r;
      // `<root>/runtime` is a link to the repository's runtime: one copy for every case.
      const real = realpath(r.resolvedModule.resolvedFileName);
      const to = redirect.get(real) ?? real;
      return to === r.resolvedModule.resolvedFileName
        ? r
        : { ...r, resolvedModule: { ...r.resolvedModule, resolvedFileName: to } };
    });

  const program = ts.createProgram({ rootNames: roots, options, host });
  const diagnosticsOf = (sf: ts.SourceFile) => [
    ...program.getSyntacticDiagnostics(sf),
    ...program.getSemanticDiagnostics(sf),
  ];
  // What the template's own output has (e.g. a runtime export it imports is missing) is nobody's case.
  const known = new Set<string>();
  for (const f of template.files)
    for (const d of diagnosticsOf(program.getSourceFile(f)!))
      known.add(`${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
  const perUnit = units.map((u) => {
    const out: string[] = [];
    for (const f of u.files) {
      if (redirect.has(path.resolve(f))) continue;
      const sf = program.getSourceFile(f);
      if (!sf) {
        out.push(`${path.relative(u.root, f)}: not part of the program`);
        continue;
      }
      for (const d of diagnosticsOf(sf))
        if (!known.has(`${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`))
          out.push(describe(d, u.root));
    }
    return out;
  });
  const sharedDiagnostics: string[] = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()].map((d) =>
    describe(d, REPO_ROOT),
  );
  if (!shared.check)
    return { perUnit, shared: sharedDiagnostics, programFiles: program.getSourceFiles().map((f) => f.fileName) };
  for (const sf of program.getSourceFiles()) {
    const f = path.resolve(sf.fileName);
    const isUnitFile = units.some((u) => f.startsWith(path.resolve(u.root) + path.sep));
    if (isUnitFile || sf.isDeclarationFile) continue;
    for (const d of diagnosticsOf(sf)) sharedDiagnostics.push(describe(d, REPO_ROOT));
  }
  return { perUnit, shared: sharedDiagnostics, programFiles: program.getSourceFiles().map((f) => f.fileName) };
}
