/**
 * The modules a first call's path loads on demand, each behind one `import()` here that every caller
 * shares: a bundler wraps each `import()` of a page (Vite: in its preload helper's call, with the list of
 * chunks it needs), so one site per module keeps that cost once. `failure.ts` (`http.ts`) and
 * `retry-policy.ts` (`retry.ts`) have one caller each and are loaded there.
 */

/** `hook-run.ts`: loaded by the first call of a transport that has hooks, or that logs a retry. */
export const loadHookRun = () => import('./hook-run.ts');

/** `replay.ts`: loaded by an `APIPromise`'s `withResponse()` / `asResponse()`. */
export const loadReplay = () => import('./replay.ts');

let redaction: Promise<typeof import('../redact.ts')> | undefined;
/**
 * `redact.ts`, loaded by the first call that has a secret (a key, a header value) and by a transport that
 * logs. Should it fail to load, the promise rejects with the loader's error (that call fails: nothing is
 * sent unredacted), and the next use tries again.
 */
export const loadRedaction = () =>
  (redaction ??= import('../redact.ts').catch((err: unknown) => {
    redaction = undefined;
    throw err;
  }));
