/**
 * Issue 22, case 8, in real Chromium with the built bundle and the five channel stand-ins: the
 * widget loaded as the page itself calls `window.ReactNativeWebView.postMessage('chatwoot-widget:'
 * + JSON)` directly, as Chatwoot's RNHelper does (`loaded` with the conversation's authToken and the
 * website token in channelConfig; the close button's `{"type":"close-widget"}`). On every host the
 * host gets the same redacted widget events as for posted messages, and no raw string.
 */
import { describe, expect, it } from 'vitest';
import { requireChromium } from '../helpers/chromium.js';
import { HOSTS, WEBSITE_TOKEN, useBrowserHarness } from '../helpers/browser-harness.js';

const CONVERSATION_TOKEN = 'cw_conversation_jwt_page_chromium';
const LOADED = `chatwoot-widget:${JSON.stringify({
  event: 'loaded',
  config: { authToken: CONVERSATION_TOKEN, channelConfig: { websiteToken: WEBSITE_TOKEN, locale: 'en' } },
})}`;
const CLOSE = 'chatwoot-widget:{"type":"close-widget"}';

describe.skipIf(!requireChromium())("the widget's direct ReactNativeWebView calls (real bundle in Chromium)", () => {
  const harness = useBrowserHarness();

  it.each(HOSTS)('on %s become widget events, redacted, and nothing raw reaches the channel', async (host) => {
    const tab = await harness.open({ host });
    try {
      const since = await tab.mark();
      // As RNHelper.sendMessage does it: the page's own script, no postMessage event.
      await tab.page.evaluate(
        ([loaded, close]) => {
          const channel = (window as unknown as { ReactNativeWebView: { postMessage(data: string): void } })
            .ReactNativeWebView;
          channel.postMessage(loaded as string);
          channel.postMessage(close as string);
        },
        [LOADED, CLOSE],
      );
      await tab.waitFor({ type: 'widget', event: 'close-widget' }, { since });
      expect((await tab.messages()).slice(since)).toEqual([
        { type: 'widget', event: 'loaded', data: { config: { channelConfig: { locale: 'en' } } } },
        { type: 'widget', event: 'close-widget', data: {} },
      ]);
      const raw = JSON.stringify(await tab.payloads());
      expect(raw).not.toContain('chatwoot-widget:');
      expect(raw).not.toContain(CONVERSATION_TOKEN);
      expect(raw).not.toContain(WEBSITE_TOKEN);
      expect(tab.consoleErrors).toEqual([]);
    } finally {
      await tab.close();
    }
  });
});
