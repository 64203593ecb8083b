/**
 * `tsc -p <project> --pretty false` run in the test worker instead of a child process: the same compiler
 * (the repository's TypeScript), the same project file, the same diagnostics printed the same way and the
 * same exit code. What differs is what a compile shares with the worker's earlier ones: the parsed and
 * bound declaration files of TypeScript's lib, `@types/*`, the installed SDK and the repository's
 * `runtime/` and `generated/` are kept in one `DocumentRegistry` (the cache TypeScript's language service
 * keeps for its projects: a file is reused only for the same text and the same parse-affecting options),
 * so a compile does not load TypeScript and parse those files again (about 2.5 s of CPU a compile).
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from '../../generator/paths.ts';
import type { RunResult } from '../../scripts/lib/process.ts';

const registry = ts.createDocumentRegistry(ts.sys.useCaseSensitiveFileNames);

const SHARED_IN_REPO = ['runtime', 'generated', 'index.ts'].map((p) => path.join(REPO_ROOT, p));
/** Packages whose declarations several compiles read: TypeScript's lib files, `@types/*` and the installed SDK. */
const SHARED_PACKAGES = ['typescript/lib', '@types', 'oxen-inference-sdk'].map((p) =>
  path.join('node_modules', ...p.split('/'), ''),
);

/**
 * Files that several compiles read and no test changes while it runs (reused only for the same text
 * anyway). Others are parsed for their compile alone, so that the worker does not keep, say, every
 * declaration file of the repository's dependencies that only its own compile reads.
 */
function shared(fileName: string): boolean {
  const file = path.resolve(fileName);
  return (
    SHARED_PACKAGES.some((p) => file.includes(`${path.sep}${p}`)) ||
    SHARED_IN_REPO.some((p) => file === p || file.startsWith(p + path.sep))
  );
}

/**
 * Compiles `project` (a tsconfig file, or a folder holding `tsconfig.json`) as `tsc -p <project>
 * --pretty false` does, with `options` over the project's own (`{ noEmit: true }` for `--noEmit`).
 * Diagnostics are printed relative to `cwd`, as tsc prints them relative to its working folder.
 * @returns tsc's exit code (0 no diagnostic; 1 diagnostics, nothing emitted; 2 diagnostics, files
 * emitted) and its output in `stdout`.
 */
export function tscProject(project: string, options: ts.CompilerOptions = {}, cwd = process.cwd()): RunResult {
  const configFile = statSync(project).isDirectory() ? path.join(project, 'tsconfig.json') : project;
  const configErrors: ts.Diagnostic[] = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(configFile, options, {
    ...ts.sys,
    getCurrentDirectory: () => cwd,
    onUnRecoverableConfigFileDiagnostic: (d) => configErrors.push(d),
  });
  const format: ts.FormatDiagnosticsHost = {
    getCurrentDirectory: () => cwd,
    getCanonicalFileName: (f) => (ts.sys.useCaseSensitiveFileNames ? f : f.toLowerCase()),
    getNewLine: () => ts.sys.newLine,
  };
  if (!parsed) return result(1, ts.formatDiagnostics(configErrors, format));
  const host = ts.createCompilerHost(parsed.options);
  host.getCurrentDirectory = () => cwd;
  const own = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile) => {
    const text = shared(fileName) ? host.readFile(fileName) : undefined;
    if (text === undefined) return own(fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile);
    const version = createHash('sha1').update(text).digest('hex');
    return registry.acquireDocument(
      fileName,
      parsed.options,
      ts.ScriptSnapshot.fromString(text),
      version,
      undefined,
      languageVersionOrOptions,
    );
  };
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    projectReferences: parsed.projectReferences,
    host,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
  });
  // tsc's order (emitFilesAndReportErrors): the config's diagnostics and the syntax; then the options' and
  // the global ones; the semantic ones only when none of those
  const diagnostics = [...program.getConfigFileParsingDiagnostics()];
  const configCount = diagnostics.length;
  diagnostics.push(...program.getSyntacticDiagnostics());
  if (diagnostics.length === configCount) {
    diagnostics.push(...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics());
    if (diagnostics.length === configCount) diagnostics.push(...program.getSemanticDiagnostics());
    if (
      parsed.options.noEmit &&
      (parsed.options.declaration || parsed.options.composite) &&
      diagnostics.length === configCount
    )
      diagnostics.push(...program.getDeclarationDiagnostics());
  }
  const emitted = program.emit();
  diagnostics.push(...emitted.diagnostics);
  const sorted = ts.sortAndDeduplicateDiagnostics(diagnostics);
  const code = sorted.length === 0 ? 0 : emitted.emitSkipped ? 1 : 2;
  return result(code, ts.formatDiagnostics(sorted, format));
}

function result(code: number, stdout: string): RunResult {
  return { code, signal: null, stdout, stderr: '', timedOut: false };
}
