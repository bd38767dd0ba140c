/**
 * Each platform adapter, checked at the point where the bridge stops and the platform begins:
 * what the native API is called with (string or object), on which object, with which `this`.
 */
import { describe, expect, it } from 'vitest';
import type { HostScope } from '../../../../../bridge/environment.js';
import type { MessageStateMessage, OutboundMessage } from '../../../../../bridge/protocol/messages.js';
import { DEFAULTS, type ChannelNames, type HostName } from '../../../../../bridge/protocol/bridge-options.js';
import type { HostAdapter } from '../../../../../bridge/outbound/channel.js';
import { adapters, detectHost } from '../../../../../bridge/outbound/adapters/index.js';

const names: ChannelNames = {
  androidChannel: DEFAULTS.androidChannel,
  iosHandler: DEFAULTS.iosHandler,
  flutterChannel: DEFAULTS.flutterChannel,
  browserEvent: DEFAULTS.browserEvent,
};

const errorMessage: OutboundMessage = {
  type: 'error',
  code: 'validation_error',
  message: '[POST /conversations] 422: email is invalid',
  status: 422,
  errors: { email: ['is invalid'] },
};

/** A native object whose `postMessage` records its arguments and the receiver it was called on. */
function nativeObject() {
  const calls: Array<{ self: unknown; args: unknown[] }> = [];
  const target = {
    postMessage(this: unknown, ...args: unknown[]) {
      calls.push({ self: this, args });
    },
  };
  return { target, calls };
}

/** What the adapter hands the platform for one message, through the same path the channel uses. */
function send(
  adapter: HostAdapter,
  scope: HostScope,
  message: OutboundMessage,
  channelNames: ChannelNames = names,
): void {
  const post = adapter.find(scope, channelNames);
  if (post === undefined) throw new Error(`${adapter.host}: no channel found in the scope`);
  post(adapter.encode(message));
}

describe('react-native adapter', () => {
  it('posts the message as a JSON string to window.ReactNativeWebView.postMessage, called on ReactNativeWebView', () => {
    const { target, calls } = nativeObject();
    send(adapters['react-native'], { ReactNativeWebView: target }, errorMessage);

    expect(calls).toHaveLength(1);
    expect(calls[0]?.args).toEqual([JSON.stringify(errorMessage)]);
    expect(typeof calls[0]?.args[0]).toBe('string');
    expect(calls[0]?.self).toBe(target);
  });

  it('finds no channel while ReactNativeWebView is missing or has no postMessage', () => {
    expect(adapters['react-native'].find({}, names)).toBeUndefined();
    expect(adapters['react-native'].find({ ReactNativeWebView: {} }, names)).toBeUndefined();
    expect(adapters['react-native'].find({ ReactNativeWebView: null }, names)).toBeUndefined();
  });
});

describe('android adapter', () => {
  it('posts a JSON string to window.<androidChannel>.postMessage under a custom channel name', () => {
    const { target, calls } = nativeObject();
    const custom = { ...names, androidChannel: 'AcmeChatAndroid' };
    send(adapters.android, { AcmeChatAndroid: target }, { type: 'ready' }, custom);

    expect(calls).toHaveLength(1);
    expect(calls[0]?.args).toEqual(['{"type":"ready"}']);
    expect(calls[0]?.self).toBe(target);
  });

  it('ignores the default channel name when a custom one is configured', () => {
    const { target, calls } = nativeObject();
    expect(
      adapters.android.find({ [DEFAULTS.androidChannel]: target }, { ...names, androidChannel: 'AcmeChatAndroid' }),
    ).toBeUndefined();
    expect(calls).toHaveLength(0);
  });

  it('posts to window.ChatBridgeAndroid by default', () => {
    const { target, calls } = nativeObject();
    send(adapters.android, { ChatBridgeAndroid: target }, errorMessage);
    expect(calls[0]?.args).toEqual([JSON.stringify(errorMessage)]);
  });
});

describe('ios adapter', () => {
  it('posts the message object (not text) to webkit.messageHandlers.<iosHandler>.postMessage, called on the handler', () => {
    const { target, calls } = nativeObject();
    const custom = { ...names, iosHandler: 'acmeChat' };
    send(adapters.ios, { webkit: { messageHandlers: { acmeChat: target } } }, errorMessage, custom);

    expect(calls).toHaveLength(1);
    expect(calls[0]?.args).toHaveLength(1);
    expect(calls[0]?.args[0]).toEqual(errorMessage);
    expect(typeof calls[0]?.args[0]).toBe('object');
    expect(calls[0]?.self).toBe(target);
  });

  it('finds no channel without webkit, without messageHandlers, or without the named handler', () => {
    expect(adapters.ios.find({}, names)).toBeUndefined();
    expect(adapters.ios.find({ webkit: {} }, names)).toBeUndefined();
    expect(adapters.ios.find({ webkit: { messageHandlers: {} } }, names)).toBeUndefined();
    expect(
      adapters.ios.find({ webkit: { messageHandlers: { otherHandler: nativeObject().target } } }, names),
    ).toBeUndefined();
  });
});

