/**
 * The shapes of schema drift: one side of a comparison (`Snapshot`), one classified difference
 * (`DriftChange`), and the report (`DriftReport`). See `generator/drift-classify.ts` for how each
 * kind of change is classified.
 */

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
  | 'enum-replaced'
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
