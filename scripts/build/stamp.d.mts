/** A build's record: see stamp.mjs. Paths are relative to the repository, `/`-separated. */
export interface Stamp {
  /** Hash of what decides the output besides the input files (tool versions, settings). */
  key: string;
  /** SHA-256 (hex) of every input file; `null` for one that was missing. */
  inputs: Record<string, string | null>;
  /** SHA-256 (hex) of every output file. */
  outputs: Record<string, string | null>;
}
export declare function hashFile(file: string): string | undefined;
export declare function hashValue(value: unknown): string;
export declare function listFiles(
  root: string,
  options: { dirs?: readonly string[]; files?: readonly string[]; ignore?: (rel: string) => boolean },
): string[];
export declare function hashFiles(root: string, files: readonly string[]): Record<string, string | null>;
export declare function readStamp(file: string): Stamp | undefined;
export declare function writeStamp(file: string, stamp: Stamp): void;
export declare function removeStamp(file: string): void;
export declare function staleReason(
  root: string,
  stamp: Stamp | undefined,
  current: Pick<Stamp, 'key' | 'inputs'>,
): string | undefined;
