/**
 * Schema drift: compare two snapshots of the model schemas (`models.json` + `models/<id>.json`)
 * and classify every difference as breaking or compatible for users of the generated SDK.
 *
 * Each model is first normalised (via `checkModel`, so `request_schema` / `json_request_schema`
 * are told apart in one place only) into a flat shape built for structural comparison: one entry
 * per parameter (nested object properties as `parent.child`, array item schemas as `parent[]`),
 * types as a sorted `a|b` string, enum values and capabilities as key sets, defaults and unknown
 * keywords as JSON text. microdiff compares the two normalised shapes and every difference it
 * reports is mapped to one change below. Nothing here reads the network or writes a file.
 *
 * Breaking: removed model, removed parameter, removed enum value, newly required parameter (also a
 * new parameter that is required), narrowed type (a type the old schema accepted is no longer
 * accepted: `integer|string` -> `integer`, `number` -> `integer`, `string` -> `integer`, a type
 * where there was none), narrowed range (lower bound raised or new, upper bound lowered or new),
 * an enum on a parameter that had none, an item schema on an array that had none.
 * Compatible: everything else (added model, optional parameter, enum value; required dropped;
 * widened type or range; default change; schema field renamed; endpoint or capabilities change;
 * parameter order; other keywords). Description and display-name edits are reported only as one
 * count per model ("N descriptions changed"), never their text.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import diff, { type Difference } from 'microdiff';
import { SpecError } from './errors.ts';
import { checkModel, type JsonSchema } from './load.ts';

/** What changed; see the module comment for how each kind is classified. */
export type ChangeKind =
  | 'model-added'
  | 'model-removed'
  | 'param-added'
  | 'param-removed'
  | 'type-changed'
  | 'enum-added'
  | 'enum-removed'
  | 'enum-introduced'
  | 'enum-dropped'
  | 'required-added'
  | 'required-removed'
  | 'default-changed'
  | 'range-changed'
  | 'schema-field-renamed'
  | 'schema-presence-changed'
  | 'endpoint-changed'
  | 'capabilities-changed'
  | 'order-changed'
  | 'descriptions-changed'
  | 'other';

/** Whether code written against the old snapshot can break with the new one. */
export type Severity = 'breaking' | 'compatible';

/** One classified difference. */
export interface DriftChange {
  /** The model id. */
  model: string;
  /**
   * The parameter (`name`, nested `parent.child`, array items `parent[]`), or undefined for a
   * change of the model as a whole (added/removed, endpoint, capabilities, schema field, counts).
   */
  param: string | undefined;
  kind: ChangeKind;
  severity: Severity;
  /** The keyword concerned where one kind covers several (`minimum`, `maxItems`, `input`, ...). */
  keyword?: string;
  /** Old and new value, as display text (JSON for schema values); undefined when absent. */
  before?: string;
  after?: string;
  /** One line for humans, without the model and parameter names. */
  message: string;
}

/** Per-model summary of a report. */
export interface ModelDrift {
  id: string;
  status: 'added' | 'removed' | 'changed';
  breaking: number;
  compatible: number;
  changes: DriftChange[];
}

/** The result of comparing two snapshots. */
export interface DriftReport {
  /** Labels of the two sides (directories, or e.g. `https://hub.oxen.ai` for a fetched one). */
  old: string;
  new: string;
  /** Models with at least one change, sorted by id. */
  models: ModelDrift[];
  /** Every change, sorted by model id, then parameter name (model-level first), then kind. */
  changes: DriftChange[];
  breaking: number;
  compatible: number;
  /** Model ids by what happened to them (sorted); `unchanged` is a count. */
  added: string[];
  removed: string[];
  changed: string[];
  unchanged: number;
}

/** One side of a comparison: the listed ids and each id's model object as parsed from JSON. */
export interface Snapshot {
  /** Shown in the report and in error messages (e.g. the directory). */
  label: string;
  /** The ids of `models.json`, in order. */
  ids: string[];
  /** Model object per listed id (ids without an entry are an error in `diffSnapshots`). */
  models: ReadonlyMap<string, unknown>;
}

