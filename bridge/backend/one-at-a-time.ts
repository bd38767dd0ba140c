/**
 * `run` one call at a time: callers while one is under way share its promise (and its first
 * caller's arguments); a call after it settled runs again. The config fetch and the conversation
 * look-up before a photo (api.ts) are made this way.
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
