/**
 * Type tests of the public API, checked by `tsc --noEmit -p tsconfig.json` (npm run typecheck),
 * not run by vitest. Every `@ts-expect-error` must stay an error: if a type loosens, tsc
 * reports the directive as unused and the check fails.
 */
import { expectTypeOf } from 'vitest';
import {
  createBridge,
  createGlobal,
  ErrorCode,
  normalizeOptions,
  type Bridge,
  type BridgeOptions,
  type ChatBridgeGlobal,
  type Environment,
  type ErrorEvent,
  type HostAdapter,
  type HostName,
  type OutboundMessage,
  type ResolvedOptions,
} from '../../bridge/index.js';
import {
  ChatBridgeError,
  ClientErrorCode,
  createClient,
  ErrorCode as ClientEntryErrorCode,
  type ChatBridgeErrorCode,
  type ChatClient,
  type ChatMessage,
  type ClientErrorEvent,
  type CommandName,
  type Conversation,
  type MessageState,
  type MessageStateMessage,
  type OutboundMessage as ClientEntryOutboundMessage,
  type OutboxListing,
  type UploadProgress,
} from '../../host-adapters/client.js';
import {
  createReactNativeHost,
  decodeMessage,
  decodeMessages,
  type ReactNativeHost,
} from '../../host-adapters/react-native-host.js';

declare const bridge: Bridge;
declare const global: ChatBridgeGlobal;
declare const client: ChatClient;
declare const env: Environment;
declare const message: OutboundMessage;

// --- Options -------------------------------------------------------------------------------

export const minimal: BridgeOptions = { baseUrl: 'https://chat.example.com/api/v1' };
export const full: BridgeOptions = {
  baseUrl: 'https://chat.example.com/api/v1',
  websiteToken: 'wt_demo',
  host: 'flutter',
  allowedOrigins: ['https://chat.example.com'],
  maxFileSize: 1024,
  widgetPrefix: 'chatwoot-widget',
  maxMessageLength: 10,
  requestTimeout: 1,
  commandTimeout: 1,
  retry: { limit: 1 },
  record: true,
  androidChannel: 'A',
  iosHandler: 'i',
  flutterChannel: 'F',
  browserEvent: 'b',
};
export const anyOrigin: BridgeOptions = { baseUrl: 'https://x.example', allowedOrigins: '*' };

// @ts-expect-error baseUrl is required
export const noBaseUrl: BridgeOptions = { websiteToken: 'wt_demo' };
// @ts-expect-error host is one of the five host names
export const badHost: BridgeOptions = { baseUrl: 'https://x.example', host: 'windows-phone' };
// @ts-expect-error allowedOrigins is an array or '*', not a single origin
export const badOrigins: BridgeOptions = { baseUrl: 'https://x.example', allowedOrigins: 'https://x.example' };
// @ts-expect-error exactOptionalPropertyTypes: leave websiteToken out rather than set it to undefined
export const undefinedToken: BridgeOptions = { baseUrl: 'https://x.example', websiteToken: undefined };
// @ts-expect-error maxFileSize is a number of bytes
export const textSize: BridgeOptions = { baseUrl: 'https://x.example', maxFileSize: '5MB' };
// @ts-expect-error retry takes the policy's fields only
export const badRetry: BridgeOptions = { baseUrl: 'https://x.example', retry: { attempts: 3 } };

expectTypeOf<HostName>().toEqualTypeOf<'react-native' | 'android' | 'ios' | 'flutter' | 'browser'>();
expectTypeOf(normalizeOptions).parameters.toEqualTypeOf<[unknown, string]>();
expectTypeOf(normalizeOptions).returns.toEqualTypeOf<ResolvedOptions>();

// --- Errors --------------------------------------------------------------------------------