// ---------------------------------------------------------------------------------------------
// Normalisation

interface NormParam {
  /** Sorted types joined with `|`; absent: any type. */
  type?: string;
  /** JSON text of each allowed value; absent: no enum. */
  enum?: Record<string, true>;
  required: boolean;
  /** JSON text. */
  default?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  description?: string;
  /** JSON text of `x-order`. */
  order?: string;
  /** Keywords not modelled above, as JSON text. */
  other: Record<string, string>;
}

interface NormModel {
  schemaField: string | null;
  hasSchema: boolean;
  endpoint?: string;
  capabilities?: { input: Record<string, true>; output: Record<string, true> };
  displayName?: string;
  description?: string;
  params: Record<string, NormParam>;
  /** Other top-level fields of the model object and other schema-level keywords, as JSON text. */
  other: Record<string, string>;
}

const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minItems', 'minLength'] as const;
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxItems', 'maxLength'] as const;
const RANGE_KEYS: ReadonlySet<string> = new Set([...LOWER_BOUNDS, ...UPPER_BOUNDS]);
/** Keywords of a parameter schema that the normalised shape models (everything else goes to `other`). */
const PARAM_KEYWORDS = new Set(['type', 'enum', 'const', 'default', 'description', 'x-order', 'properties', 'required', 'items', ...RANGE_KEYS]);
/** Model-object fields modelled (or deliberately handled) by `normalise`. */
const MODEL_FIELDS = new Set(['id', 'request_schema', 'json_request_schema', 'endpoint', 'capabilities', 'display_name', 'description']);
const SCHEMA_FIELDS_HANDLED = new Set(['type', 'properties', 'required']);
/** How deep nested object properties and array items are followed. */
const MAX_DEPTH = 4;

const json = (v: unknown): string => JSON.stringify(v) ?? 'undefined';
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const keySet = (values: readonly unknown[]): Record<string, true> => Object.fromEntries(values.map((v) => [json(v), true as const]));

/** The set of types a schema accepts, or undefined for "any". Reduces `anyOf`/`oneOf` of typed members and `nullable`. */
function typesOf(s: Record<string, unknown>): { types: string[] | undefined; reducedKeyword?: string } {
  let types: string[] | undefined;
  let reducedKeyword: string | undefined;
  if (typeof s['type'] === 'string') types = [s['type']];
  else if (Array.isArray(s['type'])) types = s['type'].filter((t): t is string => typeof t === 'string');
  else {
    for (const k of ['anyOf', 'oneOf']) {
      const members = s[k];
      if (Array.isArray(members) && members.length > 0 && members.every((m) => isObject(m) && Object.keys(m).every((mk) => mk === 'type' || mk === 'description') && typeof m['type'] === 'string')) {
        types = members.map((m) => (m as { type: string }).type);
        reducedKeyword = k;
        break;
      }
    }
  }
  if (types && s['nullable'] === true) types.push('null');
  return { types: types ? [...new Set(types)].sort() : undefined, ...(reducedKeyword ? { reducedKeyword } : {}) };
}

function addParam(out: Record<string, NormParam>, name: string, raw: unknown, required: boolean, depth: number): void {
  const s = isObject(raw) ? raw : {};
  const p: NormParam = { required, other: {} };
  if (raw === false) p.other['schema'] = 'false';
  const { types, reducedKeyword } = typesOf(s);
  if (types) p.type = types.join('|');
  if (Array.isArray(s['enum'])) p.enum = keySet(s['enum']);
  else if ('const' in s) p.enum = keySet([s['const']]);
  if ('default' in s) p.default = json(s['default']);
  for (const k of RANGE_KEYS) {
    const v = s[k];
    if (typeof v === 'number') (p as unknown as Record<string, number>)[k] = v;
    else if (v !== undefined) p.other[k] = json(v); // e.g. draft-04 boolean exclusiveMinimum
  }
  if (typeof s['description'] === 'string') p.description = s['description'];
  if (s['x-order'] !== undefined) p.order = json(s['x-order']);
  for (const [k, v] of Object.entries(s)) {
    if (PARAM_KEYWORDS.has(k) || k === 'nullable' || k === reducedKeyword) continue;
    p.other[k] = json(v);
  }
  out[name] = p;
  if (depth >= MAX_DEPTH) {
    for (const k of ['properties', 'required', 'items']) if (s[k] !== undefined) p.other[k] = json(s[k]);
    return;
  }
  if (isObject(s['properties'])) {
    const req = new Set(Array.isArray(s['required']) ? s['required'] : []);
    for (const [child, cs] of Object.entries(s['properties'])) addParam(out, `${name}.${child}`, cs, req.has(child), depth + 1);
  } else if (s['required'] !== undefined) p.other['required'] = json(s['required']);
  if (isObject(s['items'])) addParam(out, `${name}[]`, s['items'], false, depth + 1);
  else if (s['items'] !== undefined) p.other['items'] = json(s['items']);
}

