/**
 * Calls that must not overlap. `oneAtATime`: callers while one is under way share its promise
 * (and its first caller's arguments); a call after it settled runs again. The config fetch and
 * the conversation look-up before a photo (api.ts) are made this way.
 */
export function oneAtATime<Args extends unknown[], Result>(
  run: (...args: Args) => Promise<Result>,
): (...args: Args) => Promise<Result> {
  let inFlight: Promise<Result> | undefined;
  // try/finally, not Promise.prototype.finally (ES2018): the bundle stays within ES2017 built-ins.
  return (...args) =>
    (inFlight ||= (async () => {
      try {
        return await run(...args);
      } finally {
        inFlight = undefined;
      }
    })());
}

/**
 * `run` again while it is asked for meanwhile: the call returned starts it where it is idle;
 * asked while it runs, it runs once more after, however often it was asked (the outbox's passes:
 * a message queued during a pass is sent by the next). A failure ends the runs and is `caught`;
 * once `stopped`, no run follows.
 */
export function rerunning(
  run: () => Promise<unknown>,
  caught: (thrown: unknown) => void,
  stopped: () => boolean,
): () => void {
  let running = false;
  let again = false;
  return () => {
    if (stopped()) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    void (async () => {
      try {
        do {
          again = false;
          await run();
        } while (again && !stopped());
      } catch (thrown) {
        caught(thrown);
      } finally {
        running = false;
      }
    })();
  };
}
