/**
 * Issue 22, case 8, in real WebKit (WebKitGTK, the engine of WKWebView) on the three iOS hosts,
 * each channel installed as its library installs it: the widget loaded as the page calls
 * `window.ReactNativeWebView.postMessage('chatwoot-widget:' + JSON)` directly. On react-native
 * that is the real channel (guarded); on ios and flutter there is none, and the bridge's stand-in
 * leads into the bridge. The native handler gets redacted widget events only.
 */
import { describe, expect, it } from 'vitest';
import { WEBSITE_TOKEN } from '../helpers/browser-harness.js';
import { requireWebKit } from '../helpers/webkit.js';
import { WEBKIT_HOSTS, useWebKitHarness } from '../helpers/webkit-harness.js';

const CONVERSATION_TOKEN = 'cw_conversation_jwt_page_webkit';
const LOADED = `chatwoot-widget:${JSON.stringify({
  event: 'loaded',
  config: { authToken: CONVERSATION_TOKEN, channelConfig: { websiteToken: WEBSITE_TOKEN, locale: 'en' } },
})}`;
const CLOSE = 'chatwoot-widget:{"type":"close-widget"}';

describe.skipIf(!requireWebKit())("the widget's direct ReactNativeWebView calls (real bundle in WebKit)", () => {
  const harness = useWebKitHarness();

  it.each(WEBKIT_HOSTS)('on %s become widget events, redacted, and nothing raw reaches the handler', async (host) => {
    const tab = await harness.open({ host });
    try {
      await tab.evaluate(`
        window.ReactNativeWebView.postMessage(${JSON.stringify(LOADED)});
        window.ReactNativeWebView.postMessage(${JSON.stringify(CLOSE)});
        return true;`);
      // Answered after both: whatever they caused has reached the handler by then.
      await tab.call('nope');
      const messages = await tab.messages();
      expect(messages.filter((message) => message.type === 'widget')).toEqual([
        { type: 'widget', event: 'loaded', data: { config: { channelConfig: { locale: 'en' } } } },
        { type: 'widget', event: 'close-widget', data: {} },
      ]);
      const raw = JSON.stringify(tab.received.map((message) => message.body));
      expect(raw).not.toContain('chatwoot-widget:');
      expect(raw).not.toContain(CONVERSATION_TOKEN);
      expect(raw).not.toContain(WEBSITE_TOKEN);
    } finally {
      await tab.close();
    }
  });
});
