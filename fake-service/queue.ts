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

interface Gen {
  resource: Record<string, unknown>; // the Generation as list/get return it (no status, no url)
  enqueuedMs: number;
  namespace: string;
  user: string; // who enqueued: the completion event goes to this user's streams
  model: ModelRecord;
  params: Record<string, unknown>;
  mediaType: 'image' | 'video';
  timer?: NodeJS.Timeout;
}

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

/** Default decide: `succeeded`, unless the prompt contains "[fail]", "[vanish]" or "[hold]". */
export function defaultDecide(workerDelayMs: number): DecideFn {
  return (g) => {
    const p = promptText(g.params) ?? '';
    if (p.includes('[fail]'))
      return { outcome: 'failed', delayMs: workerDelayMs, error: 'Generation failed: the model returned an error' };
    if (p.includes('[vanish]')) return { outcome: 'vanish', delayMs: workerDelayMs };
    if (p.includes('[hold]')) return { outcome: 'hold' };
    return { outcome: 'succeeded', delayMs: workerDelayMs };
  };
}

export class GenerationQueue {
  private readonly gens = new Map<string, Gen>(); // insertion order = enqueue order

  constructor(
    private readonly deps: {
      clock: Clock;
      hub: EventHub;
      files: FileStore;
      validator: ParamValidator;
      decide: DecideFn;
      workerDelayMs: number;
    },
  ) {}

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
    for (let index = 0; index < n; index++) {
      const generation_id = randomUUID();
      const resource: Record<string, unknown> = {
        generation_id,
        model: model.id,
        // Ours: `prompt` is always present (the table says list/get); "" when none was submitted
        // (models such as topazlabs-video-upscale take no prompt); multi_prompt shots are joined by spaces.
        prompt: promptText(params) ?? '',
        media_type: mediaType,
        enqueued_at: Math.floor(nowMs / 1000),
      };
      for (const f of ['seed', 'aspect_ratio', 'duration'] as const)
        if (params[f] !== undefined) resource[f] = params[f];
      const gen: Gen = { resource, enqueuedMs: nowMs, namespace, user, model, params, mediaType };
      this.gens.set(generation_id, gen);
      ids.push(generation_id);
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

  /** A processing generation visible in one of `namespaces`, or undefined. */
  find(id: string, canAccess: (ns: string) => boolean): Gen | undefined {
    const g = this.gens.get(id);
    return g && canAccess(g.namespace) ? g : undefined;
  }

  list(namespace: string, model?: string): Array<Record<string, unknown>> {
    return [...this.gens.values()]
      .filter((g) => g.namespace === namespace && (model === undefined || g.model.id === model))
      .map((g) => ({ ...g.resource }));
  }

  /** Test hook: every processing generation, with its namespace. */
  all(): Array<Record<string, unknown>> {
    return [...this.gens.values()].map((g) => ({ ...g.resource, namespace: g.namespace }));
  }

  /** DELETE: cancelled, removed, no event. */
  cancel(id: string): void {
    this.remove(id);
  }

  /** Test hook / worker: end a processing generation now with this outcome. */
  finish(id: string, outcome: 'succeeded' | 'failed' | 'vanish', error?: string): void {
    const g = this.gens.get(id);
    if (!g) return;
    this.remove(id);
    if (outcome === 'vanish') return;
    if (outcome === 'succeeded') {
      // The real service validates model parameters when the generation runs: invalid ones fail it.
      const kind: MediaKind =
        g.mediaType === 'video'
          ? 'videos.generate'
          : g.model.endpoint === '/images/generate'
            ? 'images.generate'
            : 'images.edit';
      try {
        this.deps.validator.check(g.model, kind, g.params, ['num_generations']);
      } catch (e) {
        if (!(e instanceof HttpError)) throw e;
        this.deps.hub.emit(g.user, COMPLETED_EVENT, {
          generation_id: id,
          status: 'failed',
          media_type: g.mediaType,
          error: e.message,
        });
        return;
      }
      const url = this.deps.files.create(g.namespace, g.mediaType);
      this.deps.hub.emit(g.user, COMPLETED_EVENT, {
        generation_id: id,
        status: 'succeeded',
        media_type: g.mediaType,
        model: g.model.id,
        url,
      });
      return;
    }
    this.deps.hub.emit(g.user, COMPLETED_EVENT, {
      generation_id: id,
      status: 'failed',
      media_type: g.mediaType,
      error: error ?? 'Generation failed',
    });
  }

  /** Expiry: generations older than 24 h (by the clock) are removed with no event. */
  sweep(): void {
    const now = this.deps.clock.now();
    for (const [id, g] of this.gens) if (now - g.enqueuedMs >= GENERATION_LIFETIME_MS) this.remove(id);
  }

  stopAll(): void {
    for (const g of this.gens.values()) clearTimeout(g.timer);
  }

  private remove(id: string): void {
    const g = this.gens.get(id);
    if (!g) return;
    clearTimeout(g.timer);
    this.gens.delete(id);
  }
}
