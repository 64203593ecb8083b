/**
 * The oracle (fuzz/oracle.ts) in the fuzzer's case pipeline: the child writes, for each model a
 * case generated with a schema, jstt's module and a check module beside the case's output
 * (`out/oracle/<stem>.jstt.ts`, `out/oracle/<stem>.check.ts`, after the escape check); the parent
 * type-checks them in its batched program with the rest of the case's output (`fuzz/run.ts`) and
 * reads the check modules' diagnostics back here (`judgeOracle`).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileStem, modelNames } from '../generator/stages/name.ts';
import { ORACLE_RULES, checkModuleText, directionOfLine, jsttModule, rulesFor, unexplained } from './oracle.ts';
import type { Direction } from './oracle.ts';

/** One model of a case compared with jstt. */
export interface OracleModel {
  model: string;
  /** Paths relative to the case's output root. */
  check: string;
  jstt: string;
  /** The model's spec file, relative to the case directory's `specs/` (for shrinking). */
  spec: string;
  /** The rules that apply to its schema (`ORACLE_RULES` names). */
  rules: string[];
}

/** What the child wrote for a case. */
export interface OracleCase {
  models: OracleModel[];
  /** Models jstt refused (not compared), with its reason. */
  skipped: string[];
}

/** A failing direction of one model that no rule explains. */
export interface OracleFailure {
  model: string;
  spec: string;
  direction: Direction;
  message: string;
}

/**
 * Write the oracle modules of a case that generated: for each id of `list` whose model module is
 * among `files` (relative to `outRoot`) and whose spec file holds an object schema.
 */
export async function writeOracleModules(
  outRoot: string,
  specsDir: string,
  list: unknown,
  files: readonly string[],
): Promise<OracleCase> {
  const out: OracleCase = { models: [], skipped: [] };
  if (!Array.isArray(list)) return out;
  const written = new Set(files.map((f) => f.split(path.sep).join('/')));
  for (const id of new Set(list.filter((x): x is string => typeof x === 'string'))) {
    const stem = fileStem(id);
    if (!written.has(`generated/models/${stem}.ts`)) continue;
    let schema: unknown;
    try {
      const m = JSON.parse(readFileSync(path.join(specsDir, 'models', `${stem}.json`), 'utf8')) as Record<
        string,
        unknown
      >;
      schema = m['request_schema'] ?? m['json_request_schema'];
    } catch {
      continue;
    }
    if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) continue;
    const jstt = await jsttModule(schema);
    if (!jstt.ok) {
      out.skipped.push(`${id}: ${jstt.reason}`);
      continue;
    }
    mkdirSync(path.join(outRoot, 'oracle'), { recursive: true });
    const model: OracleModel = {
      model: id,
      check: `oracle/${stem}.check.ts`,
      jstt: `oracle/${stem}.jstt.ts`,
      spec: `models/${stem}.json`,
      rules: rulesFor(schema).map((r) => r.name),
    };
    writeFileSync(path.join(outRoot, model.jstt), jstt.text);
    writeFileSync(
      path.join(outRoot, model.check),
      checkModuleText(modelNames(id).params, `../generated/models/${stem}.ts`, `./${stem}.jstt.ts`),
    );
    out.models.push(model);
  }
  return out;
}

/**
 * Split a case's diagnostics (`<path>:<line>:<col> TS<code>: <text>`, paths relative to the output
 * root) into the oracle's findings and the rest: a check module's diagnostic on a direction's line
 * is that direction failing (a failure unless a rule of the model allows it); a diagnostic in
 * jstt's own module means jstt wrote no valid type (the model is not compared: a note).
 */
export function judgeOracle(
  diagnostics: readonly string[],
  oracle: OracleCase | undefined,
): { rest: string[]; failures: OracleFailure[]; notes: string[] } {
  if (!oracle || oracle.models.length === 0) return { rest: [...diagnostics], failures: [], notes: [] };
  const rest: string[] = [];
  const notes: string[] = [];
  const broken = new Set<OracleModel>();
  const failing = new Map<OracleModel, Array<{ direction: Direction; message: string }>>();
  for (const d of diagnostics) {
    const jstt = oracle.models.find((m) => d.startsWith(`${m.jstt}:`));
    const check = oracle.models.find((m) => d.startsWith(`${m.check}:`));
    if (jstt) {
      if (!broken.has(jstt)) notes.push(`json-schema-to-typescript wrote no valid type for ${jstt.model}: ${d}`);
      broken.add(jstt);
    } else if (check) {
      const direction = directionOfLine(Number(/^:(\d+):/.exec(d.slice(check.check.length))?.[1] ?? 0));
      if (direction) failing.set(check, [...(failing.get(check) ?? []), { direction, message: d }]);
      else rest.push(d); // an import that does not resolve: the generated module lacks its type
    } else rest.push(d);
  }
  const failures: OracleFailure[] = [];
  for (const [m, list] of failing) {
    if (broken.has(m)) continue;
    const rules = ORACLE_RULES.filter((r) => m.rules.includes(r.name));
    const open = unexplained(
      list.map((f) => f.direction),
      rules,
    );
    for (const f of list) if (open.includes(f.direction)) failures.push({ model: m.model, spec: m.spec, ...f });
  }
  return { rest, failures, notes };
}
