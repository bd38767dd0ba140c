/**
 * Inbound throughput: messages per second through the bridge's whole inbound path (origin and
 * prefix checks, size cap, parse, validation, dispatch, and for commands the method, the
 * outbox, the instant fetch and the response serialized for the Android channel), divided by
 * bare `JSON.parse` (in a try/catch, as a naive handler does) of the same strings, timed in
 * the same run. Messages arrive in batches of BATCH (about what one frame of traffic holds);
 * after each batch the clock keeps running until every command has been answered. Bare
 * JSON.parse gets the text a naive handler would parse: the data without its prefix.
 */
import { createFakeEnvironment } from './fake-backend.mjs';
import { median } from './stats.mjs';
import { API_ORIGIN, PAGE_ORIGIN, makeTraffic } from './workload.mjs';

const MESSAGES = 20_000;
const BATCH = 25;
const WARMUP_RUNS = 2;
const RUNS = 9;

/** Keeps parse results observable, so the engine cannot drop the baseline's work. */
let sink = 0;

/** @typedef {import('./workload.mjs').Inbound} Inbound */

/** Bare JSON.parse of messages[start, end), in a try/catch as a naive handler does. @param {Inbound[]} traffic */
function parseBatch(traffic, start, end) {
  const started = process.hrtime.bigint();
  for (let i = start; i < end; i++) {
    try {
      const value = JSON.parse(/** @type {Inbound} */ (traffic[i]).json);
      if (typeof value === 'object') sink++;
    } catch {
      sink--;
    }
  }
  return Number(process.hrtime.bigint() - started);
}

/**
 * The inbound edge alone (origin, prefix, size cap, parse, validation to a verdict), without
 * dispatch or anything outbound: a diagnostic, to tell the edge's cost from the commands'.
 * @param {Inbound[]} traffic
 */
function edgeBatch(bridgeModule, options, traffic, start, end) {
  const started = process.hrtime.bigint();
  for (let i = start; i < end; i++) {
    const message = /** @type {Inbound} */ (traffic[i]);
    const verdict =
      message.via === 'receive'
        ? bridgeModule.classifyHostData(message.data, options)
        : bridgeModule.classifyPosted({ data: message.data, origin: message.origin }, options);
    if (verdict.kind === 'command') sink++;
  }
  return Number(process.hrtime.bigint() - started);
}

/** Resolves once every command is answered and the outbox is empty. */
async function settled(bridge) {
  for (;;) {
    const stats = bridge.stats();
    if (stats.pendingCommands === 0 && stats.outbox === 0) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * One pass over the traffic. Each batch is timed three ways back to back (the bridge, the edge
 * alone, bare JSON.parse), alternating which comes first, so a load spike on a shared machine
 * hits all three alike and the ratios stay honest.
 * @param {Inbound[]} traffic
 */
async function pairedRun(bridgeModule, options, traffic) {
  const fake = createFakeEnvironment();
  const bridge = bridgeModule.createBridge(options, fake.env);
  // An installed page has run init: the auth token is known (and redacted from everything outbound).
  bridge.receive('{"id":"warm","method":"init"}');
  await settled(bridge);
  const before = fake.delivered();
  let bridgeNs = 0;
  let parseNs = 0;
  let edgeNs = 0;
  let dispatchNs = 0;
  for (let start = 0, batch = 0; start < traffic.length; start += BATCH, batch++) {
    const end = Math.min(start + BATCH, traffic.length);
    if (batch % 2 === 0) parseNs += parseBatch(traffic, start, end);
    const started = process.hrtime.bigint();
    for (let i = start; i < end; i++) {
      const message = /** @type {Inbound} */ (traffic[i]);
      if (message.via === 'receive') bridge.receive(message.data);
      else fake.post(message.data, message.origin);
    }
    // Everything up to here ran inside the listener: checks, parse, validation, dispatch to the
    // method, and the serialization of what is answered at once (widget events, refusals).
    dispatchNs += Number(process.hrtime.bigint() - started);
    await settled(bridge);
    bridgeNs += Number(process.hrtime.bigint() - started);
    edgeNs += edgeBatch(bridgeModule, options, traffic, start, end);
    if (batch % 2 === 1) parseNs += parseBatch(traffic, start, end);
  }
  const delivered = fake.delivered() - before;
  bridge.destroy();
  if (Number.isNaN(delivered)) throw new Error('the Android channel received a payload that is not a string');
  return { bridgeNs, parseNs, edgeNs, dispatchNs, delivered };
}

/**
 * @param {any} bridgeModule the module from bridge-module.mjs
 * @returns {Promise<{ bridgePerSecond: number, parsePerSecond: number, ratio: number, edgePerSecond: number, edgeRatio: number, messages: number, runs: number,
 *   delivered: number, byKind: Array<{ kind: string, share: number, bridgeNsPerMessage: number, edgeNsPerMessage: number, parseNsPerMessage: number }> }>}
 */
export async function measureThroughput(bridgeModule) {
  const options = bridgeModule.normalizeOptions(
    { baseUrl: `${API_ORIGIN}/api/v1`, websiteToken: 'wt_bench_public', host: 'android' },
    PAGE_ORIGIN,
  );
  const traffic = makeTraffic(MESSAGES);
  const runs = [];
  for (let run = 0; run < WARMUP_RUNS + RUNS; run++) {
    const result = await pairedRun(bridgeModule, options, traffic);
    if (run >= WARMUP_RUNS) runs.push(result);
  }
  const bridgeNs = median(runs.map((run) => run.bridgeNs));
  const parseNs = median(runs.map((run) => run.parseNs));
  const edgeNs = median(runs.map((run) => run.edgeNs));
  const dispatchNs = median(runs.map((run) => run.dispatchNs));
  const delivered = runs[0]?.delivered ?? 0;

  // Where the time goes: each kind of message alone, same method (fewer runs; a diagnostic).
  const byKind = [];
  for (const kind of ['command', 'widget', 'foreign', 'malformed']) {
    const only = traffic.filter((message) => message.kind === kind);
    const kindRuns = [];
    for (let run = 0; run < 5; run++) kindRuns.push(await pairedRun(bridgeModule, options, only));
    byKind.push({
      kind,
      share: only.length / traffic.length,
      bridgeNsPerMessage: median(kindRuns.map((run) => run.bridgeNs)) / only.length,
      edgeNsPerMessage: median(kindRuns.map((run) => run.edgeNs)) / only.length,
      parseNsPerMessage: median(kindRuns.map((run) => run.parseNs)) / only.length,
    });
  }
  if (sink === 0.5) console.log(sink);

  return {
    bridgePerSecond: (MESSAGES / bridgeNs) * 1e9,
    parsePerSecond: (MESSAGES / parseNs) * 1e9,
    // Per message, parse time over bridge time: the same as the two rates' quotient.
    ratio: parseNs / bridgeNs,
    edgePerSecond: (MESSAGES / edgeNs) * 1e9,
    edgeRatio: parseNs / edgeNs,
    dispatchPerSecond: (MESSAGES / dispatchNs) * 1e9,
    dispatchRatio: parseNs / dispatchNs,
    messages: MESSAGES,
    runs: RUNS,
    delivered,
    byKind,
  };
}
