/**
 * The React Native side: turns `<WebView onMessage>` data into `onEvent(event)` calls, gives
 * the script to pass as `injectedJavaScriptBeforeContentLoaded`, and a typed client whose
 * commands travel through `injectJavaScript`.
 *
 * ```tsx
 * const bridge = createReactNativeHost({ onEvent, webView: () => ref.current });
 * <WebView ref={ref} source={{ uri }}
 *   injectedJavaScriptBeforeContentLoaded={bridge.injectedJavaScript({ baseUrl, websiteToken }, bundle)}
 *   onLoadStart={bridge.onLoadStart}
 *   onMessage={bridge.onMessage} />
 * await bridge.client.sendMessage({ content: 'Hi' });
 * ```
 *
 * Nothing here throws into react-native-webview: a bad payload becomes a `parse_error` event,
 * an unmounted WebView keeps the commands for the next page, and every call settles (see client.ts).
 *
 * createReactNativeHost runs a few lines past 80: the WebView's handlers (messages, a load, a
 * process gone) all read and set one closure's state, the client's hold, the load probe and
 * whether a restart is under way.
 */
import { errorEvent, hostErrorEvent, type ErrorEvent } from '../bridge/protocol/errors.js';
import type { OutboundMessage } from '../bridge/protocol/messages.js';
import type { BridgeOptions } from '../bridge/protocol/bridge-options.js';
import { createClient, type ChatClient, type ClientOptions } from './client.js';
import { createLoadProbe, type ProbeAnswer } from './load-probe.js';

// The types this entry's API names, so a React Native host can type its handlers from here alone.
export type { ChatClient, ClientOptions } from './client.js';
export type { OutboundMessage } from '../bridge/protocol/messages.js';
export type { BridgeOptions } from '../bridge/protocol/bridge-options.js';
export { PROBE_ATTEMPTS, PROBE_RETRY_MS } from './load-probe.js';

/**
 * What react-native-webview passes to `onMessage`: the part of its `WebViewMessageEvent` read here
 * (test/types/react-native-snippet.tsx checks that the real event type fits, against the pinned package).
 */
export interface WebViewMessageEvent {
  nativeEvent: { data: string };
}

/** What react-native-webview passes to `onLoadStart` (only `url` is read). */
export interface WebViewNavigationEvent {
  nativeEvent: { url?: string };
}

export interface ReactNativeHostOptions {
  /** Every event from the bridge: `event.type === "error"` with `event.code` and `event.message`, and the others. */
  onEvent(event: OutboundMessage): void;
  /**
   * The WebView, for sending commands (and `reload()` after its process died); a function because
   * refs are filled after render (and emptied at unmount).
   */
  webView(): { injectJavaScript(script: string): void; reload?(): void } | null | undefined;
  /** The typed client's options (`idPrefix`, `timeout`). */
  client?: ClientOptions;
}

export interface ReactNativeHost {
  onMessage(event: WebViewMessageEvent): void;
  /**
   * For `<WebView onLoadStart>`: a page may be loading, so commands wait. A real load ends with
   * the new page's `ready` (calls the old page took then reject with `page_gone`, messages are
   * followed); a false one (react-native-webview#1049: a hash change) is found out by asking the
   * page, whose bridge answers, and commands go on to it.
   */
  onLoadStart(event?: WebViewNavigationEvent): void;
  /**
   * For `<WebView onRenderProcessGone>` (Android) and `<WebView onContentProcessDidTerminate>` (iOS):
   * the page is gone with its process. Commands wait, the WebView reloads, and the app is told once
   * per death, with one `webview_restarted` error event; the new page's `ready` goes on as after
   * any reload (calls it did not answer reject `page_gone`, sent messages are followed, its outbox
   * sends what the dead page left).
   */
  onRenderProcessGone(event?: unknown): void;
  onContentProcessDidTerminate(event?: unknown): void;
  client: ChatClient;
  /** Settings plus the bundle, for `injectedJavaScriptBeforeContentLoaded`. */
  injectedJavaScript(options: BridgeOptions, bundleSource: string): string;
}

