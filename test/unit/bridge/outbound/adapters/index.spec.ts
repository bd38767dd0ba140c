/**
 * The adapter registry and host detection: which platform's channel is present, and every
 * platform's adapter carrying the message-state event through. Each adapter on its own: its
 * spec beside this one.
 */
import { describe, expect, it } from 'vitest';
import type { HostScope } from '../../../../../bridge/environment.js';
import type { MessageStateMessage, OutboundMessage } from '../../../../../bridge/protocol/messages.js';
import { DEFAULTS, HOST_NAMES, type HostName } from '../../../../../bridge/protocol/bridge-options.js';
import { adapters, detectHost } from '../../../../../bridge/outbound/adapters/index.js';
import { CHANNEL_NAMES, nativeObject, sendThrough as send } from '../../../../helpers/native-channels.js';

const names = CHANNEL_NAMES;

describe('adapters', () => {
  it('holds one adapter for each host name, and nothing else', () => {
    expect(Object.keys(adapters).sort()).toEqual([...HOST_NAMES].sort());
  });
});

describe('detectHost', () => {
  const poster = () => nativeObject().target;
  const scopes: Array<[HostName, HostScope]> = [
    ['react-native', { ReactNativeWebView: poster() }],
    ['ios', { webkit: { messageHandlers: { chatBridge: poster() } } }],
    ['android', { ChatBridgeAndroid: poster() }],
    ['flutter', { ChatBridgeFlutter: poster() }],
    ['flutter', { flutter_inappwebview: { callHandler: () => undefined } }],
  ];

  it.each(scopes)('picks %s from the globals present', (host, scope) => {
    expect(detectHost(scope, names)).toBe(host);
  });

  it("falls back to 'browser' when no native channel is present", () => {
    expect(detectHost({}, names)).toBe('browser');
    expect(detectHost({ CustomEvent, dispatchEvent: () => true }, names)).toBe('browser');
  });

  it('looks the channels up under the configured names', () => {
    const custom = { ...names, androidChannel: 'AcmeChatAndroid' };
    expect(detectHost({ AcmeChatAndroid: poster() }, custom)).toBe('android');
    expect(detectHost({ ChatBridgeAndroid: poster() }, custom)).toBe('browser');
  });

  it('prefers react-native over the other channels when several are present', () => {
    expect(
      detectHost({ ReactNativeWebView: poster(), ChatBridgeAndroid: poster(), ChatBridgeFlutter: poster() }, names),
    ).toBe('react-native');
  });
});

describe('the message-state event on every platform', () => {
  const failed: MessageStateMessage = {
    type: 'message',
    messageId: 'm-😀-"1"\n\u2028',
    state: 'failed',
    attempt: 5,
    error: {
      type: 'error',
      code: 'rate_limited',
      retryable: true,
      message: '[POST /messages] 429: Too many requests',
      status: 429,
    },
  };
  const lifecycle: MessageStateMessage[] = [
    { type: 'message', messageId: 'm-1', state: 'queued', attempt: 0 },
    { type: 'message', messageId: 'm-1', state: 'sending', attempt: 1, progress: { sentBytes: 512, totalBytes: 2048 } },
    { type: 'message', messageId: 'm-1', state: 'queued', attempt: 1, nextAttemptAt: 1763921234567 },
    { type: 'message', messageId: 'm-1', state: 'sent', attempt: 2, result: { id: 42, content: 'Hi', echo_id: 'm-1' } },
    failed,
  ];

  /** Where each text host's native object lives on window. */
  const channelGlobal = {
    'react-native': 'ReactNativeWebView',
    android: DEFAULTS.androidChannel,
    flutter: DEFAULTS.flutterChannel,
  } as const;

  /** Every payload one host's native API receives for `messages`, in order. */
  function received(host: HostName, messages: OutboundMessage[]): unknown[] {
    if (host === 'browser') {
      const target = new EventTarget();
      const details: unknown[] = [];
      target.addEventListener('chatbridge', (event) => details.push((event as CustomEvent).detail));
      const scope = Object.assign(target, { CustomEvent }) as unknown as HostScope;
      for (const message of messages) send(adapters.browser, scope, message);
      return details;
    }
    const { target, calls } = nativeObject();
    const scope: HostScope =
      host === 'ios' ? { webkit: { messageHandlers: { chatBridge: target } } } : { [channelGlobal[host]]: target };
    for (const message of messages) send(adapters[host], scope, message);
    expect(calls.every((call) => call.args.length === 1 && call.self === target)).toBe(true);
    return calls.map((call) => call.args[0]);
  }

  it.each(['react-native', 'android', 'ios', 'flutter'] as const)(
    '%s receives each state change as JSON text that parses back to the very event, in order',
    (host) => {
      const payloads = received(host, lifecycle);
      expect(payloads.every((payload) => typeof payload === 'string')).toBe(true);
      expect(payloads.map((payload) => JSON.parse(payload as string))).toStrictEqual(lifecycle);
    },
  );

  it('browser receives each state change as the event object itself, in order', () => {
    expect(received('browser', lifecycle)).toStrictEqual(lifecycle);
  });

  it('leaves absent optional fields out of the text instead of writing them as null', () => {
    const [text] = received('android', [{ type: 'message', messageId: 'm-1', state: 'queued', attempt: 0 }]);
    expect(text).toBe('{"type":"message","messageId":"m-1","state":"queued","attempt":0}');
  });

  it('keeps the failure, the unicode id and U+2028 intact through the text channels', () => {
    const [text] = received('flutter', [failed]);
    expect(text).toContain('"error":{"type":"error","code":"rate_limited"');
    expect((JSON.parse(text as string) as MessageStateMessage).messageId).toBe(failed.messageId);
  });
});