expectTypeOf(ErrorCode.ParseError).toEqualTypeOf<'parse_error'>();
expectTypeOf<ErrorCode>().toEqualTypeOf<(typeof ErrorCode)[keyof typeof ErrorCode]>();
export const code: ErrorCode = 'rate_limited';
// @ts-expect-error codes are the documented strings only
export const unknownCode: ErrorCode = 'teapot';
// @ts-expect-error the codes object is read-only
ErrorCode.ParseError = 'parse_error';

expectTypeOf<ErrorEvent['status']>().toEqualTypeOf<number | undefined>();
expectTypeOf<ErrorEvent['errors']>().toEqualTypeOf<Record<string, string[]> | undefined>();
// @ts-expect-error an error event has a message
export const noMessage: ErrorEvent = { type: 'error', code: 'server_error' };
export const badErrors: ErrorEvent = {
  type: 'error',
  code: 'validation_error',
  retryable: false,
  message: 'm',
  // @ts-expect-error field errors are lists of strings
  errors: { email: 'is invalid' },
};

// --- Outbound messages: a discriminated union on `type` ---------------------------------------

export function describeMessage(): string {
  switch (message.type) {
    case 'error':
      expectTypeOf(message.code).toEqualTypeOf<ErrorCode>();
      return message.message;
    case 'response':
      if (message.ok) {
        expectTypeOf(message.result).toBeUnknown();
        // @ts-expect-error a successful response has no error
        return message.error;
      }
      expectTypeOf(message.error).toEqualTypeOf<ErrorEvent>();
      return message.id;
    case 'widget':
      expectTypeOf(message.data).toEqualTypeOf<Record<string, unknown>>();
      return message.event;
    case 'ready':
      // @ts-expect-error ready carries nothing else
      return message.version;
    case 'message':
      expectTypeOf(message.state).toEqualTypeOf<'queued' | 'sending' | 'sent' | 'failed'>();
      expectTypeOf(message.progress).toEqualTypeOf<UploadProgress | undefined>();
      expectTypeOf(message).toEqualTypeOf<MessageStateMessage>();
      expectTypeOf(message.result).toEqualTypeOf<ChatMessage | null | undefined>();
      // @ts-expect-error progress counts bytes: both numbers are there when it is
      if (message.progress) return message.progress.sentBytes.toUpperCase();
      return message.messageId;
    case 'conversationToken':
      expectTypeOf(message.token).toBeString();
      return message.token;
    default:
      expectTypeOf(message).toBeNever();
      return '';
  }
}
// The client's entry names the same events and codes, for hosts that import only it.
expectTypeOf<ClientEntryOutboundMessage>().toEqualTypeOf<OutboundMessage>();
expectTypeOf(ClientEntryErrorCode).toEqualTypeOf(ErrorCode);

/** A host's exhaustive switch over the codes: a new code is a compile error here until handled. */
export function describeCode(code: ErrorCode): string {
  switch (code) {
    case 'parse_error':
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
      return code;
    default: {
      const unhandled: never = code;
      return unhandled;
    }
  }
}

// @ts-expect-error the type field is one of the six kinds
export const badKind: OutboundMessage = { type: 'hello' };

// --- The bridge and the global --------------------------------------------------------------

expectTypeOf(bridge.host).toEqualTypeOf<HostName>();
expectTypeOf(bridge.stats()).toEqualTypeOf<{ pendingCommands: number; outbox: number; undelivered: number }>();
expectTypeOf(bridge.on).parameter(0).toEqualTypeOf<(message: OutboundMessage) => void>();
expectTypeOf(bridge.on(() => undefined)).toEqualTypeOf<() => void>();
expectTypeOf(bridge.recording()).toBeString();
expectTypeOf(createBridge).parameter(1).toEqualTypeOf<Environment>();
createBridge(normalizeOptions({ baseUrl: 'https://x.example' }, ''), env, { hosts: ['ios', 'android'] });
// @ts-expect-error createBridge takes resolved options: run raw options through normalizeOptions first
createBridge({ baseUrl: 'https://x.example' }, env);
// @ts-expect-error hosts are host names
createBridge(normalizeOptions({}, ''), env, { hosts: ['windows'] });

