/**
 * A host's TypeScript against the installed package, every entry, checked by scripts/test-package.mjs
 * with `strict`, `skipLibCheck: false` and NodeNext resolution (tsconfig.all-entries.json). Every
 * `@ts-expect-error` must stay an error: a type that loosens to `any` or `unknown` fails the check.
 */
import { createBridge, ErrorCode, normalizeOptions, type Environment, type OutboundMessage } from 'chat-bridge';
import {
  ChatBridgeError,
  ClientErrorCode,
  createClient,
  type ChatBridgeErrorCode,
  type ChatClient,
  type ChatMessage,
} from 'chat-bridge/client';
import { createReactNativeHost } from 'chat-bridge/react-native';
import { bundleSource } from 'chat-bridge/bundle-source';
import { debugBundleSource } from 'chat-bridge/debug-bundle-source';
import { startSource } from 'chat-bridge/start-source';
import { parseFixture, replay, ReplayError } from 'chat-bridge/replay';

/** Every code a call can reject with, handled: a code added to the package fails to compile here. */
export function describeCode(code: ChatBridgeErrorCode): string {
  switch (code) {
    case ErrorCode.ParseError:
    case 'network_error':
    case 'auth_failed':
    case 'config_error':
    case 'bad_request':
    case 'empty_message':
    case 'too_many_files':
    case 'unsupported_file_type':
    case 'file_too_large':
    case 'upload_refused':
    case 'not_found':
    case 'validation_error':
    case 'rate_limited':
    case 'server_error':
    case 'widget_error':
    case 'storage_error':
    case 'storage_wiped':
    case 'storage_restored':
    case 'inbox_switched':
    case 'cancelled':
    case 'unknown_method':
    case 'channel_error':
    case 'webview_restarted':
    case ClientErrorCode.Closed:
    case 'page_gone':
    case 'timeout':
    case 'not_kept':
      return code;
    default: {
      const unhandled: never = code;
      return unhandled;
    }
  }
}

/** Every event the bridge sends, narrowed on `type`. */
export function describeEvent(event: OutboundMessage): string {
  switch (event.type) {
    case 'error':
      return describeCode(event.code);
    case 'response':
      return event.ok ? event.id : describeCode(event.error.code);
    case 'widget':
      return event.event;
    case 'ready':
      return 'ready';
    case 'message':
      return event.result?.content ?? event.state;
    case 'conversationToken':
      return event.token.length > 0 ? 'token' : '';
    default: {
      const unhandled: never = event;
      return unhandled;
    }
  }
}

export async function chat(client: ChatClient): Promise<string> {
  const { config } = await client.init();
  const conversation = await client.getConversation({ email: 'ada@example.com' });
  const message: ChatMessage | null = await client.sendMessage({ content: 'Hi', messageId: 'm-1' });
  const { messages } = await client.listOutbox();
  const { cancelled } = await client.cancelMessage({ messageId: 'm-1' });
  const resent: ChatMessage | null = await client.resendMessage('m-1');
  const { size } = await client.call('appendAttachment', { uploadId: 'u1', index: 0, data: 'AAAA' });
  // @ts-expect-error sendMessage resolves with the message, not a string
  const wrong: string = message;
  // @ts-expect-error a conversation's fields are unknown until the host checks them
  const id: number = conversation?.['id'];
  try {
    await client.createConversation();
  } catch (error) {
    if (error instanceof ChatBridgeError && error.code === 'validation_error') return JSON.stringify(error.errors);
  }
  return [config, message?.content, resent?.content, messages[0]?.state, cancelled, size, wrong, id].join();
}

export function injectedScripts(): string[] {
  const host = createReactNativeHost({ onEvent: describeEvent, webView: () => null });
  const client: ChatClient = createClient({ send: () => true }, { idPrefix: 'web-' });
  void client;
  return [
    host.injectedJavaScript({ baseUrl: 'https://chat.example.test' }, bundleSource),
    debugBundleSource,
    startSource,
  ];
}

export async function nodeTools(text: string, env: Environment): Promise<string> {
  const bridge = createBridge(normalizeOptions({ baseUrl: 'https://chat.example.test' }, ''), env);
  bridge.on((event) => void describeEvent(event));
  try {
    return `${parseFixture(text, 'x').length} ${await replay(text, { host: 'all' })}`;
  } catch (error) {
    return error instanceof ReplayError ? error.message : '';
  }
}
