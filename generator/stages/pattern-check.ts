/**
 * Part of stage 1 (load): a schema's regular expressions (`pattern`, `patternProperties` keys) run
 * in the generated validators on the input of an app's users, in the JavaScript engine's
 * backtracking matcher, where a pattern such as `^(a+)+$` takes exponential time (19 s on 31
 * characters) and `a*b` quadratic time (unanchored, as JSON Schema patterns are). The generator
 * refuses every pattern that redos-detector cannot prove free of such backtracking.
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
import { loadRedosDetector } from '../libraries.ts';

/** Longest pattern checked (UTF-16 code units): the check's cost grows with it (the corpus: no pattern at all). */
export const MAX_PATTERN_LENGTH = 1_000;
/** Most distinct patterns (with `patternProperties` keys) in one model object, each costing up to seconds to check (the corpus: none). */
export const MAX_PATTERNS = 50;

/**
 * redos-detector's settings. `maxSteps` (deterministic) bounds the work on a pattern: its default
 * (20,000) took up to 18 s on one pattern; 5,000 takes a few seconds at most and still proves a
 * 100-character literal safe (it analyses an unanchored pattern from every start). The timeout only
 * guards against a pattern whose steps are each slow (the only verdict that can differ between
 * machines); a pattern that reaches it is refused like one over `maxSteps`.
 */
const CHECK = { unicode: true, maxSteps: 5_000, timeout: 10_000 } as const;

/** Verdicts by pattern source, for this process (the same pattern in many properties or models is checked once). */
const verdicts = new Map<string, string | undefined>();

/**
 * Why `source` (a pattern valid as an ECMA-262 regular expression in unicode mode, as ajv compiles
 * it) is refused, or undefined when matching it takes time linear in the input. `what` names it in
 * the reason ("pattern", "a patternProperties key").
 */
export function patternProblem(source: string, what: string): string | undefined {
  if (source.length > MAX_PATTERN_LENGTH)
    return `${what} of ${source.length} characters: longer than the ${MAX_PATTERN_LENGTH} supported`;
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