function normalise(raw: unknown, id: string, file: string): NormModel {
  const m = checkModel(raw, id, file);
  const obj = m.raw as Record<string, unknown>;
  const n: NormModel = { schemaField: m.schemaField, hasSchema: m.schema !== null, params: {}, other: {} };
  if (m.endpoint !== undefined) n.endpoint = m.endpoint;
  if (m.capabilities) n.capabilities = { input: keySet(m.capabilities.input), output: keySet(m.capabilities.output) };
  if (m.displayName !== undefined) n.displayName = m.displayName;
  if (m.description !== undefined) n.description = m.description;
  for (const [k, v] of Object.entries(obj)) if (!MODEL_FIELDS.has(k)) n.other[k] = json(v);
  const schema: JsonSchema | null = m.schema;
  if (schema) {
    const required = new Set((schema['required'] ?? []) as string[]);
    for (const [name, ps] of Object.entries((schema['properties'] ?? {}) as Record<string, unknown>)) addParam(n.params, name, ps, required.has(name), 1);
    for (const [k, v] of Object.entries(schema)) if (!SCHEMA_FIELDS_HANDLED.has(k)) n.other[`schema.${k}`] = json(v);
  }
  return n;
}

// ---------------------------------------------------------------------------------------------
// Classification

/** Whether every type in `from` is accepted by `to` (`integer` is accepted by `number`). Undefined = any. */
function covers(to: string | undefined, from: string | undefined): boolean {
  if (to === undefined) return true;
  if (from === undefined) return false;
  const t = new Set(to.split('|'));
  return from.split('|').every((x) => t.has(x) || (x === 'integer' && t.has('number')));
}

function typeLabel(t: string | undefined): string {
  return t === undefined ? 'any' : t.split('|').join(' | ');
}

function paramSummary(p: NormParam): string {
  return `${p.required ? 'required' : 'optional'}, ${typeLabel(p.type)}`;
}

const KIND_ORDER: ChangeKind[] = [
  'model-removed',
  'model-added',
  'schema-presence-changed',
  'schema-field-renamed',
  'endpoint-changed',
  'capabilities-changed',
  'param-removed',
  'param-added',
  'type-changed',
  'required-added',
  'required-removed',
  'enum-introduced',
  'enum-dropped',
  'enum-removed',
  'enum-added',
  'range-changed',
  'default-changed',
  'other',
  'order-changed',
  'descriptions-changed',
];

/** Code-unit order: the same on every machine and locale. */
function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareChanges(a: DriftChange, b: DriftChange): number {
  return (
    cmp(a.model, b.model) ||
    (a.param === undefined ? (b.param === undefined ? 0 : -1) : b.param === undefined ? 1 : cmp(a.param, b.param)) ||
    KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
    cmp(a.keyword ?? '', b.keyword ?? '') ||
    cmp(a.before ?? '', b.before ?? '') ||
    cmp(a.after ?? '', b.after ?? '')
  );
}

