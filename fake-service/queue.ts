// The async generation queue and its worker.
import { randomUUID } from 'node:crypto';
import { HttpError } from './http.ts';
import type { Clock, FileStore, ModelRecord } from './state.ts';
import type { EventHub } from './sse.ts';
import type { MediaKind, ParamValidator } from './validate.ts';

export interface DecideInput {
  generation_id: string;
  model: string;
  params: Record<string, unknown>;
  index: number;
  namespace: string;
}
export interface Decision {
  outcome: 'succeeded' | 'failed' | 'vanish' | 'hold';
  delayMs?: number;
  error?: string;
}
export type DecideFn = (g: DecideInput) => Decision;

export const GENERATION_LIFETIME_MS = 24 * 60 * 60 * 1000;
export const COMPLETED_EVENT = 'media_generation_completed';

/**
 * How the queue behaves: `today` as the service's docs say since May 2026 (`async_queue.mdx`:
 * enqueue answers `queued`; generations stay readable after they end, with `status`, `result_url`,
 * `error_message` and timestamps; list items say `model_name`; the list shows the active ones unless
 * filtered by `status`, and filters by `media_type`, `repo`, `folder`; a DELETE of an ended one has no
 * effect), or `0.224.2` as the API description says (an ended generation is gone: 404).
 */
export type QueueMode = 'today' | '0.224.2';

type Status = 'queued' | 'processing' | 'succeeded' | 'failed' | 'cancelled';
const ACTIVE = new Set<Status>(['queued', 'processing']);

/** Query of the list: `namespace` and `model`, and today's filters. */
export interface ListQuery {
  namespace: string;
  model?: string | undefined;
  status?: string | undefined;
  media_type?: string | undefined;
  repo?: string | undefined;
  folder?: string | undefined;
}

interface Gen {
  id: string;
  enqueuedMs: number;
  namespace: string;
  user: string; // who enqueued: the completion event goes to this user's streams
  model: ModelRecord;
  params: Record<string, unknown>;
  mediaType: 'image' | 'video';
  status: Status;
  resultUrl: string | null;
  errorMessage: string | null;
  /** Unix seconds. */
  enqueuedAt: number;
  startedAt: number | null;
  completedAt: number | null;
  timer?: NodeJS.Timeout;
  startTimer?: NodeJS.Timeout;
}

/** Enqueue parameters that are not echoed in today's items (ours: the docs name only model parameters). */
const NOT_ECHOED = new Set(['model', 'num_generations', 'target_namespace']);

/** Text of the prompt (or of every multi_prompt shot), used for the default decide markers and the resource. */
export function promptText(params: Record<string, unknown>): string | undefined {
  if (typeof params.prompt === 'string') return params.prompt;
  if (Array.isArray(params.multi_prompt)) {
    return params.multi_prompt
      .map((s) =>
        s !== null && typeof s === 'object' && typeof (s as { prompt?: unknown }).prompt === 'string'
          ? (s as { prompt: string }).prompt
          : '',
      )
      .join(' ');
  }
  return undefined;
}

/**
 * Default decide: `succeeded`, unless the prompt contains "[fail]", "[vanish]" or "[hold]"; with a
 * `failureRate` (0 to 1, default 0), that share of the others fails too, chosen by `random` (default
 * `Math.random`) per generation.
 */
export function defaultDecide(workerDelayMs: number, failureRate = 0, random: () => number = Math.random): DecideFn {
  return (g) => {
    const p = promptText(g.params) ?? '';
    if (p.includes('[fail]') || (failureRate > 0 && random() < failureRate))
      return { outcome: 'failed', delayMs: workerDelayMs, error: 'Generation failed: the model returned an error' };
    if (p.includes('[vanish]')) return { outcome: 'vanish', delayMs: workerDelayMs };
    if (p.includes('[hold]')) return { outcome: 'hold' };
    return { outcome: 'succeeded', delayMs: workerDelayMs };
  };
}

export class GenerationQueue {
  /** Insertion order = enqueue order. 0.224.2 keeps only processing generations; today keeps them all. */
  private readonly gens = new Map<string, Gen>();