export function createReactNativeHost({
  onEvent,
  webView,
  client: clientOptions,
}: ReactNativeHostOptions): ReactNativeHost {
  const inject = injector(webView);
  const client = createClient(
    {
      // The command's JSON text as a string literal: scriptJson of a string is one.
      send: (_command, json) => inject(`window.ChatBridge&&window.ChatBridge.receive(${scriptJson(json)});true;`),
    },
    clientOptions,
  );
  // A command injected before the page has run the bundle would be dropped: commands wait for
  // the bridge's `ready`.
  client.hold();

  const probe = createLoadProbe(inject, () => client.release());
  const pages = createPageMarks();

  /** The process died and the reload is asked for; the next `ready` ends it. */
  let restarting = false;
  const processGone = (platform: string) => {
    try {
      probe.stop();
      client.hold();
      if (restarting) return;
      restarting = true;
      const view = webView();
      if (view && view.reload) view.reload();
      deliver(
        onEvent,
        hostErrorEvent('webview_restarted', `[react-native] the WebView's ${platform} process ended; reloading`),
      );
    } catch (error) {
      report(error);
    }
  };

  /** The page's own bridge said `ready`: a new bridge, so what the previous one took is gone. */
  const fresh = () => {
    restarting = false;
    probe.stop();
    client.pageGone(pages.inboxSwitched());
    client.release();
  };

  /**
   * One message from the page; a failure is reported and the next message still handled. Unmarked,
   * it can only be a probe's answer; one payload's first `ready` alone is a new page.
   */
  const take = (message: OutboundMessage, marked: boolean, payload: { fresh?: boolean }) => {
    try {
      if (message.type === 'ready') {
        const probeToken = (message as Partial<ProbeAnswer>).probe;
        if (typeof probeToken === 'string') return probe.answered(message as ProbeAnswer);
        if (!marked || payload.fresh) return;
        payload.fresh = true;
        fresh();
      }
      if (marked && !client.handle(message)) deliver(onEvent, message);
    } catch (error) {
      report(error);
    }
  };

  return {
    client,
    onMessage(event) {
      try {
        const { marked, data } = pages.unmark(event?.nativeEvent?.data);
        const payload = {};
        // One payload may carry what the page delivered within a frame: each message in turn.
        decodeMessages(data).forEach((message) => take(message, marked, payload));
      } catch (error) {
        report(error);
      }
    },
    onLoadStart(event) {
      try {
        client.hold();
        const url = event?.nativeEvent?.url;
        probe.start(typeof url === 'string' ? url : undefined);
      } catch (error) {
        report(error);
      }
    },
    onRenderProcessGone: () => processGone('render'),
    onContentProcessDidTerminate: () => processGone('web content'),
    injectedJavaScript(options, bundleSource) {
      const settings = pages.settings(options);
      return `window.chatBridgeSettings=${scriptJson(settings)};\n${bundleSource}\n;true;`;
    },
  };
}

/** Runs a script in the page; false when the WebView is not mounted (or refused it). */
function injector(webView: ReactNativeHostOptions['webView']) {
  return (script: string): boolean => {
    try {
      const view = webView();
      if (!view) return false;
      view.injectJavaScript(script);
      return true;
    } catch {
      return false; // a WebView mid-teardown: the command waits for the next page
    }
  };
}

/**
 * What tells the bridge's payloads and pages apart. The bridge's mark (its `channelSecret`) is made
 * when `injectedJavaScript` first hands settings to the page: from then on a payload without it is
 * another script's (a probe's answer excepted). Without it (a host that injects the bundle itself)
 * every payload is taken, as before. And the inbox (`baseUrl` and website token) of the settings
 * last handed out, and of the page whose `ready` came last: a new page of another inbox cannot
 * hold the messages the old one queued.
 */
