/**
 * Schema drift: judging a parameter by the values it accepts, where its enum and its range or type
 * change together (an enum of numbers replaced by `minimum`/`maximum`, or the reverse). Keyword by
 * keyword, such a change reads as breaking (a bound that appears narrows); by values, it breaks
 * only when a value the old schema accepted is refused by the new one. The old values must be a
 * finite list: an `enum`, or the integers of a bounded integer range (up to `MAX_VALUES`).
 */
import { RANGE_KEYS, type NormParam } from './normalise.ts';

/** Most integers of a range enumerated to judge it (the size cap of an enum, `MAX_ENUM_VALUES`). */
const MAX_VALUES = 1_000;

/** Keywords of a parameter that decide which values it accepts, judged together here. */
export function isValueKeyword(keyword: string, sub: string | undefined): boolean {
  return (
    keyword === 'enum' || keyword === 'type' || RANGE_KEYS.has(keyword) || (keyword === 'other' && sub === 'multipleOf')
  );
}

/** The values a parameter accepts, when they are a finite list; undefined otherwise. */
export function finiteValues(p: NormParam): unknown[] | undefined {
  if (p.enum) return Object.keys(p.enum).map((k) => JSON.parse(k) as unknown);
  if (p.type !== 'integer') return undefined;
  const low = p.minimum ?? (p.exclusiveMinimum === undefined ? undefined : Math.floor(p.exclusiveMinimum) + 1);
  const high = p.maximum ?? (p.exclusiveMaximum === undefined ? undefined : Math.ceil(p.exclusiveMaximum) - 1);
  if (low === undefined || high === undefined || !Number.isFinite(low) || !Number.isFinite(high)) return undefined;
  const from = Math.ceil(low);
  const to = Math.floor(high);
  if (to - from + 1 > MAX_VALUES) return undefined;
  const out: number[] = [];
  for (let v = from; v <= to; v++) if (accepts(p, v)) out.push(v);
  return out;
}

/** The JSON type of a value (`integer` for a whole number). */
function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** Whether a parameter accepts a value, by the keywords the normalised shape models (`pattern`, `format` are not judged). */
export function accepts(p: NormParam, v: unknown): boolean {
  if (p.enum && !Object.hasOwn(p.enum, JSON.stringify(v))) return false;
  if (p.type !== undefined) {
    const types = p.type.split('|');
    const t = jsonType(v);
    if (!types.includes(t) && !(t === 'integer' && types.includes('number'))) return false;
  }
  if (typeof v === 'number') {
    if (p.minimum !== undefined && v < p.minimum) return false;
    if (p.maximum !== undefined && v > p.maximum) return false;
    if (p.exclusiveMinimum !== undefined && v <= p.exclusiveMinimum) return false;
    if (p.exclusiveMaximum !== undefined && v >= p.exclusiveMaximum) return false;
    const step = p.other['multipleOf'] === undefined ? undefined : (JSON.parse(p.other['multipleOf']) as unknown);
    if (typeof step === 'number' && step > 0 && !Number.isInteger(v / step)) return false;
  }
  if (typeof v === 'string') {
    const length = [...v].length;
    if (p.minLength !== undefined && length < p.minLength) return false;
    if (p.maxLength !== undefined && length > p.maxLength) return false;
  }
  return true;
}

/** What a parameter accepts, in a few words: `one of 10 values`, `integer from 4 to 15`. */
export function acceptedText(p: NormParam): string {
  if (p.enum) {
    const n = Object.keys(p.enum).length;
    return `one of ${n} value${n === 1 ? '' : 's'}`;
  }
  const parts = [p.type === undefined ? 'any' : p.type.split('|').join(' | ')];
  const low = p.minimum ?? p.exclusiveMinimum;
  const high = p.maximum ?? p.exclusiveMaximum;
  const lowWord = p.minimum === undefined ? 'above' : 'from';
  const highWord = p.maximum === undefined ? 'below' : 'to';
  if (low !== undefined && high !== undefined) parts.push(`${lowWord} ${low} ${highWord} ${high}`);
  else if (low !== undefined) parts.push(p.minimum === undefined ? `above ${low}` : `at least ${low}`);
  else if (high !== undefined) parts.push(p.maximum === undefined ? `below ${high}` : `at most ${high}`);
  if (p.other['multipleOf'] !== undefined) parts.push(`multiple of ${p.other['multipleOf']}`);
  return parts.join(' ');
}
