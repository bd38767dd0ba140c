/**
 * The bridge is built in the task after install (bridge/deferred-start.ts). In real Chromium,
 * with the injected settings and the bundle in the page's head as a native host injects them:
 * window messages and connectivity events that come before the bridge exists are kept and
 * handled once it is, in order, after `ready`; and nothing of the bridge has run before the
 * page's own next script.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStaticServer } from '../../demo-page/static-server.mjs';
import { requireChromium, launchChromium, type LaunchedBrowser } from '../helpers/chromium.js';
import { BUNDLE_PATH } from '../helpers/browser-harness.js';

const settings = { baseUrl: 'https://chat.example.test/api/v1', host: 'browser', allowedOrigins: '*' };

/** Runs right after the bundle, before the bridge is built: what a page's first script can see and do. */
const FIRST_SCRIPT = `
window.seenBeforeFirstScript = seen.length;
dispatchEvent(new MessageEvent('message', { data: 'chatwoot-widget:' + JSON.stringify({ event: 'loaded', locale: 'en' }) }));
document.dispatchEvent(new MessageEvent('message', { data: { id: 'early-1', method: 'nope' }, bubbles: true }));
dispatchEvent(new Event('offline'));
dispatchEvent(new Event('online'));
dispatchEvent(new MessageEvent('message', { data: '{"id":"early-2","method":"nope"}' }));
`;

describe.skipIf(!requireChromium())('messages that come before the bridge is built (real bundle in Chromium)', () => {
  let chromium: LaunchedBrowser;
  let server: Awaited<ReturnType<typeof startStaticServer>>;

  beforeAll(async () => {
    const page = `<!doctype html><html><head><meta charset="utf-8">
<script>window.chatBridgeSettings = ${JSON.stringify(settings)};
window.seen = [];
addEventListener('chatbridge', (event) => seen.push(event.detail));</script>
<script>${readFileSync(BUNDLE_PATH, 'utf8')}</script>
<script>${FIRST_SCRIPT}</script></head><body></body></html>`;
    server = await startStaticServer({ mounts: {}, pages: { '/early.html': page, '/favicon.ico': '' } });
    chromium = await launchChromium();
  });

  afterAll(async () => {
    await chromium?.close();
    await server?.close();
  });

  it('keeps them and handles each once, in order, right after ready', async () => {
    const tab = await chromium.browser.newPage();
    try {
      await tab.goto(`${server.url}/early.html`, { waitUntil: 'load' });
      await tab.waitForFunction(() => (window as unknown as { seen: unknown[] }).seen.length >= 6);
      const { seen, seenBeforeFirstScript } = await tab.evaluate(() => {
        const page = window as unknown as { seen: Array<Record<string, unknown>>; seenBeforeFirstScript: number };
        return { seen: page.seen, seenBeforeFirstScript: page.seenBeforeFirstScript };
      });
      // Not even ready: nothing of the bridge ran between the bundle and the page's next script.
      expect(seenBeforeFirstScript).toBe(0);
      expect(
        seen.map((message) => (message['type'] === 'response' ? `response ${message['id']}` : message['type'])),
      ).toEqual(['ready', 'widget', 'response early-1', 'error', 'response early-2', 'error']);
      expect(seen[1]).toEqual({ type: 'widget', event: 'loaded', data: { locale: 'en' } });
    } finally {
      await tab.close();
    }
  });
});
