/**
 * Schema drift: compare two snapshots of the model schemas (`models.json` + `models/<id>.json`)
 * and classify every difference as breaking or compatible for users of the generated SDK
 * (`npm run drift`, and the report of a refresh). Nothing here reads the network or writes a file
 * except `readSnapshot`, which reads one.
 *
 * The steps, one file each: `snapshot.ts` reads a snapshot directory; `normalise.ts`
 * flattens each model object into a shape built for comparison; microdiff compares two shapes and
 * `classify.ts` maps every difference to one classified change (the breaking/compatible
 * rules are listed there); this file assembles the report; `render.ts` renders it as text or
 * Markdown. The report's types are in `types.ts`. Everything public is re-exported here.
 */
import { classifyModel, compareChanges } from './classify.ts';
import { normalise, type NormModel } from './normalise.ts';
import { readSnapshot } from './snapshot.ts';
import type { DriftChange, DriftReport, ModelDrift, Snapshot } from './types.ts';
import { SpecError } from '../errors.ts';
import { specFile } from '../stages/name.ts';
import { EXIT } from '../cli/exit-codes.ts';

export type { ChangeKind, DriftChange, DriftReport, ModelDrift, Severity, Snapshot } from './types.ts';
export { readSnapshot } from './snapshot.ts';
export { renderMarkdown, renderText, summaryLine } from './render.ts';

/** Options of `diffSnapshots`. */
export interface DiffOptions {
  /**
   * Ids the service no longer serves (a refresh's 404 on their details) that both snapshots keep:
   * each is reported as a breaking `model-removed` change (its code would call a model that is gone),
   * its files left as they were until the user removes it.
   */
  notServed?: readonly string[];
}

/** The message of a model the service no longer serves (`DiffOptions.notServed`). */
export const NOT_SERVED_MESSAGE =
  'no longer served (HTTP 404 on its details): kept in the snapshot, and typed, until you remove it';

/**
 * Compare two snapshots in memory.
 * @returns the classified report (sorted: model id, then parameter, then kind).
 * @throws SpecError when a listed id has no model object or a model object is invalid (`checkModel`).
 */
export function diffSnapshots(oldSnap: Snapshot, newSnap: Snapshot, options: DiffOptions = {}): DriftReport {
  const normAll = (s: Snapshot): Map<string, NormModel> => {
    const out = new Map<string, NormModel>();
    for (const id of s.ids) {
      const file = `${s.label}/${specFile(id)}`;
      if (!s.models.has(id)) throw new SpecError(file, id, '', 'listed in models.json but has no model object');
      out.set(id, normalise(s.models.get(id), id, file));
    }
    return out;
  };
  const a = normAll(oldSnap);
  const b = normAll(newSnap);
  const changes: DriftChange[] = [];
  for (const [id, m] of a) {
    if (!b.has(id))
      changes.push({
        model: id,
        param: undefined,
        kind: 'model-removed',
        severity: 'breaking',
        message: `model removed (had ${Object.keys(m.params).length} parameters)`,
      });
  }
  const notServed = new Set((options.notServed ?? []).filter((id) => a.has(id) && b.has(id)));
  for (const id of notServed)
    changes.push({
      model: id,
      param: undefined,
      kind: 'model-removed',
      severity: 'breaking',
      message: NOT_SERVED_MESSAGE,
    });
  for (const [id, m] of b) {
    const old = a.get(id);
    if (!old)
      changes.push({
        model: id,
        param: undefined,
        kind: 'model-added',
        severity: 'compatible',
        message: `model added (${m.hasSchema ? `${Object.keys(m.params).length} parameters` : 'no request schema'}${m.endpoint ? `, endpoint ${m.endpoint}` : ''})`,
      });
    else changes.push(...classifyModel(id, old, m));
  }
  changes.sort(compareChanges);
  const byModel = new Map<string, ModelDrift>();
  for (const c of changes) {
    let md = byModel.get(c.model);
    if (!md) {
      md = {
        id: c.model,
        status: !a.has(c.model) ? 'added' : !b.has(c.model) || notServed.has(c.model) ? 'removed' : 'changed',
        breaking: 0,
        compatible: 0,
        changes: [],
      };
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
 * Compare two snapshot directories (each holding `models.json` and `models/`).
 * @returns the structured report; see `renderText` / `renderMarkdown` / `driftExitCode`.
 * @throws SpecError for a missing, malformed or invalid snapshot file (naming file, model, pointer).
 */
export async function driftReport(oldSpecsDir: string, newSpecsDir: string): Promise<DriftReport> {
  const [a, b] = await Promise.all([readSnapshot(oldSpecsDir), readSnapshot(newSpecsDir)]);
  return diffSnapshots(a, b);
}

/**
 * The exit code of a report (`drift`, `refresh`; the table of `cli/exit-codes.ts`): `EXIT.ok` (0)
 * nothing changed, `EXIT.changed` (1) compatible changes only, `EXIT.breaking` (2) something breaks.
 */
export function driftExitCode(report: DriftReport): typeof EXIT.ok | typeof EXIT.changed | typeof EXIT.breaking {
  return report.breaking > 0 ? EXIT.breaking : report.compatible > 0 ? EXIT.changed : EXIT.ok;
}
