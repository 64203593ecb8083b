/**
 * The generator's one ordering of strings and its one object test, so that every sorted list
 * (files, model ids, drift entries) is in the same order on every machine and locale.
 */

/** Orders strings by UTF-16 code units (`Array.prototype.sort`'s default order, as a comparator): locale-independent. */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Whether `v` is a JSON object (not null, not an array). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
