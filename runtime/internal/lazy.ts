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

/**
 * `load`, called once and its module shared by every later call; when it fails, the promise rejects with the
 * loader's error (a page that lost its network) and the next call loads again.
 */
export function sharedLoad<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw err;
    }));
}

/**
 * `redact.ts`, loaded by the first call that has a secret (a key, a header value) and by a transport that
 * logs. Should it fail to load, that call fails (nothing is sent unredacted), and the next use tries again.
 */
export const loadRedaction = sharedLoad(() => import('../redact.ts'));
