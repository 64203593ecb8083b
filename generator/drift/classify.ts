/**
 * Schema drift, step 2: classify the differences microdiff finds between the normalised shapes
 * (`generator/drift-normalise.ts`) of one model as breaking or compatible for users of the
 * generated SDK.
 *
 * Breaking: removed model, removed parameter, removed enum value, newly required parameter (also a
 * new parameter that is required), narrowed type (a type the old schema accepted is no longer
 * accepted: `integer|string` -> `integer`, `number` -> `integer`, `string` -> `integer`, a type
 * where there was none), narrowed range (lower bound raised or new, upper bound lowered or new),
 * an enum on a parameter that had none, an item schema on an array that had none.
 * An enum that appears or goes while the range or type of the same parameter changes (an enum of
 * numbers replaced by `minimum`/`maximum`, or the reverse) is judged by values instead, as one
 * `enum-replaced` change (`values.ts`): breaking only when a value the old schema accepted (its
 * enum, or the integers of its bounded range) is refused by the new one.
 * Compatible: everything else (added model, optional parameter, enum value; required dropped;
 * widened type or range; default change; schema field renamed; endpoint or capabilities change;
 * parameter order; other keywords). Description and display-name edits are reported only as one
 * count per model ("N descriptions changed"), never their text.
 */
import diff, { type Difference } from 'microdiff';
import { LOWER_BOUNDS, RANGE_KEYS, type NormModel, type NormParam } from './normalise.ts';
import type { ChangeKind, DriftChange } from './types.ts';
import { byCodeUnits } from '../order.ts';
import { acceptedText, accepts, finiteValues, isValueKeyword } from './values.ts';

/** A value of a model object as text in a drift message: strings as they are, anything else as JSON. */
function shown(v: unknown): string {
  return typeof v === 'string' ? v : (JSON.stringify(v) ?? 'undefined');
}

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
  'enum-replaced',
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
export const cmp = byCodeUnits;

/** The report's order: model id, then parameter (model-level first), then kind, keyword, values. */
export function compareChanges(a: DriftChange, b: DriftChange): number {
  return (
    cmp(a.model, b.model) ||
    (a.param === undefined ? (b.param === undefined ? 0 : -1) : b.param === undefined ? 1 : cmp(a.param, b.param)) ||
    KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
    cmp(a.keyword ?? '', b.keyword ?? '') ||
    cmp(a.before ?? '', b.before ?? '') ||
    cmp(a.after ?? '', b.after ?? '')
  );
}

/** Most refused values named in one `enum-replaced` message. */
const MAX_SHOWN_VALUES = 10;

/**
 * The parameters whose enum appears or goes while their range or type changes too, each judged by
 * the values it accepts (see the module comment): one change per parameter.
 */
function valueChanges(id: string, before: NormModel, after: NormModel): Map<string, DriftChange> {
  const out = new Map<string, DriftChange>();
  for (const [name, o] of Object.entries(before.params)) {
    const nw = Object.hasOwn(after.params, name) ? after.params[name] : undefined;
    if (!nw || (o.enum === undefined) === (nw.enum === undefined)) continue;
    const bounds = (p: NormParam) => [
      p.type,
      ...[...RANGE_KEYS].map((k) => p[k as keyof NormParam]),
      p.other['multipleOf'],
    ];
    if (JSON.stringify(bounds(o)) === JSON.stringify(bounds(nw))) continue; // the enum alone: its own kinds
    const values = finiteValues(o);
    if (!values) continue;
    const refused = values.filter((v) => !accepts(nw, v));
    const named = refused.slice(0, MAX_SHOWN_VALUES).map(shown).join(', ');
    const more = refused.length > MAX_SHOWN_VALUES ? ` and ${refused.length - MAX_SHOWN_VALUES} more` : '';
    out.set(name, {
      model: id,
      param: name,
      kind: 'enum-replaced',
      severity: refused.length > 0 ? 'breaking' : 'compatible',
      before: acceptedText(o),
      after: acceptedText(nw),
      message: `${acceptedText(o)} replaced by ${acceptedText(nw)}: ${
        refused.length > 0 ? `no longer accepts ${named}${more}` : 'every value accepted before still is'
      }`,
    });
  }
  return out;
}

