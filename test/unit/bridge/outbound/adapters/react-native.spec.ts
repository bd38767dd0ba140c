/**
 * React Native: `window.ReactNativeWebView.postMessage(string)`.
 * Checked where the bridge stops and the platform begins: what the native API is called with
 * (text or object), on which object, with which `this`; and that the shared stand-in
 * (tools/testing/stand-in-channels.ts) receives what that platform's native side would.
 */
import { describe, expect, it } from 'vitest';
import { reactNativeAdapter } from '../../../../../bridge/outbound/adapters/react-native.js';
import {
  nativeObject,
  sendThrough,
  ERROR_MESSAGE,
  CHANNEL_NAMES,
  receivedByStandIn,
} from '../../../../helpers/native-channels.js';

describe('react-native adapter', () => {
  it('posts the message as a JSON string to window.ReactNativeWebView.postMessage, called on ReactNativeWebView', () => {
    const { target, calls } = nativeObject();
    sendThrough(reactNativeAdapter, { ReactNativeWebView: target }, ERROR_MESSAGE);

    expect(calls).toHaveLength(1);
    expect(calls[0]?.args).toEqual([JSON.stringify(ERROR_MESSAGE)]);
    expect(typeof calls[0]?.args[0]).toBe('string');
    expect(calls[0]?.self).toBe(target);
  });

  it('finds no channel while ReactNativeWebView is missing or has no postMessage', () => {
    expect(reactNativeAdapter.find({}, CHANNEL_NAMES)).toBeUndefined();
    expect(reactNativeAdapter.find({ ReactNativeWebView: {} }, CHANNEL_NAMES)).toBeUndefined();
    expect(reactNativeAdapter.find({ ReactNativeWebView: null }, CHANNEL_NAMES)).toBeUndefined();
  });
});

describe('react-native adapter and the shared stand-in', () => {
  it('hands the native side a JSON string, under the names configured', () => {
    const names = CHANNEL_NAMES;
    expect(receivedByStandIn('react-native', reactNativeAdapter, names)).toEqual([JSON.stringify(ERROR_MESSAGE)]);
  });
});
