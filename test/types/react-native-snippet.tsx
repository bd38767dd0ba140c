/**
 * The React Native snippets of README.md and docs/react-native.md, type-checked against the real `react-native` and
 * `react-native-webview` types (pinned devDependencies, installed with --ignore-scripts) by
 * `npm run typecheck`. Not run: it proves that `createReactNativeHost` plugs into `<WebView>` as
 * the docs show (ref, onMessage, onLoadStart, injectedJavaScriptBeforeContentLoaded).
 * test/docs/snippets.spec.ts fails when a line of those snippets is not here.
 */
import { useRef, type ComponentProps } from 'react';
import { Text, View } from 'react-native';
import { WebView, type WebViewMessageEvent } from 'react-native-webview';
import { expectTypeOf } from 'vitest';
import { createReactNativeHost } from '../../host-adapters/react-native-host.js';

// In an app: import { bundleSource } from 'chat-bridge/bundle-source'; (dist/esm/bundle-source.d.ts)
declare const bundleSource: string;
// In an app: import { startSource } from 'chat-bridge/start-source'; (dist/esm/start-source.d.ts)
declare const startSource: string;
// The app's own UI update for a message's state.
declare function showState(messageId: string, state: 'queued' | 'sending' | 'sent' | 'failed'): void;

export function ChatScreen({
  widgetUrl,
  baseUrl,
  websiteToken,
}: {
  widgetUrl: string;
  baseUrl: string;
  websiteToken: string;
}) {
  const ref = useRef<WebView>(null);

  // --- the docs' snippet, verbatim from here ---
  const host = createReactNativeHost({
    webView: () => ref.current,
    onEvent(event) {
      if (event.type === 'error') console.warn(event.code, event.message);
      if (event.type === 'message') showState(event.messageId, event.state); // queued, sending, sent, failed
    },
  });

  <WebView
    ref={ref}
    source={{ uri: widgetUrl }}
    injectedJavaScriptBeforeContentLoaded={host.injectedJavaScript({ baseUrl, websiteToken }, bundleSource)}
    onLoadStart={host.onLoadStart}
    onMessage={host.onMessage}
  />;

  async function send() {
    await host.client.sendMessage({ content: 'Hello' }); // the message, or a ChatBridgeError
  }
  void send();
  // --- to here ---

  // "Two scripts" (docs/react-native.md): the starter before the content, the bundle once it has loaded.
  <WebView
    ref={ref}
    source={{ uri: widgetUrl }}
    injectedJavaScriptBeforeContentLoaded={host.injectedJavaScript({ baseUrl, websiteToken }, startSource)}
    injectedJavaScript={host.injectedJavaScript({ baseUrl, websiteToken }, bundleSource)}
    onLoadStart={host.onLoadStart}
    onMessage={host.onMessage}
  />;

  return (
    <View>
      <Text>chat</Text>
      <WebView ref={ref} source={{ uri: widgetUrl }} onMessage={host.onMessage} onLoadStart={host.onLoadStart} />
    </View>
  );
}

// react-native-webview's own event is what host.onMessage accepts, not just a look-alike.
declare const realEvent: WebViewMessageEvent;
declare const host: ReturnType<typeof createReactNativeHost>;
host.onMessage(realEvent);
expectTypeOf<WebViewMessageEvent>().toExtend<Parameters<typeof host.onMessage>[0]>();
// onLoadStart reads the URL loading from react-native-webview's own navigation event.
type LoadStartEvent = Parameters<NonNullable<ComponentProps<typeof WebView>['onLoadStart']>>[0];
expectTypeOf<LoadStartEvent>().toExtend<NonNullable<Parameters<typeof host.onLoadStart>[0]>>();
// A WebView instance is what webView() may return.
expectTypeOf<WebView>().toExtend<NonNullable<ReturnType<Parameters<typeof createReactNativeHost>[0]['webView']>>>();
