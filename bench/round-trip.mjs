/**
 * Round trip: a host command `sendMessage` handed to `ChatBridge.receive` until its response
 * reaches the host channel, against the physical limit of what the bridge promises (a durable
 * send): a hand-written page doing the same `fetch` of `POST /messages` and one IndexedDB put of
 * the message in parallel, done when both are. Also timed, as diagnostics: a bare `fetch` alone,
 * and the hand-written durable send with `durability: 'strict'` (the put's `complete` waits for
 * the disk). The reference backend runs on another 127.0.0.1 port, so every request is a real
 * cross-origin request with the same preflights. Timed in the page with performance.now(), the
 * four interleaved, rotating which goes first; medians. The goal holds in each of ROUNDS
 * consecutive rounds in the same page (one warm-up, then SAMPLES of each). Each send starts on an
 * idle page (IDLE_MS, then no IndexedDB work of an earlier send under way), as a user's do.
 *
 * The page is the same in Chromium and in WebKit (webkit.mjs); only the prelude differs, which
 * hands the bridge's messages to the timing code: the browser host's 'chatbridge' event in
 * Chromium, the iOS script message handler in WebKit. Chromium runs with a profile on disk, as a
 * WebView does: an incognito context keeps IndexedDB in memory, where no put waits for a disk.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/shared-settings.mjs';
import { startBackendThread } from './backend-thread.mjs';
import { startStaticServer } from '../demo-page/static-server.mjs';
import { ROOT } from './deps.mjs';
import { median } from './stats.mjs';

export const WEBSITE_TOKEN = 'wt_bench_round_trip';
/**
 * Of each kind, a round. Each round's ratio is taken against its own durable sends, so the sampling
 * noise of both medians counts, and it falls only with the square root of the samples: with 120 a
 * round, one round of five would cross the goal's line on noise while the runs' medians sat under it.
 */
export const SAMPLES = 480;
/**
 * Sends of each kind before the first round, not counted: a round's worth. Chromium runs the
 * bridge's sends slower in a page's first seconds (its code not yet optimized; the hand-written
 * page has little code to optimize), which a short warm-up left in the first round alone.
 */
export const WARMUP = SAMPLES;
export const ROUNDS = 5;
/**
 * The page idles this long before each send, and then until no IndexedDB transaction of an earlier
 * send is under way: a user's messages come seconds apart. Back to back, the bridge's storage
 * work after its answer (its record's write still going to disk, then its removal) ran in the next
 * send's time, and the hand-written put that followed waited behind it: the baseline paid for the
 * bridge (bench/README.md, "Two measures of the WebKit round trip").
 */
export const IDLE_MS = 2;
/**
 * @typedef {{ rounds: number, samples: number, warmup: number, idleMs: number, settled?: boolean }} Plan
 *   idleMs: the page idles this long before each send (0: back to back); settled: and then until
 *   no IndexedDB transaction of the page is under way
 */
/** @type {Plan} */
export const BENCH_PLAN = { rounds: ROUNDS, samples: SAMPLES, warmup: WARMUP, idleMs: IDLE_MS, settled: true };
export const KINDS = /** @type {const} */ (['bridge', 'bare', 'durable', 'strict']);
/** Cross-origin isolated, for performance.now() at 5 µs instead of 100 µs; CORS requests are unaffected. */
export const ISOLATED = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

/** Chromium's prelude: the browser host's messages arrive as 'chatbridge' events. */
export const BROWSER_PRELUDE = `addEventListener('chatbridge', function (event) { if (window.__onBridgeMessage) window.__onBridgeMessage(event.detail); });`;

