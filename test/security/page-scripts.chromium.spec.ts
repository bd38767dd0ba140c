/**
 * Issue 34, cases 7 and 8, in real Chromium with the built bundle: what a script of the widget
 * page can do to the bridge's channel and requests once the bridge is installed (the page's
 * scripts run after it, as a host injects it at document start).
 *
 * - It replaces the Android interface's `postMessage`: the app still gets every delivery, the
 *   script none.
 * - It wraps `window.fetch` and XMLHttpRequest's methods: it never sees the `Authorization`
 *   header (the auth token) of a request of the bridge's, text or upload.
 * - On React Native it posts its own `ready`, `error` and a payload of 5,000 `ready` messages to
 *   `ReactNativeWebView`: the host (createReactNativeHost, fed what the channel received) rejects
 *   no call, passes no forged event to onEvent and injects nothing for them; it cannot read the
 *   `channelSecret` that marks the bridge's own deliveries.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { OutboundMessage } from '../../bridge/protocol/messages.js';
import { createReactNativeHost } from '../../host-adapters/react-native-host.js';
import { requireChromium } from '../helpers/chromium.js';
import { useBrowserHarness, type BridgePage } from '../helpers/browser-harness.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!requireChromium())('scripts of the widget page (real bundle in Chromium)', () => {
  const harness = useBrowserHarness();
  let tab: BridgePage | undefined;

  afterEach(async () => {
    await tab?.close();
    tab = undefined;
    harness.backend.reset();
  });

  it('a script that replaces ChatBridgeAndroid.postMessage gets none of the deliveries; the app gets them all', async () => {
    tab = await harness.open({ host: 'android' });
    await tab.page.evaluate(() => {
      const stolen: unknown[] = [];
      (window as unknown as { __stolen: unknown[] }).__stolen = stolen;
      (window as unknown as { ChatBridgeAndroid: { postMessage(data: unknown): void } }).ChatBridgeAndroid.postMessage =
        (data) => void stolen.push(data);
    });

    expect(await tab.call('init', undefined, 5_000)).toMatchObject({ ok: true });
    expect(await tab.call('sendMessage', { content: 'only for the app' }, 5_000)).toMatchObject({ ok: true });

    expect(await tab.page.evaluate(() => (window as unknown as { __stolen: unknown[] }).__stolen)).toEqual([]);
  });

  it('a script that wraps fetch and XMLHttpRequest never sees the Authorization header, for texts and uploads', async () => {
    tab = await harness.open({ host: 'android' });
    await tab.page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __seen: string[] }).__seen = seen;
      const fetch = window.fetch;
      window.fetch = function (input, init) {
        seen.push(JSON.stringify({ input: String(input), init }));
        return fetch.call(this, input, init);
      };
      const proto = XMLHttpRequest.prototype;
      for (const name of ['open', 'setRequestHeader', 'send'] as const) {
        const original = proto[name] as (...args: unknown[]) => unknown;
        (proto as unknown as Record<string, unknown>)[name] = function (this: XMLHttpRequest, ...args: unknown[]) {
          seen.push(`${name} ${JSON.stringify(args)}`);
          return original.apply(this, args);
        };
      }
      // The wrappers work: the page's own request is seen.
      void window.fetch('/harness/setup.js');
    });

    expect(await tab.call('init', undefined, 5_000)).toMatchObject({ ok: true });
    expect(await tab.call('sendMessage', { content: 'a text' }, 5_000)).toMatchObject({ ok: true });
    const photo = Buffer.alloc(100_000, 7).toString('base64');
    expect(
      await tab.call('sendMessage', { attachments: [{ name: 'p.png', type: 'image/png', data: photo }] }, 10_000),
    ).toMatchObject({ ok: true });

    const seen = await tab.page.evaluate(() => (window as unknown as { __seen: string[] }).__seen);
    expect(seen).toEqual([expect.stringContaining('/harness/setup.js')]);
    expect(harness.authTokens.size).toBeGreaterThan(0);
    for (const token of harness.authTokens) expect(JSON.stringify(seen)).not.toContain(token);
  });

  it("on React Native, a script's own ready, error and 5,000 ready reject no call, reach no onEvent and inject nothing", async () => {
    const events: OutboundMessage[] = [];
    const injected: string[] = [];
    const opened: { page?: BridgePage } = {};
    const rn = createReactNativeHost({
      onEvent: (event) => void events.push(event),
      webView: () => ({
        injectJavaScript(script: string) {
          injected.push(script);
          void opened.page?.page.evaluate(script).catch(() => undefined);
        },
      }),
    });
    const script = rn.injectedJavaScript({ baseUrl: harness.backend.url, websiteToken: 'unused' }, '');
    const secret = (/"channelSecret":"(\w+)"/.exec(script) as RegExpExecArray)[1] as string;
    const page =
      (opened.page =
      tab =
        await harness.open({ host: 'react-native', settings: { host: 'react-native', channelSecret: secret } }));
    // What react-native-webview does with each ReactNativeWebView.postMessage: onMessage with its data.
    let fed = 0;
    const pump = async () => {
      const payloads = await page.payloads();
      for (; fed < payloads.length; fed++) rn.onMessage({ nativeEvent: { data: payloads[fed] as string } });
    };
    const pumping = setInterval(() => void pump(), 20);
    try {
      await pump();
      await expect(rn.client.init()).resolves.toMatchObject({ config: expect.anything() });

      // A call under way (the backend holds it) and a message followed (queued in the outbox).
      harness.backend.setFault('hang', true);
      let settled: unknown;
      rn.client.getConversation().then(
        () => (settled = 'resolved'),
        (error: unknown) => (settled = error),
      );
      void rn.client.sendMessage({ content: 'followed', messageId: 'rn-followed' }).catch(() => undefined);
      for (let tries = 0; tries < 100 && !events.some((event) => event.type === 'message'); tries++) await pause(20);
      const injectedBefore = injected.length;

      const outside = await page.page.evaluate(() => {
        const settings = (window as unknown as { chatBridgeSettings?: Record<string, unknown> }).chatBridgeSettings;
        const channel = (window as unknown as { ReactNativeWebView: { postMessage(data: string): void } })
          .ReactNativeWebView;
        channel.postMessage('{"type":"ready"}');
        channel.postMessage('{"type":"error","code":"auth_failed","message":"forged by a page script"}');
        channel.postMessage(JSON.stringify(Array.from({ length: 5_000 }, () => ({ type: 'ready' }))));
        return JSON.stringify(settings);
      });
      await pump();
      await pause(300);
      await pump();

      expect(settled).toBeUndefined();
      expect(events.filter((event) => event.type === 'error')).toEqual([]);
      expect(events.filter((event) => event.type === 'ready')).toHaveLength(1);
      expect(injected.length).toBe(injectedBefore);
      // The secret is out of the page's reach, and in nothing the host was handed.
      expect(outside).not.toContain(secret);
      expect(JSON.stringify(events)).not.toContain(secret);
      // Every payload of the bridge's is marked; the three forged ones are not.
      const payloads = (await page.payloads()) as string[];
      expect(payloads.filter((payload) => !payload.startsWith(secret))).toHaveLength(3);
    } finally {
      clearInterval(pumping);
      harness.backend.setFault('hang', false);
    }
  });
});
