/**
 * A concurrency limiter: at most `max` calls of `run` in flight, the others wait in order. Used for
 * the queue's reconciliation requests. It is p-limit's core in fifteen lines; p-limit itself would be
 * a third runtime dependency of the SDK, whose dependencies are kept to eventsource-parser and p-retry.
 */
/** At most `max` calls of `run` at once; the others wait in order. */
export class Limiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly max: number) {}
  async run<T>(f: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((r) => this.waiting.push(r));
    this.active++;
    try {
      return await f();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}
