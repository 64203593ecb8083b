/**
 * The exit codes of every command: `oxen-inference-codegen` (`cli/index.ts`) and this repository's
 * `npm run generate` and `npm run drift` (`scripts/`), which run the same commands (`commands.ts`).
 * One table: the same outcome exits with the same code everywhere. The documented text
 * (`EXIT_CODES_TEXT`) is derived from it, and `test/cli/exit-codes.test.ts` checks that the command
 * headers and the docs quote that text and name no other code.
 */

/** The exit codes by outcome. */
export const EXIT = {
  /** Done: nothing changed (`refresh`, `drift`), up to date (`generate --check`), or stopped (`serve`). */
  ok: 0,
  /** Compatible changes only (`refresh`, `drift`); files differ (`generate --check`). */
  changed: 1,
  /** Something breaks (`refresh`, `drift`), a model the service no longer serves included (kept in the snapshot). */
  breaking: 2,
  /**
   * Failed, nothing written: a usage error, a failed fetch, a snapshot that does not generate; `drift`:
   * no report; `serve`: it could not start, or closing failed.
   */
  failed: 3,
} as const;

/** One of the codes of `EXIT`. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** What each code means, in the words the docs quote (in the order of the codes). */
const MEANING: Record<ExitCode, string> = {
  [EXIT.ok]: 'done, nothing changed',
  [EXIT.changed]: 'compatible changes only (`generate --check`: files differ)',
  [EXIT.breaking]: 'something breaks (a model the service no longer serves included)',
  [EXIT.failed]: 'failed, nothing written (a usage error included)',
};

/**
 * The exit-code table as one sentence: `Exit codes: 0 done, nothing changed; 1 ...; 3 ...`. Every
 * command header and doc that names exit codes quotes it (`test/cli/exit-codes.test.ts`).
 */
export const EXIT_CODES_TEXT = `Exit codes: ${(Object.values(EXIT) as ExitCode[]).map((c) => `${c} ${MEANING[c]}`).join('; ')}.`;
