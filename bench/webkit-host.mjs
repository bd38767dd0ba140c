/**
 * WebKitGTK for the bench: the tests' GJS host (test/webkit/host.js, the engine of WKWebView
 * embedded as an iOS app embeds it) under `xvfb-run -a`, started and driven by the same code as
 * the tests' (test/helpers/webkit-process.mjs), with the bench's timeouts.
 */
import { startWebKitViews, webKitMissing } from '../test/helpers/webkit-process.mjs';

export { webKitMissing };

/** @typedef {import('../test/helpers/webkit-process.mjs').WebKitViews} WebKitHost */

/** @returns {Promise<WebKitHost>} */
export function startWebKitHost() {
  // The bench's pages work longer than the tests' (five 5 MiB photos): a minute for anything.
  return startWebKitViews({ startTimeoutMs: 60_000, requestTimeoutMs: 60_000 });
}

/**
 * Runs in a page (sent as text, ahead of the code that uses it): `gapTicker()` starts a chain of
 * 0 ms timers, and its `stop(afterMs)` lets it run `afterMs` more, then resolves with the longest
 * gap between two ticks: WebKit has no longtask entries, so a long task shows as a gap.
 */
export const GAP_TICKER = `function gapTicker() {
  var longest = 0;
  var last = performance.now();
  var end = Infinity;
  var ticking = new Promise(function (resolve) {
    (function tick() {
      setTimeout(function () {
        var now = performance.now();
        longest = Math.max(longest, now - last);
        last = now;
        if (now < end) tick(); else resolve();
      }, 0);
    })();
  });
  return {
    stop: function (afterMs) {
      end = performance.now() + afterMs;
      return ticking.then(function () { return longest; });
    },
  };
}`;