describe('flutter adapter', () => {
  it('posts a JSON string to window.<flutterChannel>.postMessage (webview_flutter JavaScriptChannel)', () => {
    const { target, calls } = nativeObject();
    const custom = { ...names, flutterChannel: 'AcmeFlutter' };
    send(adapters.flutter, { AcmeFlutter: target }, { type: 'ready' }, custom);

    expect(calls).toHaveLength(1);
    expect(calls[0]?.args).toEqual(['{"type":"ready"}']);
    expect(calls[0]?.self).toBe(target);
  });

  it('calls flutter_inappwebview.callHandler(flutterChannel, JSON string) on flutter_inappwebview when there is no JavaScriptChannel', () => {
    const calls: Array<{ self: unknown; args: unknown[] }> = [];
    const inApp = {
      callHandler(this: unknown, ...args: unknown[]) {
        calls.push({ self: this, args });
        return Promise.resolve();
      },
    };
    send(adapters.flutter, { flutter_inappwebview: inApp }, errorMessage, { ...names, flutterChannel: 'AcmeFlutter' });

    expect(calls).toHaveLength(1);
    expect(calls[0]?.args).toEqual(['AcmeFlutter', JSON.stringify(errorMessage)]);
    expect(calls[0]?.self).toBe(inApp);
  });

  it('prefers the JavaScriptChannel over flutter_inappwebview when both exist', () => {
    const channel = nativeObject();
    const handlerCalls: unknown[] = [];
    send(
      adapters.flutter,
      {
        ChatBridgeFlutter: channel.target,
        flutter_inappwebview: { callHandler: (...args: unknown[]) => handlerCalls.push(args) },
      },
      { type: 'ready' },
    );
    expect(channel.calls).toHaveLength(1);
    expect(handlerCalls).toHaveLength(0);
  });

  it('finds no channel when flutter_inappwebview has no callHandler function', () => {
    expect(adapters.flutter.find({ flutter_inappwebview: {} }, names)).toBeUndefined();
    expect(adapters.flutter.find({ flutter_inappwebview: null }, names)).toBeUndefined();
  });
});

describe('browser adapter', () => {
  /** A window stand-in that is a real EventTarget with the real CustomEvent class. */
  function browserScope() {
    const target = new EventTarget();
    const scope = Object.assign(target, { CustomEvent }) as unknown as HostScope;
    return { target, scope };
  }

  it("dispatches a CustomEvent 'chatbridge' on window whose detail is the message object", () => {
    const { target, scope } = browserScope();
    const received: Event[] = [];
    target.addEventListener('chatbridge', (event) => received.push(event));

    send(adapters.browser, scope, errorMessage);

    expect(received).toHaveLength(1);
    const event = received[0] as CustomEvent;
    expect(event).toBeInstanceOf(CustomEvent);
    expect(event.type).toBe('chatbridge');
    expect(event.detail).toEqual(errorMessage);
  });

  it('dispatches under a custom event name and not under the default one', () => {
    const { target, scope } = browserScope();
    const custom: unknown[] = [];
    const defaults: unknown[] = [];
    target.addEventListener('acme-chat', (event) => custom.push((event as CustomEvent).detail));
    target.addEventListener('chatbridge', (event) => defaults.push((event as CustomEvent).detail));

    send(adapters.browser, scope, { type: 'ready' }, { ...names, browserEvent: 'acme-chat' });

    expect(custom).toEqual([{ type: 'ready' }]);
    expect(defaults).toEqual([]);
  });

  it('calls dispatchEvent with window as its receiver', () => {
    const receivers: unknown[] = [];
    const scope: HostScope = {
      CustomEvent,
      dispatchEvent(this: unknown) {
        receivers.push(this);
        return true;
      },
    };
    send(adapters.browser, scope, { type: 'ready' });
    expect(receivers).toEqual([scope]);
  });

  it('finds no channel without dispatchEvent or CustomEvent', () => {
    expect(adapters.browser.find({}, names)).toBeUndefined();
    expect(adapters.browser.find({ CustomEvent }, names)).toBeUndefined();
    expect(adapters.browser.find({ dispatchEvent: () => true }, names)).toBeUndefined();
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
    error: { type: 'error', code: 'rate_limited', message: '[POST /messages] 429: Too many requests', status: 429 },
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

  it.each(['react-native', 'android', 'flutter'] as const)(
    '%s receives each state change as JSON text that parses back to the very event, in order',
    (host) => {
      const payloads = received(host, lifecycle);
      expect(payloads.every((payload) => typeof payload === 'string')).toBe(true);
      expect(payloads.map((payload) => JSON.parse(payload as string))).toStrictEqual(lifecycle);
    },
  );

  it.each(['ios', 'browser'] as const)('%s receives each state change as the event object itself, in order', (host) => {
    expect(received(host, lifecycle)).toStrictEqual(lifecycle);
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
