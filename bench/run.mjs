/**
 * `npm run bench` (after the build): measures the figures of the README's performance table in
 * one run and prints them, each with what it is compared with in the same run and its goal.
 * Also writes the table as Markdown to bench/results/latest.md.
 *
 *   node bench/run.mjs [--fuzz] [--only=bundle,throughput,round-trip,startup,memory,outbox,attachments]
 *
 * --fuzz adds the opt-in row: test/fuzz with FUZZ_RUNS=1000000 (takes minutes).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { launchChromium, CHROMIUM_PATH } from './browser.mjs';
import { bundleBridgeForNode } from './bridge-module.mjs';
import { measureBundleSizes } from './bundle-size.mjs';
import { ROOT } from './deps.mjs';
import { FUZZ_RUNS, runFuzz } from './fuzz.mjs';
import { runIsolated } from './isolated.mjs';
import { COMMANDS, HEAP_LIMIT, REFRESH_HEAP_LIMIT } from './memory.mjs';
import { measureRoundTrip, ROUNDS } from './round-trip.mjs';
import { MESSAGES, measureOutbox } from './outbox.mjs';
import { QUEUED, measureDrain } from './drain.mjs';
import { measureAttachments, PHOTO_BYTES } from './attachments.mjs';
import { measureStartup } from './startup.mjs';
import { quantile } from './stats.mjs';
import { markdownTable, number, textTable } from './table.mjs';

const FIGURES = ['bundle', 'throughput', 'round-trip', 'startup', 'memory', 'outbox', 'drain', 'attachments'];
const args = process.argv.slice(2);
const onlyArg = args.find((arg) => arg.startsWith('--only='));
const only = onlyArg === undefined ? FIGURES : onlyArg.slice('--only='.length).split(',');
const unknown = args
  .filter((arg) => arg !== '--fuzz' && !arg.startsWith('--only='))
  .concat(only.filter((name) => !FIGURES.includes(name)));
if (unknown.length > 0) {
  console.error(
    `bench: unknown ${unknown.join(', ')}; usage: node bench/run.mjs [--fuzz] [--only=${FIGURES.join(',')}]`,
  );
  process.exit(2);
}
const wants = (/** @type {string} */ figure) => only.includes(figure);

const BUNDLE_BUDGET = 14_336;
const ROUND_TRIP_GOAL = 1.1;
const STARTUP_GOAL = 3;
const LONG_TASK_GOAL = 50;
const LIST_OUTBOX_GOAL = 100;
const ATTACHMENT_TIME_GOAL = 2;
const ATTACHMENT_MEMORY_GOAL = 3;
/** Every ratio is printed as `12.3×` (scripts read the column). */
const times = (/** @type {number} */ ratio, digits = 2) => `${number(ratio, digits)}×`;

/** @type {import('./table.mjs').Row[]} */
const rows = [];
/** @type {string[]} */
const details = [];
const note = (/** @type {string} */ line) => {
  details.push(line);
  console.log(`  ${line}`);
};
const kib = (/** @type {number} */ bytes) => `${bytes < 0 ? '−' : '+'}${number(Math.abs(bytes) / 1024, 1)} KiB`;
const ms = (/** @type {number} */ value) => `${number(value, 2)} ms`;
const roundTripGoal = `≤ ${times(ROUND_TRIP_GOAL)} in each round`;

/** A row for a figure that could not be measured: it fails its goal, loudly. */
const notMeasured = (/** @type {string} */ figure, /** @type {string} */ why, /** @type {string} */ goal) => ({
  figure,
  value: `not measured: ${why}`,
  compared: '—',
  ratio: '—',
  goal,
  met: false,
});

