/**
 * Issue 22, case 8: Chatwoot's widget loaded as the WebView's page calls
 * `window.ReactNativeWebView.postMessage('chatwoot-widget:' + JSON)` directly. On every host such
 * calls reach the bridge's inbound rules and become the same redacted widget events as posted
 * ones; where no ReactNativeWebView exists the bridge provides one; the bridge's own deliveries
 * go out unchanged; what is not the bridge's goes on to the channel.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createBridge, type Bridge } from '../../../../bridge/bridge.js';
import { normalizeOptions } from '../../../../bridge/options.js';
import { DEFAULTS, type HostName } from '../../../../bridge/protocol/bridge-options.js';
import {
  createInMemoryEnvironment,
  type InMemoryEnvironment,
} from '../../../../tools/testing/in-memory-environment.js';

const WEBSITE_TOKEN = 'wt_page_calls_token_9f';
const CONVERSATION_TOKEN = 'cw_conversation_jwt_page_call';
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
const noFetch = () => Promise.reject(new Error('no request expected'));

/** What Chatwoot's RNHelper sends for `loaded`: the conversation's token and the website token. */
const LOADED = `chatwoot-widget:${JSON.stringify({
  event: 'loaded',
  config: { authToken: CONVERSATION_TOKEN, channelConfig: { websiteToken: WEBSITE_TOKEN, locale: 'en' } },
})}`;
const CLOSE = 'chatwoot-widget:{"type":"close-widget"}';

const bridges: Bridge[] = [];
afterEach(() => bridges.splice(0).forEach((bridge) => bridge.destroy()));

function start(host: HostName, channels: HostName[] = [host]): { t: InMemoryEnvironment; bridge: Bridge } {
  const t = createInMemoryEnvironment({ fetch: noFetch, channels });
  const options = normalizeOptions({ baseUrl: 'https://chat.example.test', websiteToken: WEBSITE_TOKEN, host }, '');
  const bridge = createBridge(options, t.env);
  bridges.push(bridge);
  return { t, bridge };
}

const pageCall = (t: InMemoryEnvironment, data: unknown) =>
  (t.env.scope['ReactNativeWebView'] as { postMessage(data: unknown): void }).postMessage(data);

describe('the widget calling window.ReactNativeWebView.postMessage directly', () => {
  it.each(['android', 'ios', 'flutter', 'browser'] as const)(
    'on %s, where no ReactNativeWebView exists, reaches the bridge through its stand-in, redacted',
    async (host) => {
      const { t } = start(host);
      pageCall(t, LOADED);
      pageCall(t, CLOSE);
      await settle();
      expect(t.messages()).toEqual([
        { type: 'ready' },
        { type: 'widget', event: 'loaded', data: { config: { channelConfig: { locale: 'en' } } } },
        { type: 'widget', event: 'close-widget', data: {} },
      ]);
      const text = JSON.stringify(t.deliveries);
      expect(text).not.toContain(WEBSITE_TOKEN);
      expect(text).not.toContain(CONVERSATION_TOKEN);
    },
  );

  it('on react-native, becomes widget events and never reaches the native side raw; the bridge delivers unchanged', async () => {
    const { t } = start('react-native');
    pageCall(t, LOADED);
    pageCall(t, CLOSE);
    await settle();
    expect(t.deliveries.map((delivery) => delivery.payload)).toEqual([
      '{"type":"ready"}',
      '{"type":"widget","event":"loaded","data":{"config":{"channelConfig":{"locale":"en"}}}}',
      '{"type":"widget","event":"close-widget","data":{}}',
    ]);
  });

  it('on react-native, passes what is not the bridge on to the channel (the host probe, other scripts)', async () => {
    const { t } = start('react-native');
    pageCall(t, '{"type":"ready","probe":"p1.abc","href":"https://chat.example.test/"}');
    pageCall(t, 'some other script');
    await settle();
    expect(t.deliveries.map((delivery) => delivery.payload)).toEqual([
      '{"type":"ready"}',
      '{"type":"ready","probe":"p1.abc","href":"https://chat.example.test/"}',
      'some other script',
    ]);
  });

  it('on flutter with its channel named ReactNativeWebView (as Chatwoot names it), is guarded the same', async () => {
    const t = createInMemoryEnvironment({
      fetch: noFetch,
      channels: [],
      names: { ...DEFAULTS, flutterChannel: 'ReactNativeWebView' },
    });
    const received: unknown[] = [];
    t.env.scope['ReactNativeWebView'] = { postMessage: (payload: unknown) => received.push(payload) };
    const options = normalizeOptions(
      {
        baseUrl: 'https://chat.example.test',
        websiteToken: WEBSITE_TOKEN,
        host: 'flutter',
        flutterChannel: 'ReactNativeWebView',
      },
      '',
    );
    bridges.push(createBridge(options, t.env));
    pageCall(t, LOADED);
    await settle();
    expect(received).toEqual([
      '{"type":"ready"}',
      '{"type":"widget","event":"loaded","data":{"config":{"channelConfig":{"locale":"en"}}}}',
    ]);
  });

  it('is refused by the inbound rules like a posted message: a bad widget message is one parse_error', async () => {
    const { t } = start('android');
    pageCall(t, 'chatwoot-widget:{not json');
    await settle();
    expect(t.messages()[1]).toMatchObject({ type: 'error', code: 'parse_error' });
  });

  it('goes nowhere once the bridge is destroyed', async () => {
    const { t, bridge } = start('android');
    bridge.destroy();
    pageCall(t, LOADED);
    await settle();
    expect(t.messages()).toEqual([{ type: 'ready' }]);
  });
});
