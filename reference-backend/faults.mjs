// @ts-check
/**
 * The fault registry: which failure the reference backend should play next.
 * Faults are plain switches; what each one does lives with the route it
 * affects, so this file only knows names, descriptions and transitions.
 */

/** @typedef {{name: string, on: boolean, description: string, detail?: string}} FaultState */

/** Every fault the backend understands, in the order a demo page lists them. */
export const FAULTS = /** @type {const} */ ([
  ['rotated-website-token', 'GET /config answers 401: the website token has been rotated'],
  [
    'expired-auth-token',
    'Auth tokens issued before the switch are expired (401); a re-fetched config works. ' +
      'Detail "always-401" makes every token fail, like the always-401 fault',
  ],
  ['always-401', 'Every conversation/message request answers 401, so a config refresh does not help'],
  ['no-conversation', 'Deletes the conversations (404) until the client creates one; off brings them back'],
  ['validation-422', 'POST /conversations and POST /messages answer 422 with field errors'],
  ['rate-limited', 'Every API request answers 429 with Retry-After: 1'],
  ['rate-limited-no-retry-after', 'Every API request answers 429 without Retry-After'],
  ['server-error', 'Every API request answers 500'],
  ['config-empty', 'GET /config answers 200 with an empty body'],
  ['config-malformed', 'GET /config answers 200 with HTML instead of JSON'],
  ['config-no-token', 'GET /config answers 200 with JSON that has no authToken'],
  ['hang', 'Every API request is accepted and never answered'],
  ['drop-connection', 'Every API request has its connection closed without an answer, as a flaky network does'],
  [
    'service-unavailable',
    'Every API request answers 503, as a gateway in front of a restarting backend does: detail, if given, is its Retry-After',
  ],
  ['slow', 'Every API answer waits before it goes out: detail is the wait in ms (default 1000)'],
  [
    'slow-upload',
    "Request bodies are read at a slow link's pace, so uploads show their progress: detail is KiB/s (default 512)",
  ],
  ['no-cors', 'API responses and preflights carry no CORS headers (admin routes keep them)'],
  ['no-expose-retry-after', 'CORS headers are sent without Access-Control-Expose-Headers'],
  ['payload-too-large', 'POST /messages answers 413 for any size, like a server with the 5 MB limit'],
  ['bad-request', 'POST /conversations and POST /messages answer 400 "Malformed request body"'],
  ['not-found', 'Every conversation/message request answers 404, creating one included'],
]);

/** @typedef {typeof FAULTS[number][0]} FaultName */

const DESCRIPTIONS = new Map(FAULTS.map(([name, description]) => [/** @type {string} */ (name), description]));

/**
 * @param {string} name
 * @returns {name is FaultName}
 */
export function isFaultName(name) {
  return DESCRIPTIONS.has(name);
}

/**
 * Creates the switchboard. `onTransition` runs only when a fault actually
 * changes state, because two faults act once at the moment they are switched
 * (expiring the tokens issued so far, hiding the conversations) and switching
 * an already-on fault on again must not repeat that.
 * @param {(name: FaultName, on: boolean) => void} onTransition
 */
export function createFaults(onTransition) {
  return createSwitchboard(FAULTS, onTransition);
}

/**
 * A switchboard over any catalogue of `[name, description]` pairs: the Chatwoot mode has its own
 * (reference-backend/chatwoot/faults.mjs), switched by the same admin routes.
 * @template {string} N
 * @param {ReadonlyArray<readonly [N, string]>} catalogue
 * @param {(name: N, on: boolean) => void} onTransition
 */
export function createSwitchboard(catalogue, onTransition) {
  const descriptions = new Map(catalogue.map(([name, description]) => [/** @type {string} */ (name), description]));
  /** @type {(name: string) => name is N} */
  const known = (name) => descriptions.has(name);
  /** @type {Map<N, string | undefined>} fault name -> detail, present while on */
  const active = new Map();

  return {
    /** @param {N} name */
    isOn(name) {
      return active.has(name);
    },
    /** @param {N} name */
    detail(name) {
      return active.get(name);
    },
    /**
     * @param {string} name
     * @param {boolean} on
     * @param {string} [detail]
     */
    set(name, on, detail) {
      if (!known(name)) throw new TypeError(`Unknown fault: ${name}`);
      if (typeof on !== 'boolean') throw new TypeError(`Fault "${name}": "on" must be a boolean`);
      const wasOn = active.has(name);
      if (on) active.set(name, detail);
      else active.delete(name);
      if (wasOn !== on) onTransition(name, on);
    },
    /** @returns {FaultState[]} */
    list() {
      return catalogue.map(([name, description]) => {
        /** @type {FaultState} */
        const state = { name, on: active.has(name), description };
        const detail = active.get(name);
        if (detail !== undefined) state.detail = detail;
        return state;
      });
    },
    /** Switches everything off without transitions: reset() clears the data those would touch. */
    clear() {
      active.clear();
    },
  };
}

/** @typedef {ReturnType<typeof createFaults>} Faults */
