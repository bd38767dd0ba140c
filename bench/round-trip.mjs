/**
 * Round trip: a host command `sendMessage` handed to `ChatBridge.receive` until its response
 * arrives on the browser channel (the 'chatbridge' CustomEvent), against a bare `fetch` of the
 * same `POST /messages` (same headers, same kind of body, body read as text) from the same page.
 * The reference backend runs on another 127.0.0.1 port, so both are real cross-origin requests
 * with the same preflights. Timed in the page with performance.now(), the two interleaved,
 * alternating which goes first; medians. The goal holds in each of ROUNDS consecutive rounds in
 * the same page (one warm-up, then SAMPLES of each), so one bench run checks it five times.
 */
import { join } from 'node:path';
import { startReferenceBackend } from '../demo-page/backend/server.mjs';
import { startStaticServer } from '../demo-page/static-server.mjs';
import { ROOT } from './deps.mjs';
import { median } from './stats.mjs';

const WEBSITE_TOKEN = 'wt_bench_round_trip';
const WARMUP = 10;
const SAMPLES = 60;
export const ROUNDS = 5;

/** Runs in the page; plain JavaScript on purpose (it is sent as text). */
const PAGE_SCRIPT = String.raw`
window.__bench = (function () {
  var settings = window.chatBridgeSettings;
  var counter = 0;
  var authToken;
  function content() { return 'Round trip number ' + (++counter) + ': hello, is anyone there?'; }
  function bridgeOnce() {
    return new Promise(function (resolve, reject) {
      var id = 'rt-' + counter;
      var text = JSON.stringify({ id: id, method: 'sendMessage', params: { content: content() } });
      var started;
      var listener = function (event) {
        var message = event.detail;
        if (!message || message.type !== 'response' || message.id !== id) return;
        var elapsed = performance.now() - started;
        removeEventListener('chatbridge', listener);
        if (message.ok) resolve(elapsed); else reject(new Error('bridge answered ' + JSON.stringify(message.error)));
      };
      addEventListener('chatbridge', listener);
      started = performance.now();
      ChatBridge.receive(text);
    });
  }
  function fetchOnce() {
    var body = JSON.stringify({ message: { content: content(), echo_id: 'bare-' + counter + '-' + Math.random().toString(36).slice(2) } });
    var started = performance.now();
    return fetch(settings.baseUrl + '/messages', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ' + authToken },
      body: body,
    }).then(function (response) {
      return response.text().then(function () {
        var elapsed = performance.now() - started;
        if (!response.ok) throw new Error('bare fetch answered ' + response.status);
        return elapsed;
      });
    });
  }
  return {
    setup: function () {
      return fetch(settings.baseUrl + '/config?website_token=' + encodeURIComponent(settings.websiteToken))
        .then(function (response) { return response.json(); })
        .then(function (config) { authToken = config.authToken; });
    },
    run: function (warmup, samples) {
      var bridge = [];
      var bare = [];
      var step = function (i) {
        if (i >= warmup + samples) return Promise.resolve({ bridge: bridge, bare: bare });
        var keep = i >= warmup;
        var first = i % 2 === 0 ? bridgeOnce : fetchOnce;
        var second = i % 2 === 0 ? fetchOnce : bridgeOnce;
        return first().then(function (a) {
          return second().then(function (b) {
            if (keep) {
              (first === bridgeOnce ? bridge : bare).push(a);
              (second === bridgeOnce ? bridge : bare).push(b);
            }
            return step(i + 1);
          });
        });
      };
      return step(0);
    },
  };
})();
`;

/**
 * @param {import('playwright-core').Browser} browser
 * @returns {Promise<{ rounds: Array<{ bridgeMs: number, bareMs: number, ratio: number }>, samples: number, bridgeAll: number[], bareAll: number[], isolated: boolean }>}
 *   rounds: each round's medians and their ratio, in order
 */
export async function measureRoundTrip(browser) {
  // The limiter would answer 429 after 120 requests; this figure is about latency, not limits.
  const backend = await startReferenceBackend({
    websiteTokens: [WEBSITE_TOKEN],
    rateLimit: { limit: 1_000_000, windowMs: 1_000 },
  });
  const settings = { baseUrl: backend.url, websiteToken: WEBSITE_TOKEN, host: 'browser' };
  const page = `<!doctype html><html><head><meta charset="utf-8"><title>round trip</title>
<script>window.chatBridgeSettings = ${JSON.stringify(settings)};</script>
<script src="/dist/chat-bridge.js"></script>
<script>${PAGE_SCRIPT}</script></head><body></body></html>`;
  // Cross-origin isolated, for performance.now() at 5 µs instead of 100 µs; CORS requests are unaffected.
  const headers = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
  const server = await startStaticServer({
    mounts: { '/dist/': join(ROOT, 'dist') },
    headers,
    pages: { '/round-trip.html': page, '/favicon.ico': '' },
  });
  const context = await browser.newContext();
  try {
    const tab = await context.newPage();
    const errors = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    await tab.goto(`${server.url}/round-trip.html`, { waitUntil: 'load' });
    await tab.evaluate(() => /** @type {any} */ (window).__bench.setup());
    const isolated = await tab.evaluate(() => window.crossOriginIsolated);
    /** @type {Array<{ bridgeMs: number, bareMs: number, ratio: number }>} */
    const rounds = [];
    /** @type {{ bridge: number[], bare: number[] }} */
    const all = { bridge: [], bare: [] };
    for (let round = 0; round < ROUNDS; round++) {
      const result = /** @type {{ bridge: number[], bare: number[] }} */ (
        await tab.evaluate(
          ([warmup, samples]) => /** @type {any} */ (window).__bench.run(warmup, samples),
          [round === 0 ? WARMUP : 0, SAMPLES],
        )
      );
      const bridgeMs = median(result.bridge);
      const bareMs = median(result.bare);
      rounds.push({ bridgeMs, bareMs, ratio: bridgeMs / bareMs });
      all.bridge.push(...result.bridge);
      all.bare.push(...result.bare);
    }
    if (errors.length > 0) throw new Error(`round-trip page errors: ${errors.join('; ')}`);
    return { rounds, samples: SAMPLES, bridgeAll: all.bridge, bareAll: all.bare, isolated };
  } finally {
    await context.close().catch(() => undefined);
    await server.close();
    await backend.close();
  }
}
