/**
 * Helpers of the endpoint functions: the checks of a success body's shape (`ResponseCheck`s); `guarded`
 * is in `operation.ts`.
 */
import type { ResponseCheck } from '../request.ts';

/** True for a JSON object (not an array, not null). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A check that the body is an object with an array under `key`. */
export const objectWithArray =
  (key: string, what: string): ResponseCheck =>
  (body) =>
    isObject(body) && Array.isArray(body[key]) ? undefined : `expected ${what} (an object with a "${key}" array)`;

/** A check that the body is an object with an object under `key`. */
export const objectWithObject =
  (key: string, what: string): ResponseCheck =>
  (body) =>
    isObject(body) && isObject(body[key]) ? undefined : `expected ${what} (an object with a "${key}" object)`;

/** A check that the body is a JSON object. */
export const isObjectBody =
  (what: string): ResponseCheck =>
  (body) =>
    isObject(body) ? undefined : `expected ${what} (a JSON object)`;