/** Classify the microdiff differences of one model present on both sides. */
function classifyModel(id: string, before: NormModel, after: NormModel): DriftChange[] {
  const out: DriftChange[] = [];
  const add = (c: Omit<DriftChange, 'model'>) => out.push({ model: id, ...c });
  let descriptions = 0;
  let order = 0;
  const capabilities = new Set<string>();
  const diffs: Difference[] = diff(before as unknown as Record<string, unknown>, after as unknown as Record<string, unknown>);
  // A parameter added or removed as a whole also adds/removes its nested entries: report only the parent.
  const wholeParams = new Set(diffs.filter((d) => d.path[0] === 'params' && d.path.length === 2 && d.type !== 'CHANGE').map((d) => String(d.path[1])));
  const nestedUnderWhole = (name: string) => [...wholeParams].some((p) => name !== p && (name.startsWith(`${p}.`) || name.startsWith(`${p}[]`)));

  for (const d of diffs) {
    const [head, second, third, fourth] = d.path.map(String);
    const oldV = d.type === 'CREATE' ? undefined : (d as { oldValue: unknown }).oldValue;
    const newV = d.type === 'REMOVE' ? undefined : (d as { value: unknown }).value;
    if (head === 'schemaField') {
      add({ param: undefined, kind: 'schema-field-renamed', severity: 'compatible', before: String(oldV), after: String(newV), message: `schema field renamed: ${String(oldV)} -> ${String(newV)} (informational)` });
    } else if (head === 'hasSchema') {
      add({ param: undefined, kind: 'schema-presence-changed', severity: 'compatible', message: newV ? 'request schema added (was null)' : 'request schema removed (now null)' });
    } else if (head === 'endpoint') {
      add({ param: undefined, kind: 'endpoint-changed', severity: 'compatible', ...(oldV !== undefined ? { before: String(oldV) } : {}), ...(newV !== undefined ? { after: String(newV) } : {}), message: `endpoint: ${oldV === undefined ? 'none' : String(oldV)} -> ${newV === undefined ? 'none' : String(newV)}` });
    } else if (head === 'capabilities') {
      capabilities.add(second ?? '');
    } else if (head === 'displayName' || head === 'description') {
      descriptions++;
    } else if (head === 'other') {
      add({ param: undefined, kind: 'other', severity: 'compatible', keyword: second!, ...(oldV !== undefined ? { before: String(oldV) } : {}), ...(newV !== undefined ? { after: String(newV) } : {}), message: `${second} ${d.type === 'CREATE' ? 'added' : d.type === 'REMOVE' ? 'removed' : 'changed'}` });
    } else if (head === 'params' && second !== undefined) {
      const name = second;
      if (third === undefined) {
        if (nestedUnderWhole(name)) continue;
        if (d.type === 'CREATE') {
          const p = newV as NormParam;
          if (name.endsWith('[]')) add({ param: name, kind: 'type-changed', severity: 'breaking', after: typeLabel(p.type), message: `item schema added (${typeLabel(p.type)}): narrowed` });
          else add({ param: name, kind: 'param-added', severity: p.required ? 'breaking' : 'compatible', after: paramSummary(p), message: `parameter added (${paramSummary(p)})${p.required ? ': newly required' : ''}` });
        } else if (d.type === 'REMOVE') {
          const p = oldV as NormParam;
          if (name.endsWith('[]')) add({ param: name, kind: 'type-changed', severity: 'compatible', before: typeLabel(p.type), message: 'item schema removed: widened' });
          else add({ param: name, kind: 'param-removed', severity: 'breaking', before: paramSummary(p), message: `parameter removed (was ${paramSummary(p)})` });
        }
        continue;
      }
      if (third === 'type') {
        const o = oldV as string | undefined;
        const nw = newV as string | undefined;
        const widened = covers(nw, o);
        const detail = widened ? 'widened' : covers(o, nw) ? 'narrowed' : 'changed to an unrelated type';
        add({ param: name, kind: 'type-changed', severity: widened ? 'compatible' : 'breaking', before: typeLabel(o), after: typeLabel(nw), message: `type ${typeLabel(o)} -> ${typeLabel(nw)}: ${detail}` });
      } else if (third === 'enum') {
        if (fourth === undefined) {
          if (d.type === 'CREATE') {
            const values = Object.keys(newV as object).sort(cmp);
            add({ param: name, kind: 'enum-introduced', severity: 'breaking', after: values.join(', '), message: `enum introduced (${values.length} values: ${values.join(', ')})` });
          } else if (d.type === 'REMOVE') {
            const values = Object.keys(oldV as object).sort(cmp);
            add({ param: name, kind: 'enum-dropped', severity: 'compatible', before: values.join(', '), message: `enum dropped (any value of the type accepted now)` });
          }
        } else if (d.type === 'CREATE') add({ param: name, kind: 'enum-added', severity: 'compatible', after: fourth, message: `enum value added: ${fourth}` });
        else if (d.type === 'REMOVE') add({ param: name, kind: 'enum-removed', severity: 'breaking', before: fourth, message: `enum value removed: ${fourth}` });
      } else if (third === 'required') {
        if (newV === true) add({ param: name, kind: 'required-added', severity: 'breaking', message: 'now required' });
        else add({ param: name, kind: 'required-removed', severity: 'compatible', message: 'no longer required' });
      } else if (third === 'default') {
        add({ param: name, kind: 'default-changed', severity: 'compatible', ...(oldV !== undefined ? { before: String(oldV) } : {}), ...(newV !== undefined ? { after: String(newV) } : {}), message: `default ${oldV === undefined ? 'none' : String(oldV)} -> ${newV === undefined ? 'none' : String(newV)}` });
      } else if (RANGE_KEYS.has(third)) {
        const lower = (LOWER_BOUNDS as readonly string[]).includes(third);
        const o = oldV as number | undefined;
        const nw = newV as number | undefined;
        // A bound that appears or tightens narrows what is accepted.
        const narrowed = o === undefined ? true : nw === undefined ? false : lower ? nw > o : nw < o;
        add({ param: name, kind: 'range-changed', severity: narrowed ? 'breaking' : 'compatible', keyword: third, ...(o !== undefined ? { before: String(o) } : {}), ...(nw !== undefined ? { after: String(nw) } : {}), message: `${third} ${o === undefined ? 'none' : o} -> ${nw === undefined ? 'none' : nw}: ${narrowed ? 'narrowed' : 'widened'}` });
      } else if (third === 'description') {
        descriptions++;
      } else if (third === 'order') {
        order++;
      } else if (third === 'other' && fourth !== undefined) {
        add({ param: name, kind: 'other', severity: 'compatible', keyword: fourth, ...(oldV !== undefined ? { before: String(oldV) } : {}), ...(newV !== undefined ? { after: String(newV) } : {}), message: `${fourth} ${d.type === 'CREATE' ? 'added' : d.type === 'REMOVE' ? 'removed' : 'changed'}` });
      }
    }
  }
  for (const which of [...capabilities].sort(cmp)) {
    const list = (m: NormModel) => Object.keys(m.capabilities?.[which as 'input' | 'output'] ?? {}).map((v) => JSON.parse(v) as string);
    const o = list(before);
    const nw = list(after);
    const plus = nw.filter((v) => !o.includes(v));
    const minus = o.filter((v) => !nw.includes(v));
    const parts = [...plus.map((v) => `+${v}`), ...minus.map((v) => `-${v}`)];
    add({ param: undefined, kind: 'capabilities-changed', severity: 'compatible', keyword: which, before: o.join(', '), after: nw.join(', '), message: `capabilities.${which}: ${parts.join(' ') || 'changed'}` });
  }
  if (order > 0) add({ param: undefined, kind: 'order-changed', severity: 'compatible', message: `parameter order (x-order) changed for ${order} parameter${order === 1 ? '' : 's'}` });
  if (descriptions > 0) add({ param: undefined, kind: 'descriptions-changed', severity: 'compatible', message: `${descriptions} description${descriptions === 1 ? '' : 's'} changed (text not shown)` });
  return out;
}

