/**
 * Real-browser harness: the reference backend on one 127.0.0.1 port, a static server with a
 * test page on another (so every API call is a real cross-origin request, preflights
 * included), headless Chromium, and pages that load `dist/chat-bridge.js` with a
 * `<script src>` exactly as a host injects it. The servers are page-servers.ts, shared with the
 * WebKit harness.
 *
 * The page's setup script (`/harness/setup.js`, a real file so a strict CSP admits it) runs
 * before the bundle and installs stand-ins for the five native channels: each payload the
 * bridge posts is kept in `window.__received`, untouched, so tests see strings where a
 * native channel gets strings and objects where it gets objects. It also installs an offline
 * stand-in: while a flag in sessionStorage is set, `fetch` rejects with the TypeError an
 * offline WebView gives and an XMLHttpRequest upload fails with its `error` event; the flag
 * survives a reload like the device's state would.
 *
 * Longer than ~250 lines on purpose: one concern (a page under test and its handle), whose
 * parts only make sense together. The page script, the page globals it defines and the
 * `BridgePage` methods that evaluate against those globals must change in step; split over
 * files, each would restate the others' names with nothing to check them against.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { Bridge } from '../../bridge/bridge.js';
import type { OutboundMessage, ResponseMessage } from '../../bridge/protocol/messages.js';
import type { HostName } from '../../bridge/protocol/bridge-options.js';
import { launchChromium, type LaunchedBrowser } from './chromium.js';
import { offlineStandInJs } from './offline-stand-in.js';
import {
  startPageServers,
  storedMessages as readStoredMessages,
  type ReferenceBackend,
  type StoredMessage,
} from './page-servers.js';
import type { ScenarioPage } from './scenario-page.js';

export type { ReferenceBackend };

export const HOSTS: readonly HostName[] = ['react-native', 'android', 'ios', 'flutter', 'browser'];

/** Hosts the bridge hands JSON text: every app's channel. A browser page's CustomEvent carries the object. */
export const STRING_HOSTS: ReadonlySet<HostName> = new Set(['react-native', 'android', 'ios', 'flutter']);

/** A website token no message may ever contain. */
export const WEBSITE_TOKEN = 'wt_e2e_website_token_must_stay_secret';
/** A second inbox's website token, on the same backend. */
export const OTHER_WEBSITE_TOKEN = 'wt_e2e_other_inbox_token_also_secret';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BUNDLE_PATH = join(ROOT, 'dist', 'chat-bridge.js');
export const STARTER_PATH = join(ROOT, 'dist', 'chat-bridge.start.js');

/**
 * Plain browser JavaScript, written as text on purpose: a function's `toString()` after the
 * test transform may reference helpers that do not exist in the page.
 */
const SETUP_JS = String.raw`(function () {
  'use strict';
  var query = new URLSearchParams(location.search);
  var host = query.get('host');
  var received = [];
  var violations = [];
  window.__received = received;
  window.__violations = violations;
  addEventListener('securitypolicyviolation', function (event) {
    violations.push({ directive: event.effectiveDirective, blockedURI: event.blockedURI, sample: event.sample });
  });

${offlineStandInJs('Failed to fetch')}

  // The channel stand-ins. iOS hands the native side a structured clone of what is posted, so
  // the stand-in clones too: a payload WebKit could not serialize would throw here as there.
  var keep = function (payload) { received.push(payload); };
  if (host === 'react-native') window.ReactNativeWebView = { postMessage: keep };
  else if (host === 'android') window.ChatBridgeAndroid = { postMessage: keep };
  else if (host === 'flutter') window.ChatBridgeFlutter = { postMessage: keep };
  else if (host === 'ios') window.webkit = { messageHandlers: { chatBridge: { postMessage: function (payload) { keep(structuredClone(payload)); } } } };
  else if (host === 'browser') addEventListener('chatbridge', function (event) { keep(event.detail); });

  // A payload may carry what one task delivered, as an array: each message in turn.
  // With a channelSecret in the settings, the bridge puts it before each text payload.
  var secret = (JSON.parse(query.get('settings') || '{}') || {}).channelSecret;
  var unmarked = function (text) { return secret && text.indexOf(secret) === 0 ? text.slice(secret.length) : text; };
  var decode = function (payload) { return typeof payload === 'string' ? JSON.parse(unmarked(payload)) : payload; };
  var messagesFrom = function (from) {
    return received.reduce(function (all, payload) { return all.concat(decode(payload)); }, []).slice(from);
  };
  var matches = function (message, pattern) {
    return Object.keys(pattern).every(function (key) { return message !== null && message[key] === pattern[key]; });
  };

  window.__harness = {
    setOffline: setOffline,
    /** How many messages arrived so far (a payload may carry several). */
    count: function () { return messagesFrom(0).length; },
    /** Resolves with the first decoded message from index 'since' on that matches every field of 'pattern'. */
    waitFor: function (pattern, since, timeoutMs) {
      return new Promise(function (resolve, reject) {
        var started = Date.now();
        var look = function () {
          var messages = messagesFrom(since);
          for (var i = 0; i < messages.length; i++) {
            if (matches(messages[i], pattern)) return resolve(messages[i]);
          }
          if (Date.now() - started > timeoutMs) {
            return reject(new Error('no message matching ' + JSON.stringify(pattern) + ' within ' + timeoutMs + ' ms; received: ' +
              JSON.stringify(messagesFrom(since)).slice(0, 2000)));
          }
          setTimeout(look, 10);
        };
        look();
      });
    },
  };

  var settings = query.get('settings');
  if (settings !== null) window.chatBridgeSettings = JSON.parse(settings);
})();
`;

