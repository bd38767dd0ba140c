/**
 * `npm run bench` (after the build): measures the figures of the README's performance table in
 * one run and prints them, each with what it is compared with in the same run and its goal.
 * Also writes the table as Markdown to bench/results/latest.md.
 *
 *   node bench/run.mjs [--fuzz] [--only=bundle,throughput,round-trip,startup,memory,outbox,attachments,refused-upload]
 *
 * --fuzz adds the opt-in row: test/fuzz with FUZZ_RUNS=1000000 (takes minutes).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { launchChromium, CHROMIUM_PATH } from './browser.mjs';
import { BUNDLE_BUDGET } from '../scripts/shared-settings.mjs';
import { bundleBridgeForNode } from './bridge-module.mjs';
import { measureBundleSizes } from './bundle-size.mjs';
import { ROOT } from './deps.mjs';
import { FUZZ_RUNS, runFuzz } from './fuzz.mjs';
import { runIsolated } from './isolated.mjs';
import { COMMANDS, HEAP_LIMIT, REFRESH_HEAP_LIMIT } from './memory.mjs';
import { measureRoundTrip } from './round-trip.mjs';
import { MESSAGES, measureOutbox } from './outbox.mjs';
import { QUEUED, measureDrain } from './drain.mjs';
import { IDLE_FIGURE, idleRows, measureIdle } from './idle.mjs';
import { measureAttachments } from './attachments.mjs';
import { PHOTO_BYTES, WINDOW_MS, measureRefusedUpload } from './refused-upload.mjs';
import {
  ATTACHMENTS_FIGURE,
  DRAIN_FIGURE,
  LIST_OUTBOX_GOAL,
  LONG_TASK_GOAL,
  LONG_TASK_GOAL_TEXT,
  ROUND_TRIP_FIGURE,
  ROUND_TRIP_GOAL_TEXT,
  STARTUP_FIGURES,
  STARTUP_GOAL_TEXT,
  attachmentRows,
  drainRows,
  notMeasured,
  roundTripRows,
  startupRows,
  ms,
  times,
} from './browser-rows.mjs';
import { measureWebKitAttachments, measureWebKitRoundTrip, measureWebKitStartup, webKitMissing } from './webkit.mjs';
import { measureStartup } from './startup.mjs';
import { markdownTable, number, textTable } from './table.mjs';

const FIGURES = [
  'bundle',
  'throughput',
  'round-trip',
  'startup',
  'memory',
  'outbox',
  'drain',
  'idle',
  'attachments',
  'refused-upload',
];
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

/** @type {import('./table.mjs').Row[]} */
const rows = [];
/** @type {string[]} */
const details = [];
const note = (/** @type {string} */ line) => {
  details.push(line);
  console.log(`  ${line}`);
};
const kib = (/** @type {number} */ bytes) => `${bytes < 0 ? '−' : '+'}${number(Math.abs(bytes) / 1024, 1)} KiB`;
/** Adds a builder's rows and prints its detail lines. @param {import('./browser-rows.mjs').Built} built */
const add = (built) => {
  rows.push(...built.rows);
  built.notes.forEach(note);
};
const webKitMissingWhy = webKitMissing();
/** WebKit's figure after Chromium's, or a failing row when WebKit cannot run. */
const inWebKit = async (
  /** @type {string} */ what,
  /** @type {string} */ figure,
  /** @type {string} */ goal,
  /** @type {() => Promise<import('./browser-rows.mjs').Built>} */ measure,
) => {
  console.log(`\n${what} in WebKit…`);
  if (webKitMissingWhy !== undefined) rows.push(notMeasured(figure, webKitMissingWhy, goal));
  else add(await measure());
};

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
        `bundle: ${number(sizes.bridge.bytes)} B minified; comparisons built like the bridge (esbuild minified IIFE, ES2017 with object spread and catch without a binding, terser 6 passes, Closure Compiler SIMPLE, uglify-js, then oxc-minify), whole library on one global`,
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
    if (browser === undefined)
      rows.push(notMeasured(ROUND_TRIP_FIGURE('Chromium'), 'no Chromium', ROUND_TRIP_GOAL_TEXT));
    else
      add(roundTripRows('Chromium', await measureRoundTrip(), "browser host ('chatbridge' events), profile on disk"));
    await inWebKit('round trip', ROUND_TRIP_FIGURE('WebKit'), ROUND_TRIP_GOAL_TEXT, async () => {
      const w = await measureWebKitRoundTrip();
      return roundTripRows(
        'WebKit',
        w.roundTrip,
        `WebKitGTK ${w.version}, iOS host (a WKScriptMessageHandler, bodies converted natively), ${number(w.crossingsPerMessage, 1)} handler calls a message, storage on disk`,
      );
    });
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
    if (browser === undefined) {
      rows.push(notMeasured(DRAIN_FIGURE, 'no Chromium', `< ${LONG_TASK_GOAL} ms`));
      rows.push(notMeasured('  listOutbox with them queued', 'no Chromium', `< ${LIST_OUTBOX_GOAL} ms`));
    } else add(drainRows(await measureDrain()));
  }

  if (wants('idle')) {
    console.log('\nidle WebViews in Chromium, counted…');
    if (browser === undefined) rows.push(notMeasured(IDLE_FIGURE, 'no Chromium', '0'));
    else rows.push(...idleRows(await measureIdle(browser)));
  }

  if (wants('attachments')) {
    console.log('\nlarge attachments in Chromium…');
    if (browser === undefined)
      rows.push(notMeasured(ATTACHMENTS_FIGURE('Chromium'), 'no Chromium', LONG_TASK_GOAL_TEXT));
    else
      add(
        attachmentRows(
          'Chromium',
          await measureAttachments(),
          'browser host, a profile on disk as a WebView has (incognito keeps IndexedDB in memory)',
        ),
      );
    await inWebKit('large attachments', ATTACHMENTS_FIGURE('WebKit'), LONG_TASK_GOAL_TEXT, async () => {
      const w = await measureWebKitAttachments();
      return attachmentRows(
        'WebKit',
        w,
        `WebKitGTK ${w.version}, iOS host, storage on disk; no peak memory row (it reads Chromium's processes)`,
      );
    });
  }

  if (wants('startup')) {
    console.log('\nstart-up in Chromium…');
    if (browser === undefined)
      for (const figure of STARTUP_FIGURES('Chromium'))
        rows.push(notMeasured(figure, 'no Chromium', STARTUP_GOAL_TEXT));
    else add(startupRows('Chromium', await measureStartup(browser, penpalSource), 'fresh browser contexts'));
    await inWebKit('start-up', /** @type {string} */ (STARTUP_FIGURES('WebKit')[0]), STARTUP_GOAL_TEXT, async () => {
      const w = await measureWebKitStartup(penpalSource);
      return startupRows('WebKit', w, `fresh WebViews (WebKitGTK ${w.version}, a web process each)`);
    });
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

  if (wants('refused-upload')) {
    console.log('\nrefused upload: one 2 MB photo refused without CORS, 10 virtual minutes…');
    const { before, after } = await measureRefusedUpload();
    const mb = (/** @type {number} */ bytes) => `${number(bytes / 1e6, 0)} MB`;
    rows.push({
      figure: `Refused ${mb(PHOTO_BYTES)} photo: uploads in its first ${WINDOW_MS / 60_000} min (count)`,
      value: `${after.uploads} uploads, ${mb(after.bytes)}`,
      compared: `before: ${before.uploads} uploads, ${mb(before.bytes)}`,
      ratio: times(after.bytes / before.bytes),
      // upload-budget.ts: REFUSALS.
      goal: '≤ 3 uploads',
      met: after.uploads <= 3,
    });
    note(
      `refused upload: after, the photo ${after.photo} and the text behind it sent at ${
        after.textSentAt === undefined ? 'never' : `${number(after.textSentAt / 1000, 1)} s`
      }; before, the photo ${before.photo} and the text ${
        before.textSentAt === undefined ? 'not sent' : `sent at ${number(before.textSentAt / 1000, 1)} s`
      } after 10 min`,
    );
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
