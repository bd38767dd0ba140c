/**
 * Android: a `@JavascriptInterface` object, `window.<androidChannel>.postMessage(String)`.
 * Checked where the bridge stops and the platform begins: what the native API is called with
 * (text or object), on which object, with which `this`; and that the shared stand-in
 * (tools/testing/stand-in-channels.ts) receives what that platform's native side would.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../../../../bridge/protocol/bridge-options.js';
import { androidAdapter } from '../../../../../bridge/outbound/adapters/android.js';
import {
  nativeObject,
  sendThrough,
  ERROR_MESSAGE,
  CHANNEL_NAMES,
  receivedByStandIn,
} from '../../../../helpers/native-channels.js';

describe('android adapter', () => {
  it('posts a JSON string to window.<androidChannel>.postMessage under a custom channel name', () => {
    const { target, calls } = nativeObject();
    const custom = { ...CHANNEL_NAMES, androidChannel: 'AcmeChatAndroid' };
    sendThrough(androidAdapter, { AcmeChatAndroid: target }, { type: 'ready' }, custom);

    expect(calls).toHaveLength(1);
    expect(calls[0]?.args).toEqual(['{"type":"ready"}']);
    expect(calls[0]?.self).toBe(target);
  });

  it('ignores the default channel name when a custom one is configured', () => {
    const { target, calls } = nativeObject();
    expect(
      androidAdapter.find(
        { [DEFAULTS.androidChannel]: target },
        { ...CHANNEL_NAMES, androidChannel: 'AcmeChatAndroid' },
      ),
    ).toBeUndefined();
    expect(calls).toHaveLength(0);
  });

  it('posts to window.ChatBridgeAndroid by default', () => {
    const { target, calls } = nativeObject();
    sendThrough(androidAdapter, { ChatBridgeAndroid: target }, ERROR_MESSAGE);
    expect(calls[0]?.args).toEqual([JSON.stringify(ERROR_MESSAGE)]);
  });
});

describe('android adapter and the shared stand-in', () => {
  it('hands the native side a JSON string, under the names configured', () => {
    const names = { ...CHANNEL_NAMES, androidChannel: 'AcmeChatAndroid' };
    expect(receivedByStandIn('android', androidAdapter, names)).toEqual([JSON.stringify(ERROR_MESSAGE)]);
  });
});
