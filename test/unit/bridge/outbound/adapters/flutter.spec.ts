/**
 * Flutter: a webview_flutter JavaScriptChannel, or flutter_inappwebview's `callHandler`.
 * Checked where the bridge stops and the platform begins: what the native API is called with
 * (text or object), on which object, with which `this`; and that the shared stand-in
 * (tools/testing/stand-in-channels.ts) receives what that platform's native side would.
 */
import { describe, expect, it } from 'vitest';
import { flutterAdapter } from '../../../../../bridge/outbound/adapters/flutter.js';
import {
  nativeObject,
  sendThrough,
  ERROR_MESSAGE,
  CHANNEL_NAMES,
  receivedByStandIn,
} from '../../../../helpers/native-channels.js';

describe('flutter adapter', () => {
  it('posts a JSON string to window.<flutterChannel>.postMessage (webview_flutter JavaScriptChannel)', () => {
    const { target, calls } = nativeObject();
    const custom = { ...CHANNEL_NAMES, flutterChannel: 'AcmeFlutter' };
    sendThrough(flutterAdapter, { AcmeFlutter: target }, { type: 'ready' }, custom);

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
    sendThrough(flutterAdapter, { flutter_inappwebview: inApp }, ERROR_MESSAGE, {
      ...CHANNEL_NAMES,
      flutterChannel: 'AcmeFlutter',
    });

    expect(calls).toHaveLength(1);
    expect(calls[0]?.args).toEqual(['AcmeFlutter', JSON.stringify(ERROR_MESSAGE)]);
    expect(calls[0]?.self).toBe(inApp);
  });

  it('prefers the JavaScriptChannel over flutter_inappwebview when both exist', () => {
    const channel = nativeObject();
    const handlerCalls: unknown[] = [];
    sendThrough(
      flutterAdapter,
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
    expect(flutterAdapter.find({ flutter_inappwebview: {} }, CHANNEL_NAMES)).toBeUndefined();
    expect(flutterAdapter.find({ flutter_inappwebview: null }, CHANNEL_NAMES)).toBeUndefined();
  });
});

describe('flutter adapter and the shared stand-in', () => {
  it('hands the native side a JSON string, under the names configured', () => {
    const names = { ...CHANNEL_NAMES, flutterChannel: 'AcmeFlutter' };
    expect(receivedByStandIn('flutter', flutterAdapter, names)).toEqual([JSON.stringify(ERROR_MESSAGE)]);
  });
});
