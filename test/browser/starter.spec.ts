/**
 * Two-script injection (bridge/starter.ts) in real Chromium, as a native host does it: the
 * settings and the starter in the page's head at document start, the bundle evaluated once the
 * page has loaded. What comes in between (window messages, connectivity events, a host command)
 * is kept by the starter and handled by the bundle, each once and in order, right after `ready`.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStaticServer } from '../../demo-page/static-server.mjs';
import { requireChromium, launchChromium, type LaunchedBrowser } from '../helpers/chromium.js';
import { BUNDLE_PATH, STARTER_PATH } from '../helpers/browser-harness.js';

const settings = { baseUrl: 'https://chat.example.test/api/v1', host: 'browser', allowedOrigins: '*' };

/** The page's own first script, after the starter: what reaches the bridge before the bundle exists. */
const FIRST_SCRIPT = `
window.starterVersion = ChatBridge.version;
dispatchEvent(new MessageEvent('message', { data: 'chatwoot-widget:' + JSON.stringify({ event: 'loaded', locale: 'en' }) }));
document.dispatchEvent(new MessageEvent('message', { data: { id: 'early-1', method: 'nope' }, bubbles: true }));
dispatchEvent(new Event('offline'));
dispatchEvent(new Event('online'));
ChatBridge.receive('{"id":"early-2","method":"nope"}');
`;

type Page = Window & { seen: Array<Record<string, unknown>>; starterVersion: string; ChatBridge: { version: string } };

describe.skipIf(!requireChromium())('the starter at document start, the bundle after load (Chromium)', () => {
  let chromium: LaunchedBrowser;
  let server: Awaited<ReturnType<typeof startStaticServer>>;
  const bundle = () => readFileSync(BUNDLE_PATH, 'utf8');

  beforeAll(async () => {
    const page = `<!doctype html><html><head><meta charset="utf-8">
<script>window.chatBridgeSettings = ${JSON.stringify(settings)};
window.seen = [];
addEventListener('chatbridge', (event) => seen.push(event.detail));</script>
<script>${readFileSync(STARTER_PATH, 'utf8')}</script>
<script>${FIRST_SCRIPT}</script></head><body></body></html>`;
    server = await startStaticServer({ mounts: {}, pages: { '/starter.html': page, '/favicon.ico': '' } });
    chromium = await launchChromium();
  });

  afterAll(async () => {
    await chromium?.close();
    await server?.close();
  });

  it('keeps what comes before the bundle and hands it over: each once, in order, right after ready', async () => {
    const tab = await chromium.browser.newPage();
    try {
      await tab.goto(`${server.url}/starter.html`, { waitUntil: 'load' });
      // Nothing is delivered before the bundle comes, however long that takes.
      await tab.waitForTimeout(200);
      expect(await tab.evaluate(() => (window as unknown as Page).seen.length)).toBe(0);
      await tab.evaluate(bundle());
      await tab.waitForFunction(() => (window as unknown as Page).seen.length >= 6);
      // A second evaluation of the bundle (a host's other hook) changes nothing.
      await tab.evaluate(bundle());
      await tab.waitForTimeout(100);
      const { seen, starterVersion, version } = await tab.evaluate(() => {
        const page = window as unknown as Page;
        return { seen: page.seen, starterVersion: page.starterVersion, version: page.ChatBridge.version };
      });
      expect(starterVersion).toBe('starter');
      expect(version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(
        seen.map((message) => (message['type'] === 'response' ? `response ${message['id']}` : message['type'])),
      ).toEqual(['ready', 'widget', 'response early-1', 'error', 'response early-2', 'error']);
      expect(seen[1]).toEqual({ type: 'widget', event: 'loaded', data: { locale: 'en' } });
    } finally {
      await tab.close();
    }
  });
});
