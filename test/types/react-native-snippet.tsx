/**
 * The React Native snippets of README.md and docs/react-native.md, type-checked against the real `react-native` and
 * `react-native-webview` types (pinned devDependencies, installed with --ignore-scripts) by
 * `npm run typecheck`. Not run: it proves that `createReactNativeHost` plugs into `<WebView>` as
 * the docs show (ref, onMessage, onLoadStart, injectedJavaScriptBeforeContentLoaded).
 * test/docs/snippets.spec.ts fails when a line of those snippets is not here.
 */
import { useRef, useState, type ComponentProps } from 'react';
import { Button, View } from 'react-native';
import { WebView, type WebViewMessageEvent } from 'react-native-webview';
import { expectTypeOf } from 'vitest';
import { ChatBridgeError } from '../../host-adapters/client.js';
import { createReactNativeHost } from '../../host-adapters/react-native-host.js';

// In an app: import { ChatBridgeError } from 'chat-bridge/client';
// and import { bundleSource } from 'chat-bridge/bundle-source'; (dist/esm/bundle-source.d.ts)
declare const bundleSource: string;
// In an app: import { startSource } from 'chat-bridge/start-source'; (dist/esm/start-source.d.ts)
declare const startSource: string;
/** What the screen is given (the docs leave its declaration out). */
interface ChatScreenProps {
  /** The chat service's widget page. */
  widgetUrl: string;
  /** The API root, e.g. https://chat.example.com/api/v1. */
  baseUrl: string;
  /** The widget inbox's website token. */
  websiteToken: string;
}
/** What docs/chatwoot.md's screen is given. */
interface ChatwootScreenProps {
  /** The Chatwoot installation's root, e.g. https://chat.example.com. */
  installation: string;
  /** The Website inbox's token. */
  websiteToken: string;
  /** The cw_conversation saved from an earlier visit, if any. */
  conversationToken?: string;
}
// The app's own storage of the contact's token, a credential (Keychain, EncryptedSharedPreferences).
declare function saveConversationToken(token: string): void;
// The app's own UI update for a message's state.
declare function showState(messageId: string, state: 'queued' | 'sending' | 'sent' | 'failed'): void;

// --- the docs' "A whole screen", verbatim from here ---
export function ChatScreen({ widgetUrl, baseUrl, websiteToken }: ChatScreenProps) {
  const ref = useRef<WebView>(null);
  // One host per WebView, made once (not at every render): it keeps the calls under way.
  const [host] = useState(() =>
    createReactNativeHost({
      webView: () => ref.current,
      onEvent(event) {
        if (event.type === 'error') console.warn(event.code, event.message);
        if (event.type === 'message') showState(event.messageId, event.state); // queued, sending, sent, failed
      },
    }),
  );

  async function send(content: string) {
    try {
      await host.client.sendMessage({ content }); // resolves once the backend has the message
    } catch (error) {
      if (error instanceof ChatBridgeError) console.warn(error.code, error.message);
    }
  }

  return (
    <View style={{ flex: 1 }}>
      <WebView
        ref={ref}
        source={{ uri: widgetUrl }}
        injectedJavaScriptBeforeContentLoaded={host.injectedJavaScript({ baseUrl, websiteToken }, bundleSource)}
        onLoadStart={host.onLoadStart}
        onMessage={host.onMessage}
      />
      <Button title="Say hello" onPress={() => void send('Hello')} />
    </View>
  );
}
// --- to here ---

// --- docs/chatwoot.md's React Native screen, verbatim from here ---
export function ChatwootScreen({ installation, websiteToken, conversationToken }: ChatwootScreenProps) {
  const ref = useRef<WebView>(null);
  const [host] = useState(() =>
    createReactNativeHost({
      webView: () => ref.current,
      onEvent(event) {
        if (event.type === 'conversationToken') saveConversationToken(event.token); // cw_conversation for next time
        if (event.type === 'error') console.warn(event.code, event.message);
      },
    }),
  );
  // The installation's root is baseUrl; the bridge takes the contact from the widget page.
  const settings = {
    backend: 'chatwoot',
    baseUrl: installation,
    websiteToken,
    forwardConversationToken: true,
  } as const;
  const query = new URLSearchParams({ website_token: websiteToken });
  if (conversationToken) query.set('cw_conversation', conversationToken);

  return (
    <WebView
      ref={ref}
      source={{ uri: `${installation}/widget?${query}` }}
      injectedJavaScriptBeforeContentLoaded={host.injectedJavaScript(settings, bundleSource)}
      onLoadStart={host.onLoadStart}
      onMessage={host.onMessage}
    />
  );
}
// --- to here ---

/** The docs' shorter forms: the README's start, and "Two scripts". */
export function ShortForms({ widgetUrl, baseUrl, websiteToken }: ChatScreenProps) {
  const ref = useRef<WebView>(null);
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
    injectedJavaScriptBeforeContentLoaded={host.injectedJavaScript({ baseUrl, websiteToken }, startSource)}
    injectedJavaScript={host.injectedJavaScript({ baseUrl, websiteToken }, bundleSource)}
    onLoadStart={host.onLoadStart}
    onMessage={host.onMessage}
  />;

  return null;
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
