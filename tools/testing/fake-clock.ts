/**
 * A manual clock for unit tests: timers run only when `advance` moves time past them, so a
 * test of a 50-second timeout takes no real time and cannot flake.
 */
import type { Environment, TimerHandle } from '../../bridge/index.js';

export interface FakeClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
  /** Moves time forward by `ms`, running every timer that falls due, in due order. */
  advance(ms: number): void;
  /** Timers scheduled and not yet run or cleared. */
  readonly pending: number;
}

export function createFakeClock(start = 0): FakeClock {
  let time = start;
  let nextId = 1;
  const timers = new Map<number, { at: number; callback: () => void }>();

  const nextDue = (until: number): number | undefined => {
    let best: number | undefined;
    for (const [id, timer] of timers) {
      if (timer.at > until) continue;
      const current = best === undefined ? undefined : timers.get(best);
      if (current === undefined || timer.at < current.at) best = id;
    }
    return best;
  };

  return {
    now: () => time,
    setTimeout(callback, ms) {
      const id = nextId++;
      timers.set(id, { at: time + Math.max(0, ms), callback });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    advance(ms) {
      const until = time + ms;
      for (let id = nextDue(until); id !== undefined; id = nextDue(until)) {
        const timer = timers.get(id) as { at: number; callback: () => void };
        timers.delete(id);
        time = timer.at;
        timer.callback();
      }
      time = until;
    },
    get pending() {
      return timers.size;
    },
  };
}

/** The same environment with its clock and timers replaced by `clock`. */
export function withFakeClock(env: Environment, clock: FakeClock): Environment {
  return { ...env, now: clock.now, setTimeout: clock.setTimeout, clearTimeout: clock.clearTimeout };
}
