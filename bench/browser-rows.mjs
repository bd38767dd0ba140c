/**
 * The rows of the browser figures, for each engine they run in (Chromium, WebKit): the round
 * trip, start-up, the large attachments and the drain. Each builder returns its rows and the
 * detail lines under the table; run.mjs measures and prints.
 */
import { ROUNDS } from './round-trip.mjs';
import { PHOTO_BYTES } from './attachments.mjs';
import { QUEUED } from './drain.mjs';
import { median, quantile } from './stats.mjs';
import { number } from './table.mjs';

export const ROUND_TRIP_GOAL = 1.1;
export const STARTUP_GOAL = 3;
export const LONG_TASK_GOAL = 50;
export const LIST_OUTBOX_GOAL = 100;
const ATTACHMENT_TIME_GOAL = 2;
const ATTACHMENT_MEMORY_GOAL = 3;

/** Every ratio is printed as `12.3×` (scripts read the column). */
export const times = (/** @type {number} */ ratio, digits = 2) => `${number(ratio, digits)}×`;
export const ms = (/** @type {number} */ value) => `${number(value, 2)} ms`;
const mib = (/** @type {number} */ bytes) => `${number(bytes / 1024 / 1024, 1)} MiB`;
const timer = (/** @type {boolean} */ isolated) =>
  isolated ? 'cross-origin isolated (fine timer)' : 'NOT cross-origin isolated (coarse timer)';

/**
 * @typedef {import('./table.mjs').Row} Row
 * @typedef {{ rows: Row[], notes: string[] }} Built
 */

/** A row for a figure that could not be measured: it fails its goal, loudly. */
export const notMeasured = (/** @type {string} */ figure, /** @type {string} */ why, /** @type {string} */ goal) => ({
  figure,
  value: `not measured: ${why}`,
  compared: '—',
  ratio: '—',
  goal,
  met: /** @type {boolean | undefined} */ (false),
});

export const ROUND_TRIP_FIGURE = (/** @type {string} */ engine) =>
  `Round trip, ${engine}: sendMessage (worst of ${ROUNDS} round medians)`;
export const ROUND_TRIP_GOAL_TEXT = `≤ ${times(ROUND_TRIP_GOAL)} in each round`;

/**
 * @param {string} engine
 * @param {import('./round-trip.mjs').RoundTrip} r
 * @param {string} how how the engine hosted the bridge, for the details line
 * @returns {Built}
 */
