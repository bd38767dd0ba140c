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