/** The round trip's rows for one engine: against the durable send (the goal), then the diagnostics. */
function roundTripRows(/** @type {string} */ engine, /** @type {import('./round-trip.mjs').RoundTrip} */ r) {
  const worst = r.rounds.reduce((a, b) => (b.ratio > a.ratio ? b : a));
  rows.push({
    figure: `Round trip, ${engine}: sendMessage (worst of ${ROUNDS} round medians)`,
    value: ms(worst.bridgeMs),
    compared: `hand-written fetch + IndexedDB put: ${ms(worst.durableMs)}`,
    ratio: times(worst.ratio),
    goal: roundTripGoal,
    met: r.rounds.every((round) => round.ratio <= ROUND_TRIP_GOAL),
  });
  const worstOf = (/** @type {(round: import('./round-trip.mjs').Round) => number} */ ratio) =>
    Math.max(...r.rounds.map(ratio));
  rows.push({
    figure: '  against a bare fetch (worst round)',
    value: ms(worst.bridgeMs),
    compared: `bare fetch: ${ms(worst.bareMs)}`,
    ratio: times(worstOf((round) => round.bareRatio)),
    goal: '— (diagnostic)',
    met: undefined,
  });
  rows.push({
    figure: "  against fetch + a put with durability 'strict' (worst round)",
    value: ms(worst.bridgeMs),
    compared: `strict: ${ms(worst.strictMs)}`,
    ratio: times(worstOf((round) => round.strictRatio)),
    goal: '— (diagnostic)',
    met: undefined,
  });
  const range = (/** @type {string} */ kind) =>
    `${ms(quantile(r.all[kind] ?? [], 0.25))}–${ms(quantile(r.all[kind] ?? [], 0.75))}`;
  note(
    `round trip, ${engine}: ${ROUNDS} consecutive rounds of ${r.samples} each, the four kinds interleaved, after warm-up; round ratios against the durable send ${r.rounds.map((round) => times(round.ratio)).join(', ')}, against a bare fetch ${r.rounds.map((round) => times(round.bareRatio)).join(', ')}; all rounds p25–p75: bridge ${range('bridge')}, durable send ${range('durable')}, strict ${range('strict')}, bare fetch ${range('bare')}; ${r.isolated ? 'cross-origin isolated (5 µs timer)' : 'NOT cross-origin isolated (100 µs timer)'}${r.extra ? `; ${r.extra}` : ''}`,
  );
}

// Launched even when no browser figure is asked for: the header names Chromium's version.
const browser = await launchChromium();
const header = [
  `Node ${process.version}`,
  `Chromium ${browser?.version() ?? `not found at ${CHROMIUM_PATH}`}`,
  `CPU ${cpus()[0]?.model ?? 'unknown'} × ${cpus().length} cores`,
  `load average ${loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')} at start (a busy machine makes times noisy; ratios are taken within one run)`,
];
console.log(header.join('\n'));

