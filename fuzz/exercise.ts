/**
 * Running a case's output: import every generated module and call its validators, watching for
 * planted sentinels that run, for code that throws, and for validators that are slow on hostile
 * input (`fuzz/adversarial.ts`) (used by `fuzz/child.ts`, in the process that generated the case,
 * through the tsx loader).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { slowInputs } from './adversarial.ts';

/** Inputs each exported validator is called with: it must answer true or false, never throw. */
const VALIDATOR_INPUTS: readonly unknown[] = [
  {},
  { prompt: 'a fox' },
  JSON.parse('{"__proto__": {"x": 1}, "constructor": 1, "toString": "x"}'),
  null,
  [],
  'text',
  0,
];

/**
 * Import every `.ts` file the run wrote (through tsx, in this process) with a recording
 * `globalThis.__sentinel`, and call every exported function of `generated/validators/` with
 * `VALIDATOR_INPUTS`: a sentinel that runs is an injection; a module or validator that throws is
 * output that does not run. `schemas` (model id -> request schema) gives each validator
 * `generated/validators/<id>.ts` its hostile inputs: one that takes over `SLOW_MS` is in `slow`.
 */
export async function exercise(
  outRoot: string,
  schemas: ReadonlyMap<string, unknown> = new Map(),
): Promise<{ sentinels: string[]; throws: string[]; slow: string[] }> {
  const sentinels: string[] = [];
  const throws: string[] = [];
  const slow: string[] = [];
  const g = globalThis as { __sentinel?: (n: unknown) => void };
  let current = '';
  g.__sentinel = (n) => void sentinels.push(`sentinel ${String(n)} ran when ${current} was imported or run`);
  try {
    const dir = path.join(outRoot, 'generated');
    const files = readdirSync(dir, { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile() && e.name.endsWith('.ts'))
      .map((e) => path.join(e.parentPath, e.name))
      .sort();
    for (const f of files) {
      current = path.relative(outRoot, f);
      let mod: Record<string, unknown>;
      try {
        mod = (await import(pathToFileURL(f).href)) as Record<string, unknown>;
      } catch (e) {
        throws.push(
          `importing ${current} throws: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`.split('\n')[0]!,
        );
        continue;
      }
      if (!current.startsWith('generated/validators/')) continue;
      const schema = schemas.get(path.basename(f, '.ts'));
      for (const [name, fn] of Object.entries(mod)) {
        if (typeof fn !== 'function') continue;
        if (schema !== undefined) {
          try {
            for (const x of slowInputs(fn as (d: unknown) => unknown, schema))
              slow.push(`${current}: ${name} took ${x}`);
          } catch (e) {
            throws.push(
              `${current}: ${name} throws on a hostile input: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`.split(
                '\n',
              )[0]!,
            );
          }
        }
        for (const input of VALIDATOR_INPUTS) {
          try {
            const ok: unknown = (fn as (d: unknown) => unknown)(input);
            if (typeof ok !== 'boolean')
              throws.push(`${current}: ${name}(${JSON.stringify(input)}) returned ${typeof ok}, not a boolean`);
          } catch (e) {
            throws.push(
              `${current}: ${name}(${JSON.stringify(input)}) throws: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`.split(
                '\n',
              )[0]!,
            );
          }
        }
      }
    }
  } finally {
    delete g.__sentinel;
  }
  return { sentinels, throws, slow };
}
