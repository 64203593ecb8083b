/**
 * Helpers of the package tests: the package packed as `npm pack` ships it and installed into a fresh
 * project (scripts/lib/pack.ts, shared with `npm run bench:typecheck`), and TypeScript consumers of
 * it compiled with the strictest flags. Everything lives under one temporary directory per test
 * file (`tempDir` of test/support/).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tscProject } from '../support/tsc.ts';

export { installTarball, npmEnv, packPackage, type PackOptions, type PackResult } from '../../scripts/lib/pack.ts';

export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** The flags of the strictest consumer we promise to compile under. */
export const STRICT_FLAGS = {
  strict: true,
  skipLibCheck: false,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noPropertyAccessFromIndexSignature: true,
  noImplicitOverride: true,
  noEmit: true,
  target: 'ES2022',
  lib: ['ES2022', 'DOM', 'DOM.Iterable'],
  // no @types/node: the package's declarations must need nothing beyond the web platform's globals
  types: [] as string[],
} as const;

/**
 * `STRICT_FLAGS` without the check of TypeScript's own lib files (`skipDefaultLibCheck`): the package's
 * declarations and every other declaration file are still checked. The lib files are TypeScript's and the
 * same in every compile, and the package declares no globals that could make them fail (package.test.ts
 * checks that every declaration file is a module without `declare global`); their check is about 40% of
 * such a compile's CPU. One compile in package.test.ts keeps the full `STRICT_FLAGS`.
 */
export const STRICT_FLAGS_OWN_DECLARATIONS = { ...STRICT_FLAGS, skipDefaultLibCheck: true } as const;

export type ResolutionKind = 'nodenext' | 'node16' | 'bundler';

/**
 * Writes a TypeScript consumer project in `<consumersDir>/ts-<kind>` (the installed package is found in
 * `<consumersDir>/node_modules`): `nodenext` is an ES module package, `node16` a CommonJS package,
 * `bundler` uses `moduleResolution: bundler`. `files` maps file names to their contents; `flags` are the
 * compiler options besides the module settings.
 */
export function writeTsProject(
  consumersDir: string,
  kind: ResolutionKind,
  files: Record<string, string>,
  flags: Record<string, unknown> = STRICT_FLAGS,
): string {
  const dir = path.join(consumersDir, `ts-${kind}`);
  mkdirSync(dir, { recursive: true });
  const module = {
    nodenext: { module: 'NodeNext', moduleResolution: 'NodeNext' },
    node16: { module: 'Node16', moduleResolution: 'Node16' },
    bundler: { module: 'ESNext', moduleResolution: 'Bundler' },
  }[kind];
  const type = kind === 'node16' ? 'commonjs' : 'module';
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `ts-${kind}`, private: true, type }, null, 2));
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { ...flags, ...module }, include: ['*.ts'] }, null, 2),
  );
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

export interface Diagnostic {
  /** The file as tsc prints it (relative to the project, or a path into node_modules). */
  file: string;
  line: number;
  code: string;
  message: string;
}

/**
 * Compiles a project with the repository's TypeScript as `tsc -p <projectDir> --pretty false` does, in this
 * worker (test/support/tsc.ts), and returns every diagnostic.
 */
export async function compile(projectDir: string): Promise<{ diagnostics: Diagnostic[]; output: string }> {
  const result = tscProject(projectDir, {}, projectDir);
  const output = (result.stdout + result.stderr).trim();
  const diagnostics: Diagnostic[] = [];
  for (const line of output.split('\n')) {
    const m = /^(.+?)\((\d+),\d+\): error (TS\d+): (.*)$/.exec(line);
    if (m) diagnostics.push({ file: m[1]!, line: Number(m[2]), code: m[3]!, message: m[4]! });
    else if (/error TS\d+/.test(line))
      diagnostics.push({ file: '', line: 0, code: /TS\d+/.exec(line)![0], message: line });
  }
  if (result.code !== 0 && diagnostics.length === 0)
    diagnostics.push({ file: '', line: 0, code: 'exit', message: output || `tsc exited ${result.code}` });
  return { diagnostics, output };
}

/** One line per diagnostic, for an assertion message that shows what failed. */
export function formatDiagnostics(diagnostics: Diagnostic[]): string {
  return diagnostics.map((d) => `${d.file}:${d.line}: ${d.code} ${d.message}`).join('\n');
}
