/**
 * A React Native app's use of the installed package, checked like all-entries.ts but with bundler
 * resolution and no DOM or Node types (tsconfig.react-native-app.json): the entries an app bundles
 * must not need them.
 */
import { ChatBridgeError, createClient, type ErrorCode, type OutboundMessage } from 'chat-bridge/client';
import { createReactNativeHost, type ReactNativeHostOptions } from 'chat-bridge/react-native';
import { bundleSource } from 'chat-bridge/bundle-source';
import { startSource } from 'chat-bridge/start-source';

const onEvent: ReactNativeHostOptions['onEvent'] = (event: OutboundMessage) => {
  if (event.type !== 'error') return;
  const code: ErrorCode = event.code;
  // @ts-expect-error the code is one of the documented codes, not any string
  const teapot: typeof code = 'teapot';
  return [code, teapot];
};

export const host = createReactNativeHost({ onEvent, webView: () => null });
export const script = host.injectedJavaScript(
  { baseUrl: 'https://chat.example.test', websiteToken: 'wt_123456' },
  bundleSource,
);
export const starter = startSource;

export async function send(text: string): Promise<string | undefined> {
  try {
    return (await host.client.sendMessage({ content: text }))?.content;
  } catch (error) {
    return error instanceof ChatBridgeError ? error.code : undefined;
  }
}

export const browserClient = createClient({ send: () => false });
