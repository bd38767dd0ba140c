/**
 * Real WebKit for the tests: Debian's WebKitGTK (the engine of WKWebView), embedded by the GJS
 * program test/webkit/host.js under `xvfb-run -a`, driven over a pipe with one JSON object a line.
 *
 * When WebKit is missing, `requireWebKit()` says so loudly; under CI=true it fails the run
 * instead, since a CI that skips its engine tests proves nothing.
 */
import { startWebKitViews, webKitMissing } from './webkit-process.mjs';

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

/** A message one of the page's script message handlers received, as the native side got it. */
export interface HandlerMessage {
  view: string;
  handler: string;
  /** Dictionaries, arrays, strings, numbers, booleans and null, as WKScriptMessage.body. */
  body: unknown;
  /** Where WebKit delivered `undefined` (left out of `body`): "status", "result.list[1]", ... */
  undefinedAt: string[];
}

export interface OpenViewOptions {
  url: string;
  /** Script message handler names (WKUserContentController.add(_:name:)). */
  handlers: string[];
  /**
   * Injected into the main frame, in order: a string at document start (WKUserScript(.atDocumentStart)),
   * `{source, at: 'end'}` once the document has loaded (.atDocumentEnd).
   */
  userScripts: Array<string | { source: string; at: 'end' }>;
  /** An open view whose data store (storage, caches) this one shares, as two WebViews of one app. */
  shareWith?: string;
  /** Each body converted by JSC's JSON in one native call (no `undefinedAt`), as the bench's host does. */
  bodies?: 'json';
}

export interface WebKitHost {
  /** WebKitGTK's version, e.g. "2.50.6". */
  readonly version: string;
  open(view: string, options: OpenViewOptions): Promise<void>;
  /** Runs an async function body in the page (callAsyncJavaScript); resolves with its JSON-able result. */
  evaluate(view: string, body: string): Promise<unknown>;
  /** Reloads and waits for the load to finish. */
  reload(view: string): Promise<void>;
  closeView(view: string): Promise<void>;
  /** Clears every kind of website data of the view's data store, as an app's logout does. */
  clearData(view: string): Promise<void>;
  /** Every handler message from now on; returns the unsubscribe. */
  onMessage(listener: (message: HandlerMessage) => void): () => void;
  close(): Promise<void>;
}

/** Starts the GJS host and waits for it to report WebKit's version. */
export function startWebKitHost(): Promise<WebKitHost> {
  return startWebKitViews({ startTimeoutMs: 30_000, requestTimeoutMs: 20_000 });
}
