/**
 * The browser figures in WebKitGTK (the engine of WKWebView), beside Chromium's: the round trip,
 * start-up and the large attachments, each with the same page and the same timing code as in
 * Chromium (round-trip.mjs, startup.mjs, attachments.mjs), hosted as an iOS app hosts the bridge:
 * a WKScriptMessageHandler `chatBridge` receives every message the bridge posts (host "ios"), the
 * page is cross-origin isolated (performance.now() at fine resolution), and each view keeps its
 * storage on disk, as an app's WebView does. The handler takes each body (the bridge's JSON text) as
 * JSC's JSON, converted in one native call as WebKit converts an iOS app's, not by the tests' walk
 * through it in GJS: on two cores that walk's UI-process time slowed every kind's sends, the
 * bridge's most (`bodies: 'json'` in test/webkit/host.js).
 *
 * The relay, before the bundle, wraps the handler's postMessage: each payload goes to the native
 * handler (a real crossing into the UI process, as on iOS) and then each message in it to the
 * page's timing code as the browser host's 'chatbridge' event would. With `window.__crossToNative = false` the crossing
 * is left out, to see what the crossings cost. The round trip ends as the payload with the response
 * has been handed to the native handler (`__postedAt`), before those events: parsing the text for
 * them and dispatching them is the bench's work, which an app's handler never sees.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStaticServer } from '../demo-page/static-server.mjs';
import { BENCH_PLAN, BROWSER_PRELUDE, ISOLATED, KINDS, collectRounds, startRoundTripServers } from './round-trip.mjs';
import { evaluateInPage, sampleStartup } from './startup.mjs';
import { PHOTO_BYTES, fiveChunksMs, sampleAttachments, startAttachmentsServers } from './attachments.mjs';
import { GAP_TICKER, startWebKitHost, webKitMissing } from './webkit-host.mjs';

export { webKitMissing };

const HANDLER = 'chatBridge';
/** Fewer fresh views than Chromium's contexts: each WebKit view starts a web process of its own. */
const STARTUP_SAMPLES = 15;

// On the prototype: WebKit may hand out a new handler object after a GC, which an own property
// on the old one would miss.
export const IOS_RELAY = `(function () {
  var prototype = Object.getPrototypeOf(window.webkit.messageHandlers.${HANDLER});
  var native = prototype.postMessage;
  window.__crossToNative = true;
  window.__crossings = 0;
  prototype.postMessage = function (message) {
    if (window.__crossToNative) {
      window.__crossings++;
      native.call(this, message);
    }
    // The app has the payload now: the round trip ends here, not after the events below, which
    // only the bench's timing code needs (one per message of the payload, the response last).
    window.__postedAt = performance.now();
    // The payload is JSON text, as the bridge posts it to iOS; one call may carry what one task
    // delivered, as an array: the page's code gets each message.
    var value = JSON.parse(message);
    (Array.isArray(value) ? value : [value]).forEach(function (one) {
      dispatchEvent(new CustomEvent('chatbridge', { detail: one }));
    });
  };
})();`;

/** One more kind for the page: the bridge with its native crossings left out. */
const QUIET_KIND = `window.__bench.kinds.quiet = function () {
  window.__crossToNative = false;
  return window.__bench.kinds.bridge().then(function (elapsed) { window.__crossToNative = true; return elapsed; });
};`;

/** The ticker's longest gap on an idle page over two seconds. */
const IDLE_TICKER = `${GAP_TICKER}
return await gapTicker().stop(2000);`;

/**
 * One WebKit host for the figures that need it; `run` gets it and a fresh data folder maker.
 * @template T
 * @param {(host: import('./webkit-host.mjs').WebKitHost, dataDir: () => string) => Promise<T>} run
 * @returns {Promise<T>}
 */
