/**
 * Time for replays: it starts at 0 and moves only when told, running timers as they fall due,
 * in due order (ties in the order they were set), so retries and backoff take no real time.
 */
export interface VirtualClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): number;
  clearTimeout(handle: unknown): void;
  /** Due time of the earliest pending timer, if any. */
  nextDue(): number | undefined;
  /** Runs the earliest timer due at or before the current time; false when there is none. */
  runOneDue(): boolean;
  /** Moves the clock forward (never back). */
  moveTo(time: number): void;
}

export function createVirtualClock(): VirtualClock {
  let current = 0;
  let nextId = 1;
  const timers = new Map<number, { due: number; callback: () => void }>();

  const earliest = () => {
    let found: [number, { due: number; callback: () => void }] | undefined;
    for (const entry of timers) if (found === undefined || entry[1].due < found[1].due) found = entry;
    return found;
  };

  return {
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
  };
}

/** mulberry32: a tiny seeded generator, so jitter is the same on every run and machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