/** Classify the microdiff differences of one model present on both sides (unsorted). */
export function classifyModel(id: string, before: NormModel, after: NormModel): DriftChange[] {
  const out: DriftChange[] = [];
  const add = (c: Omit<DriftChange, 'model'>) => out.push({ model: id, ...c });
  const judged = valueChanges(id, before, after);
  out.push(...judged.values());
  let descriptions = 0;
  let order = 0;
  const capabilities = new Set<string>();
  const diffs: Difference[] = diff(before, after);
  // A parameter added or removed as a whole also adds/removes its nested entries: report only the parent.
  const wholeParams = new Set(
    diffs
      .filter((d) => d.path[0] === 'params' && d.path.length === 2 && d.type !== 'CHANGE')
      .map((d) => String(d.path[1])),
  );
  const nestedUnderWhole = (name: string) =>
    [...wholeParams].some((p) => name !== p && (name.startsWith(`${p}.`) || name.startsWith(`${p}[]`)));

  for (const d of diffs) {
    const [head, second, third, fourth] = d.path.map(String);
    const oldV = d.type === 'CREATE' ? undefined : (d as { oldValue: unknown }).oldValue;
    const newV = d.type === 'REMOVE' ? undefined : (d as { value: unknown }).value;
    if (head === 'schemaField') {
      add({
        param: undefined,
        kind: 'schema-field-renamed',
        severity: 'compatible',
        before: shown(oldV),
        after: shown(newV),
        message: `schema field renamed: ${shown(oldV)} -> ${shown(newV)} (informational)`,
      });
    } else if (head === 'hasSchema') {
      add({
        param: undefined,
        kind: 'schema-presence-changed',
        severity: 'compatible',
        message: newV ? 'request schema added (was null)' : 'request schema removed (now null)',
      });
    } else if (head === 'endpoint') {
      add({
        param: undefined,
        kind: 'endpoint-changed',
        severity: 'compatible',
        ...(oldV !== undefined ? { before: shown(oldV) } : {}),
        ...(newV !== undefined ? { after: shown(newV) } : {}),
        message: `endpoint: ${oldV === undefined ? 'none' : shown(oldV)} -> ${newV === undefined ? 'none' : shown(newV)}`,
      });
    } else if (head === 'capabilities') {
      capabilities.add(second ?? '');
    } else if (head === 'displayName' || head === 'description') {
      descriptions++;
    } else if (head === 'other') {
      add({
        param: undefined,
        kind: 'other',
        severity: 'compatible',
        keyword: second!,
        ...(oldV !== undefined ? { before: shown(oldV) } : {}),
        ...(newV !== undefined ? { after: shown(newV) } : {}),
        message: `${second} ${d.type === 'CREATE' ? 'added' : d.type === 'REMOVE' ? 'removed' : 'changed'}`,
      });
    } else if (head === 'params' && second !== undefined) {
      const name = second;
      if (third === undefined) {
        if (nestedUnderWhole(name)) continue;
        if (d.type === 'CREATE') {
          const p = newV as NormParam;
          if (name.endsWith('[]'))
            add({
              param: name,
              kind: 'type-changed',
              severity: 'breaking',
              after: typeLabel(p.type),
              message: `item schema added (${typeLabel(p.type)}): narrowed`,
            });
          else
            add({
              param: name,
              kind: 'param-added',
              severity: p.required ? 'breaking' : 'compatible',
              after: paramSummary(p),
              message: `parameter added (${paramSummary(p)})${p.required ? ': newly required' : ''}`,
            });
        } else if (d.type === 'REMOVE') {
          const p = oldV as NormParam;
          if (name.endsWith('[]'))
            add({
              param: name,
              kind: 'type-changed',
              severity: 'compatible',
              before: typeLabel(p.type),
              message: 'item schema removed: widened',
            });
          else
            add({
              param: name,
              kind: 'param-removed',
              severity: 'breaking',
              before: paramSummary(p),
              message: `parameter removed (was ${paramSummary(p)})`,
            });
        }
        continue;
      }
      if (judged.has(name) && isValueKeyword(third, fourth)) continue; // judged by values above
      if (third === 'type') {
        const o = oldV as string | undefined;
        const nw = newV as string | undefined;
        const widened = covers(nw, o);
        const detail = widened ? 'widened' : covers(o, nw) ? 'narrowed' : 'changed to an unrelated type';
        add({
          param: name,
          kind: 'type-changed',
          severity: widened ? 'compatible' : 'breaking',
          before: typeLabel(o),
          after: typeLabel(nw),
          message: `type ${typeLabel(o)} -> ${typeLabel(nw)}: ${detail}`,
        });
      } else if (third === 'enum') {
        if (fourth === undefined) {
          if (d.type === 'CREATE') {
            const values = Object.keys(newV as object).sort(cmp);
            add({
              param: name,
              kind: 'enum-introduced',
              severity: 'breaking',
              after: values.join(', '),
              message: `enum introduced (${values.length} values: ${values.join(', ')})`,
            });
          } else if (d.type === 'REMOVE') {
            const values = Object.keys(oldV as object).sort(cmp);
            add({
              param: name,
              kind: 'enum-dropped',
              severity: 'compatible',
              before: values.join(', '),
              message: `enum dropped (any value of the type accepted now)`,
            });
          }
        } else if (d.type === 'CREATE')
          add({
            param: name,
            kind: 'enum-added',
            severity: 'compatible',
            after: fourth,
            message: `enum value added: ${fourth}`,
          });
        else if (d.type === 'REMOVE')
          add({
            param: name,
            kind: 'enum-removed',
            severity: 'breaking',
            before: fourth,
            message: `enum value removed: ${fourth}`,
          });
      } else if (third === 'required') {
        if (newV === true) add({ param: name, kind: 'required-added', severity: 'breaking', message: 'now required' });
        else add({ param: name, kind: 'required-removed', severity: 'compatible', message: 'no longer required' });
      } else if (third === 'default') {
        add({
          param: name,
          kind: 'default-changed',
          severity: 'compatible',
          ...(oldV !== undefined ? { before: shown(oldV) } : {}),
          ...(newV !== undefined ? { after: shown(newV) } : {}),
          message: `default ${oldV === undefined ? 'none' : shown(oldV)} -> ${newV === undefined ? 'none' : shown(newV)}`,
        });
      } else if (RANGE_KEYS.has(third)) {
        const lower = (LOWER_BOUNDS as readonly string[]).includes(third);
        const o = oldV as number | undefined;
        const nw = newV as number | undefined;
        // A bound that appears or tightens narrows what is accepted.
        const narrowed = o === undefined ? true : nw === undefined ? false : lower ? nw > o : nw < o;
        add({
          param: name,
          kind: 'range-changed',
          severity: narrowed ? 'breaking' : 'compatible',
          keyword: third,
          ...(o !== undefined ? { before: String(o) } : {}),
          ...(nw !== undefined ? { after: String(nw) } : {}),
          message: `${third} ${o === undefined ? 'none' : o} -> ${nw === undefined ? 'none' : nw}: ${narrowed ? 'narrowed' : 'widened'}`,
        });
      } else if (third === 'description') {
        descriptions++;
      } else if (third === 'order') {
        order++;
      } else if (third === 'other' && fourth !== undefined) {
        add({
          param: name,
          kind: 'other',
          severity: 'compatible',
          keyword: fourth,
          ...(oldV !== undefined ? { before: shown(oldV) } : {}),
          ...(newV !== undefined ? { after: shown(newV) } : {}),
          message: `${fourth} ${d.type === 'CREATE' ? 'added' : d.type === 'REMOVE' ? 'removed' : 'changed'}`,
        });
      }
    }
  }
  for (const which of [...capabilities].sort(cmp)) {
    const list = (m: NormModel) =>
      Object.keys(m.capabilities?.[which as 'input' | 'output'] ?? {}).map((v) => JSON.parse(v) as string);
    const o = list(before);
    const nw = list(after);
    const plus = nw.filter((v) => !o.includes(v));
    const minus = o.filter((v) => !nw.includes(v));
    const parts = [...plus.map((v) => `+${v}`), ...minus.map((v) => `-${v}`)];
    add({
      param: undefined,
      kind: 'capabilities-changed',
      severity: 'compatible',
      keyword: which,
      before: o.join(', '),
      after: nw.join(', '),
      message: `capabilities.${which}: ${parts.join(' ') || 'changed'}`,
    });
  }
  if (order > 0)
    add({
      param: undefined,
      kind: 'order-changed',
      severity: 'compatible',
      message: `parameter order (x-order) changed for ${order} parameter${order === 1 ? '' : 's'}`,
    });
  if (descriptions > 0)
    add({
      param: undefined,
      kind: 'descriptions-changed',
      severity: 'compatible',
      message: `${descriptions} description${descriptions === 1 ? '' : 's'} changed (text not shown)`,
    });
  return out;
}
