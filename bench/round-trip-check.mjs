/**
 * The WebKit round trip measured in other ways than the bench's row, to see which factor moves
 * its ratio (bench/README.md, "Two measures of the WebKit round trip"). The same page, timing
 * code and host as the row (webkit.mjs, round-trip.mjs); what changes is named by each plan:
 *
 *   node bench/round-trip-check.mjs [plan ...]      (default: independent bench back-to-back)
 *
 * - `independent`: as measured outside the bench: a host whose handler reads one property of each
 *   message, 4 blocks of 60 sends of each kind after 40 warm-up rounds, 2 ms idle before each.
 * - `bench`: the row's own plan (bodies as JSC's JSON, 2 ms idle and then until no earlier send's
 *   IndexedDB transaction is under way, 5 rounds of 480 after a round of warm-up).
 * - `back-to-back`: the row as it was until issue 37: each send at once after the one before.
 * - `settled`: the independent plan, each send waiting for the page's IndexedDB work instead of 2 ms.
 * Run alone (the machine's load is printed with each plan: compare ratios within one plan).
 */
import { loadavg } from 'node:os';
import { BENCH_PLAN } from './round-trip.mjs';
import { median } from './stats.mjs';
import { measureWebKitRoundTrip, webKitMissing } from './webkit.mjs';

const INDEPENDENT = { rounds: 4, samples: 60, warmup: 40, idleMs: 2 };
/** @type {Record<string, [import('./round-trip.mjs').Plan, 'json' | 'type']>} */
const PLANS = {
  independent: [INDEPENDENT, 'type'],
  bench: [BENCH_PLAN, 'json'],
  'back-to-back': [{ ...BENCH_PLAN, idleMs: 0, settled: false }, 'json'],
  settled: [{ ...INDEPENDENT, idleMs: 0, settled: true }, 'type'],
};

const missing = webKitMissing();
if (missing) throw new Error(`WebKit cannot run: ${missing}`);
const names = process.argv.length > 2 ? process.argv.slice(2) : ['independent', 'bench', 'back-to-back'];
const two = (/** @type {number | undefined} */ value) => (value === undefined ? '—' : value.toFixed(2));
for (const name of names) {
  const chosen = PLANS[name];
  if (!chosen) throw new Error(`no plan ${name}; plans: ${Object.keys(PLANS).join(', ')}`);
  const [plan, bodies] = chosen;
  const load = loadavg()[0];
  const { roundTrip: r, crossingsPerMessage } = await measureWebKitRoundTrip(plan, bodies);
  const all = (/** @type {string} */ kind) => two(r.all[kind]?.length ? median(r.all[kind]) : undefined);
  console.log(
    `${name}: load ${two(load)} before, ${two(loadavg()[0])} after; ${two(crossingsPerMessage)} handler calls a message`,
  );
  console.log(`  blocks, bridge / durable send: ${r.rounds.map((round) => two(round.ratio)).join(', ')}`);
  console.log(`  without native calls:          ${r.rounds.map((round) => two(round.quietRatio)).join(', ')}`);
  console.log(
    `  medians (ms): bridge ${all('bridge')}, durable ${all('durable')}, quiet ${all('quiet')}, bare ${all('bare')}, strict ${all('strict')}`,
  );
  console.log(
    `  start to request (ms): bridge ${all('bridgeLead')}, durable ${all('durableLead')}; response to answer: bridge ${all('bridgeTail')}, durable ${all('durableTail')}`,
  );
}
