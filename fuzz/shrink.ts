/**
 * Shrinking a schema on which the oracle fails (fuzz/oracle.ts): greedily remove one part at a time
 * (an object's key, e.g. a keyword or a property, or an array's element, e.g. an enum value or an
 * `anyOf` member), shallow parts first, keeping each removal after which the same direction still
 * fails with no rule explaining it. The fuzzer's cases come from its own PRNG, not fast-check, so
 * this is the fuzzer's shrinker. Each try types the schema in process (`emittedModule`: the types
 * stage only, without the load stage's checks) and compiles a one-model program.
 */
import { ORACLE_RULES, compareAll, emittedModule, jsttModule, unexplained } from './oracle.ts';
import type { Direction, OracleRule } from './oracle.ts';

type Path = Array<string | number>;

/** Every removable part's path, shallow first (breadth first). */
function parts(value: unknown): Path[] {
  const out: Path[] = [];
  const queue: Array<{ v: unknown; p: Path }> = [{ v: value, p: [] }];
  while (queue.length > 0 && out.length < 5_000) {
    const { v, p } = queue.shift()!;
    if (Array.isArray(v))
      v.forEach((x, i) => {
        out.push([...p, i]);
        queue.push({ v: x, p: [...p, i] });
      });
    else if (v !== null && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        out.push([...p, k]);
        queue.push({ v: x, p: [...p, k] });
      }
  }
  return out;
}

/** A copy of `value` without the part at `p` (own keys kept as own keys, `__proto__` included). */
function without(value: unknown, p: Path): unknown {
  const copy = JSON.parse(JSON.stringify(value)) as unknown;
  let parent = copy as Record<string | number, unknown>;
  for (const k of p.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
  const last = p[p.length - 1]!;
  if (Array.isArray(parent)) parent.splice(last as number, 1);
  else delete parent[last];
  return copy;
}

/**
 * The smallest value found by removing parts of `value` while `stillFails` holds (or `value` itself
 * when it does not fail), and how many removals were tried.
 * @param budgetMs stop trying after this many milliseconds.
 */
export async function shrink(
  value: unknown,
  stillFails: (candidate: unknown) => Promise<boolean>,
  budgetMs: number,
): Promise<{ value: unknown; tries: number }> {
  const deadline = performance.now() + budgetMs;
  let tries = 0;
  if (!(await stillFails(value))) return { value, tries };
  let current = value;
  let progress = true;
  while (progress && performance.now() < deadline) {
    progress = false;
    for (const p of parts(current)) {
      if (performance.now() >= deadline) break;
      const candidate = without(current, p);
      tries++;
      if (await stillFails(candidate)) {
        current = candidate;
        progress = true;
        break; // the paths changed: list them again
      }
    }
  }
  return { value: current, tries };
}

/**
 * Shrink a schema of model `id` on which the oracle fails in `direction` with no rule of `rules`
 * explaining it: the smallest schema found that still fails so.
 * @param options `budgetMs` (default 20,000 milliseconds); `rules` (default `ORACLE_RULES`).
 */
export async function shrinkOracleFailure(
  id: string,
  schema: unknown,
  direction: Direction,
  options: { budgetMs?: number; rules?: readonly OracleRule[] } = {},
): Promise<{ schema: unknown; tries: number }> {
  const rules = options.rules ?? ORACLE_RULES;
  const fails = async (candidate: unknown): Promise<boolean> => {
    if (candidate === null || typeof candidate !== 'object' || Array.isArray(candidate)) return false;
    let emitted;
    try {
      emitted = emittedModule(id, candidate as Record<string, unknown>);
    } catch {
      return false; // the types stage refuses it
    }
    const jstt = await jsttModule(candidate);
    if (!jstt.ok) return false;
    const [r] = compareAll([{ emitted: emitted.text, params: emitted.params, jstt: jstt.text }]);
    if (!r || r.jsttBroken.length > 0 || r.errors.length > 0) return false;
    return unexplained(
      r.failing.map((f) => f.direction),
      rules.filter((rule) => rule.applies(candidate)),
    ).includes(direction);
  };
  const { value, tries } = await shrink(schema, fails, options.budgetMs ?? 20_000);
  return { schema: value, tries };
}
