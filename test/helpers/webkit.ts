/**
 * Real WebKit for the tests: Debian's WebKitGTK (the engine of WKWebView), embedded by the GJS
 * program test/webkit/host.js under `xvfb-run -a`, driven over a pipe with one JSON object a line.
 *
 * When WebKit is missing, `requireWebKit()` says so loudly; under CI=true it fails the run
 * instead, since a CI that skips its engine tests proves nothing.
 */
import { startWebKitViews, webKitMissing, type WebKitViews } from './webkit-process.mjs';

export { webKitMissing };

const APT = 'apt-get install -y gjs gir1.2-webkit2-4.1 xvfb xauth';

/** True when the WebKit tests can run; without WebKit, throws under CI=true and warns otherwise. */
export function requireWebKit(): boolean {
  const missing = webKitMissing();
  if (missing === undefined) return true;
  const message = `WebKit tests cannot run: ${missing}. Install WebKitGTK with "${APT}".`;
  if (process.env['CI'] === 'true') throw new Error(message);
  console.warn(`\n!!! ${message} They are SKIPPED on this machine. !!!\n`);
  return false;
}

export type { HostMessage as HandlerMessage, OpenViewOptions, WebKitViews as WebKitHost } from './webkit-process.mjs';

/** Starts the GJS host and waits for it to report WebKit's version. */
export function startWebKitHost(): Promise<WebKitViews> {
  return startWebKitViews({ startTimeoutMs: 30_000, requestTimeoutMs: 20_000 });
}
