/**
 * Timers for any delay. `setTimeout` takes at most 2^31 - 1 ms (about 24.8 days): a longer delay
 * (or NaN) fires after 1 ms in Node, Deno, Bun and browsers. Every delay the SDK computes from an
 * option or a server's answer (`timeoutMs`, `Retry-After`, backoff, idle timeout) goes through here
 * (the fine-tune wait's `sleep`, in `fine-tunes/wait.ts`, too).
 */

/** The longest delay `setTimeout` honours, in milliseconds (2^31 - 1, about 24.8 days). */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * Call `fn` once after `ms` milliseconds, however long: a delay beyond `MAX_TIMER_MS` is waited in
 * steps, `Infinity` never fires, NaN or a negative delay fires on the next turn.
 * @returns a function that cancels the timer (idempotent).
 */
export function startTimer(ms: number, fn: () => void): () => void {
  if (ms === Infinity) return () => undefined;
  let left = Number.isNaN(ms) ? 0 : Math.max(0, ms);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (): void => {
    const step = Math.min(left, MAX_TIMER_MS);
    left -= step;
    timer = setTimeout(() => {
      if (left > 0) return arm();
      timer = undefined;
      fn();
    }, step);
  };
  arm();
  return () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
}
