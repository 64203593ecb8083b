/**
 * Time as the queue machinery reads it, passed in through constructors so that tests can drive it
 * (vitest's fake timers drive the default too: it reads `Date.now` and `setTimeout` when called).
 */
import { startTimer } from '../internal/timer.ts';

/** The current time and a one-shot timer. */
export interface QueueClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Call `fn` once after `ms` milliseconds (any length, see `startTimer`); returns the function that cancels it. */
  after(ms: number, fn: () => void): () => void;
}

/** `Date.now` and `startTimer`. */
export const SYSTEM_CLOCK: QueueClock = { now: () => Date.now(), after: (ms, fn) => startTimer(ms, fn) };
