/**
 * The one manual clock, for the replay and the tests: time starts where it is told and moves
 * only when told, running timers as they fall due, in due order (ties in the order they were
 * set), so a 50-second timeout or a retry's backoff takes no real time and cannot flake.
 *
 * Two ways to drive it: `advance(ms)` runs everything due in the window at once (unit tests);
 * `nextDue` / `moveTo` / `runOneDue` step one timer at a time, so the replay can let each
 * timer's promises settle before the next runs (a retry's answer may set the next timer).
 */
import type { Environment, TimerHandle, Timers } from '../../bridge/index.js';

export interface VirtualClock extends Timers {
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
  /** Due time of the earliest pending timer, if any. */
  nextDue(): number | undefined;
  /** Runs the earliest timer due at or before the current time; false when there is none. */
  runOneDue(): boolean;
  /** Moves the clock forward (never back), running nothing. */
  moveTo(time: number): void;
  /** Moves time forward by `ms`, running every timer that falls due, each at its own time. */
  advance(ms: number): void;
  /** Timers scheduled and not yet run or cleared. */
  readonly pending: number;
}

interface Timer {
  due: number;
  callback: () => void;
}

export function createVirtualClock(start = 0): VirtualClock {
  let current = start;
  let nextId = 1;
  const timers = new Map<number, Timer>();

  /** The earliest timer; a Map iterates in insertion order, so ties go to the first one set. */
  const earliest = () => {
    let found: [number, Timer] | undefined;
    for (const entry of timers) if (found === undefined || entry[1].due < found[1].due) found = entry;
    return found;
  };

  const clock: VirtualClock = {
    now: () => current,
    setTimeout(callback, ms) {
      const id = nextId++;
      timers.set(id, { due: current + Math.max(0, Number.isFinite(ms) ? ms : 0), callback });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    nextDue: () => earliest()?.[1].due,
    runOneDue() {
      const entry = earliest();
      if (entry === undefined || entry[1].due > current) return false;
      timers.delete(entry[0]);
      entry[1].callback();
      return true;
    },
    moveTo(time) {
      if (time > current) current = time;
    },
    advance(ms) {
      const until = current + ms;
      for (let due = clock.nextDue(); due !== undefined && due <= until; due = clock.nextDue()) {
        clock.moveTo(due);
        clock.runOneDue();
      }
      clock.moveTo(until);
    },
    get pending() {
      return timers.size;
    },
  };
  return clock;
}

/** The same environment with its clock and timers replaced by `clock`. */
export function withVirtualClock(env: Environment, clock: VirtualClock): Environment {
  return { ...env, now: clock.now, setTimeout: clock.setTimeout, clearTimeout: clock.clearTimeout };
}