  constructor(
    private readonly deps: {
      clock: Clock;
      hub: EventHub;
      files: FileStore;
      validator: ParamValidator;
      decide: DecideFn;
      workerDelayMs: number;
      mode: QueueMode;
    },
  ) {}

  get mode(): QueueMode {
    return this.deps.mode;
  }

  /** The status the enqueue answer gives: `queued` today, `processing` in 0.224.2. */
  get enqueuedStatus(): Status {
    return this.deps.mode === 'today' ? 'queued' : 'processing';
  }

  enqueue(
    user: string,
    namespace: string,
    model: ModelRecord,
    mediaType: 'image' | 'video',
    params: Record<string, unknown>,
    n: number,
  ): string[] {
    const ids: string[] = [];
    const nowMs = this.deps.clock.now();
    const today = this.deps.mode === 'today';
    for (let index = 0; index < n; index++) {
      const generation_id = randomUUID();
      const gen: Gen = {
        id: generation_id,
        enqueuedMs: nowMs,
        namespace,
        user,
        model,
        params,
        mediaType,
        status: today ? 'queued' : 'processing',
        resultUrl: null,
        errorMessage: null,
        enqueuedAt: Math.floor(nowMs / 1000),
        startedAt: today ? null : Math.floor(nowMs / 1000),
        completedAt: null,
      };
      this.gens.set(generation_id, gen);
      ids.push(generation_id);
      // Today: a worker picks it up at once (ours: the docs give no queueing delay).
      if (today)
        gen.startTimer = setTimeout(() => {
          if (gen.status !== 'queued') return;
          gen.status = 'processing';
          gen.startedAt = this.deps.clock.seconds();
        }, 0);
      let d: Decision;
      try {
        d = this.deps.decide({ generation_id, model: model.id, params: { ...params }, index, namespace });
      } catch (e) {
        d = { outcome: 'failed', error: `decide threw: ${(e as Error).message}` };
      }
      if (d.outcome !== 'hold') {
        const outcome = d.outcome;
        const error = d.error;
        gen.timer = setTimeout(() => this.finish(generation_id, outcome, error), d.delayMs ?? this.deps.workerDelayMs);
      }
    }
    return ids;
  }

  /** The generation as list and get return it, in the mode's shape. */
  resource(g: Gen): Record<string, unknown> {
    const prompt = promptText(g.params) ?? '';
    if (this.deps.mode === '0.224.2') {
      const r: Record<string, unknown> = {
        generation_id: g.id,
        model: g.model.id,
        // Ours: `prompt` is always present (the table says list/get); "" when none was submitted
        // (models such as topazlabs-video-upscale take no prompt); multi_prompt shots are joined by spaces.
        prompt,
        media_type: g.mediaType,
        enqueued_at: g.enqueuedAt,
      };
      for (const f of ['seed', 'aspect_ratio', 'duration'] as const) if (g.params[f] !== undefined) r[f] = g.params[f];
      return r;
    }
    const r: Record<string, unknown> = {
      generation_id: g.id,
      model_name: g.model.id,
      prompt,
      media_type: g.mediaType,
      status: g.status,
      result_url: g.resultUrl,
      error_message: g.errorMessage,
      enqueued_at: g.enqueuedAt,
      started_at: g.startedAt,
      completed_at: g.completedAt,
    };
    // "Any additional parameters from the original enqueue request are included": never over the fields above.
    for (const [k, v] of Object.entries(g.params)) if (!NOT_ECHOED.has(k) && !(k in r)) r[k] = v;
    return r;
  }

  /** A generation visible in one of the user's namespaces (0.224.2: a processing one), or undefined. */
  find(id: string, canAccess: (ns: string) => boolean): Gen | undefined {
    const g = this.gens.get(id);
    return g && canAccess(g.namespace) ? g : undefined;
  }

