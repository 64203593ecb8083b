/**
 * `tsc -p <project> --pretty false` run in the test worker instead of a child process: the same compiler
 * (the repository's TypeScript), the same project file, the same diagnostics printed the same way and the
 * same exit code. What differs is what a compile shares with earlier ones: the parsed and bound files of
 * a `SourceFileCache` (a file is reused only for the same text and the same parse-affecting options):
 * TypeScript's lib files and the installed SDK's declarations, so a compile does not load
 * TypeScript and parse those files again (about 2.5 s of CPU a compile).
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import type { RunResult } from '../../scripts/lib/process.ts';

/**
 * Parsed and bound files that compiles share: those under one of its folders, each kept for its text and
 * what its parse and bind depend on. Whatever it holds stays in memory while the cache is reachable.
 */
interface SourceFileCache {
  /**
   * The file to give a compile: the one kept for the same key, else one parsed from `read()`'s text (as a
   * compiler host parses it) and kept. Undefined: not a file the cache holds, or unreadable.
   */
  get(
    fileName: string,
    languageVersionOrOptions: ts.ScriptTarget | ts.CreateSourceFileOptions,
    compilerOptions: ts.CompilerOptions,
    read: () => string | undefined,
  ): ts.SourceFile | undefined;
}

/**
 * The compiler options a source file's parse and bind depend on besides its `CreateSourceFileOptions`
 * (those of TypeScript's `sourceFileAffectingCompilerOptions`, `strict` for `alwaysStrict`). A
 * declaration file's depend on none of them: it is bound the same under any (no strict-mode or
 * reachability diagnostics, no helper imports), so one copy of, say, `lib.dom.d.ts` serves every compile.
 */
const SOURCE_FILE_OPTIONS = [
  'target',
  'module',
  'moduleResolution',
  'moduleDetection',
  'jsx',
  'jsxImportSource',
  'importHelpers',
  'strict',
  'alwaysStrict',
  'noFallthroughCasesInSwitch',
  'allowUnusedLabels',
  'allowUnreachableCode',
] as const;

/**
 * A cache of the files under `folders`: absolute folders, or folder paths matched anywhere in a file's
 * path (`node_modules/typescript/lib/`).
 */
function sourceFileCache(folders: readonly string[]): SourceFileCache {
  const matches = folders.map((f) =>
    path.isAbsolute(f)
      ? (file: string) => file === f || file.startsWith(f.endsWith(path.sep) ? f : f + path.sep)
      : (file: string) => file.includes(path.sep + f),
  );
  const files = new Map<string, ts.SourceFile>();
  return {
    get(fileName, languageVersionOrOptions, compilerOptions, read) {
      if (!matches.some((m) => m(path.resolve(fileName)))) return undefined;
      const text = read();
      if (text === undefined) return undefined;
      const parse = typeof languageVersionOrOptions === 'object' ? languageVersionOrOptions : undefined;
      const key = JSON.stringify([
        fileName,
        createHash('sha1').update(text).digest('hex'),
        parse?.languageVersion ?? languageVersionOrOptions,
        parse?.impliedNodeFormat,
        parse?.jsDocParsingMode,
        /\.d\.[cm]?ts$/.test(fileName) ? [] : SOURCE_FILE_OPTIONS.map((o) => compilerOptions[o]),
      ]);
      let file = files.get(key);
      if (!file) {
        file = ts.createSourceFile(fileName, text, languageVersionOrOptions);
        files.set(key, file);
      }
      return file;
    },
  };
}

/**
 * The worker's cache, shared by every compile: TypeScript's lib files and the installed SDK's
 * declarations, which most compiles read (about 70 MB kept for the worker's life).
 */
const WORKER_CACHE = sourceFileCache([
  path.join('node_modules', 'typescript', 'lib', ''),
  path.join('node_modules', 'oxen-inference-sdk', ''),
]);

/**
 * Compiles `project` (a tsconfig file, or a folder holding `tsconfig.json`) as `tsc -p <project>
 * --pretty false` does, with `options` over the project's own (`{ noEmit: true }` for `--noEmit`).
 * Diagnostics are printed relative to `cwd`, as tsc prints them relative to its working folder. The
 * files the worker's cache holds are parsed once for all the compiles.
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
    const read = () => host.readFile(fileName);
    return (
      WORKER_CACHE.get(fileName, languageVersionOrOptions, parsed.options, read) ??
      own(fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile)
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
