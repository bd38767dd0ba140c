/**
 * The bundle in real WebKit, hosted the way each WebKit host app does it on iOS, against the
 * reference backend on another 127.0.0.1 port (real CORS preflights):
 *
 * - ios: WKWebView with a `chatBridge` script message handler (it receives JSON text), settings and
 *   bundle injected as one user script at document start.
 * - react-native: react-native-webview's own document-start script, `window.ReactNativeWebView =
 *   {postMessage(data) {webkit.messageHandlers.ReactNativeWebView.postMessage(String(data))}}`, then
 *   `injectedJavaScriptBeforeContentLoaded` from `createReactNativeHost(...).injectedJavaScript`.
 * - flutter: webview_flutter's channel, `window.ChatBridgeFlutter = webkit.messageHandlers.ChatBridgeFlutter`
 *   at document start, and the bundle run with `runJavaScript` once the page has loaded (docs/flutter.md).
 * - `twoScripts` (ios, react-native): the starter in the bundle's place at document start, and the
 *   bundle, the same way, once the document has loaded (bridge/startup/starter.ts, docs/concepts.md).
 *
 * Commands go in as text through `ChatBridge.receive`, as evaluateJavaScript hands them over.
 * Each handler message is kept on this side exactly as the native side received it. One more
 * document-start script, the harness's own, records CSP violations and console errors, and gives
 * the same offline stand-in as the Chromium harness (a sessionStorage flag that makes fetch reject).
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll } from 'vitest';
import { existsSync } from 'node:fs';
import type { OutboundMessage, ResponseMessage } from '../../bridge/protocol/messages.js';
import type { BridgeOptions, HostName } from '../../bridge/protocol/bridge-options.js';
import { createReactNativeHost } from '../../host-adapters/react-native-host.js';
import {
  BUNDLE_PATH,
  NO_WEB_LOCKS_JS,
  STARTER_PATH,
  OTHER_WEBSITE_TOKEN,
  WEBSITE_TOKEN,
  decodePayloads,
  type BridgeStats,
  type ReferenceBackend,
} from './browser-harness.js';
import type { ScenarioPage } from './scenario-page.js';
import { startWebKitHost, type HandlerMessage, type OpenViewOptions, type WebKitHost } from './webkit.js';
import { startPageServers, storedMessages, type StoredMessage } from './page-servers.js';
import { FLUTTER_CHANNEL_SCRIPT, INSTRUMENT_JS, PAGES, REACT_NATIVE_WEBVIEW_SCRIPT } from './webkit-page-scripts.js';

export type WebKitHostName = 'ios' | 'react-native' | 'flutter';
export const WEBKIT_HOSTS: readonly WebKitHostName[] = ['ios', 'react-native', 'flutter'];

/** The script message handler each host registers. */
export const HANDLER_OF: Record<WebKitHostName, string> = {
  ios: 'chatBridge',
  'react-native': 'ReactNativeWebView',
  flutter: 'ChatBridgeFlutter',
};

/** Before any script of the page: every IndexedDB open fails, as in a private mode that refuses it. */
const NO_INDEXEDDB_JS = `IDBFactory.prototype.open = function () {
  var request = {};
  setTimeout(function () { if (request.onerror) request.onerror(); });
  return request;
};`;

export interface WebKitOpenOptions {
  host: WebKitHostName;
  /** Bridge settings merged over {baseUrl: backend, websiteToken}. */
  settings?: Record<string, unknown>;
  strictCsp?: boolean;
  /** Another page, e.g. '/csp-control.html' (the bridge is injected all the same). */
  path?: string;
  /** The starter at document start, the bundle at document end (ios and react-native). */
  twoScripts?: boolean;
  /** One more document-start script, after the bridge's: e.g. a widget posting at once. */
  earlyScript?: string;
  /** One more document-start script, before the bridge's (after the harness's instrumentation): e.g. a probe. */
  firstScript?: string;
  /** The Web Locks API removed before the bridge runs, as on iOS 12.2–15.3: the outbox's lease stands in. */
  noWebLocks?: boolean;
  /** IndexedDB's open refused before the bridge runs, as some private modes and locked-down WebViews do. */
  noIndexedDb?: boolean;
  /** Share this open page's data store (a second WebView of the same app). */
  shareWith?: WebKitPage;
  /** Inject nothing of the bridge's (the harness's instrumentation only): a page of the app's own. */
  bare?: boolean;
  /** The handler converts each body by JSC's JSON in one native call, as the bench's host does. */
  bodies?: 'json';
}

