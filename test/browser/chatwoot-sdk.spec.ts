/**
 * Beside Chatwoot's own React Native SDK (@chatwoot/react-native-widget 0.0.21, its generateScripts
 * vendored in test/vendor/): the SDK injects 'chatwoot-widget:'-prefixed messages into the widget
 * page (set-user with the user's e-mail and identifier_hash, set-locale, set-custom-attributes,
 * set-color-scheme). They are for the widget: the bridge must never echo them to the host. The
 * widget's own loaded event carries the conversation token (config.authToken), which the SDK
 * stores and sends back as cw_conversation: the bridge hands it over in one conversationToken
 * event when the host opts in, and drops it from the widget event either way.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { requireChromium } from '../helpers/chromium.js';
import { HOSTS, useBrowserHarness } from '../helpers/browser-harness.js';

import { generateScripts } from '../vendor/chatwoot-react-native-widget-0.0.21/src/utils.js';

// utils.js imports AsyncStorage for a helper this test does not call.
vi.mock('@react-native-async-storage/async-storage', () => ({ default: {} }));

const VENDOR = new URL('../vendor/chatwoot-react-native-widget-0.0.21/src/', import.meta.url);
const PUBLISHED_SHA256 = {
  'utils.js': 'f5194e3a02665a3981128f2310bd7ef133d5bb0cf9d0488ee6541f7329eba3ab',
  'constants.js': '8f2e0642da345a3295fe7541a9d8201381dc96d52c150d6866c8f66350e59f3d',
};

const USER = { name: 'Ada Lovelace', email: 'ada.sdk@example.com', identifier_hash: 'hmac_5f1e9c0d7b3a' };
/** What the SDK's WebView component passes to generateScripts (src/WebView.js). */
const SDK_SCRIPT: string = generateScripts({
  user: USER,
  locale: 'fr',
  customAttributes: { plan: 'pro-plan-7' },
  colorScheme: 'dark',
});
const CONVERSATION_TOKEN = 'cw_conversation_jwt_Qm7x2Lp9';
const LOADED = `chatwoot-widget:${JSON.stringify({ event: 'loaded', config: { authToken: CONVERSATION_TOKEN } })}`;

describe('the vendored SDK files', () => {
  it.each(Object.entries(PUBLISHED_SHA256))('%s is byte for byte the published one', (file, sha256) => {
    expect(
      createHash('sha256')
        .update(readFileSync(new URL(file, VENDOR)))
        .digest('hex'),
    ).toBe(sha256);
  });

  it('generate the four host-to-widget messages this test is about', () => {
    for (const event of ['set-user', 'set-locale', 'set-custom-attributes', 'set-color-scheme'])
      expect(SDK_SCRIPT).toContain(`'chatwoot-widget:{"event":"${event}"`);
    expect(SDK_SCRIPT).toContain(USER.email);
    expect(SDK_SCRIPT).toContain(USER.identifier_hash);
  });
});

describe.skipIf(!requireChromium())("Chatwoot's React Native SDK scripts beside the bridge in Chromium", () => {
  const harness = useBrowserHarness();

  it.each(HOSTS)(
    'on %s: never echoes the SDK messages, drops the conversation token from loaded, and forwards it only when asked',
    async (host) => {
      for (const forward of [false, true]) {
        const tab = await harness.open({ host, settings: { forwardConversationToken: forward } });
        // As react-native-webview's injectedJavaScript runs it: in the page, after load.
        await tab.page.evaluate(SDK_SCRIPT);
        await tab.page.evaluate((text) => window.postMessage(text, location.origin), LOADED);
        await tab.waitFor({ type: 'widget', event: 'loaded' });
        // A last widget event, so everything posted before it has surely been handled.
        await tab.page.evaluate(() => window.postMessage('chatwoot-widget:{"event":"onMessage"}', location.origin));
        await tab.waitFor({ type: 'widget', event: 'onMessage' });

        const messages = await tab.messages();
        const widgetEvents = messages.filter((message) => message.type === 'widget');
        expect(widgetEvents).toEqual([
          { type: 'widget', event: 'loaded', data: { config: {} } },
          { type: 'widget', event: 'onMessage', data: {} },
        ]);
        const tokens = messages.filter((message) => message.type === 'conversationToken');
        expect(tokens).toEqual(forward ? [{ type: 'conversationToken', token: CONVERSATION_TOKEN }] : []);

        const others = JSON.stringify(messages.filter((message) => message.type !== 'conversationToken'));
        for (const secret of [CONVERSATION_TOKEN, USER.email, USER.identifier_hash, 'pro-plan-7'])
          expect(others).not.toContain(secret);
        expect(tab.consoleErrors).toEqual([]);
        await tab.close();
      }
    },
  );
});