const bridgeModule = wants('throughput') || wants('memory') ? await bundleBridgeForNode() : undefined;
try {
  let penpalSource;
  if (wants('bundle') || wants('startup')) {
    console.log('\nbundle sizes…');
    const sizes = await measureBundleSizes();
    penpalSource = sizes.bundles['penpal'];
    if (wants('bundle')) {
      const bridge = sizes.bridge.gzipped;
      // zod/mini with one union: what carrying zod would cost (the bundle carries validators generated from its schemas instead).
      const floor = sizes.comparisons.find((entry) => entry.label.startsWith('zod'));
      const libraries = sizes.comparisons.filter((entry) => entry !== floor);
      rows.push({
        figure: 'Bundle: dist/chat-bridge.js, gzip -9',
        value: `${number(bridge)} B`,
        compared: floor ? `${floor.label} ${floor.version}: ${number(floor.gzipped)} B` : 'zod not found',
        ratio: floor ? times(bridge / floor.gzipped) : '—',
        // The old 12,288 B goal stood for start-up, which the starter now meets (the start-up rows).
        goal: `≤ ${number(BUNDLE_BUDGET)} B (hard budget)`,
        met: bridge <= BUNDLE_BUDGET,
      });
      for (const library of libraries) {
        rows.push({
          figure: `  bundle vs ${library.label}`,
          value: `${number(bridge)} B`,
          compared: `${library.label} ${library.version}: ${number(library.gzipped)} B`,
          ratio: times(bridge / library.gzipped),
          goal: '—',
          met: undefined,
        });
      }
      for (const name of sizes.missing)
        rows.push({
          figure: `  bundle vs ${name}`,
          value: `${number(bridge)} B`,
          compared: `${name} not installed`,
          ratio: '—',
          goal: '—',
          met: undefined,
        });
      note(
        `bundle: ${number(sizes.bridge.bytes)} B minified; comparisons built like the bridge (esbuild minified IIFE ES2017, terser 3 passes), whole library on one global`,
      );
    }
  }

  if (wants('throughput') && bridgeModule) {
    console.log('\ninbound throughput (child process)…');
    const { result: t, warnings } = await runIsolated('throughput', bridgeModule.path);
    // The issue's path: prefix check, size cap, parse, validate, dispatch, adapter serialization.
    // A command's backend work after dispatch (HTTP, outbox, its response) is the next row.
    rows.push({
      figure: 'Inbound throughput, to dispatch',
      value: `${number(t.dispatchPerSecond)} msg/s`,
      compared: `bare JSON.parse: ${number(t.parsePerSecond)} msg/s`,
      ratio: times(t.dispatchRatio),
      // No goal: a host hands over a few commands a second, far below either rate.
      goal: '— (diagnostic)',
      met: undefined,
    });
    rows.push({
      figure: '  with each command run to its response',
      value: `${number(t.bridgePerSecond)} msg/s`,
      compared: `bare JSON.parse: ${number(t.parsePerSecond)} msg/s`,
      ratio: times(t.ratio),
      goal: '— (commands do HTTP work)',
      met: undefined,
    });
    rows.push({
      figure: '  inbound edge only (no dispatch)',
      value: `${number(t.edgePerSecond)} msg/s`,
      compared: `bare JSON.parse: ${number(t.parsePerSecond)} msg/s`,
      ratio: times(t.edgeRatio),
      goal: '— (diagnostic)',
      met: undefined,
    });
    note(
      `throughput: ${number(t.messages)} messages a run (30% commands, 30% widget, 30% foreign, 10% malformed), median of ${t.runs} runs; ${number(t.delivered)} payloads reached the Android channel per run`,
    );
    for (const kind of t.byKind) {
      note(
        `  ${kind.kind.padEnd(9)} ${(kind.share * 100).toFixed(0).padStart(2)}%: whole path ${number(kind.bridgeNsPerMessage / 1000, 2)} µs/msg, edge ${number(kind.edgeNsPerMessage / 1000, 2)} µs/msg, JSON.parse ${number(kind.parseNsPerMessage / 1000, 2)} µs/msg`,
      );
    }
    for (const warning of warnings) note(`  Node warned ${warning.count}× ${warning.name}: ${warning.message}`);
  }

  if (wants('round-trip')) {
    console.log('\nround trip in Chromium…');
    if (browser === undefined) rows.push(notMeasured('Round trip: sendMessage', 'no Chromium', roundTripGoal));
    else roundTripRows('Chromium', await measureRoundTrip());
  }

  if (wants('outbox')) {
    console.log(`\noutbox: ${MESSAGES} messages queued offline in Chromium…`);
    if (browser === undefined)
      rows.push({
        figure: `Outbox: ${MESSAGES} messages queued offline`,
        value: 'not measured: no Chromium',
        compared: '—',
        ratio: '—',
        goal: '< 0.1 ms each, flat',
        met: false,
      });
    else {
      const o = await measureOutbox(browser);
      const flat = o.lastMs / o.firstMs;
      rows.push({
        figure: `Outbox: ${number(MESSAGES, 0)} messages queued offline, per enqueue (mean)`,
        value: ms(o.meanMs),
        compared: `first 1,000: ${ms(o.firstMs)} each; last 1,000: ${ms(o.lastMs)}`,
        ratio: number(flat, 2),
        goal: '< 0.1 ms each, last/first ≤ 1.5',
        met: o.meanMs < 0.1 && flat <= 1.5,
      });
      rows.push({
        figure: '  heap after all were sent',
        value: `${kib(o.heapAfter - o.heapBefore)} after GC`,
        compared: `heap before: ${number(o.heapBefore / 1024 / 1024, 2)} MiB`,
        ratio: '—',
        goal: '< 1 MiB growth',
        met: o.heapAfter - o.heapBefore < 1024 * 1024,
      });
      note(`outbox: all ${MESSAGES} sent in ${number(o.sendSeconds, 1)} s once online`);
    }
  }

  if (wants('drain')) {
    console.log(`\ndrain: ${number(QUEUED)} messages queued while the backend was away, then a reload, in Chromium…`);
    const drainFigure = `Drain: ${number(QUEUED)} queued messages after a reload, longest main-thread task`;
    if (browser === undefined) {
      rows.push(notMeasured(drainFigure, 'no Chromium', `< ${LONG_TASK_GOAL} ms`));
      rows.push(notMeasured('  listOutbox with them queued', 'no Chromium', `< ${LIST_OUTBOX_GOAL} ms`));
    } else {
      const d = await measureDrain();
      rows.push({
        figure: drainFigure,
        value: d.longTasks === 0 ? `none over ${LONG_TASK_GOAL} ms` : ms(d.longestTaskMs),
        compared: `${d.longTasks} tasks over ${LONG_TASK_GOAL} ms in ${number(d.drainSeconds, 1)} s of drain`,
        ratio: '—',
        goal: `< ${LONG_TASK_GOAL} ms`,
        met: d.longestTaskMs < LONG_TASK_GOAL,
      });
      const slowestOf = (/** @type {import('./drain.mjs').ListTime[]} */ list) =>
        Math.max(...list.map((call) => call.ms));
      const slowest = Math.max(slowestOf(d.listBefore), slowestOf(d.listAfter));
      const times = (/** @type {import('./drain.mjs').ListTime[]} */ list) =>
        list.map((call) => `${ms(call.ms)} (${number(call.listed)})`).join(', ');
      rows.push({
        figure: '  listOutbox with them queued, slowest call',
        value: ms(slowest),
        compared: `slowest before the reload: ${ms(slowestOf(d.listBefore))}`,
        ratio: '—',
        goal: `< ${LIST_OUTBOX_GOAL} ms`,
        met: slowest < LIST_OUTBOX_GOAL,
      });
      note(
        `drain: queued in ${number(d.seedSeconds, 1)} s with the backend's requests aborted (connection refused); after the reload all ${number(QUEUED)} reached the backend in ${number(d.drainSeconds, 1)} s; long tasks by PerformanceObserver from the reloaded page's first script; listOutbox timed from ChatBridge.receive to its response (the number it listed): before the reload ${times(d.listBefore)}, after ${times(d.listAfter)}; profile on disk`,
      );
    }
  }

  if (wants('attachments')) {
    console.log('\nlarge attachments in Chromium…');
    const mib = (/** @type {number} */ bytes) => `${number(bytes / 1024 / 1024, 1)} MiB`;
    if (browser === undefined)
      rows.push({
        figure: 'Attachments: 5 × 5 MiB in chunks',
        value: 'not measured: no Chromium',
        compared: '—',
        ratio: '—',
        goal: `no task over ${LONG_TASK_GOAL} ms`,
        met: false,
      });
    else {
      const a = await measureAttachments();
      const photos = `${number(PHOTO_BYTES / 1024 / 1024)} MiB`;
      // The longest task per form: a ratio of chunked to single command, and the goal on the chunked one.
      for (const count of [1, 5]) {
        const chunked = a.longest[`chunked${count}`];
        const single = a.longest[`single${count}`];
        rows.push({
          figure: `Attachments: ${count} × ${photos} in chunks, longest main-thread task`,
          value: chunked === 0 ? `none over ${LONG_TASK_GOAL} ms` : ms(chunked),
          compared: `one command: ${single === 0 ? `none over ${LONG_TASK_GOAL} ms` : ms(single)}`,
          ratio: single === 0 ? '—' : times(Math.max(chunked, LONG_TASK_GOAL) / single),
          goal: `≤ ${LONG_TASK_GOAL} ms`,
          met: chunked <= LONG_TASK_GOAL,
        });
      }
      rows.push({
        figure: `  5 × ${photos} in chunks, whole send (median)`,
        value: ms(a.chunkedMs),
        compared: `bare fetch of the same multipart body: ${ms(a.bareMs)}`,
        ratio: times(a.chunkedMs / a.bareMs),
        goal: `≤ ${times(ATTACHMENT_TIME_GOAL, 1)}`,
        met: a.chunkedMs / a.bareMs <= ATTACHMENT_TIME_GOAL,
      });
      rows.push({
        figure: `  5 × ${photos} in chunks, peak memory (all Chromium processes)`,
        value: a.peakBytes === undefined ? 'not measured (no /proc)' : mib(a.peakBytes),
        compared: `the attachments: ${mib(a.attachmentBytes)}`,
        ratio: a.peakBytes === undefined ? '—' : times(a.peakBytes / a.attachmentBytes),
        goal: `≤ ${times(ATTACHMENT_MEMORY_GOAL, 1)}`,
        met: a.peakBytes !== undefined && a.peakBytes / a.attachmentBytes <= ATTACHMENT_MEMORY_GOAL,
      });
      note(
        `attachments: ${a.samples} sends of each form, interleaved, after a warm-up; in chunks, the chunks took ${ms(a.chunksMs)} of the whole send; one command: whole send ${ms(a.singleMs)}, peak memory ${a.singlePeakBytes === undefined ? 'not measured' : mib(a.singlePeakBytes)}; longest ChatBridge.receive call: ${Object.entries(
          a.receiveMs,
        )
          .map(([what, took]) => `${what} ${ms(took)}`)
          .join(', ')}; peak memory sums each Chromium process's rise of VmHWM (reset before the send), an upper bound${
          a.peakByKind
            ? ` (in chunks: ${Object.entries(a.peakByKind)
                .filter(([, bytes]) => bytes >= 1024 * 1024)
                .map(([kind, bytes]) => `${kind} ${mib(bytes)}`)
                .join(', ')})`
            : ''
        }; Chromium with a profile on disk, as a WebView has (incognito keeps IndexedDB in memory)`,
      );
    }
  }

  if (wants('startup')) {
    console.log('\nstart-up in Chromium…');
    const TWO_SCRIPTS = 'Start-up, two scripts: the starter at document start, evaluate + install() (median)';
    const ONE_SCRIPT = 'Start-up, one script: the bundle at document start, evaluate + install() (median)';
    if (browser === undefined)
      for (const figure of [TWO_SCRIPTS, ONE_SCRIPT])
        rows.push({
          figure,
          value: 'not measured: no Chromium',
          compared: '—',
          ratio: '—',
          goal: `≤ ${times(STARTUP_GOAL, 1)}`,
          met: false,
        });
    else {
      const s = await measureStartup(browser, penpalSource);
      const { penpalMs } = s;
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
          goal: diagnostic ?? `≤ ${times(STARTUP_GOAL, 1)}`,
          met: diagnostic !== undefined ? undefined : penpalMs !== undefined && value / penpalMs <= STARTUP_GOAL,
        });
      startupRow(TWO_SCRIPTS, s.starterMs);
      startupRow(
        '  then the bundle after load, taking over (evaluate, install, bridge built)',
        s.takeOverMs,
        '— (after load; diagnostic)',
      );
      startupRow(ONE_SCRIPT, s.bridgeMs);
      startupRow(
        '  the bridge itself, built in the task after install (not in the figure above)',
        s.bridgeBuildMs,
        "— (after the page's first scripts; diagnostic)",
      );
      note(
        `start-up: ${s.samples} fresh contexts each; starter evaluate ${ms(s.starterEvaluateMs)} + install ${ms(s.starterInstallMs)}, bundle evaluate ${ms(s.bridgeEvaluateMs)} + install ${ms(s.bridgeInstallMs)} (medians apart); ${s.isolated ? 'cross-origin isolated (5 µs timer)' : 'NOT cross-origin isolated (100 µs timer)'}`,
      );
    }
  }

  if (wants('memory') && bridgeModule) {
    console.log('\nmemory (child process, --expose-gc)…');
    const { result: m, warnings } = await runIsolated('memory', bridgeModule.path);
    const pending = m.stats.pendingCommands + m.stats.outbox + m.stats.undelivered;
    rows.push({
      figure: `Memory: ${number(COMMANDS)} commands`,
      value: `${kib(m.growth)} heap after GC, ${m.stats.pendingCommands} pending`,
      compared: `heap before: ${number(m.heapBefore / 1024 / 1024, 2)} MiB`,
      ratio: '—',
      goal: `< ${number(HEAP_LIMIT / 1024 / 1024)} MiB growth, 0 pending, each answered`,
      met: m.growth < HEAP_LIMIT && pending === 0 && m.responses === m.commands,
    });
    const refresh = m.refreshes;
    rows.push({
      figure: `  ${number(refresh.refreshes)} auth-token refreshes (init)`,
      value: `${kib(refresh.growth)} heap after GC (${number(refresh.growth / refresh.refreshes)} B each)`,
      compared: `init took ${number(refresh.firstMicros)} µs first, ${number(refresh.lastMicros)} µs last`,
      ratio: '—',
      goal: `< ${number(REFRESH_HEAP_LIMIT / 1024)} KiB (bench's own check)`,
      met: refresh.growth < REFRESH_HEAP_LIMIT,
    });
    note(
      `memory: ${number(m.responses)} responses (${number(m.okResponses)} ok) for ${number(m.commands)} commands, ${number(m.errorEvents)} error events; pending ${m.stats.pendingCommands}, outbox ${m.stats.outbox}, undelivered ${m.stats.undelivered}; ${number(m.elapsedMs / 1000, 1)} s; fetches: 75%/25% ok/500 for sendMessage, 60/20/20% ok/500/never for the rest; command and request timeouts 5 ms`,
    );
    for (const warning of warnings) note(`  Node warned ${warning.count}× ${warning.name}: ${warning.message}`);
  }

  if (args.includes('--fuzz')) {
    console.log(`\nfuzz: test/fuzz with FUZZ_RUNS=${FUZZ_RUNS} (takes a while)…`);
    const f = await runFuzz();
    rows.push({
      figure: `Fuzz: ${number(FUZZ_RUNS)} inbound scenarios`,
      value: `${number(f.seconds, 1)} s`,
      compared: '—',
      ratio: '—',
      goal: 'passes',
      met: f.passed,
    });
    note(
      `fuzz (last lines of vitest):\n${f.tail
        .split('\n')
        .map((line) => `    ${line}`)
        .join('\n')}`,
    );
  }
} finally {
  await browser?.close().catch(() => undefined);
  bridgeModule?.dispose();
}

console.log(`\n${textTable(rows)}\n`);
const folder = join(ROOT, 'bench', 'results');
mkdirSync(folder, { recursive: true });
const markdown = [
  `<!-- written by npm run bench on ${new Date().toISOString()} -->`,
  ...header.map((line) => `${line}  `),
  '',
  markdownTable(rows),
  '',
  ...details.map((line) => (line.startsWith('  ') ? `  - ${line.trim()}` : `- ${line}`)),
  '',
].join('\n');
writeFileSync(join(folder, 'latest.md'), markdown);
console.log(`Markdown table: bench/results/latest.md`);
