/**
 * The README's React Native snippet, type-checked against the real `react-native` and
 * `react-native-webview` types (pinned devDependencies, installed with --ignore-scripts) by
 * `npm run typecheck`. Not run: it proves that `createReactNativeHost` plugs into `<WebView>` as
 * the README shows (ref, onMessage, onLoadStart, injectedJavaScriptBeforeContentLoaded).
 * Keep it in step with README.md's "React Native (react-native-webview)" section.
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

  // --- README snippet, verbatim from here ---
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

  void host.client.sendMessage({ content: 'Hello' }); // README: await host.client.sendMessage(...)
  // --- to here ---

  // README "Two scripts": the starter before the content, the bundle once it has loaded.
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
