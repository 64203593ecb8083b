/**
 * The generator's one error type: names the file, the model and the JSON pointer of what is wrong,
 * so that bad input can be found and fixed without reading the generator.
 */
export class SpecError extends Error {
  override name = 'SpecError';
  constructor(
    /** Path of the offending file, relative to the repository root where possible. */
    readonly file: string,
    /** Model id the problem belongs to, or undefined for problems outside one model. */
    readonly model: string | undefined,
    /** JSON pointer (RFC 6901) into the file's document; '' for the whole document. */
    readonly pointer: string,
    /** What was wrong. */
    readonly problem: string,
  ) {
    super(`${file}${model ? ` (model ${model})` : ''} at ${pointer === '' ? '/' : pointer}: ${problem}`);
  }
}

/** Escape one reference token of a JSON pointer (RFC 6901). */
export function pointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}
