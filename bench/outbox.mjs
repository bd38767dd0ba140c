/**
 * The outbox under load, in headless Chromium against the reference backend: 10,000
 * `sendMessage` commands handed to `ChatBridge.receive` while the context is offline (Chromium's
 * own emulation), each timed in the page with performance.now(); then online, until every
 * message is sent; the page's heap after GC (DevTools protocol) before and after.
 *
 * Per-record writes make every enqueue cost the same; a whole-queue rewrite would make the
 * 10,000th cost 10,000 times the first's storage work, so the figure compares the last 1,000
 * enqueues with the first 1,000.
 */
import { join } from 'node:path';
import { startReferenceBackend } from '../reference-backend/server.mjs';
import { startStaticServer } from '../demo-page/static-server.mjs';
import { ROOT } from './deps.mjs';

export const MESSAGES = 10_000;
const WEBSITE_TOKEN = 'wt_bench_outbox';

/** Runs in the page; plain JavaScript on purpose (it is sent as text). */
const PAGE_SCRIPT = String.raw`
window.__outbox = (function () {
  var sent = 0;
  addEventListener('chatbridge', function (event) {
    var message = event.detail;
    if (message && message.type === 'message' && message.state === 'sent') sent++;
  });
  return {
    enqueue: function (count) {
      var each = [];
      for (var i = 0; i < count; i++) {
        var text = JSON.stringify({ id: 'q-' + i, method: 'sendMessage', params: { content: 'Queued offline, number ' + i } });
        var started = performance.now();
        ChatBridge.receive(text);
        each.push(performance.now() - started);
      }
      return each;
    },
    sent: function () { return sent; },
  };
})();
`;

/**
 * @param {import('playwright-core').Browser} browser
 * @returns {Promise<{ meanMs: number, firstMs: number, lastMs: number, heapBefore: number, heapAfter: number, sendSeconds: number }>}
 */
export async function measureOutbox(browser) {
  const backend = await startReferenceBackend({
    websiteTokens: [WEBSITE_TOKEN],
    rateLimit: { limit: 1_000_000, windowMs: 1_000 },
  });
  const settings = { baseUrl: backend.url, websiteToken: WEBSITE_TOKEN, host: 'browser' };
  const page = `<!doctype html><html><head><meta charset="utf-8"><title>outbox</title>
<script>window.chatBridgeSettings = ${JSON.stringify(settings)};</script>
<script src="/dist/chat-bridge.js"></script>
<script>${PAGE_SCRIPT}</script></head><body></body></html>`;
  const server = await startStaticServer({
    mounts: { '/dist/': join(ROOT, 'dist') },
    pages: { '/outbox.html': page, '/favicon.ico': '' },
  });
  const context = await browser.newContext();
  try {
    const tab = await context.newPage();
    const errors = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    await tab.goto(`${server.url}/outbox.html`, { waitUntil: 'load' });
    const cdp = await context.newCDPSession(tab);
    const heap = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      return (await cdp.send('Runtime.getHeapUsage')).usedSize;
    };
    // The conversation exists first, so every message is one POST.
    await tab.evaluate(
      () =>
        new Promise((resolve) => {
          addEventListener('chatbridge', (event) => /** @type {any} */ (event).detail.id === 'conv' && resolve(0));
          /** @type {any} */ (window).ChatBridge.receive({ id: 'conv', method: 'getConversation' });
        }),
    );
    const heapBefore = await heap();
    await context.setOffline(true);
    const each = /** @type {number[]} */ (
      await tab.evaluate((count) => /** @type {any} */ (window).__outbox.enqueue(count), MESSAGES)
    );
    await context.setOffline(false);
    const started = Date.now();
    // Polled from here, not with waitForFunction: that injects Playwright's own script, a large
    // one, into the page at its first call, and the heap before did not hold it.
    while ((await tab.evaluate(() => /** @type {any} */ (window).__outbox.sent())) < MESSAGES) {
      if (Date.now() - started > 600_000) throw new Error('outbox: not every message was sent within 10 minutes');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const sendSeconds = (Date.now() - started) / 1000;
    const heapAfter = await heap();
    if (errors.length > 0) throw new Error(`outbox page errors: ${errors.join('; ')}`);
    const mean = (/** @type {number[]} */ values) => values.reduce((sum, value) => sum + value, 0) / values.length;
    return {
      meanMs: mean(each),
      firstMs: mean(each.slice(0, 1_000)),
      lastMs: mean(each.slice(-1_000)),
      heapBefore,
      heapAfter,
      sendSeconds,
    };
  } finally {
    await context.close().catch(() => undefined);
    await server.close();
    await backend.close();
  }
}
