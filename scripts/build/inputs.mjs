/**
 * What the package build reads from the repository (relative paths): the sources of the entry points
 * and everything they import, the compiler settings, the manifest (entry list, dependencies) and the
 * build's own code. The stamp hashes every file under these; the benchmarks copy them.
 */
// generator/root.mjs: where the build finds the repository (the one computation of the root).
export const BUILD_FILES = ['index.ts', 'package.json', 'tsconfig.json', 'tsconfig.build.json', 'generator/root.mjs'];
export const BUILD_DIRS = ['runtime', 'generated', 'scripts/build'];
export const BUILD_INPUTS = [...BUILD_FILES, ...BUILD_DIRS];
