// @ts-check
/**
 * A fixed-window rate limiter. Fixed windows are coarse, but they make the
 * Retry-After value exact (the window's end), which is what a client's
 * backoff is tested against.
 */

/** Past this many tracked keys, finished windows are swept so memory stays bounded. */
const SWEEP_THRESHOLD = 1000;

/**
 * @typedef {{allowed: true} | {allowed: false, retryAfterSeconds: number}} RateDecision
 */

/**
 * @param {{limit: number, windowMs: number, now: () => number}} options
 */
export function createRateLimiter({ limit, windowMs, now }) {
  /** @type {Map<string, {start: number, count: number}>} */
  const windows = new Map();

  function sweep(/** @type {number} */ at) {
    for (const [key, window] of windows) {
      if (at - window.start >= windowMs) windows.delete(key);
    }
  }

  return {
    /**
     * Counts one request for `key` and says whether it may proceed.
     * @param {string} key
     * @returns {RateDecision}
     */
    hit(key) {
      const at = now();
      if (windows.size > SWEEP_THRESHOLD) sweep(at);
      let window = windows.get(key);
      if (!window || at - window.start >= windowMs) {
        window = { start: at, count: 0 };
        windows.set(key, window);
      }
      window.count += 1;
      if (window.count <= limit) return { allowed: true };
      // Never 0: "Retry-After: 0" invites an immediate retry that is refused again.
      const retryAfterSeconds = Math.max(1, Math.ceil((window.start + windowMs - at) / 1000));
      return { allowed: false, retryAfterSeconds };
    },
    reset() {
      windows.clear();
    },
  };
}
