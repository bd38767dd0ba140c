/**
 * Draining a long outbox after a reload, in headless Chromium against the reference backend:
 * 5,000 `sendMessage` commands are queued through `ChatBridge.receive` while the backend is
 * unreachable (its requests aborted at the network level, as a dead server or a lost route looks
 * to the page), then the page reloads with the backend reachable and the new page's bridge sends
 * them all. Measured through public APIs only, so the figure holds whatever the outbox's inside:
 * - the longest main-thread task from the reload until the backend has every message
 *   (PerformanceObserver `longtask`, registered before the bundle runs; tasks under 50 ms are not
 *   reported, hence "none over 50 ms");
 * - `listOutbox` from `ChatBridge.receive` to its response, with the 5,000 queued: on the page
 *   that queued them, and on the reloaded page as it starts draining.
 * The browser has a profile on disk, as a WebView does (an incognito context keeps IndexedDB in
 * memory).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/shared-settings.mjs';
import { startReferenceBackend } from '../reference-backend/server.mjs';
import { startStaticServer } from '../demo-page/static-server.mjs';
import { ROOT } from './deps.mjs';

export const QUEUED = 5_000;
const WEBSITE_TOKEN = 'wt_bench_drain';
const LIST_CALLS = 5;

/** Before the bundle: long tasks from the page's start. */
const OBSERVER_SCRIPT = String.raw`
window.__longTasks = [];
new PerformanceObserver(function (list) {
  list.getEntries().forEach(function (entry) { window.__longTasks.push({ start: entry.startTime, duration: entry.duration }); });
}).observe({ type: 'longtask', buffered: true });
`;

/** Runs in the page; plain JavaScript on purpose (it is sent as text). */
const PAGE_SCRIPT = String.raw`
window.__drain = (function () {
  var waiting = {};
  var counter = 0;
  addEventListener('chatbridge', function (event) {
    var message = event.detail;
    if (message && message.type === 'response' && waiting[message.id]) waiting[message.id](message);
  });
  function command(method, params) {
    var id = 'drain-' + method + '-' + ++counter;
    return new Promise(function (resolve, reject) {
      var started;
      waiting[id] = function (message) {
        var elapsed = performance.now() - started;
        delete waiting[id];
        if (message.ok) resolve({ ms: elapsed, result: message.result });
        else reject(new Error(method + ' answered ' + JSON.stringify(message.error)));
      };
      started = performance.now();
      ChatBridge.receive(JSON.stringify(params ? { id: id, method: method, params: params } : { id: id, method: method }));
    });
  }
  return {
    command: command,
    enqueue: function (count) {
      for (var i = 0; i < count; i++)
        ChatBridge.receive(JSON.stringify({ id: 'q-' + i, method: 'sendMessage', params: { content: 'Queued while the backend was away, number ' + i } }));
    },
    /** listOutbox timed \`calls\` times, one after the other, with the number it listed. */
    listTimes: function (calls) {
      var times = [];
      var next = function () {
        if (times.length >= calls) return Promise.resolve(times);
        return command('listOutbox').then(function (answer) {
          times.push({ ms: answer.ms, listed: answer.result.messages.length });
          return next();
        });
      };
      return next();
    },
  };
})();
`;

/**
 * @typedef {{ ms: number, listed: number }} ListTime
 * @returns {Promise<{ longestTaskMs: number, longTasks: number, drainSeconds: number, listBefore: ListTime[], listAfter: ListTime[], seedSeconds: number }>}
 */
export async function measureDrain() {
  const backend = await startReferenceBackend({
    websiteTokens: [WEBSITE_TOKEN],
    rateLimit: { limit: 1_000_000, windowMs: 1_000 },
  });
  const settings = { baseUrl: backend.url, websiteToken: WEBSITE_TOKEN, host: 'browser' };
  const page = `<!doctype html><html><head><meta charset="utf-8"><title>drain</title>
<script>${OBSERVER_SCRIPT}window.chatBridgeSettings = ${JSON.stringify(settings)};</script>
<script src="/dist/chat-bridge.js"></script>
<script>${PAGE_SCRIPT}</script></head><body></body></html>`;
  const server = await startStaticServer({
    mounts: { '/dist/': join(ROOT, 'dist') },
    pages: { '/drain.html': page, '/favicon.ico': '' },
  });
  const profile = mkdtempSync(join(tmpdir(), 'chat-bridge-bench-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  const unreachable = `${backend.url}/**`;
  try {
    const tab = await context.newPage();
    const errors = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    await tab.goto(`${server.url}/drain.html`, { waitUntil: 'load' });
    // The conversation exists first, so every message is one POST.
    await tab.evaluate(() => /** @type {any} */ (window).__drain.command('getConversation'));

    await context.route(unreachable, (route) => route.abort('connectionrefused'));
    const seeding = Date.now();
    await tab.evaluate((count) => /** @type {any} */ (window).__drain.enqueue(count), QUEUED);
    // Stored once listOutbox shows them all.
    await tab.waitForFunction(
      async (count) =>
        (await /** @type {any} */ (window).__drain.command('listOutbox')).result.messages.length >= count,
      QUEUED,
      { timeout: 300_000, polling: 500 },
    );
    const seedSeconds = (Date.now() - seeding) / 1000;
    const listBefore = /** @type {ListTime[]} */ (
      await tab.evaluate((calls) => /** @type {any} */ (window).__drain.listTimes(calls), LIST_CALLS)
    );

    await context.unroute(unreachable);
    backend.requests.length = 0;
    const reloaded = Date.now();
    await tab.reload({ waitUntil: 'load' });
    const listAfter = /** @type {ListTime[]} */ (
      await tab.evaluate((calls) => /** @type {any} */ (window).__drain.listTimes(calls), LIST_CALLS)
    );
    const sentCount = () =>
      backend.requests.filter((entry) => entry.method === 'POST' && entry.path === '/messages' && entry.status === 200)
        .length;
    while (sentCount() < QUEUED) {
      if (Date.now() - reloaded > 600_000) throw new Error(`drain: ${sentCount()} of ${QUEUED} sent after 10 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const drainSeconds = (Date.now() - reloaded) / 1000;
    // The tasks of the drain's last answers have run once the outbox lists nothing.
    await tab.waitForFunction(
      async () => (await /** @type {any} */ (window).__drain.command('listOutbox')).result.messages.length === 0,
      undefined,
      { timeout: 60_000, polling: 200 },
    );
    const longTasks = /** @type {Array<{ duration: number }>} */ (
      await tab.evaluate(() => /** @type {any} */ (window).__longTasks)
    );
    if (errors.length > 0) throw new Error(`drain page errors: ${errors.join('; ')}`);
    return {
      longestTaskMs: Math.max(0, ...longTasks.map((task) => task.duration)),
      longTasks: longTasks.length,
      drainSeconds,
      listBefore,
      listAfter,
      seedSeconds,
    };
  } finally {
    await context.close().catch(() => undefined);
    rmSync(profile, { recursive: true, force: true });
    await server.close();
    await backend.close();
  }
}