  /**
   * The list. 0.224.2: the processing generations of the namespace (of `model`), other filters
   * ignored (ours: it does not know them). Today: by default the active ones (`queued`,
   * `processing`), or those of `status`; `media_type`; `repo` and `folder` match the enqueue
   * parameters of those names (ours: the docs do not say how the target is recorded).
   */
  list(q: ListQuery): Array<Record<string, unknown>> {
    const today = this.deps.mode === 'today';
    const out: Array<Record<string, unknown>> = [];
    for (const g of this.gens.values()) {
      if (g.namespace !== q.namespace || (q.model !== undefined && g.model.id !== q.model)) continue;
      if (today) {
        if (q.status !== undefined ? g.status !== q.status : !ACTIVE.has(g.status)) continue;
        if (q.media_type !== undefined && g.mediaType !== q.media_type) continue;
        if (q.repo !== undefined && g.params['repo'] !== q.repo) continue;
        if (q.folder !== undefined && g.params['folder'] !== q.folder) continue;
      }
      out.push(this.resource(g));
    }
    return out;
  }

  /** Test hook: every active generation, with its namespace. */
  all(): Array<Record<string, unknown>> {
    return [...this.gens.values()]
      .filter((g) => ACTIVE.has(g.status))
      .map((g) => ({ ...this.resource(g), namespace: g.namespace }));
  }

  /** DELETE: cancelled, no event. 0.224.2: removed. Today: kept as `cancelled`; one that already ended is left as it is. */
  cancel(id: string): void {
    if (this.deps.mode === '0.224.2') return this.remove(id);
    const g = this.gens.get(id);
    if (!g || !ACTIVE.has(g.status)) return;
    this.end(g, 'cancelled');
  }

  /** Test hook / worker: end an active generation now with this outcome (`vanish`: removed, no event, a 404 from then on). */
  finish(id: string, outcome: 'succeeded' | 'failed' | 'vanish', error?: string): void {
    const g = this.gens.get(id);
    if (!g || !ACTIVE.has(g.status)) return;
    if (outcome === 'vanish') return this.remove(id);
    if (outcome === 'succeeded') {
      // The real service validates model parameters when the generation runs: invalid ones fail it.
      const kind: MediaKind =
        g.mediaType === 'video'
          ? 'videos.generate'
          : g.model.endpoint === '/images/generate'
            ? 'images.generate'
            : 'images.edit';
      try {
        // Today's `repo` and `folder` (the list's filters name them) are not model parameters (ours: the docs do not say how they are sent).
        const own = this.deps.mode === 'today' ? ['num_generations', 'repo', 'folder'] : ['num_generations'];
        this.deps.validator.check(g.model, kind, g.params, own);
      } catch (e) {
        if (!(e instanceof HttpError)) throw e;
        return this.fail(g, e.message);
      }
      const url = this.deps.files.create(g.namespace, g.mediaType);
      this.end(g, 'succeeded', url);
      this.deps.hub.emit(g.user, COMPLETED_EVENT, {
        generation_id: id,
        status: 'succeeded',
        media_type: g.mediaType,
        model: g.model.id,
        url,
      });
      return;
    }
    this.fail(g, error ?? 'Generation failed');
  }

  private fail(g: Gen, error: string): void {
    this.end(g, 'failed', null, error);
    this.deps.hub.emit(g.user, COMPLETED_EVENT, {
      generation_id: g.id,
      status: 'failed',
      media_type: g.mediaType,
      error,
    });
  }

  /** The generation reached a terminal status: 0.224.2 forgets it, today records how it ended. */
  private end(g: Gen, status: Status, url: string | null = null, error: string | null = null): void {
    if (this.deps.mode === '0.224.2') return this.remove(g.id);
    clearTimeout(g.timer);
    clearTimeout(g.startTimer);
    const now = this.deps.clock.seconds();
    g.status = status;
    g.resultUrl = url;
    g.errorMessage = error;
    g.startedAt ??= now;
    g.completedAt = now;
  }

  /** 0.224.2's expiry: generations older than 24 h (by the clock) are removed with no event. Today's docs name no expiry. */
  sweep(): void {
    if (this.deps.mode !== '0.224.2') return;
    const now = this.deps.clock.now();
    for (const [id, g] of this.gens) if (now - g.enqueuedMs >= GENERATION_LIFETIME_MS) this.remove(id);
  }

  stopAll(): void {
    for (const g of this.gens.values()) {
      clearTimeout(g.timer);
      clearTimeout(g.startTimer);
    }
  }

  private remove(id: string): void {
    const g = this.gens.get(id);
    if (!g) return;
    clearTimeout(g.timer);
    clearTimeout(g.startTimer);
    this.gens.delete(id);
  }
}
