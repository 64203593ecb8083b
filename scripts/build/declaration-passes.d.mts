import type ts from 'typescript';

/** Declaration texts by extension (`.d.ts`, `.d.cts`), each by output name (relative, no extension). */
export type DeclarationTexts = Record<'.d.ts' | '.d.cts', Map<string, string>>;

/** Writes the reached `generated/params/<id>` declarations into their one importer: see declaration-passes.mjs. */
export declare function inlineDeclarations(
  texts: DeclarationTexts,
  deps: Map<string, Set<string>>,
  reached: ReadonlySet<string>,
): Set<string>;

/** Leaves out what no entry reaches: see declaration-passes.mjs. @returns the names still reached. */
export declare function pruneDeclarations(options: {
  texts: DeclarationTexts;
  entries: readonly string[];
  outDir: string;
  options: ts.CompilerOptions;
}): Set<string>;