/** Runs in the page; plain JavaScript on purpose (it is sent as text). */
const PAGE_SCRIPT = String.raw`
window.__bench = (function () {
  var settings = window.chatBridgeSettings;
  var counter = 0;
  var authToken;
  var db;
  var waiting = {};
  /** The last bridge or durable send's start and end, for where its time went (see spans). */
  var span;
  window.__onBridgeMessage = function (message) {
    if (message && message.type === 'response' && waiting[message.id]) waiting[message.id](message);
  };
  function content() { return 'Round trip number ' + (++counter) + ': hello, is anyone there?'; }
  function echoId(kind) { return kind + '-' + counter + '-' + Math.random().toString(36).slice(2); }
  function bridgeOnce() {
    return new Promise(function (resolve, reject) {
      var id = 'rt-' + counter;
      var text = JSON.stringify({ id: id, method: 'sendMessage', params: { content: content() } });
      var started;
      waiting[id] = function (message) {
        // Where a relay hands the payload to a native handler (webkit.mjs), the time it did.
        var ended = window.__postedAt > started ? window.__postedAt : performance.now();
        var elapsed = ended - started;
        span = [started, started + elapsed];
        delete waiting[id];
        if (message.ok) resolve(elapsed); else reject(new Error('bridge answered ' + JSON.stringify(message.error)));
      };
      started = performance.now();
      ChatBridge.receive(text);
    });
  }
  function post(body) {
    return fetch(settings.baseUrl + '/messages', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ' + authToken },
      body: body,
    }).then(function (response) {
      return response.text().then(function () {
        if (!response.ok) throw new Error('bare fetch answered ' + response.status);
      });
    });
  }
  /** Resolves when the transaction is complete. */
  function completed(transaction) {
    return new Promise(function (resolve, reject) {
      transaction.oncomplete = function () { resolve(); };
      transaction.onerror = transaction.onabort = function () { reject(transaction.error); };
    });
  }
  function put(record, durability) {
    var transaction = durability ? db.transaction('outbox', 'readwrite', { durability: durability }) : db.transaction('outbox', 'readwrite');
    transaction.objectStore('outbox').put(record);
    return completed(transaction);
  }
  function fetchOnce() {
    var body = JSON.stringify({ message: { content: content(), echo_id: echoId('bare') } });
    var started = performance.now();
    return post(body).then(function () { return performance.now() - started; });
  }
  // What a durable send needs at the least: the message on disk and on the wire, at once.
  function durableOnce(durability) {
    return function () {
      var text = content();
      var id = echoId('durable');
      var body = JSON.stringify({ message: { content: text, echo_id: id } });
      var started = performance.now();
      return Promise.all([put({ id: id, content: text, queuedAt: Date.now() }, durability), post(body)]).then(function () {
        if (!durability) span = [started, performance.now()];
        return performance.now() - started;
      });
    };
  }
  // Where the time went, as diagnostics, by Resource Timing (a cross-origin entry still has its
  // start and its response's end): from the send's start to its request's, and from the
  // response's end to the answer. Read after the timed span, and cleared, as the buffer is small.
  function spans(times, kind) {
    var entry = performance.getEntriesByType('resource').filter(function (e) {
      return e.name.indexOf('/messages') >= 0 && span && e.startTime >= span[0];
    }).pop();
    performance.clearResourceTimings();
    if (entry) {
      (times[kind + 'Lead'] = times[kind + 'Lead'] || []).push(entry.startTime - span[0]);
      (times[kind + 'Tail'] = times[kind + 'Tail'] || []).push(span[1] - entry.responseEnd);
    }
    span = undefined;
  }
  // With settled (the row's plan, BENCH_PLAN): every IndexedDB transaction of the page, the bridge's and the
  // hand-written one's, counted until complete, so that a send can wait until no earlier send's
  // storage work is under way, without idling any longer than that.
  var transactions = 0;
  var quiet = [];
  function trackTransactions() {
    if (IDBDatabase.prototype.__tracked) return;
    var transaction = IDBDatabase.prototype.transaction;
    IDBDatabase.prototype.__tracked = true;
    IDBDatabase.prototype.transaction = function () {
      var made = transaction.apply(this, arguments);
      transactions++;
      var done = function () { if (--transactions === 0) quiet.splice(0).forEach(function (resolve) { resolve(); }); };
      made.addEventListener('complete', done);
      made.addEventListener('abort', done);
      return made;
    };
  }
  // A task first (a removal is asked for in the microtasks after a write completes), then again
  // while any transaction is under way.
  function transactionsDone() {
    return new Promise(function (resolve) { setTimeout(resolve, 0); }).then(function () {
      if (transactions === 0) return undefined;
      return new Promise(function (resolve) { quiet.push(resolve); }).then(transactionsDone);
    });
  }
  var kinds = { bridge: bridgeOnce, bare: fetchOnce, durable: durableOnce(undefined), strict: durableOnce('strict') };
  function emptied() {
    var transaction = db.transaction('outbox', 'readwrite');
    transaction.objectStore('outbox').clear();
    return completed(transaction);
  }
  function openDb() {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open('bench-durable-send', 1);
      request.onupgradeneeded = function () { request.result.createObjectStore('outbox', { keyPath: 'id' }); };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }
  return {
    /** By name; an engine's page may add its own (webkit.mjs). */
    kinds: kinds,
    setup: function () {
      return fetch(settings.baseUrl + '/config?website_token=' + encodeURIComponent(settings.websiteToken))
        .then(function (response) { return response.json(); })
        .then(function (config) {
          authToken = config.authToken;
          // The contact's conversation first, so that every kind's message is one POST.
          return fetch(settings.baseUrl + '/conversations', { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ' + authToken }, body: '{}' });
        })
        .then(function () { return openDb(); })
        .then(function (opened) { db = opened; return window.crossOriginIsolated === true; });
    },
    /**
     * Every sample of each kind, the kinds rotating which goes first. The hand-written store is
     * emptied first: a real outbox removes what it sent, and puts into a store grown by every
     * earlier round's records would make each round's durable sends slower than the one before.
     */
    run: function (names, warmup, samples, idleMs, settled) {
      var times = {};
      names.forEach(function (name) { times[name] = []; });
      if (settled) trackTransactions();
      var idle = function () {
        var slept = idleMs > 0 ? new Promise(function (resolve) { setTimeout(resolve, idleMs); }) : Promise.resolve();
        return settled ? slept.then(transactionsDone) : slept;
      };
      var step = function (i) {
        if (i >= warmup + samples) return Promise.resolve(times);
        var order = names.slice(i % names.length).concat(names.slice(0, i % names.length));
        var next = function (k) {
          if (k >= order.length) return step(i + 1);
          // Named for a stalled run's error message.
          window.__benchAt = order[k] + ' #' + i;
          return idle().then(function () { return kinds[order[k]](); }).then(function (elapsed) {
            if (i >= warmup) times[order[k]].push(elapsed);
            if (i >= warmup && span) spans(times, order[k]);
            span = undefined;
            return next(k + 1);
          });
        };
        return next(0);
      };
      return emptied().then(function () { return step(0); });
    },
  };
})();
`;