expectTypeOf(global.install).returns.toEqualTypeOf<Bridge>();
global.install();
global.install({ websiteToken: 'wt_demo' }); // over window.chatBridgeSettings: every option optional
// @ts-expect-error install still checks each option's type
global.install({ host: 'symbian' });
expectTypeOf(global.bridge).toEqualTypeOf<Bridge | undefined>();
expectTypeOf(global.version).toBeString();
// @ts-expect-error the version is read-only
global.version = '2';
expectTypeOf(createGlobal).parameter(0).toEqualTypeOf<Window & typeof globalThis>();

// --- The typed client -----------------------------------------------------------------------

expectTypeOf(client.init()).toEqualTypeOf<Promise<{ config: Record<string, unknown> }>>();
// Each call resolves with its own result: the message, the conversation, the outbox's records.
expectTypeOf(client.sendMessage).returns.toEqualTypeOf<Promise<ChatMessage | null>>();
expectTypeOf<ChatMessage['content']>().toEqualTypeOf<string | undefined>();
expectTypeOf(client.getConversation()).toEqualTypeOf<Promise<Conversation | null>>();
expectTypeOf(client.createConversation()).toEqualTypeOf<Promise<Conversation | null>>();
expectTypeOf(client.listOutbox()).toEqualTypeOf<Promise<{ messages: OutboxListing[] }>>();
expectTypeOf<OutboxListing['state']>().toEqualTypeOf<MessageState>();
expectTypeOf<OutboxListing['files']>().toEqualTypeOf<
  Array<{ name: string; type: string; size: number | undefined }> | undefined
>();
expectTypeOf(client.cancelMessage({ messageId: 'm1' })).toEqualTypeOf<Promise<{ cancelled: boolean }>>();
// A failed message again, by its id alone, settling as sendMessage does (issue 35).
expectTypeOf(client.resendMessage('m1')).toEqualTypeOf<Promise<ChatMessage | null>>();
client.resendMessage('m1', { onProgress: ({ sentBytes, totalBytes }) => void [sentBytes, totalBytes] });
// @ts-expect-error resendMessage names the message by its id, not by its params
client.resendMessage({ messageId: 'm1' });
expectTypeOf(client.call('appendAttachment', {})).toEqualTypeOf<Promise<{ size: number }>>();
expectTypeOf(client.call('listOutbox')).toEqualTypeOf<ReturnType<ChatClient['listOutbox']>>();
expectTypeOf(client.call('someNewCommand')).toEqualTypeOf<Promise<unknown>>();
expectTypeOf<CommandName>().toEqualTypeOf<
  | 'init'
  | 'getConversation'
  | 'createConversation'
  | 'sendMessage'
  | 'appendAttachment'
  | 'listOutbox'
  | 'cancelMessage'
>();
// @ts-expect-error a conversation's fields are unknown until checked
export const conversationId: number = (await client.getConversation())?.['id'];
// @ts-expect-error listOutbox takes no params
client.listOutbox({});
// handle: a flag per message for an array, one for a message, either when the type does not say.
declare const delivered: OutboundMessage;
expectTypeOf(client.handle(delivered)).toEqualTypeOf<boolean>();
expectTypeOf(client.handle([delivered, delivered])).toEqualTypeOf<boolean[]>();
expectTypeOf(client.handle(JSON.parse('[]'))).toEqualTypeOf<boolean | boolean[]>();
expectTypeOf(client.handle(delivered as unknown)).toEqualTypeOf<boolean | boolean[]>();
expectTypeOf(client.handle(delivered as OutboundMessage | OutboundMessage[])).toEqualTypeOf<boolean | boolean[]>();
client.sendMessage({
  content: 'Hi',
  attachments: [{ name: 'a.png', type: 'image/png', data: 'AAAA' }],
  email: 'a@example.com',
});
client.getConversation();
client.createConversation({ name: 'Ada' });
// @ts-expect-error content is text
client.sendMessage({ content: 42 });
// @ts-expect-error an attachment needs a name
client.sendMessage({ attachments: [{ type: 'image/png', data: 'AAAA' }] });
// @ts-expect-error contact fields are strings
client.getConversation({ email: true });
// @ts-expect-error sendMessage needs its params
client.sendMessage();
// @ts-expect-error pending is read-only
client.pending = 0;

