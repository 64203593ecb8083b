/**
 * What the two bundlers' builds (`browser-bundle.ts`: esbuild; `vite-bundle.ts`: Vite) share: the shape of
 * a bundle and its chunks, gzip -9, and where a package subpath's source file is.
 */
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { REPO_ROOT } from '../../generator/paths.ts';

/**
 * The source file of a package subpath (`''`, `/runtime`, `/models/<id>`, ...), as the package's `exports`
 * map gives the built file; undefined for a subpath the package does not export. (Resolved with
 * `sideEffects: false`, as the package.json the built files sit under declares.)
 */
export function sourceSpecifier(sub: string): string | undefined {
  const files: Record<string, string> = {
    '': 'index.ts',
    '/runtime': 'runtime/index.ts',
    '/chat': 'runtime/chat/index.ts',
    '/validator-support': 'runtime/validator-support.ts',
  };
  if (files[sub] !== undefined) return path.join(REPO_ROOT, files[sub]);
  const model = /^\/models\/([a-z0-9][a-z0-9.-]*)$/.exec(sub);
  return model ? path.join(REPO_ROOT, 'generated/models', `${model[1]}.ts`) : undefined;
}

/** One output chunk of a browser bundle. */
export interface OutputChunk {
  /** Path relative to the output directory (`main.js`, `chunk-ABC123.js`). */
  file: string;
  bytes: number;
  /** Size gzipped at level 9. */
  gzipBytes: number;
  /** Chunks it imports with a static `import` statement (relative to the output directory). */
  staticImports: string[];
  /** Chunks it imports with a dynamic `import()` (relative to the output directory). */
  dynamicImports: string[];
  /** For an entry chunk or a dynamically imported module's chunk: its source file, relative to the repository root. */
  entryPoint: string | undefined;
  /** The source files (relative to the repository root) whose code is in this chunk, with their bytes in it. */
  inputs: Record<string, number>;
}

/** A browser bundle: its output directory and chunks. */
export interface BrowserBundle {
  outdir: string;
  /** Every `.js` output, by file (relative to `outdir`). */
  chunks: Map<string, OutputChunk>;
  /** The repository files and dependencies esbuild read (relative to the repository root). */
  inputs: string[];
}

/** Gzip at level 9 (as the issue measures), in bytes. */
export function gzipBytes(data: Uint8Array | string): number {
  return gzipSync(typeof data === 'string' ? Buffer.from(data) : data, { level: 9 }).length;
}
