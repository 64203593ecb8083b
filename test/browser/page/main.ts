/**
 * The test page's module, bundled by esbuild for the browser and loaded under
 * `Content-Security-Policy: script-src 'self'`. It exposes the scenarios on
 * `window.sdkScenarios`; `test/browser/scenarios.test.ts` calls them with `page.evaluate` and
 * asserts on the plain-data results (errors become `ErrorInfo`).
 *
 * No API key is in this file or its bundle: the direct scenarios receive the key from the test as
 * an argument; the proxy scenarios get none at all.
 */
import {
  AbortError,
  APIError,
  Client,
  ConnectionError,
  OutcomeUnknownError,
  SDKError,
  ValidationError,
  cancelGeneration,
  createTransport,
  fetchOutputBlob,
  NotFoundError,
  type ClientOptions,
  type Transport,
} from '../../../index.ts';
import { flux2ProEnqueue, flux2ProGenerateImage, flux2ProRun } from '../../../generated/models/flux-2-pro.ts';

/** Where the page's SDK sends its calls, and with which key (none through the proxy). */
export interface PageTarget {
  baseUrl: string;
  apiKey?: string;
  dangerouslyAllowBrowser?: boolean;
}

/** An error as plain data (what crosses `page.evaluate`), with `instanceof` checks made in the page. */
export interface ErrorInfo {
  name: string;
  message: string;
  is: {
    SDKError: boolean;
    ValidationError: boolean;
    AbortError: boolean;
    ConnectionError: boolean;
    OutcomeUnknownError: boolean;
  };
  issues?: Array<{ pointer: string; message: string; keyword?: string | undefined }>;
  status?: number | undefined;
  reason?: string;
  notSent?: boolean;
  cause?: { name: string; message: string; notSent?: boolean };
}

/** A scenario's result: its value, or the error it threw. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: ErrorInfo };

function errorInfo(e: unknown): ErrorInfo {
  const err = e instanceof Error ? e : new Error(String(e));
  const info: ErrorInfo = {
    name: err.name,
    message: err.message,
    is: {
      SDKError: e instanceof SDKError,
      ValidationError: e instanceof ValidationError,
      AbortError: e instanceof AbortError,
      ConnectionError: e instanceof ConnectionError,
      OutcomeUnknownError: e instanceof OutcomeUnknownError,
    },
  };
  if (e instanceof ValidationError)
    info.issues = e.issues.map((i) => ({ pointer: i.pointer, message: i.message, keyword: i.keyword }));
  if (e instanceof ConnectionError) info.notSent = e.notSent;
  if (e instanceof OutcomeUnknownError) info.reason = e.reason;
  if (e instanceof SDKError && 'status' in e) info.status = (e as { status?: number }).status;
  const cause = err.cause;
  if (cause instanceof Error) {
    info.cause = { name: cause.name, message: cause.message };
    if (cause instanceof ConnectionError) info.cause.notSent = cause.notSent;
  }
  return info;
}

async function attempt<T>(fn: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (e) {
    return { ok: false, error: errorInfo(e) };
  }
}

function options(target: PageTarget): ClientOptions {
  return {
    baseUrl: target.baseUrl,
    apiKey: target.apiKey,
    dangerouslyAllowBrowser: target.dangerouslyAllowBrowser,
    retryBaseDelayMs: 10,
    retryMaxDelayMs: 50,
  };
}

/** Calls started by `startAbortable`, to be aborted and awaited by later `page.evaluate`s. */
const pending = new Map<string, { controller: AbortController; result: Promise<Outcome<unknown>> }>();