/**
 * Compare two snapshots in memory.
 * @returns the classified report (sorted: model id, then parameter, then kind).
 * @throws SpecError when a listed id has no model object or a model object is invalid (`checkModel`).
 */
export function diffSnapshots(oldSnap: Snapshot, newSnap: Snapshot): DriftReport {
  const normAll = (s: Snapshot): Map<string, NormModel> => {
    const out = new Map<string, NormModel>();
    for (const id of s.ids) {
      const file = `${s.label}/models/${id}.json`;
      if (!s.models.has(id)) throw new SpecError(file, id, '', 'listed in models.json but has no model object');
      out.set(id, normalise(s.models.get(id), id, file));
    }
    return out;
  };
  const a = normAll(oldSnap);
  const b = normAll(newSnap);
  const changes: DriftChange[] = [];
  for (const [id, m] of a) {
    if (!b.has(id)) changes.push({ model: id, param: undefined, kind: 'model-removed', severity: 'breaking', message: `model removed (had ${Object.keys(m.params).length} parameters)` });
  }
  for (const [id, m] of b) {
    const old = a.get(id);
    if (!old) changes.push({ model: id, param: undefined, kind: 'model-added', severity: 'compatible', message: `model added (${m.hasSchema ? `${Object.keys(m.params).length} parameters` : 'no request schema'}${m.endpoint ? `, endpoint ${m.endpoint}` : ''})` });
    else changes.push(...classifyModel(id, old, m));
  }
  changes.sort(compareChanges);
  const byModel = new Map<string, ModelDrift>();
  for (const c of changes) {
    let md = byModel.get(c.model);
    if (!md) {
      md = { id: c.model, status: !a.has(c.model) ? 'added' : !b.has(c.model) ? 'removed' : 'changed', breaking: 0, compatible: 0, changes: [] };
      byModel.set(c.model, md);
    }
    md.changes.push(c);
    md[c.severity]++;
  }
  const models = [...byModel.values()];
  const all = new Set([...a.keys(), ...b.keys()]);
  return {
    old: oldSnap.label,
    new: newSnap.label,
    models,
    changes,
    breaking: changes.filter((c) => c.severity === 'breaking').length,
    compatible: changes.filter((c) => c.severity === 'compatible').length,
    added: models.filter((m) => m.status === 'added').map((m) => m.id),
    removed: models.filter((m) => m.status === 'removed').map((m) => m.id),
    changed: models.filter((m) => m.status === 'changed').map((m) => m.id),
    unchanged: all.size - models.length,
  };
}

