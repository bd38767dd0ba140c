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
 */
import type { ErrorEvent } from '../bridge/outbound/errors.js';
import type { OutboundMessage } from '../bridge/outbound/messages.js';
import type { BridgeOptions } from '../bridge/options.js';
import { createClient, type ChatClient } from './client.js';

/**
 * What react-native-webview passes to `onMessage`: the part of its `WebViewMessageEvent` read here
 * (test/types/react-native-snippet.tsx checks that the real event type fits, against the pinned package).
 */
export interface WebViewMessageEvent {
  nativeEvent: { data: string };
}

export interface ReactNativeHostOptions {
  /** Every event from the bridge: `event.type === "error"` with `event.code` and `event.message`, and the others. */
  onEvent(event: OutboundMessage): void;
  /** The WebView, for sending commands; a function because refs are filled after render. */
  webView(): { injectJavaScript(script: string): void } | null | undefined;
}

export interface ReactNativeHost {
  onMessage(event: WebViewMessageEvent): void;
  /**
   * For `<WebView onLoadStart>`: a page is loading, so the bridge is gone until its next
   * `ready`; commands sent meanwhile wait for it instead of being lost.
   */
  onLoadStart(): void;
  client: ChatClient;
  /** Settings plus the bundle, for `injectedJavaScriptBeforeContentLoaded`. */
  injectedJavaScript(options: BridgeOptions, bundleSource: string): string;
}

export function createReactNativeHost({ onEvent, webView }: ReactNativeHostOptions): ReactNativeHost {
  // A command injected before the page has run the bundle would be dropped (and its call never
  // settle), so commands wait for the bridge's `ready` and go out in order then.
  let ready = false;
  const waiting: string[] = [];
  const inject = (script: string) => {
    const view = webView();
    if (!view) throw new Error('chat-bridge: the WebView is not mounted');
    view.injectJavaScript(script);
  };
  const client = createClient({
    send(command) {
      const script = `window.ChatBridge&&window.ChatBridge.receive(${scriptString(JSON.stringify(command))});true;`;
      if (ready) inject(script);
      else waiting.push(script);
    },
  });
  return {
    client,
    onMessage(event) {
      const message = decodeMessage(event?.nativeEvent?.data);
      if (message.type === 'ready') {
        ready = true;
        waiting.splice(0).forEach(inject);
      }
      if (message.type === 'response' && client.handle(message)) return;
      onEvent(message);
    },
    onLoadStart() {
      ready = false;
    },
    injectedJavaScript(options, bundleSource) {
      const settings = { ...options, host: 'react-native' };
      return `window.chatBridgeSettings=${JSON.stringify(settings)};\n${bundleSource}\n;true;`;
    },
  };
}

/**
 * Text as a JavaScript string literal. U+2028/U+2029 are escaped: engines before ES2019
 * (Android System WebView < 66) reject them raw inside string literals, and user text has them.
 */
const scriptString = (text: string): string =>
  JSON.stringify(text)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/** The payload the react-native adapter posts, decoded; anything else becomes a `parse_error` event. */
export function decodeMessage(data: unknown): OutboundMessage {
  if (typeof data !== 'string') return parseError(`expected a string from the WebView, got ${typeof data}`);
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return parseError(
      'the WebView sent text that is not JSON (is another script calling ReactNativeWebView.postMessage?)',
    );
  }
  if (typeof value !== 'object' || value === null || typeof (value as { type?: unknown }).type !== 'string') {
    return parseError('the WebView sent JSON without a "type" field');
  }
  return value as OutboundMessage;
}

function parseError(detail: string): ErrorEvent {
  return { type: 'error', code: 'parse_error', message: `[react-native] ${detail}` };
}