function createPageMarks() {
  let secret: string | undefined;
  let injectedInbox: string | undefined;
  let pageInbox: string | undefined;
  return {
    /** The settings for the page: the options, the host, the mark. */
    settings(options: BridgeOptions) {
      secret = secret || newSecret();
      injectedInbox = `${String(options.baseUrl).replace(/\/+$/, '')} ${String(options.websiteToken || '')}`;
      return { ...options, host: 'react-native', channelSecret: secret };
    },
    /** The payload without its mark, and whether it had it (or none is asked for). */
    unmark(data: unknown): { marked: boolean; data: unknown } {
      if (secret === undefined) return { marked: true, data };
      const marked = typeof data === 'string' && data.startsWith(secret);
      return { marked, data: marked ? (data as string).slice(secret.length) : data };
    },
    /** A new page said `ready`: whether its inbox is another than the last page's. */
    inboxSwitched(): boolean {
      const switched = pageInbox !== undefined && pageInbox !== injectedInbox;
      pageInbox = injectedInbox;
      return switched;
    },
  };
}

/**
 * 35 random base-36 characters (160 bits): from `crypto.getRandomValues` where the app has
 * it, else Math.random, whose state lives in the app's JavaScript engine, out of the page's reach.
 */
function newSecret(): string {
  const crypto = (globalThis as { crypto?: { getRandomValues?(array: Uint32Array): Uint32Array } }).crypto;
  const words = new Uint32Array(5);
  if (crypto && typeof crypto.getRandomValues === 'function') crypto.getRandomValues(words);
  else words.forEach((_, i) => (words[i] = Math.floor(Math.random() * 2 ** 32)));
  return Array.from(words, (word) => word.toString(36).padStart(7, '0')).join('');
}

/** Calls the app's handler; its own failure is reported, not thrown into react-native-webview. */
function deliver(onEvent: (event: OutboundMessage) => void, message: OutboundMessage) {
  try {
    onEvent(message);
  } catch (error) {
    report(error);
  }
}

function report(error: unknown) {
  const global = globalThis as { reportError?: (error: unknown) => void };
  if (typeof global.reportError === 'function') global.reportError(error);
  else console.error(error);
}

/**
 * JSON as JavaScript source. U+2028/U+2029 are escaped: engines before ES2019 (Android System
 * WebView < 66) reject them raw inside string literals, and user text has them.
 */
const scriptJson = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/** One payload the react-native adapter posts, decoded; anything else becomes a `parse_error` event. */
export function decodeMessage(data: unknown): OutboundMessage {
  const value = parsed(data);
  return Array.isArray(value)
    ? parseError('the WebView sent several messages at once: use decodeMessages')
    : one(value);
}

/**
 * A payload the react-native adapter posts, decoded: one message, or the several the page
 * delivered within a frame (a JSON array, in order). Anything else becomes a `parse_error` event.
 */
export function decodeMessages(data: unknown): OutboundMessage[] {
  const value = parsed(data);
  return Array.isArray(value) ? value.map(one) : [one(value)];
}

/** The payload's JSON value, or the `parse_error` event that says why there is none. */
function parsed(data: unknown): unknown {
  if (typeof data !== 'string') return parseError(`expected a string from the WebView, got ${typeof data}`);
  try {
    return JSON.parse(data);
  } catch {
    return parseError(
      'the WebView sent text that is not JSON (is another script calling ReactNativeWebView.postMessage?)',
    );
  }
}

function one(value: unknown): OutboundMessage {
  if (typeof value !== 'object' || value === null || typeof (value as { type?: unknown }).type !== 'string') {
    return parseError('the WebView sent JSON without a "type" field');
  }
  return value as OutboundMessage;
}

function parseError(detail: string): ErrorEvent {
  return errorEvent('parse_error', `[react-native] ${detail}`);
}