/**
 * Read a snapshot directory: `<dir>/models.json` (a JSON array of ids) and `<dir>/models/<id>.json`
 * for each listed id (other files are ignored; `openapi.yaml` is not needed).
 * @param label how the directory is named in messages (default: the path as given).
 * @throws SpecError when a file is missing, is not JSON, or the list is not an array of strings.
 */
export async function readSnapshot(dir: string, label = dir): Promise<Snapshot> {
  const listFile = `${label}/models.json`;
  const read = async (file: string, shown: string, model?: string): Promise<unknown> => {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      throw new SpecError(shown, model, '', `cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    try {
      return JSON.parse(text);
    } catch (err) {
      throw new SpecError(shown, model, '', `malformed JSON: ${(err as Error).message}`);
    }
  };
  const ids = await read(path.join(dir, 'models.json'), listFile);
  if (!Array.isArray(ids) || !ids.every((i): i is string => typeof i === 'string' && i !== '' && !/[/\\]/.test(i) && i !== '.' && i !== '..')) {
    throw new SpecError(listFile, undefined, '', 'expected a JSON array of model ids (non-empty strings without slashes)');
  }
  const models = new Map<string, unknown>();
  await Promise.all(ids.map(async (id) => models.set(id, await read(path.join(dir, 'models', `${id}.json`), `${label}/models/${id}.json`, id))));
  return { label, ids, models };
}

/**
 * Compare two snapshot directories (each holding `models.json` and `models/`).
 * @returns the structured report; see `renderText` / `renderMarkdown` / `driftExitCode`.
 * @throws SpecError for a missing, malformed or invalid snapshot file (naming file, model, pointer).
 */
export async function driftReport(oldSpecsDir: string, newSpecsDir: string): Promise<DriftReport> {
  const [a, b] = await Promise.all([readSnapshot(oldSpecsDir), readSnapshot(newSpecsDir)]);
  return diffSnapshots(a, b);
}

/** The exit code of `npm run drift` for a report: 0 nothing changed, 1 compatible changes only, 2 something breaks. */
export function driftExitCode(report: DriftReport): 0 | 1 | 2 {
  return report.breaking > 0 ? 2 : report.compatible > 0 ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// Rendering

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** One line summarising the report (counts of changes and of models). */
export function summaryLine(report: DriftReport): string {
  const total = report.added.length + report.removed.length + report.changed.length + report.unchanged;
  if (report.changes.length === 0) return `No schema drift: ${plural(total, 'model')} compared, nothing changed.`;
  return (
    `Schema drift: ${report.breaking} breaking, ${report.compatible} compatible ${report.changes.length === 1 ? 'change' : 'changes'} ` +
    `(${plural(report.models.length, 'model')} affected: ${report.added.length} added, ${report.removed.length} removed, ${report.changed.length} changed; ${report.unchanged} unchanged)`
  );
}

/** Make server-controlled text safe for a terminal: control characters are escaped, never emitted. */
function safe(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Render a report for a terminal: the summary line, then per model its changes, one per line
 * (`BREAKING`/`compatible`, parameter, message). Deterministic; no colours; ends with a newline.
 */
export function renderText(report: DriftReport): string {
  const lines = [summaryLine(report)];
  if (report.changes.length > 0) lines.push(`  old: ${safe(report.old)}`, `  new: ${safe(report.new)}`);
  for (const m of report.models) {
    lines.push('', `${safe(m.id)} (${m.status}: ${m.breaking} breaking, ${m.compatible} compatible)`);
    const width = Math.min(40, Math.max(0, ...m.changes.map((c) => (c.param ?? '').length)));
    for (const c of m.changes) {
      const sev = c.severity === 'breaking' ? 'BREAKING  ' : 'compatible';
      const param = c.param === undefined ? '(model)' : c.param;
      lines.push(`  ${sev}  ${safe(param).padEnd(Math.max(width, 7))}  ${safe(c.message)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Text for one Markdown table cell: one line, pipes escaped, HTML neutralised, length bounded. */
function cell(s: string | undefined, code = false): string {
  if (s === undefined || s === '') return '';
  let t = safe(s.replace(/[\r\n\u2028\u2029]+/g, ' '));
  if (t.length > 120) t = `${t.slice(0, 117)}...`;
  if (code) {
    // A code span cannot contain its fence; use a longer fence than any backtick run inside.
    const longest = Math.max(0, ...(t.match(/`+/g) ?? []).map((r) => r.length));
    const fence = '`'.repeat(longest + 1);
    const pad = t.startsWith('`') || t.endsWith('`') ? ' ' : '';
    return `${fence}${pad}${t.replace(/\|/g, '\\|')}${pad}${fence}`;
  }
  return t.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/([*_`[\]])/g, '\\$1');
}

/**
 * Render a report as Markdown for a pull request: a bold summary line with the breaking and
 * compatible counts, then one table per model (severity, parameter, change, before, after).
 * Server-provided text is escaped so that it cannot break the tables or inject HTML.
 */
export function renderMarkdown(report: DriftReport): string {
  const out = [`**${summaryLine(report)}**`, ''];
  if (report.changes.length > 0) {
    out.push(`Compared ${cell(report.old, true)} (old) with ${cell(report.new, true)} (new). Breaking: a removed model, parameter or enum value, a newly required parameter, a narrowed type or range, a new enum. Description edits are counted, not shown.`, '');
  }
  for (const m of report.models) {
    out.push(`### ${cell(m.id, true)} (${m.status}: ${m.breaking} breaking, ${m.compatible} compatible)`, '');
    out.push('| | Parameter | Change | Before | After |', '|---|---|---|---|---|');
    for (const c of m.changes) {
      const sev = c.severity === 'breaking' ? ':red_circle: breaking' : ':green_circle: compatible';
      out.push(`| ${sev} | ${c.param === undefined ? '_(model)_' : cell(c.param, true)} | ${cell(c.message)} | ${cell(c.before, true)} | ${cell(c.after, true)} |`);
    }
    out.push('');
  }
  return `${out.join('\n').trimEnd()}\n`;
}
