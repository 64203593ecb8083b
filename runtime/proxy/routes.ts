/**
 * The routes the proxy forwards: the API's own operations (`../operations.ts`, generated from
 * `specs/openapi.yaml`) and nothing else, in its match order. Each path parameter is one segment,
 * captured for the handler's own check of it.
 */
import { OPERATIONS } from '../operations.ts';

/** One forwarded operation: its method, its path as a pattern, the query parameters passed on. */
export interface ProxyRoute {
  method: 'GET' | 'POST' | 'DELETE';
  pattern: RegExp;
  query: readonly string[];
}

/** `^…$` of a path template: literal segments escaped, each `{name}` one captured segment. */
function patternOf(template: string): RegExp {
  const source = template
    .split(/(\{\w+\})/)
    .map((part) => (part.startsWith('{') ? '([^/]+)' : part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

/** The API's operations, the only ones the proxy forwards (built once, dropped by a bundle that never uses it). */
export const OPERATION_ROUTES: readonly ProxyRoute[] = /* @__PURE__ */ (() =>
  Object.values(OPERATIONS).map((o) => ({ method: o.method, pattern: patternOf(o.path), query: o.query })))();