createClient({
  send: (command) => expectTypeOf(command).toEqualTypeOf<{ id: string; method: string; params?: object }>(),
});
createClient({ send: () => false }, { idPrefix: 'web-', timeout: 10_000 });
createClient({ send: () => undefined }, 'web-');
// @ts-expect-error the timeout is in milliseconds
createClient({ send: () => undefined }, { timeout: '10s' });
// @ts-expect-error a transport has a send method
createClient({ post: () => undefined });

declare const failure: ChatBridgeError;
expectTypeOf(failure).toMatchTypeOf<Error>();
expectTypeOf(failure.code).toEqualTypeOf<ChatBridgeErrorCode>();
expectTypeOf<ChatBridgeErrorCode>().toEqualTypeOf<ErrorCode | ClientErrorCode>();
expectTypeOf(failure.status).toEqualTypeOf<number | undefined>();
expectTypeOf(failure.errors).toEqualTypeOf<Record<string, string[]> | undefined>();
expectTypeOf(failure.event).toEqualTypeOf<ErrorEvent | ClientErrorEvent>();
expectTypeOf<'closed' | 'page_gone' | 'timeout' | 'not_kept'>().toMatchTypeOf<typeof failure.code>();
expectTypeOf<ErrorEvent['code']>().toMatchTypeOf<typeof failure.code>();
expectTypeOf(ClientErrorCode.PageGone).toEqualTypeOf<'page_gone'>();
expectTypeOf(ClientErrorCode.NotKept).toEqualTypeOf<'not_kept'>();

// --- Adapters -------------------------------------------------------------------------------

export const customAdapter: HostAdapter = { encode: (m) => JSON.stringify(m), find: () => undefined };
// @ts-expect-error an adapter's find gives a poster, or undefined while the channel is missing
export const strayAdapter: HostAdapter = { encode: (m) => m, find: () => 'channel' };

// --- The React Native side ------------------------------------------------------------------

declare const ref: { current: { injectJavaScript(script: string): void } | null };
const rnHost = createReactNativeHost({
  onEvent: (event) => expectTypeOf(event).toEqualTypeOf<OutboundMessage>(),
  webView: () => ref.current,
});
expectTypeOf(rnHost).toEqualTypeOf<ReactNativeHost>();
expectTypeOf(rnHost.client).toEqualTypeOf<ChatClient>();
rnHost.onMessage({ nativeEvent: { data: '{"type":"ready"}' } });
expectTypeOf(rnHost.injectedJavaScript({ baseUrl: 'https://x.example', websiteToken: 'wt' }, 'bundle')).toBeString();
// @ts-expect-error the injected settings need a baseUrl
rnHost.injectedJavaScript({ websiteToken: 'wt' }, 'bundle');
// @ts-expect-error onEvent is required
createReactNativeHost({ webView: () => null });
// @ts-expect-error webView is a function returning the ref's current value, not the ref
createReactNativeHost({ onEvent: () => undefined, webView: ref });
// @ts-expect-error react-native-webview's onMessage data is a string
rnHost.onMessage({ nativeEvent: { data: { type: 'ready' } } });
expectTypeOf(decodeMessage).returns.toEqualTypeOf<OutboundMessage>();
expectTypeOf(decodeMessages).returns.toEqualTypeOf<OutboundMessage[]>();
