/**
 * WebKitGTK for the bench: the tests' GJS host (test/webkit/host.js, the engine of WKWebView
 * embedded as an iOS app embeds it) under `xvfb-run -a`, started and driven by the same code as
 * the tests' (test/helpers/webkit-process.mjs); here, the few requests the bench makes.
 */
import { launchWebKit, webKitMissing } from '../test/helpers/webkit-process.mjs';

export { webKitMissing };

/**
 * @typedef {{ view: string, handler: string, body: unknown }} HandlerMessage
 * @typedef {{
 *   version: string,
 *   open(view: string, options: { url: string, handlers?: string[], userScripts?: string[], dataDir?: string }): Promise<unknown>,
 *   evaluate(view: string, body: string, timeoutMs?: number): Promise<any>,
 *   closeView(view: string): Promise<unknown>,
 *   onMessage(listener: (message: HandlerMessage) => void): () => void,
 *   close(): Promise<void>,
 * }} WebKitHost
 */

/** @returns {Promise<WebKitHost>} */
export async function startWebKitHost() {
  // The bench's pages work longer than the tests' (five 5 MiB photos): a minute for anything.
  const { version, request, onMessage, close } = await launchWebKit({
    startTimeoutMs: 60_000,
    requestTimeoutMs: 60_000,
  });
  return {
    version,
    open: (view, options) => request('open', { view, handlers: [], userScripts: [], ...options }),
    evaluate: (view, body, timeoutMs) => request('eval', { view, body }, timeoutMs),
    closeView: (view) => request('close', { view }),
    onMessage,
    close,
  };
}
