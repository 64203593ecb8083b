/** Files the package build reads (relative to the repository). */
export declare const BUILD_FILES: readonly string[];
/** Folders the package build reads (relative to the repository). */
export declare const BUILD_DIRS: readonly string[];
/** `BUILD_FILES` and `BUILD_DIRS`. */
export declare const BUILD_INPUTS: readonly string[];
