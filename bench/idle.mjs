// @ts-check
/**
 * What an idle bridge costs (issue 34, point 3): in Chromium, 1 and 3 WebViews of one app (tabs of
 * one context: shared storage) with the built bundle and nothing to send, with the Web Locks API
 * and without it (the lease of iOS 12.2–15.3). Counted, not timed: the pages' timer callbacks
 * (wake-ups) and storage writes (localStorage sets and removes, IndexedDB read-write
 * transactions) over WATCH_MS after start-up has settled, given a minute. Goal: 0 while nothing
 * waits. Alone: `node scripts/build.mjs && node bench/idle.mjs`.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startReferenceBackend } from '../reference-backend/server.mjs';
import { startStaticServer } from '../demo-page/static-server.mjs';
import { launchChromium } from './browser.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const TOKEN = 'wt_idle_bench_token';
/** Start-up's own look for gone pages (2 s after a lock went) has run by then. */
const SETTLE_MS = 4_000;
const WATCH_MS = 20_000;
const NO_WEB_LOCKS = 'delete Navigator.prototype.locks; delete navigator.locks;';
/** As test/helpers/wait-cases.ts's WAIT_PROBE_JS: counts timer callbacks and storage writes. */
const PROBE = `(function () {
  var probe = (window.__probe = { wakeups: 0, writes: 0 });
  ['setTimeout', 'setInterval'].forEach(function (name) {
    var original = window[name];
    window[name] = function (callback, ms) {
      if (typeof callback !== 'function') return original.apply(window, arguments);
      return original.call(window, function () { probe.wakeups++; return callback.apply(this, arguments); }, ms);
    };
  });
  ['setItem', 'removeItem'].forEach(function (name) {
    var original = Storage.prototype[name];
    Storage.prototype[name] = function () { probe.writes++; return original.apply(this, arguments); };
  });
  var transaction = IDBDatabase.prototype.transaction;
  IDBDatabase.prototype.transaction = function (stores, mode) {
    if (mode === 'readwrite') probe.writes++;
    return transaction.apply(this, arguments);
  };
})();`;

/**
 * @typedef {{ locks: 'Web Locks' | 'lease', webViews: number, wakeupsPerMinute: number, writesPerMinute: number }} IdleCase
 * @param {import('playwright-core').Browser} browser
 * @returns {Promise<IdleCase[]>} the most any one WebView of each case did, a minute
 */
export async function measureIdle(browser) {
  const bundle = await readFile(join(ROOT, 'dist', 'chat-bridge.js'), 'utf8');
  const backend = await startReferenceBackend({ websiteTokens: [TOKEN] });
  const settings = { baseUrl: backend.url, websiteToken: TOKEN, host: 'browser' };
  const page = `<!doctype html><meta charset="utf-8"><script>window.chatBridgeSettings=${JSON.stringify(settings)};</script><script>${bundle}</script>`;
  const server = await startStaticServer({ mounts: {}, pages: { '/idle.html': page } });
  /** @type {IdleCase[]} */
  const cases = [];
  try {
    for (const locks of /** @type {const} */ (['Web Locks', 'lease'])) {
      for (const webViews of [1, 3]) {
        const context = await browser.newContext();
        if (locks === 'lease') await context.addInitScript(NO_WEB_LOCKS);
        await context.addInitScript(PROBE);
        const tabs = [];
        for (let i = 0; i < webViews; i++) {
          const tab = await context.newPage();
          await tab.goto(`${server.url}/idle.html`);
          tabs.push(tab);
        }
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
        for (const tab of tabs) await tab.evaluate('window.__probe.wakeups = 0; window.__probe.writes = 0;');
        await new Promise((resolve) => setTimeout(resolve, WATCH_MS));
        const counts = /** @type {{ wakeups: number, writes: number }[]} */ (
          await Promise.all(tabs.map((tab) => tab.evaluate('Object.assign({}, window.__probe)')))
        );
        const perMinute = (/** @type {number} */ n) => (n * 60_000) / WATCH_MS;
        cases.push({
          locks,
          webViews,
          wakeupsPerMinute: perMinute(Math.max(...counts.map((c) => c.wakeups))),
          writesPerMinute: perMinute(Math.max(...counts.map((c) => c.writes))),
        });
        await context.close();
      }
    }
  } finally {
    await server.close();
    await backend.close();
  }
  return cases;
}

export const IDLE_FIGURE = 'Idle, Chromium: wake-ups and storage writes a minute, each WebView';

/**
 * One row a case, held to 0 (before issue 34: 30 wake-ups with Web Locks for 3 WebViews; 60 and
 * 60 writes with the lease alone, 90 and 60 for 3).
 * @param {IdleCase[]} cases
 * @returns {import('./table.mjs').Row[]}
 */
export const idleRows = (cases) =>
  cases.map((c, index) => ({
    figure: `${index ? '  ' : `${IDLE_FIGURE}: `}${c.webViews} idle WebView${c.webViews > 1 ? 's' : ''}, ${c.locks}`,
    value: `${c.wakeupsPerMinute} wake-ups, ${c.writesPerMinute} writes`,
    compared: '—',
    ratio: '—',
    goal: '0 and 0 while nothing waits',
    met: c.wakeupsPerMinute === 0 && c.writesPerMinute === 0,
  }));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const browser = await launchChromium();
  if (!browser) throw new Error('Chromium not found');
  try {
    for (const c of await measureIdle(browser))
      console.log(
        `${c.locks}, ${c.webViews} idle WebView(s): ${c.wakeupsPerMinute} wake-ups and ${c.writesPerMinute} storage writes a minute each`,
      );
  } finally {
    await browser.close();
  }
}