export interface WebKitPage extends ScenarioPage {
  readonly host: WebKitHostName;
  /** The host's name for the view. */
  readonly view: string;
  /** The handler messages since the page (re)loaded, with where WebKit delivered undefined. */
  readonly received: HandlerMessage[];
  /** Calls back with each handler message from now on (as an app's handler is called); returns the unsubscribe. */
  onMessage(listener: (message: HandlerMessage) => void): () => void;
  messages(): Promise<OutboundMessage[]>;
  send(method: string, params?: Record<string, unknown>): Promise<string>;
  stats(): Promise<BridgeStats>;
  violations(): Promise<Array<{ directive: string; blockedURI: string; sample: string }>>;
  consoleErrors(): Promise<string[]>;
  /** The auth tokens the backend's /config answers gave this page (since it loaded). */
  authTokens(): Promise<string[]>;
  setOffline(offline: boolean, announce?: boolean): Promise<void>;
  /** Runs an async function body in the page, as evaluateJavaScript / callAsyncJavaScript does. */
  evaluate(body: string): Promise<unknown>;
  reload(): Promise<void>;
  /** Clears every kind of website data of the page's data store (IndexedDB, localStorage, ...), as an app's logout does. */
  clearData(): Promise<void>;
  close(): Promise<void>;
}

export interface WebKitHarness {
  readonly webkit: WebKitHost;
  readonly backend: ReferenceBackend;
  readonly pageOrigin: string;
  readonly strictOrigin: string;
  readonly csp: string;
  open(options: WebKitOpenOptions): Promise<WebKitPage>;
  /** The contact's messages as the backend stored them (the default inbox's, or `websiteToken`'s). */
  storedMessages(websiteToken?: string): Promise<StoredMessage[]>;
  close(): Promise<void>;
}

let viewCounter = 0;
let commandCounter = 0;