async function withWebKit(run) {
  const host = await startWebKitHost();
  /** @type {string[]} */
  const folders = [];
  const dataDir = () => {
    const folder = mkdtempSync(join(tmpdir(), 'chat-bridge-bench-webkit-'));
    folders.push(folder);
    return folder;
  };
  try {
    return await run(host, dataDir);
  } finally {
    await host.close();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * The round trip in one WebView, with the native crossings counted, and as a fifth kind in the
 * same rounds without them (a diagnostic: iOS pays for every crossing). `plan` and `bodies` (how
 * the handler takes each message, test/webkit/host.js) are the row's unless round-trip-check.mjs
 * changes one of them.
 * @returns {Promise<{ version: string, roundTrip: import('./round-trip.mjs').RoundTrip, crossingsPerMessage: number }>}
 */
export async function measureWebKitRoundTrip(plan = BENCH_PLAN, bodies = /** @type {'json' | 'type'} */ ('json')) {
  const servers = await startRoundTripServers({ host: 'ios', iosHandler: HANDLER }, IOS_RELAY + BROWSER_PRELUDE);
  try {
    return await withWebKit(async (host, dataDir) => {
      await host.open('rt', { url: servers.url, handlers: [HANDLER], dataDir: dataDir(), bodies });
      const isolated = await host.evaluate('rt', `${QUIET_KIND}\nreturn await window.__bench.setup();`);
      const names = JSON.stringify([...KINDS, 'quiet']);
      let crossings = 0;
      let sends = 0;
      const counted = await collectRounds(
        async (warmup) => {
          const before = await host.evaluate('rt', 'return window.__crossings;');
          const times = await host.evaluate(
            'rt',
            `return await window.__bench.run(${names}, ${warmup}, ${plan.samples}, ${plan.idleMs}, ${plan.settled === true});`,
            // A round of 480 of five kinds, each after its idle gap: minutes on a loaded machine.
            600_000,
          );
          // Every crossing of the round belongs to one of its counted bridge sends.
          crossings += (await host.evaluate('rt', 'return window.__crossings;')) - before;
          sends += warmup + plan.samples;
          return times;
        },
        isolated,
        plan,
      );
      return { version: host.version, roundTrip: counted, crossingsPerMessage: crossings / sends };
    });
  } finally {
    await servers.close();
  }
}

/**
 * Start-up in a fresh WebView per sample (a web process of its own, no compiled code left over).
 * @param {string | undefined} penpalSource
 */
export async function measureWebKitStartup(penpalSource) {
  const server = await startStaticServer({
    mounts: {},
    headers: ISOLATED,
    pages: {
      '/blank.html': '<!doctype html><html><head><meta charset="utf-8"></head><body></body></html>',
      '/favicon.ico': '',
    },
  });
  try {
    return await withWebKit(async (host) => {
      let isolated = true;
      let view = 0;
      /** @type {import('./startup.mjs').Once} */
      const once = async (run) => {
        const name = `startup-${++view}`;
        // Ephemeral storage: nothing here is stored, and a fresh view is what start-up means.
        await host.open(name, { url: `${server.url}/blank.html` });
        try {
          const result = await host.evaluate(name, `return (${evaluateInPage.toString()})(${JSON.stringify(run)});`);
          isolated &&= result.isolated;
          return result;
        } finally {
          await host.closeView(name);
        }
      };
      const result = await sampleStartup(once, penpalSource, STARTUP_SAMPLES);
      return { ...result, isolated, version: host.version };
    });
  } finally {
    await server.close();
  }
}

/**
 * The large attachments in one WebView with storage on disk: the same forms and samples as in
 * Chromium; the longest task from a ticker's gaps (WebKit has no longtask entries); no peak
 * memory (Chromium's figure reads its processes, WebKit's are others).
 */
export async function measureWebKitAttachments() {
  const servers = await startAttachmentsServers({ host: 'ios', iosHandler: HANDLER }, IOS_RELAY);
  try {
    return await withWebKit(async (host, dataDir) => {
      await host.open('photos', { url: servers.url, handlers: [HANDLER], dataDir: dataDir(), bodies: 'json' });
      await host.evaluate('photos', `return await window.__attachments.setup(5, ${PHOTO_BYTES});`, 180_000);
      /** @type {import('./attachments.mjs').Send} */
      const send = (form, count) =>
        host.evaluate('photos', `return await window.__attachments.send(${JSON.stringify(form)}, ${count});`, 180_000);
      // The ticker's own longest gap on an idle page, two seconds: the floor its readings stand on.
      const idleGapMs = await host.evaluate('photos', IDLE_TICKER);
      const sampled = await sampleAttachments(send);
      const page = await host.evaluate(
        'photos',
        'var page = window.__attachments; return { receiveMs: page.receiveMs(), chunksMs: page.chunksMs(), longTaskSource: page.longTaskSource() };',
      );
      return { ...sampled, ...page, chunksMs: fiveChunksMs(page.chunksMs), idleGapMs, version: host.version };
    });
  } finally {
    await servers.close();
  }
}
