/**
 * iOS: `webkit.messageHandlers.<iosHandler>.postMessage(string)`: JSON text, not the object
 * (WebKit's conversion of an object costs the page's main thread about twice the text's).
 * Checked where the bridge stops and the platform begins: what the native API is called with
 * (text or object), on which object, with which `this`; and that the shared stand-in
 * (tools/testing/stand-in-channels.ts) receives what that platform's native side would.
 */
import { describe, expect, it } from 'vitest';
import { iosAdapter } from '../../../../../bridge/outbound/adapters/ios.js';
import {
  nativeObject,
  sendThrough,
  ERROR_MESSAGE,
  CHANNEL_NAMES,
  receivedByStandIn,
} from '../../../../helpers/native-channels.js';

describe('ios adapter', () => {
  it('posts the message as JSON text (not the object) to webkit.messageHandlers.<iosHandler>.postMessage, called on the handler', () => {
    const { target, calls } = nativeObject();
    const custom = { ...CHANNEL_NAMES, iosHandler: 'acmeChat' };
    sendThrough(iosAdapter, { webkit: { messageHandlers: { acmeChat: target } } }, ERROR_MESSAGE, custom);

    expect(calls).toHaveLength(1);
    expect(calls[0]?.args).toEqual([JSON.stringify(ERROR_MESSAGE)]);
    expect(calls[0]?.self).toBe(target);
  });

  it('finds no channel without webkit, without messageHandlers, or without the named handler', () => {
    expect(iosAdapter.find({}, CHANNEL_NAMES)).toBeUndefined();
    expect(iosAdapter.find({ webkit: {} }, CHANNEL_NAMES)).toBeUndefined();
    expect(iosAdapter.find({ webkit: { messageHandlers: {} } }, CHANNEL_NAMES)).toBeUndefined();
    expect(
      iosAdapter.find({ webkit: { messageHandlers: { otherHandler: nativeObject().target } } }, CHANNEL_NAMES),
    ).toBeUndefined();
  });
});

describe('ios adapter and the shared stand-in', () => {
  it('hands the native side the JSON text, under the names configured', () => {
    const names = { ...CHANNEL_NAMES, iosHandler: 'acmeChat' };
    expect(receivedByStandIn('ios', iosAdapter, names)).toEqual([JSON.stringify(ERROR_MESSAGE)]);
  });
});