export function roundTripRows(engine, r, how) {
  /** The round where `ratio` is highest: a row shows that round's own figures. */
  const worstBy = (/** @type {(round: import('./round-trip.mjs').Round) => number} */ ratio) =>
    r.rounds.reduce((a, b) => (ratio(b) > ratio(a) ? b : a));
  const worst = worstBy((round) => round.ratio);
  const worstBare = worstBy((round) => round.bareRatio);
  const worstStrict = worstBy((round) => round.strictRatio);
  /** @type {Row[]} */
  const rows = [
    {
      figure: ROUND_TRIP_FIGURE(engine),
      value: ms(worst.bridgeMs),
      compared: `hand-written fetch + IndexedDB put: ${ms(worst.durableMs)}`,
      ratio: times(worst.ratio),
      goal: ROUND_TRIP_GOAL_TEXT,
      met: r.rounds.every((round) => round.ratio <= ROUND_TRIP_GOAL),
    },
    {
      figure: '  against a bare fetch (worst round)',
      value: ms(worstBare.bridgeMs),
      compared: `bare fetch: ${ms(worstBare.bareMs)}`,
      ratio: times(worstBare.bareRatio),
      goal: '— (diagnostic)',
      met: undefined,
    },
    {
      figure: "  against fetch + a put with durability 'strict' (worst round)",
      value: ms(worstStrict.bridgeMs),
      compared: `strict: ${ms(worstStrict.strictMs)}`,
      ratio: times(worstStrict.strictRatio),
      goal: '— (diagnostic)',
      met: undefined,
    },
  ];
  const quiet = r.rounds.every((round) => round.quietRatio !== undefined);
  if (quiet) {
    const worstQuiet = worstBy((round) => /** @type {number} */ (round.quietRatio));
    rows.push({
      figure: '  the bridge without its native handler calls (worst round)',
      value: ms(/** @type {number} */ (worstQuiet.quietMs)),
      compared: `hand-written fetch + IndexedDB put: ${ms(worstQuiet.durableMs)}`,
      ratio: times(/** @type {number} */ (worstQuiet.quietRatio)),
      goal: '— (diagnostic)',
      met: undefined,
    });
  }
  const range = (/** @type {string} */ kind) =>
    `${ms(quantile(r.all[kind] ?? [], 0.25))}–${ms(quantile(r.all[kind] ?? [], 0.75))}`;
  const ratios = (/** @type {(round: import('./round-trip.mjs').Round) => number | undefined} */ ratio) =>
    r.rounds.map((round) => times(ratio(round) ?? NaN)).join(', ');
  const spent = (/** @type {string} */ kind) => ms(median(r.all[kind] ?? []));
  const notes = [
    `round trip, ${engine}: ${how}; ${ROUNDS} consecutive rounds of ${r.samples} each, the kinds interleaved, after warm-up; round ratios against the durable send ${ratios((round) => round.ratio)}${quiet ? `, without native calls ${ratios((round) => round.quietRatio)}` : ''}, against a bare fetch ${ratios((round) => round.bareRatio)}; all rounds p25–p75: bridge ${range('bridge')}, durable send ${range('durable')}, strict ${range('strict')}, bare fetch ${range('bare')}; ${timer(r.isolated)}`,
  ];
  if (r.all['bridgeLead'])
    notes.push(
      `round trip, ${engine}, where the time goes (medians of all rounds, by Resource Timing): from the send's start to its request's start, bridge ${spent('bridgeLead')}, durable send ${spent('durableLead')}; from the response's end to the answer, bridge ${spent('bridgeTail')}, durable send ${spent('durableTail')}`,
    );
  return { rows, notes };
}

export const STARTUP_FIGURES = (/** @type {string} */ engine) => [
  `Start-up, ${engine}, two scripts: the starter at document start, evaluate + install() (median)`,
  `Start-up, ${engine}, one script: the bundle at document start, evaluate + install() (median)`,
];
export const STARTUP_GOAL_TEXT = `≤ ${times(STARTUP_GOAL, 1)}`;

/**
 * @param {string} engine
 * @param {Awaited<ReturnType<typeof import('./startup.mjs').sampleStartup>> & { isolated: boolean }} s
 * @param {string} how
 * @returns {Built}
 */
export function startupRows(engine, s, how) {
  const { penpalMs } = s;
  /** @type {Row[]} */
  const rows = [];
  /** A start-up row against penpal's evaluate: held to the goal, or a diagnostic when `diagnostic` says why not. */
  const startupRow = (
    /** @type {string} */ figure,
    /** @type {number} */ value,
    /** @type {string | undefined} */ diagnostic = undefined,
  ) =>
    rows.push({
      figure,
      value: ms(value),
      compared: penpalMs === undefined ? 'penpal not installed' : `penpal evaluate: ${ms(penpalMs)}`,
      ratio: penpalMs === undefined ? '—' : times(value / penpalMs, 1),
      goal: diagnostic ?? STARTUP_GOAL_TEXT,
      met: diagnostic !== undefined ? undefined : penpalMs !== undefined && value / penpalMs <= STARTUP_GOAL,
    });
  const [twoScripts, oneScript] = STARTUP_FIGURES(engine);
  startupRow(/** @type {string} */ (twoScripts), s.starterMs);
  startupRow(
    '  then the bundle after load, taking over (evaluate, install, bridge built)',
    s.takeOverMs,
    '— (after load; diagnostic)',
  );
  startupRow(/** @type {string} */ (oneScript), s.bridgeMs);
  startupRow(
    '  the bridge itself, built in the task after install (not in the figure above)',
    s.bridgeBuildMs,
    "— (after the page's first scripts; diagnostic)",
  );
  const notes = [
    `start-up, ${engine}: ${s.samples} ${how} each; starter evaluate ${ms(s.starterEvaluateMs)} + install ${ms(s.starterInstallMs)}, bundle evaluate ${ms(s.bridgeEvaluateMs)} + install ${ms(s.bridgeInstallMs)} (medians apart); ${timer(s.isolated)}`,
  ];
  return { rows, notes };
}

