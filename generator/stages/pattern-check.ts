/**
 * Part of stage 1 (load): a schema's regular expressions (`pattern`, `patternProperties` keys) run
 * in the generated validators on the input of an app's users, in the JavaScript engine's
 * backtracking matcher, where a pattern such as `^(a+)+$` takes exponential time (19 s on 31
 * characters) and `a*b` quadratic time (unanchored, as JSON Schema patterns are). The generator
 * refuses every pattern that redos-detector cannot prove free of such backtracking. Run by `load`
 * after the synchronous checks of `schema-check.ts` (which bound the number and length of patterns).
 *
 * Why refuse, and why redos-detector: no real model has a pattern (the snapshot and the corpus use
 * none), so refusing costs nothing there, while running patterns in a linear-time engine (re2js)
 * would put a regex engine into the SDK's browser bundles. redos-detector decides by a count of
 * steps (a pattern is refused or not the same on every machine, which `generate --check` needs), is
 * small, and is fast on ordinary patterns (milliseconds). recheck, also evaluated, is more precise
 * but decides by wall-clock budgets (its verdict on `^(?:[a-z0-9-]{1,63}\.)+[a-z]{2,}$` changed with
 * the budget given), took 3 to 10 s on counted repetitions such as `^.{1,500}$`, and installs 52 MB
 * of optional native and Java backends. redos-detector's limits, accepted: it is conservative (a long
 * unanchored literal, or an ambiguous but bounded pattern such as
 * `^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$`, is refused), and it does not parse named groups
 * (refused too: JSON Schema's recommended regex subset has none).
 */
import { setImmediate as turn } from 'node:timers/promises';
import { SpecError } from '../errors.ts';
import { loadRedosDetector } from '../libraries.ts';
import { regexesOf } from './schema-check.ts';
import { subschemas } from './schema-walk.ts';

/**
 * redos-detector's settings. `maxSteps` (deterministic) bounds the work on a pattern: its default
 * (20,000) took up to 18 s on one pattern; 2,000 takes a few seconds at most and still proves an
 * 80-character literal safe (it analyses an unanchored pattern from every start). The timeout only
 * guards against a pattern whose steps are each slow (the only verdict that can differ between
 * machines); a pattern that reaches it is refused like one over `maxSteps`.
 */
const CHECK = { unicode: true, maxSteps: 2_000, timeout: 5_000 } as const;

/** Verdicts by pattern source, for this process (the same pattern in many properties or models is checked once). */
const verdicts = new Map<string, string | undefined>();

/**
 * Why `source` (a pattern valid as an ECMA-262 regular expression in unicode mode, as ajv compiles
 * it) is refused, or undefined when matching it takes time linear in the input. `what` names it in
 * the reason ("pattern", "a patternProperties key").
 */
export function patternProblem(source: string, what: string): string | undefined {
  if (!verdicts.has(source)) verdicts.set(source, check(source));
  const problem = verdicts.get(source);
  return problem && `${what} ${problem}`;
}

function check(source: string): string | undefined {
  let result: ReturnType<ReturnType<typeof loadRedosDetector>['isSafePattern']>;
  try {
    result = loadRedosDetector().isSafePattern(source, CHECK);
  } catch {
    // its parser refuses some valid syntax (named groups, for one)
    return 'uses syntax that the backtracking check cannot analyse (named groups, for one): not supported';
  }
  if (result.safe) return undefined;
  return result.error === 'hitMaxScore'
    ? 'can backtrack catastrophically (matching time can grow faster than the input: a denial of service on hostile input): not supported'
    : 'is too complex to prove that matching it takes time linear in the input: not supported';
}

/**
 * Check every regular expression of a model's request schema, one at a time, letting the event loop
 * turn before each: redos-detector keeps what a check allocated (tens of MiB) through `WeakRef`s and
 * a `FinalizationRegistry`, which release it only once the event loop has turned, so checks run back
 * to back in one synchronous job would pile it up.
 * @throws SpecError naming the file, the model and the JSON pointer of the first pattern refused.
 */
export async function checkPatterns(m: {
  file: string;
  id: string;
  schemaField: string | null;
  schema: Record<string, unknown> | null;
}): Promise<void> {
  if (!m.schema || !m.schemaField) return;
  for (const { node, pointer } of subschemas(m.schema))
    for (const { where, source, what } of regexesOf(node)) {
      if (!verdicts.has(source)) await turn();
      const problem = patternProblem(source, what);
      if (problem) throw new SpecError(m.file, m.id, `/${m.schemaField}${pointer}/${where}`, problem);
    }
}
