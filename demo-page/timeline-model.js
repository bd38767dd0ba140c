// @ts-check
/**
 * The request timeline's model: every request the bridge made (when it started and ended, how
 * it was answered, the message it carried), the page's offline spells, and the wait before each
 * request of a lane with what the bridge was waiting for: a `Retry-After`, its own backoff after
 * a failure, or the network. Pure data; timeline-view.js draws it.
 */

/**
 * @typedef {{
 *   id: number, lane: string, method: string, path: string, start: number, end?: number,
 *   status?: number, failed?: boolean, retryAfter?: string, upload?: Upload,
 * }} TimedRequest `failed`: no HTTP answer (offline, refused, CORS, timeout).
 * @typedef {{sentBytes: number, totalBytes: number, sentAt?: number}} Upload an XHR upload's
 * progress; `sentAt`: when the whole body was out, the answer not yet in.
 * @typedef {{start: number, end?: number}} Spell
 * @typedef {{from: number, to: number, reason: string}} Wait
 * @typedef {{name: string, requests: TimedRequest[], waits: Wait[]}} Lane
 */

/** Gaps shorter than this are one command's next step (config, then conversation), not a wait. */
export const STEP_MS = 150;
/** How a message's lane is named: this, then its id (command-watch.js). */
export const MESSAGE_LANE = 'message ';
/** The shortest span a row shows. */
export const MIN_SPAN_MS = 1000;
/** Statuses after which a later request of the lane is a retry. */
const RETRIED = new Set([408, 429, 500, 502, 503, 504]);

export function createTimeline() {
  /** @type {TimedRequest[]} */
  const requests = [];
  /** @type {Spell[]} */
  const spells = [];
  let nextId = 1;

  return {
    /** @param {{lane: string, method: string, path: string, at: number}} request @returns {TimedRequest} */
    started({ lane, method, path, at }) {
      const request = { id: nextId++, lane, method, path, start: at };
      requests.push(request);
      return request;
    },
    /**
     * @param {TimedRequest} request
     * @param {{at: number, status?: number, retryAfter?: string}} answer no status: no HTTP answer
     */
    ended(request, { at, status, retryAfter }) {
      request.end = at;
      if (status === undefined) request.failed = true;
      else request.status = status;
      if (retryAfter !== undefined) request.retryAfter = retryAfter;
    },
    /**
     * An upload's progress. @param {TimedRequest} request
     * @param {{at: number, sentBytes: number, totalBytes: number}} progress
     */
    uploaded(request, { at, sentBytes, totalBytes }) {
      request.upload = {
        sentBytes,
        totalBytes,
        ...(sentBytes >= totalBytes ? { sentAt: request.upload?.sentAt ?? at } : {}),
      };
    },
    /** @param {boolean} offline @param {number} at */
    network(offline, at) {
      const open = spells.at(-1);
      if (offline && (open === undefined || open.end !== undefined)) spells.push({ start: at });
      if (!offline && open !== undefined && open.end === undefined) open.end = at;
    },
    /** @returns {readonly Spell[]} */
    spells: () => spells,
    /** Requests still waiting for their answer, or an offline spell still open. */
    live() {
      const spell = spells.at(-1);
      return requests.some((request) => request.end === undefined) || (spell !== undefined && spell.end === undefined);
    },
    /** The lanes, most recently active first, each with its requests in order and the waits between them. */
    lanes() {
      /** @type {Map<string, TimedRequest[]>} */
      const byLane = new Map();
      for (const request of requests) byLane.set(request.lane, [...(byLane.get(request.lane) ?? []), request]);
      return [...byLane]
        .map(([name, list]) => ({ name, requests: list, waits: waitsOf(list, spells) }))
        .sort((a, b) => (b.requests.at(-1)?.start ?? 0) - (a.requests.at(-1)?.start ?? 0));
    },
    clear() {
      requests.length = 0;
      spells.length = 0;
    },
  };
}

/** @typedef {ReturnType<typeof createTimeline>} Timeline */

/**
 * The stretch of time a lane's row shows: from its first request to its last answer, or to
 * `now` while a request is unanswered. Each row fits its own requests, so a retry storm of a few
 * seconds fills its row however long the session has been. At least `MIN_SPAN_MS`, so that a
 * single quick request is a short bar, not a full one. A message's row, while an offline spell
 * that began before its last answer is still open, runs up to `now`: it shows the wait going on
 * (a command is not retried, so its row ends with its last answer).
 * @param {Lane} lane
 * @param {number} now
 * @param {readonly Spell[]} [spells]
 * @returns {{start: number, span: number, offline: boolean}} `offline`: it is waiting out that spell
 */
export function laneSpan(lane, now, spells = []) {
  const start = lane.requests[0]?.start ?? now;
  const answered = Math.max(...lane.requests.map((request) => request.end ?? now));
  // A message's, offline since before its last answer: the outbox holds it until the network is back.
  const open =
    lane.name.startsWith(MESSAGE_LANE) && spells.some((spell) => spell.end === undefined && spell.start <= answered);
  const end = open ? now : answered;
  return { start, span: Math.max(end - start, MIN_SPAN_MS), offline: open && answered < now };
}

/**
 * What a request is doing, for a row's label: its upload's percentage, then "waiting for the
 * server" once the whole body is out; undefined when it is answered or carries no upload.
 * @param {TimedRequest} request
 */
export function uploadPhase(request) {
  const { upload } = request;
  if (upload === undefined || request.end !== undefined) return undefined;
  return upload.sentAt === undefined
    ? `uploading ${Math.floor((upload.sentBytes / upload.totalBytes) * 100)}%`
    : 'all sent, waiting for the server';
}

/**
 * The waits between consecutive requests of one lane, longer than one step.
 * @param {TimedRequest[]} list
 * @param {readonly Spell[]} spells
 * @returns {Wait[]}
 */
export function waitsOf(list, spells) {
  /** @type {Wait[]} */
  const waits = [];
  for (let i = 1; i < list.length; i++) {
    const before = /** @type {TimedRequest} */ (list[i - 1]);
    const after = /** @type {TimedRequest} */ (list[i]);
    const from = before.end ?? before.start;
    if (after.start - from < STEP_MS) continue;
    waits.push({ from, to: after.start, reason: waitReason(before, from, after.start, spells) });
  }
  return waits;
}

/**
 * Why the bridge waited between `before` and the next request: the server's `Retry-After`, an
 * offline spell in between, or its own backoff after a failure; plain "wait" otherwise (a new
 * command on the same lane).
 * @param {TimedRequest} before
 * @param {number} from
 * @param {number} to
 * @param {readonly Spell[]} spells
 */
export function waitReason(before, from, to, spells) {
  const seconds = `${((to - from) / 1000).toFixed(1)} s`;
  if (spells.some((spell) => spell.start < to && (spell.end ?? Infinity) > from)) return `offline, ${seconds}`;
  if (before.retryAfter !== undefined) return `Retry-After: ${before.retryAfter} → ${seconds}`;
  if (before.failed || (before.status !== undefined && RETRIED.has(before.status))) return `backoff ${seconds}`;
  return `wait ${seconds}`;
}