const PHOTOS = `${number(PHOTO_BYTES / 1024 / 1024)} MiB`;
export const ATTACHMENTS_FIGURE = (/** @type {string} */ engine) =>
  `Attachments, ${engine}: 5 × ${PHOTOS} in chunks, longest main-thread task`;
export const LONG_TASK_GOAL_TEXT = `≤ ${LONG_TASK_GOAL} ms`;

/**
 * @param {string} engine
 * @param {any} a what measureAttachments (Chromium) or measureWebKitAttachments returned
 * @param {string} how
 * @returns {Built}
 */
export function attachmentRows(engine, a, how) {
  /** @type {Row[]} */
  const rows = [];
  // The longest task per form: a ratio of chunked to single command, and the goal on the chunked one.
  for (const count of [1, 5]) {
    const chunked = a.longest[`chunked${count}`];
    const single = a.longest[`single${count}`];
    rows.push({
      figure: `Attachments, ${engine}: ${count} × ${PHOTOS} in chunks, longest main-thread task`,
      value: chunked === 0 ? `none over ${LONG_TASK_GOAL} ms` : ms(chunked),
      compared: `one command: ${single === 0 ? `none over ${LONG_TASK_GOAL} ms` : ms(single)}`,
      ratio: single === 0 ? '—' : times(Math.max(chunked, LONG_TASK_GOAL) / single),
      goal: LONG_TASK_GOAL_TEXT,
      met: chunked <= LONG_TASK_GOAL,
    });
  }
  // The physical floor beside the bridge's stall, as the round trip sits beside a hand-written
  // durable send: a bare fetch of the same body, Blobs ready, timed by the same ticker or observer
  // in the same run. None over the goal counts as the goal, as above.
  const floor = (/** @type {number} */ longest) => Math.max(longest, LONG_TASK_GOAL);
  const none = (/** @type {number} */ longest) => (longest === 0 ? `none over ${LONG_TASK_GOAL} ms` : ms(longest));
  rows.push({
    figure: `  5 × ${PHOTOS} in chunks against a bare fetch's own longest task (no bridge code runs)`,
    value: none(a.longest.chunked5),
    compared: `bare fetch of the same body: ${none(a.longest.bare5)}${a.idleGapMs === undefined ? '' : `; idle page: ${ms(a.idleGapMs)}`}`,
    ratio: times(floor(a.longest.chunked5) / floor(a.longest.bare5)),
    goal: '— (diagnostic)',
    met: undefined,
  });
  rows.push({
    figure: `  5 × ${PHOTOS} in chunks, whole send (median)`,
    value: ms(a.chunkedMs),
    compared: `bare fetch of the same multipart body: ${ms(a.bareMs)}`,
    ratio: times(a.chunkedMs / a.bareMs),
    goal: `≤ ${times(ATTACHMENT_TIME_GOAL, 1)}`,
    met: a.chunkedMs / a.bareMs <= ATTACHMENT_TIME_GOAL,
  });
  if ('peakBytes' in a)
    rows.push({
      figure: `  5 × ${PHOTOS} in chunks, peak memory (all Chromium processes)`,
      value: a.peakBytes === undefined ? 'not measured (no /proc)' : mib(a.peakBytes),
      compared: `the attachments: ${mib(a.attachmentBytes)}`,
      ratio: a.peakBytes === undefined ? '—' : times(a.peakBytes / a.attachmentBytes),
      goal: `≤ ${times(ATTACHMENT_MEMORY_GOAL, 1)}`,
      met: a.peakBytes !== undefined && a.peakBytes / a.attachmentBytes <= ATTACHMENT_MEMORY_GOAL,
    });
  const peak =
    'peakBytes' in a
      ? `; one command's peak memory ${a.singlePeakBytes === undefined ? 'not measured' : mib(a.singlePeakBytes)}; peak memory sums each Chromium process's rise of VmHWM (reset before the send), an upper bound${
          a.peakByKind
            ? ` (in chunks: ${Object.entries(a.peakByKind)
                .filter(([, bytes]) => /** @type {number} */ (bytes) >= 1024 * 1024)
                .map(([kind, bytes]) => `${kind} ${mib(/** @type {number} */ (bytes))}`)
                .join(', ')})`
            : ''
        }`
      : '';
  const notes = [
    `attachments, ${engine}: ${how}; ${a.samples} sends of each form, interleaved, after a warm-up; long tasks from ${a.longTaskSource}${a.idleGapMs === undefined ? '' : ` (its longest gap on the idle page: ${ms(a.idleGapMs)})`}; the bare fetch sends Blobs made before timing starts, so its longest task is the upload's alone, while the send in chunks also decodes and makes its Blobs and lasts longer (more of the machine's stalls fall in it); in chunks, the chunks took ${ms(a.chunksMs)} of the whole send; one command: whole send ${ms(a.singleMs)}; longest ChatBridge.receive call: ${Object.entries(
      a.receiveMs,
    )
      .map(([what, took]) => `${what} ${ms(/** @type {number} */ (took))}`)
      .join(', ')}${peak}`,
  ];
  return { rows, notes };
}

