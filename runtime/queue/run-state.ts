/**
 * The state of one `queue.run` call (`Run`): the generations it follows, their outcomes, and the
 * wake-up of the waiting call.
 */
import { truncate } from '../errors.ts';
import type { QueueRunOptions, QueueRunOutcome, QueueRunProgress } from './outcomes.ts';
import type { RequestOptions } from '../scope.ts';
import type { MediaGenerationCompleted, QueueListParams } from '../types.ts';

/** One generation followed by a run. */
export interface Tracked {
  id: string;
  index: number;
  /** The event stream was down at some time since enqueue (and no later check found it processing). */
  gap: boolean;
  /** A check (`queue.list` or `queue.get`) of it is in flight. */
  checking: boolean;
  /** Cancels the timer of the grace period after a 404 (`startTimer`: any length). */
  graceTimer: (() => void) | undefined;
  /** A check found it processing since this run follows it. */
  seenProcessing?: boolean;
}

/** The state of one `queue.run` or `queue.follow` call. */
export class Run {
  readonly tracked = new Map<string, Tracked>();
  readonly outcomes = new Map<string, QueueRunOutcome>();
  order: string[] = [];
  enqueuedAt = 0;
  /** Set when the run must end with an error (fatal stream error). */
  failure: unknown;
  private wake: (() => void) | undefined;
  ready: { resolve: () => void; reject: (e: unknown) => void } | undefined;
  everUp = false;
  /** Options of the run's own requests (its signal ends them when the run ends). */
  inner: RequestOptions = {};
  /**
   * The `queue.list` query that lists this run's generations while they process (its namespace
   * and model); undefined when unknown (`queue.follow`): each generation is checked with `queue.get`.
   */
  listParams: QueueListParams | undefined = {};
  /** Whether the generations were enqueued elsewhere (`queue.follow`): a generation gone at the first check left before it was followed. */
  followed = false;

  constructor(
    readonly options: QueueRunOptions,
    readonly maxRetries: number,
  ) {}

  progress(p: QueueRunProgress): void {
    try {
      this.options.onProgress?.(p);
    } catch {
      /* the callback's errors are ignored */
    }
  }

  get done(): boolean {
    return this.order.length > 0 && this.outcomes.size === this.order.length;
  }

  /** Record the outcome of a pending generation (first outcome wins). */
  settle(outcome: QueueRunOutcome): void {
    const t = this.tracked.get(outcome.generation_id);
    if (!t || this.outcomes.has(t.id)) return;
    t.graceTimer?.();
    this.outcomes.set(t.id, outcome);
    this.progress({ type: 'settled', outcome, settled: this.outcomes.size, total: this.order.length });
    if (this.done) this.notify();
  }

  fail(err: unknown): void {
    if (this.failure === undefined) this.failure = err;
    this.ready?.reject(err);
    this.notify();
  }

  notify(): void {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }

  /** Resolves when something happened (an outcome, a failure). */
  changed(): Promise<void> {
    return new Promise((r) => (this.wake = r));
  }

  pending(): Tracked[] {
    return [...this.tracked.values()].filter((t) => !this.outcomes.has(t.id));
  }

  onCompleted(data: MediaGenerationCompleted): void {
    const t = this.tracked.get(data.generation_id);
    if (!t || this.outcomes.has(t.id)) return;
    try {
      this.options.onEvent?.(data);
    } catch {
      /* ignored */
    }
    if (data.status === 'succeeded') {
      const d = data as { url?: unknown; model?: unknown; media_type: string };
      if (typeof d.url !== 'string' || d.url === '') {
        // The service reported success but no output URL: the output cannot be fetched.
        const shown = truncate(JSON.stringify(data));
        this.settle({
          generation_id: t.id,
          index: t.index,
          status: 'lost',
          reason: 'invalid_event',
          message: `The completion event says succeeded but has no url string, so the output cannot be fetched: ${shown}`,
        });
        return;
      }
      this.settle({
        generation_id: t.id,
        index: t.index,
        status: 'succeeded',
        url: d.url,
        media_type: d.media_type,
        model: typeof d.model === 'string' ? d.model : '',
      });
    } else {
      const d = data as { error?: unknown; status?: unknown; media_type: string };
      const error =
        data.status === 'failed'
          ? typeof d.error === 'string'
            ? d.error
            : d.error === undefined || d.error === null
              ? 'failed'
              : JSON.stringify(d.error)
          : `unexpected completion status ${JSON.stringify(d.status)}`;
      this.settle({ generation_id: t.id, index: t.index, status: 'failed', error, media_type: d.media_type });
    }
  }
}