const scenarios = {
  /** One image through a per-model function on a bare transport. */
  imagePerModel: (target: PageTarget) =>
    attempt(async () => {
      const transport: Transport = createTransport(options(target));
      const result = await flux2ProGenerateImage(transport, { prompt: 'a red fox in the snow', aspect_ratio: '1:1' });
      return { urls: result.images.map((i) => i.url) };
    }),

  /** One image through the root client, then its output fetched into a Blob (a plain fetch from the page to the output host). */
  imageSavedAsBlob: (target: PageTarget) =>
    attempt(async () => {
      const client = new Client(options(target));
      const result = await client.images.generate({ model: 'flux-2-pro', prompt: 'a red fox in the snow' });
      const blob = await fetchOutputBlob(result.images[0]!);
      return { type: blob.type, bytes: [...new Uint8Array(await blob.arrayBuffer())] };
    }),

  /**
   * What production users watch, in a page: a client logging at `debug` into a recording logger,
   * `onRequest` / `onResponse` hooks, `withResponse()`, `queue.run` with `onEnqueued`, then
   * `queue.follow` of those ids from a second client (as after a restart).
   */
  observed: (target: PageTarget) =>
    attempt(async () => {
      const lines: string[] = [];
      const record = (message: string, details?: unknown) =>
        void lines.push(`${message} ${JSON.stringify(details ?? '')}`);
      const attempts: number[] = [];
      const statuses: number[] = [];
      const client = new Client({
        ...options(target),
        logLevel: 'debug',
        logger: { debug: record, info: record, warn: record, error: record },
        onRequest: (request) => void attempts.push(request.attempt),
        onResponse: ({ response }) => void statuses.push(response.status),
      });
      const { data, response } = await client.queue.list().withResponse();
      let persisted: string[] = [];
      const [run] = await client.queue.run(
        { model: 'flux-2-pro', prompt: 'a fox' },
        {
          reconcileIntervalMs: 150,
          lostGraceMs: 50,
          timeoutMs: 20_000,
          onEnqueued: (ids) => void (persisted = [...ids]),
        },
      );
      const followed = await new Client(options(target)).queue.follow(persisted, { timeoutMs: 20_000 });
      return { count: data.count, status: response.status, attempts, statuses, lines, run, persisted, followed };
    }),

  /** One image through the root client. */
  imageClient: (target: PageTarget) =>
    attempt(async () => {
      const client = new Client(options(target));
      const result = await client.images.generate({ model: 'flux-2-pro', prompt: 'a red fox in the snow' });
      return { urls: result.images.map((i) => i.url) };
    }),

  /** `queue.enqueue` through the root client with invalid parameters (the validator is loaded lazily). */
  enqueueInvalidClient: (target: PageTarget) =>
    attempt(() => {
      const client = new Client(options(target));
      // Deliberately invalid: an aspect ratio outside the enum, a parameter the model does not have, too many generations.
      const body = {
        model: 'flux-2-pro',
        prompt: 'a fox',
        aspect_ratio: '5:4',
        num_generations: 9,
        steps: 3,
      } as unknown as Parameters<typeof client.queue.enqueue>[0];
      return client.queue.enqueue(body);
    }),

  /** The per-model enqueue function with invalid parameters (its validator is imported statically). */
  enqueueInvalidPerModel: (target: PageTarget) =>
    attempt(() => {
      const body = { prompt: 42, output_quality: 101 } as unknown as Parameters<typeof flux2ProEnqueue>[1];
      return flux2ProEnqueue(createTransport(options(target)), body);
    }),

  /**
   * Four concurrent `queue.run`s through one root client, one per outcome the local server's
   * prompt markers choose: succeeded, `[fail]` -> failed, `[vanish]` -> lost (found by
   * reconciliation), `[hold]` cancelled through `client.queue.cancel` once enqueued.
   */
  queueRunOutcomes: (target: PageTarget) =>
    attempt(async () => {
      const client = new Client(options(target));
      const fast = { reconcileIntervalMs: 150, lostGraceMs: 50, timeoutMs: 20_000 };
      const progress: string[] = [];
      const [succeeded, failed, lost, cancelled] = await Promise.all([
        client.queue.run(
          { model: 'flux-2-pro', prompt: 'a fox', num_generations: 2 },
          { ...fast, onProgress: (p) => progress.push(p.type) },
        ),
        client.queue.run({ model: 'flux-2-pro', prompt: 'a fox [fail]' }, fast),
        client.queue.run({ model: 'flux-2-pro', prompt: 'a fox [vanish]' }, fast),
        client.queue.run(
          { model: 'flux-2-pro', prompt: 'a fox [hold]' },
          {
            ...fast,
            onProgress: (p) => {
              if (p.type === 'enqueued') for (const id of p.generation_ids) void client.queue.cancel(id);
            },
          },
        ),
      ]);
      return { succeeded, failed, lost, cancelled, progress, streamAfter: client.queue.eventStream.state };
    }),

  /** `queue.run` through the per-model function on a bare transport, with a cancellation through `cancelGeneration`. */
  queueRunPerModel: (target: PageTarget) =>
    attempt(async () => {
      const transport = createTransport(options(target));
      const fast = { reconcileIntervalMs: 150, lostGraceMs: 50, timeoutMs: 20_000 };
      const [succeeded, cancelled] = await Promise.all([
        flux2ProRun(transport, { prompt: 'a fox', num_generations: 2 }, fast),
        flux2ProRun(
          transport,
          { prompt: 'a fox [hold]' },
          {
            ...fast,
            onProgress: (p) => {
              if (p.type === 'enqueued') for (const id of p.generation_ids) void cancelGeneration(transport, id);
            },
          },
        ),
      ]);
      return { succeeded, cancelled };
    }),

  /** A streamed chat completion through the root client. */
  chatStream: (target: PageTarget) =>
    attempt(async () => {
      const client = new Client(options(target));
      const stream = await client.chat.completions.create({
        model: 'claude-sonnet-4-6',
        messages: [{ role: 'user', content: 'hello from the browser' }],
        stream: true,
      });
      const deltas: string[] = [];
      const finish: Array<string | null> = [];
      for await (const chunk of stream) {
        const choice = chunk.choices[0];
        if (choice?.delta.content) deltas.push(choice.delta.content);
        if (choice) finish.push(choice.finish_reason ?? null);
      }
      return { deltas, finish };
    }),

  /** Start an image call that the test aborts later (`abort`), and keep its result for `settle`. */
  startAbortable: (target: PageTarget, id: string) => {
    const controller = new AbortController();
    const client = new Client(options(target));
    const result = attempt(() =>
      client.images.generate({ model: 'flux-2-pro', prompt: 'a slow fox' }, { signal: controller.signal }),
    );
    pending.set(id, { controller, result });
    return true;
  },
  abort: (id: string) => {
    pending.get(id)?.controller.abort();
    return pending.has(id);
  },
  settle: async (id: string) => {
    const call = pending.get(id);
    if (!call) throw new Error(`no call ${id}`);
    pending.delete(id);
    return call.result;
  },

  /**
   * An error answer (`queue.get` of an unknown generation: 404) as the page sees it: its classes, its
   * fields, `toJSON()` and `JSON.stringify`, and whether the error has Node's `util.inspect` hook
   * (the browser build leaves it out).
   */
  errorForms: async (target: PageTarget) => {
    const client = new Client(options(target));
    try {
      await client.queue.get('no-such-generation');
      return null;
    } catch (e) {
      const err = e as APIError;
      return {
        classes: [e instanceof SDKError, e instanceof APIError, e instanceof NotFoundError],
        fields: { name: err.name, status: err.status, request: err.request, headers: err.headers instanceof Headers },
        json: err.toJSON(),
        stringified: JSON.parse(JSON.stringify(err)) as unknown,
        hasInspectHook: Symbol.for('nodejs.util.inspect.custom') in err,
      };
    }
  },

  /** Constructing a client and a transport with an API key but without `dangerouslyAllowBrowser`. */
  refuseKey: (target: PageTarget) => ({
    client: errorOf(() => new Client({ baseUrl: target.baseUrl, apiKey: target.apiKey })),
    transport: errorOf(() => createTransport({ baseUrl: target.baseUrl, apiKey: target.apiKey })),
    allowed: errorOf(
      () => new Client({ baseUrl: target.baseUrl, apiKey: target.apiKey, dangerouslyAllowBrowser: true }),
    ),
    noKey: errorOf(() => new Client({ baseUrl: target.baseUrl })),
  }),

  /**
   * Whether this page may evaluate strings (it must not, under its CSP): the name of the error, or
   * 'allowed'. (Run from a page task, as the harness runs every scenario: code that runs
   * synchronously inside DevTools' evaluation is exempt from the page's CSP.)
   */
  evalProbe: () => {
    try {
      // The probe checks that the page's CSP forbids eval.
      // eslint-disable-next-line @typescript-eslint/no-implied-eval
      new Function('return 1')();
      return 'allowed';
    } catch (e) {
      return e instanceof Error ? e.name : String(e);
    }
  },
};

function errorOf(fn: () => unknown): ErrorInfo | null {
  try {
    fn();
    return null;
  } catch (e) {
    return errorInfo(e);
  }
}

/** The scenarios, as `window.sdkScenarios` holds them. */
export type Scenarios = typeof scenarios;

(globalThis as unknown as { sdkScenarios: Scenarios }).sdkScenarios = scenarios;
document.documentElement.dataset['ready'] = 'true';