const html = (...scripts: string[]) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>chat-bridge e2e</title>${scripts.join('')}</head><body></body></html>`;
const src = (path: string) => `<script src="${path}"></script>`;

const PAGES = {
  /** The page a host loads: setup (stand-ins), then the bundle, as injected settings + script. */
  '/bridge.html': html(src('/harness/setup.js'), src('/dist/chat-bridge.js')),
  /** The same with the debug bundle, which records (`record: true`). */
  '/bridge-debug.html': html(src('/harness/setup.js'), src('/dist/chat-bridge.debug.js')),
  /** Control for the CSP test: an inline script and an eval the policy must report. */
  '/csp-control.html': html(
    src('/harness/setup.js'),
    '<script>window.__inlineRan = true;</script>',
    src('/harness/eval-probe.js'),
  ),
};

export type { StoredMessage };

export interface Violation {
  directive: string;
  blockedURI: string;
  sample: string;
}

export type BridgeStats = ReturnType<Bridge['stats']>;

export interface OpenOptions {
  /** Which native channel stand-in the page gets. */
  host: HostName;
  /**
   * `window.chatBridgeSettings`, merged over {baseUrl: backend, websiteToken}; the bundle
   * installs itself from them. `false`: no settings, the bundle only defines `ChatBridge`.
   */
  settings?: Record<string, unknown> | false;
  /** Serve the page with the strict Content-Security-Policy. */
  strictCsp?: boolean;
  /** Another page path: '/bridge-debug.html' (the debug bundle, for `record: true`), '/csp-control.html'. */
  path?: string;
  /** Open the page in this browser context (a second WebView of the same app: shared storage) instead of a new one. */
  context?: BrowserContext;
  /** The Web Locks API removed before any script runs, as on iOS 12.2–15.3: the outbox's lease stands in. */
  noWebLocks?: boolean;
}

/** Before any script of the page: no `navigator.locks`, as in WebViews older than iOS 15.4. */
export const NO_WEB_LOCKS_JS = 'delete Navigator.prototype.locks; delete navigator.locks;';

export interface BridgePage extends ScenarioPage {
  readonly host: HostName;
  readonly page: Page;
  readonly context: BrowserContext;
  /** Console errors (as "text (url)") and uncaught exceptions of the page. */
  readonly consoleErrors: string[];
  /** Every payload the channel stand-in received since the page (re)loaded, exactly as received. */
  payloads(): Promise<unknown[]>;
  /** The payloads decoded; throws when one has the wrong form for the host (text vs object). */
  messages(): Promise<OutboundMessage[]>;
  /** How many payloads arrived so far: a mark to wait from. */
  mark(): Promise<number>;
  /** Hands a command to `ChatBridge.receive` as a host's evaluateJavascript does; returns its id. */
  send(method: string, params?: Record<string, unknown>): Promise<string>;
  /** Sends a command and waits for its response. */
  call(method: string, params?: Record<string, unknown>, timeoutMs?: number): Promise<ResponseMessage>;
  /** Waits for a message with these fields (from payload index `since`, default 0). */
  waitFor(pattern: Record<string, unknown>, options?: { since?: number; timeoutMs?: number }): Promise<OutboundMessage>;
  /** `ChatBridge.install(options)` in the page (replaces the running bridge). */
  install(options?: Record<string, unknown>): Promise<void>;
  /** Sets the offline stand-in; `announce` also dispatches the window's offline/online event. */
  setOffline(offline: boolean, announce?: boolean): Promise<void>;
  /** `ChatBridge.bridge.stats()`. */
  stats(): Promise<BridgeStats>;
  /** CSP violations reported in the page since it loaded. */
  violations(): Promise<Violation[]>;
  /** Reloads the page (same origin, so localStorage and sessionStorage stay) and waits for `ready` if settings are given. */
  reload(): Promise<void>;
  close(): Promise<void>;
}

export interface BrowserHarness {
  readonly backend: ReferenceBackend;
  readonly browser: Browser;
  /** Origin of the plain page server. */
  readonly pageOrigin: string;
  /** Origin of the page server that sends the strict CSP. */
  readonly strictOrigin: string;
  /** The strict policy, as sent. */
  readonly csp: string;
  /** Every authToken the backend handed a page (read from the /config responses the browser saw). */
  readonly authTokens: Set<string>;
  open(options: OpenOptions): Promise<BridgePage>;
  /** The contact's stored messages, read from the backend's own API (adds a GET /config and GET /conversations to the log). */
  storedMessages(websiteToken?: string): Promise<StoredMessage[]>;
  close(): Promise<void>;
}

/** What the setup script and the bundle define in the page, for the functions evaluated there. */
interface PageGlobals {
  __received: unknown[];
  __violations: Violation[];
  __harness: {
    waitFor(pattern: Record<string, unknown>, since: number, timeoutMs: number): Promise<OutboundMessage>;
    setOffline(offline: boolean, announce: boolean): void;
    count(): number;
  };
  ChatBridge: {
    receive(data: unknown): void;
    install(options: Record<string, unknown>): unknown;
    bridge: { stats(): BridgeStats };
  };
}

let commandCounter = 0;

export async function startBrowserHarness(): Promise<BrowserHarness> {
  if (!existsSync(BUNDLE_PATH)) throw new Error(`${BUNDLE_PATH} is missing: run "node scripts/build.mjs" first`);
  const servers = await startPageServers({
    websiteTokens: [WEBSITE_TOKEN, OTHER_WEBSITE_TOKEN],
    pages: PAGES,
    harnessFiles: { 'setup.js': SETUP_JS },
    mounts: { '/dist/': join(ROOT, 'dist') },
  });
  const { backend, csp, pageOrigin, strictOrigin } = servers;
  let launched: LaunchedBrowser;
  try {
    launched = await launchChromium();
  } catch (error) {
    await servers.close();
    throw error;
  }
  const authTokens = new Set<string>();
  const pages = new Set<BridgePage>();

  async function open({
    host,
    settings = {},
    strictCsp = false,
    path = '/bridge.html',
    context: shared,
    noWebLocks = false,
  }: OpenOptions): Promise<BridgePage> {
    // A context each: its own storage and its own preflight cache, so tests do not see each other.
    const context = shared ?? (await launched.browser.newContext());
    const tab = await context.newPage();
    if (noWebLocks) await tab.addInitScript(NO_WEB_LOCKS_JS);
    const consoleErrors: string[] = [];
    tab.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(`${message.text()} (${message.location().url})`);
    });
    tab.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
    tab.on('response', (response) => {
      if (new URL(response.url()).pathname !== '/config') return;
      response
        .json()
        .then((body: unknown) => {
          const token = (body as { authToken?: unknown } | null)?.authToken;
          if (typeof token === 'string') authTokens.add(token);
        })
        .catch(() => undefined);
    });

    const query = new URLSearchParams({ host });
    if (settings !== false) {
      query.set('settings', JSON.stringify({ baseUrl: backend.url, websiteToken: WEBSITE_TOKEN, ...settings }));
    }
    const origin = strictCsp ? strictOrigin : pageOrigin;
    const waitReady = async () => {
      if (settings !== false && (path === '/bridge.html' || path === '/bridge-debug.html'))
        await bridgePage.waitFor({ type: 'ready' });
    };

    const bridgePage: BridgePage = {
      host,
      page: tab,
      context,
      consoleErrors,
      payloads: () => tab.evaluate(() => (window as unknown as PageGlobals).__received.slice()),
      async messages() {
        return (await bridgePage.payloads()).flatMap((payload) => decodePayloads(host, payload));
      },
      mark: () => tab.evaluate(() => (window as unknown as PageGlobals).__harness.count()),
      async send(method, params) {
        const id = `e2e-${++commandCounter}`;
        const command = params === undefined ? { id, method } : { id, method, params };
        // As text, the way evaluateJavascript / injectJavaScript hands it over.
        await tab.evaluate(
          (text) => (window as unknown as PageGlobals).ChatBridge.receive(text),
          JSON.stringify(command),
        );
        return id;
      },
      async call(method, params, timeoutMs = 10_000) {
        const since = await bridgePage.mark();
        const id = await bridgePage.send(method, params);
        return (await bridgePage.waitFor({ type: 'response', id }, { since, timeoutMs })) as ResponseMessage;
      },
      waitFor: (pattern, { since = 0, timeoutMs = 10_000 } = {}) =>
        tab.evaluate(([p, from, ms]) => (window as unknown as PageGlobals).__harness.waitFor(p, from, ms), [
          pattern,
          since,
          timeoutMs,
        ] as const),
      postWindowMessage: (text) => tab.evaluate((t) => window.postMessage(t, location.origin), text),
      receiveText: (text) => tab.evaluate((t) => (window as unknown as PageGlobals).ChatBridge.receive(t), text),
      install: (options = {}) =>
        tab.evaluate((o) => void (window as unknown as PageGlobals).ChatBridge.install(o), options),
      setOffline: (offline, announce = true) =>
        tab.evaluate(([off, tell]) => (window as unknown as PageGlobals).__harness.setOffline(off, tell), [
          offline,
          announce,
        ] as const),
      stats: () => tab.evaluate(() => (window as unknown as PageGlobals).ChatBridge.bridge.stats()),
      violations: () => tab.evaluate(() => (window as unknown as PageGlobals).__violations.slice()),
      async reload() {
        await tab.reload({ waitUntil: 'load' });
        await waitReady();
      },
      async close() {
        pages.delete(bridgePage);
        await (shared ? tab.close() : context.close()).catch(() => undefined);
      },
    };
    pages.add(bridgePage);
    await tab.goto(`${origin}${path}?${query}`, { waitUntil: 'load' });
    await waitReady();
    return bridgePage;
  }

  const storedMessages = (websiteToken = WEBSITE_TOKEN) => readStoredMessages(backend, websiteToken);

  return {
    backend,
    browser: launched.browser,
    pageOrigin,
    strictOrigin,
    csp,
    authTokens,
    open,
    storedMessages,
    async close() {
      await Promise.all([...pages].map((open_) => open_.close()));
      await launched.close();
      await servers.close();
    },
  };
}

/**
 * A channel payload as the native side would decode it: one message, or an array of the messages
 * one task delivered. String hosts must get JSON text (a JavascriptInterface turns objects into
 * "[object Object]"); object hosts a plain object or an array of them.
 */
export function decodePayloads(host: HostName, payload: unknown): OutboundMessage[] {
  if (STRING_HOSTS.has(host) && typeof payload !== 'string')
    throw new Error(`${host} channel got a ${typeof payload}, expected JSON text`);
  const value: unknown = STRING_HOSTS.has(host) ? JSON.parse(payload as string) : payload;
  const messages: unknown[] = Array.isArray(value) ? value : [value];
  for (const message of messages)
    if (typeof message !== 'object' || message === null || Array.isArray(message))
      throw new Error(`${host} channel got ${JSON.stringify(payload)}, expected an object or an array of them`);
  return messages as OutboundMessage[];
}

/** Polls the backend's request log until `predicate` holds (the log is filled by another process's requests). */
export async function waitForLog(
  backend: ReferenceBackend,
  predicate: (log: ReferenceBackend['requests']) => boolean,
  timeoutMs = 5_000,
): Promise<void> {
  const started = Date.now();
  while (!predicate(backend.requests)) {
    if (Date.now() - started > timeoutMs) {
      throw new Error(
        `backend log never matched; log: ${JSON.stringify(backend.requests.map((entry) => `${entry.method} ${entry.path} ${entry.status}`))}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The log as "METHOD /path status" lines, for readable assertions. */
export function logLines(backend: ReferenceBackend): string[] {
  return backend.requests.map((entry) => `${entry.method} ${entry.path} ${entry.status}`);
}

/**
 * The harness for a describe block: started before its tests and closed after them, the set-up
 * every browser spec shares. The object returned is filled in once `beforeAll` has run.
 */
export function useBrowserHarness(): BrowserHarness {
  const harness = {} as BrowserHarness;
  beforeAll(async () => {
    Object.assign(harness, await startBrowserHarness());
  });
  afterAll(async () => {
    await harness.close?.();
  });
  return harness;
}