export async function startWebKitHarness(): Promise<WebKitHarness> {
  if (!existsSync(BUNDLE_PATH)) throw new Error(`${BUNDLE_PATH} is missing: run "node scripts/build.mjs" first`);
  const bundle = await readFile(BUNDLE_PATH, 'utf8');
  const starter = await readFile(STARTER_PATH, 'utf8');
  const servers = await startPageServers({ websiteTokens: [WEBSITE_TOKEN, OTHER_WEBSITE_TOKEN], pages: PAGES });
  const { backend, csp, pageOrigin, strictOrigin } = servers;
  let webkit: WebKitHost;
  try {
    webkit = await startWebKitHost();
  } catch (error) {
    await servers.close();
    throw error;
  }

  const byView = new Map<string, HandlerMessage[]>();
  /** The React Native host's `channelSecret` by view: the mark before each payload, taken off here. */
  const secrets = new Map<string, string>();
  const waiters = new Set<() => void>();
  const listeners = new Set<(message: HandlerMessage) => void>();
  webkit.onMessage((handled) => {
    const secret = secrets.get(handled.view);
    const marked = secret !== undefined && typeof handled.body === 'string' && handled.body.startsWith(secret);
    const message = marked ? { ...handled, body: (handled.body as string).slice((secret as string).length) } : handled;
    byView.get(message.view)?.push(message);
    for (const listener of [...listeners]) listener(message);
    for (const wake of [...waiters]) wake();
  });
  const pages = new Set<WebKitPage>();

  async function open({
    host,
    settings = {},
    strictCsp = false,
    path = '/webkit.html',
    twoScripts = false,
    earlyScript,
    firstScript,
    noWebLocks = false,
    noIndexedDb = false,
    shareWith,
    bare = false,
    bodies,
  }: WebKitOpenOptions) {
    if (twoScripts && host === 'flutter') throw new Error('webview_flutter has no document-start injection');
    const view = `view-${++viewCounter}`;
    const received: HandlerMessage[] = [];
    byView.set(view, received);
    const options = { baseUrl: backend.url, websiteToken: WEBSITE_TOKEN, ...settings };
    const atStart = twoScripts ? starter : bundle;
    const userScripts: OpenViewOptions['userScripts'] = [INSTRUMENT_JS];
    if (firstScript !== undefined) userScripts.push(firstScript);
    if (noWebLocks) userScripts.push(NO_WEB_LOCKS_JS);
    if (noIndexedDb) userScripts.push(NO_INDEXEDDB_JS);
    /** The host's script with `source` in the bridge's place. */
    let hostScript = (source: string) => `window.chatBridgeSettings=${JSON.stringify(options)};\n${source}`;
    if (host === 'react-native') {
      const rnHost = createReactNativeHost({ onEvent: () => undefined, webView: () => undefined });
      hostScript = (source) => rnHost.injectedJavaScript(options as BridgeOptions, source);
      const secret = /"channelSecret":"(\w+)"/.exec(hostScript(''));
      if (secret) secrets.set(view, secret[1] as string);
      userScripts.push(REACT_NATIVE_WEBVIEW_SCRIPT);
    }
    if (bare) {
      // Only the instrumentation: no channel script, no bridge.
    } else if (host === 'flutter') userScripts.push(FLUTTER_CHANNEL_SCRIPT);
    else userScripts.push(hostScript(atStart));
    if (earlyScript !== undefined) userScripts.push(earlyScript);
    if (twoScripts) userScripts.push({ source: hostScript(bundle), at: 'end' });
    const origin = strictCsp ? strictOrigin : pageOrigin;
    const evaluate = (body: string) => webkit.evaluate(view, body);
    /** webview_flutter has no document-start injection: the app runs the bundle when the page has loaded. */
    const afterLoad = async () => {
      if (bare) return;
      if (host === 'flutter') await evaluate(`${hostScript(bundle)}\n;return null;`);
      if (path === '/webkit.html') await page.waitFor({ type: 'ready' });
    };

    const page: WebKitPage = {
      host,
      view,
      received,
      onMessage(listener) {
        const own = (message: HandlerMessage) => message.view === view && listener(message);
        listeners.add(own);
        return () => void listeners.delete(own);
      },
      payloads: async () => received.map((message) => message.body),
      async messages() {
        return received.flatMap((message) => decodePayloads(host as HostName, message.body));
      },
      mark: async () => received.flatMap((message) => decodePayloads(host as HostName, message.body)).length,
      async send(method, params) {
        const id = `wk-${++commandCounter}`;
        const command = params === undefined ? { id, method } : { id, method, params };
        await evaluate(`ChatBridge.receive(${JSON.stringify(JSON.stringify(command))});`);
        return id;
      },
      async call(method, params, timeoutMs = 10_000) {
        const since = await page.mark();
        const id = await page.send(method, params);
        return (await page.waitFor({ type: 'response', id }, { since, timeoutMs })) as ResponseMessage;
      },
      waitFor(pattern, { since = 0, timeoutMs = 10_000 } = {}) {
        return new Promise((resolve, reject) => {
          const look = () => {
            const messages = received.flatMap((message) => decodePayloads(host as HostName, message.body));
            for (const decoded of messages.slice(since)) {
              const fields = decoded as unknown as Record<string, unknown>;
              if (Object.entries(pattern).every(([key, value]) => fields[key] === value)) {
                finish();
                resolve(decoded);
                return;
              }
            }
          };
          const timer = setTimeout(() => {
            finish();
            const messages = received.flatMap((message) => decodePayloads(host as HostName, message.body));
            const seen = JSON.stringify(messages.slice(since)).slice(0, 2000);
            reject(
              new Error(`no message matching ${JSON.stringify(pattern)} within ${timeoutMs} ms; received: ${seen}`),
            );
          }, timeoutMs);
          const finish = () => {
            clearTimeout(timer);
            waiters.delete(look);
          };
          waiters.add(look);
          look();
        });
      },
      install: async (installOptions = {}) =>
        void (await evaluate(`ChatBridge.install(${JSON.stringify(installOptions)});`)),
      postWindowMessage: async (text) =>
        void (await evaluate(`window.postMessage(${JSON.stringify(text)}, location.origin);`)),
      receiveText: async (text) => void (await evaluate(`ChatBridge.receive(${JSON.stringify(text)});`)),
      stats: async () => (await evaluate('return ChatBridge.bridge.stats();')) as BridgeStats,
      violations: async () =>
        (await evaluate('return window.__violations.slice();')) as Awaited<ReturnType<WebKitPage['violations']>>,
      authTokens: async () => (await evaluate('return window.__authTokens.slice();')) as string[],
      consoleErrors: async () => (await evaluate('return window.__consoleErrors.slice();')) as string[],
      setOffline: async (offline, announce = true) =>
        void (await evaluate(`window.__harness.setOffline(${offline}, ${announce});`)),
      evaluate,
      async reload() {
        received.length = 0;
        await webkit.reload(view);
        await afterLoad();
      },
      clearData: () => webkit.clearData(view),
      async close() {
        pages.delete(page);
        byView.delete(view);
        await webkit.closeView(view).catch(() => undefined);
      },
    };
    pages.add(page);
    const shared = shareWith ? { shareWith: shareWith.view } : {};
    await webkit.open(view, {
      url: `${origin}${path}`,
      handlers: [HANDLER_OF[host]],
      userScripts,
      ...shared,
      ...(bodies && { bodies }),
    });
    await afterLoad();
    return page;
  }

  return {
    webkit,
    backend,
    pageOrigin,
    strictOrigin,
    csp,
    open,
    storedMessages: (websiteToken = WEBSITE_TOKEN) => storedMessages(backend, websiteToken),
    async close() {
      await Promise.all([...pages].map((page) => page.close()));
      await webkit.close();
      await servers.close();
    },
  };
}

/** A harness for the calling suite: started before its tests, closed after them (as useBrowserHarness). */
export function useWebKitHarness(): WebKitHarness {
  const harness = {} as WebKitHarness;
  beforeAll(async () => {
    Object.assign(harness, await startWebKitHarness());
  });
  afterAll(async () => {
    await harness.close?.();
  });
  return harness;
}
