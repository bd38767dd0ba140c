/**
 * The shared vectors (test/vectors/<host>.json) through real engines: each vector's `message` is
 * encoded in the page by the engine itself, the way the host's adapter does it (the object for
 * the browser, the engine's own JSON.stringify for every app's channel), posted through the
 * host's real channel, and what the native side received is compared with the vector's `payload`.
 * So the native receivers, which are tested against `payload`, are pinned to what engines
 * actually deliver, not to what Node produced. Used by test/webkit/ and test/browser/.
 */
import { readFileSync } from 'node:fs';
import type { OutboundMessage } from '../../bridge/protocol/messages.js';
import type { HostName } from '../../bridge/protocol/bridge-options.js';

export interface EncodedVector {
  name: string;
  message: OutboundMessage;
  payload: unknown;
}

/** The vectors of a host that the bridge sends (those with a `message`). */
export function encodedVectors(host: HostName): EncodedVector[] {
  const file = JSON.parse(readFileSync(new URL(`../vectors/${host}.json`, import.meta.url), 'utf8')) as {
    vectors: Array<{ name: string; message?: OutboundMessage; payload: unknown }>;
  };
  return file.vectors.flatMap(({ name, message, payload }) =>
    message === undefined ? [] : [{ name, message, payload }],
  );
}

/**
 * An async function body, run in the page: encodes each message as the host's adapter does
 * (bridge/outbound/adapters/) and posts it through the host's channel as the page sees it.
 */
export function postThroughChannel(host: HostName, messages: OutboundMessage[]): string {
  const post: Record<HostName, string> = {
    ios: 'window.webkit.messageHandlers.chatBridge.postMessage(JSON.stringify(message))',
    browser: "dispatchEvent(new CustomEvent('chatbridge', { detail: message }))",
    'react-native': 'window.ReactNativeWebView.postMessage(JSON.stringify(message))',
    android: 'window.ChatBridgeAndroid.postMessage(JSON.stringify(message))',
    flutter: 'window.ChatBridgeFlutter.postMessage(JSON.stringify(message))',
  };
  // The messages travel as JSON text and are parsed in the page: the engine builds every object.
  return `const messages = JSON.parse(${JSON.stringify(JSON.stringify(messages))});
for (const message of messages) ${post[host]};
return messages.length;`;
}