/**
 * The page: settings, the prelude (before the bundle, so that it sees the bridge's first
 * message), the bundle, the timing code.
 * @param {Record<string, unknown>} settings
 * @param {string} prelude
 */
export function roundTripPage(settings, prelude) {
  return `<!doctype html><html><head><meta charset="utf-8"><title>round trip</title>
<script>window.chatBridgeSettings = ${JSON.stringify(settings)};${prelude}</script>
<script src="/dist/chat-bridge.js"></script>
<script>${PAGE_SCRIPT}</script></head><body></body></html>`;
}

/** The reference backend and the page's server, for either engine. */
export async function startRoundTripServers(
  /** @type {Record<string, unknown>} */ settings,
  prelude = BROWSER_PRELUDE,
) {
  // The limiter would answer 429 after 120 requests; this figure is about latency, not limits.
  const backend = await startBackendThread({
    websiteTokens: [WEBSITE_TOKEN],
    rateLimit: { limit: 1_000_000, windowMs: 1_000 },
  });
  const page = roundTripPage({ baseUrl: backend.url, websiteToken: WEBSITE_TOKEN, ...settings }, prelude);
  const server = await startStaticServer({
    mounts: { '/dist/': join(ROOT, 'dist') },
    headers: ISOLATED,
    pages: { '/round-trip.html': page, '/favicon.ico': '' },
  });
  return {
    url: `${server.url}/round-trip.html`,
    close: async () => {
      await server.close();
      await backend.close();
    },
  };
}

/**
 * @typedef {{ bridgeMs: number, bareMs: number, durableMs: number, strictMs: number, ratio: number, bareRatio: number, strictRatio: number, quietMs?: number, quietRatio?: number }} Round
 *   quiet: the bridge without its native crossings, where the engine's page has that kind (WebKit)
 * @typedef {{ rounds: Round[], samples: number, all: Record<string, number[]>, isolated: boolean, extra?: string }} RoundTrip
 *   extra: a note on how the engine was driven, for the details line
 */

/**
 * Runs the rounds through `run(warmup)`, which resolves with one round's times by kind.
 * @param {(warmup: number) => Promise<Record<string, number[]>>} run
 * @param {boolean} isolated
 * @param {Plan} plan
 * @returns {Promise<RoundTrip>}
 */
export async function collectRounds(run, isolated, plan = BENCH_PLAN) {
  /** @type {Round[]} */
  const rounds = [];
  /** @type {Record<string, number[]>} */
  const all = { bridge: [], bare: [], durable: [], strict: [] };
  for (let round = 0; round < plan.rounds; round++) {
    const times = await run(round === 0 ? plan.warmup : 0);
    const [bridgeMs, bareMs, durableMs, strictMs] = KINDS.map((kind) => median(times[kind] ?? [NaN]));
    /** @type {Round} */
    const result = {
      bridgeMs,
      bareMs,
      durableMs,
      strictMs,
      ratio: bridgeMs / durableMs,
      bareRatio: bridgeMs / bareMs,
      strictRatio: bridgeMs / strictMs,
    };
    if (times['quiet']) {
      result.quietMs = median(times['quiet']);
      result.quietRatio = result.quietMs / durableMs;
    }
    rounds.push(result);
    for (const [kind, values] of Object.entries(times)) (all[kind] ??= []).push(...values);
  }
  return { rounds, samples: plan.samples, all, isolated };
}

/**
 * In headless Chromium with a profile on disk.
 * @returns {Promise<RoundTrip>}
 */
export async function measureRoundTrip() {
  const servers = await startRoundTripServers({ host: 'browser' });
  const profile = mkdtempSync(join(tmpdir(), 'chat-bridge-bench-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    const tab = await context.newPage();
    const errors = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    await tab.goto(servers.url, { waitUntil: 'load' });
    const isolated = await tab.evaluate(() => /** @type {any} */ (window).__bench.setup());
    const result = await collectRounds(
      (warmup) =>
        tab.evaluate(
          ([names, w, samples, idleMs, settled]) =>
            /** @type {any} */ (window).__bench.run(names, w, samples, idleMs, settled),
          /** @type {[string[], number, number, number, boolean]} */ ([
            [...KINDS],
            warmup,
            BENCH_PLAN.samples,
            BENCH_PLAN.idleMs,
            BENCH_PLAN.settled === true,
          ]),
        ),
      isolated,
    );
    if (errors.length > 0) throw new Error(`round-trip page errors: ${errors.join('; ')}`);
    return result;
  } finally {
    await context.close().catch(() => undefined);
    rmSync(profile, { recursive: true, force: true });
    await servers.close();
  }
}