export const DRAIN_FIGURE = `Drain: ${number(QUEUED)} queued messages after a reload, longest main-thread task`;

/**
 * @param {Awaited<ReturnType<typeof import('./drain.mjs').measureDrain>>} d
 * @returns {Built}
 */
export function drainRows(d) {
  const slowestOf = (/** @type {import('./drain.mjs').ListTime[]} */ list) => Math.max(...list.map((call) => call.ms));
  const slowest = Math.max(slowestOf(d.listBefore), slowestOf(d.listAfter));
  const calls = (/** @type {import('./drain.mjs').ListTime[]} */ list) =>
    list.map((call) => `${ms(call.ms)} (${number(call.listed)})`).join(', ');
  /** @type {Row[]} */
  const rows = [
    {
      figure: DRAIN_FIGURE,
      value: d.longTasks === 0 ? `none over ${LONG_TASK_GOAL} ms` : ms(d.longestTaskMs),
      compared: `${d.longTasks} tasks over ${LONG_TASK_GOAL} ms in ${number(d.drainSeconds, 1)} s of drain`,
      ratio: '—',
      goal: `< ${LONG_TASK_GOAL} ms`,
      met: d.longestTaskMs < LONG_TASK_GOAL,
    },
    {
      figure: '  listOutbox with them queued, slowest call',
      value: ms(slowest),
      compared: `slowest before the reload: ${ms(slowestOf(d.listBefore))}`,
      ratio: '—',
      goal: `< ${LIST_OUTBOX_GOAL} ms`,
      met: slowest < LIST_OUTBOX_GOAL,
    },
  ];
  const notes = [
    `drain, Chromium: queued in ${number(d.seedSeconds, 1)} s with the backend's requests aborted (connection refused); after the reload all ${number(QUEUED)} reached the backend in ${number(d.drainSeconds, 1)} s; long tasks by PerformanceObserver from the reloaded page's first script; listOutbox timed from ChatBridge.receive to its response (the number it listed): before the reload ${calls(d.listBefore)}, after ${calls(d.listAfter)}; profile on disk`,
  ];
  return { rows, notes };
}
