/**
 * Helpers of the endpoint functions: the checks of a success body's shape (`ResponseCheck`s) and
 * `guarded`, which turns an error thrown while building a request into a rejected `APIPromise`.
 */
import { APIPromise } from '../api-promise.ts';
import type { ResponseCheck } from '../request.ts';

/** True for a JSON object (not an array, not null). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The call `make` returns, or an `APIPromise` rejected with what it threw while building the request
 * (a bad path parameter): a rejection, as callers of the endpoint functions have always seen.
 */
export function guarded<T>(make: () => APIPromise<T>): APIPromise<T> {
  try {
    return make();
  } catch (err) {
    return APIPromise.rejected(err);
  }
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
