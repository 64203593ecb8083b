/**
 * The generations the runs of one transport follow (`Tracked`, one per run and id) and their index
 * by generation id (`TrackedIndex`): the one table through which each completion event, each
 * cancellation and each listed generation reaches the runs that follow its id. A run keeps its own
 * generations in an array, with their outcomes on them: no other table by id.
 */
import type { QueueRunOutcome } from './outcomes.ts';
import type { Run } from './run-state.ts';
import type { GenerationState } from './states.ts';

/** One generation followed by a run. */
export interface Tracked {
  id: string;
  /** Its position in the enqueue answer (`queue.follow`: its first position in the ids given). */
  index: number;
  /** The run that follows it. */
  run: Run;
  state: GenerationState;
  /** Its completion event may have been missed: the stream was down at some time since it was followed (and no check since found it active while the stream stayed up). */
  gap: boolean;
  /** A check found it active since it is followed. */
  seen: boolean;
  /** Its outcome, once settled (state `settled`). */
  outcome: QueueRunOutcome | undefined;
  /** Cancels the timer of the grace period (set in state `grace`, absent until then; a no-op once it fired). */
  cancelGrace?: (() => void) | undefined;
  /** The check that lists it (state `listing`): the reconciler's token of one list in flight or waiting. */
  batch: object | undefined;
  /** The generation of the same id followed by another run (the index links one per run; absent until then). */
  next?: Tracked | undefined;
}

/** The followed generations by id: for each id, one `Tracked` per run that follows it (linked by `next`). */
export class TrackedIndex {
  private readonly byId = new Map<string, Tracked>();

  /** The first of the generations followed under `id` (the others follow through `next`). */
  get(id: string): Tracked | undefined {
    return this.byId.get(id);
  }

  /** `run`'s generation `id`, if it follows it. */
  find(id: string, run: Run): Tracked | undefined {
    for (let g = this.byId.get(id); g; g = g.next) if (g.run === run) return g;
    return undefined;
  }

  /** Index `g`, unless its run follows its id already. @returns the run's generation of that id (`g` when added). */
  add(g: Tracked): Tracked {
    const first = this.byId.get(g.id);
    if (!first) {
      this.byId.set(g.id, g);
      return g;
    }
    let last = first;
    for (let x: Tracked | undefined = first; x; x = x.next) {
      if (x.run === g.run) return x;
      last = x;
    }
    last.next = g;
    return g;
  }

  /** Remove `g` (its run stopped following it). */
  remove(g: Tracked): void {
    const first = this.byId.get(g.id);
    if (first === g) {
      if (g.next) this.byId.set(g.id, g.next);
      else this.byId.delete(g.id);
    } else for (let x = first; x; x = x.next) if (x.next === g) x.next = g.next;
  }

  /** Remove every generation (the last run left). */
  clear(): void {
    this.byId.clear();
  }
}
