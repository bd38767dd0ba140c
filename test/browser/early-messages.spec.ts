/**
 * The bridge is built in the task after install (bridge/startup/deferred-start.ts). In real Chromium,
 * with the injected settings and the bundle in the page's head as a native host injects them:
 * window messages and connectivity events that come before the bridge exists are kept and
 * handled once it is, in order, after `ready`; and nothing of the bridge has run before the
 * page's own next script. And with two scripts (bridge/startup/starter.ts), as a native host injects them:
 * the starter in the head at document start, the bundle once the page has loaded: what comes in
 * between is kept by the starter and handled by the bundle, each once and in order, after `ready`.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStaticServer } from '../../demo-page/static-server.mjs';
import { requireChromium, launchChromium, type LaunchedBrowser } from '../helpers/chromium.js';
import { BUNDLE_PATH, STARTER_PATH } from '../helpers/browser-harness.js';

const settings = { baseUrl: 'https://chat.example.test/api/v1', host: 'browser', allowedOrigins: '*' };

/**
 * The page's own first script: `probe` notes what it can see, then a widget event, a command on
 * the document (it bubbles to the window), offline and online, and `lastCommand`.
 */
const firstScript = (probe: string, lastCommand: string) => `
${probe}
dispatchEvent(new MessageEvent('message', { data: 'chatwoot-widget:' + JSON.stringify({ event: 'loaded', locale: 'en' }) }));
document.dispatchEvent(new MessageEvent('message', { data: { id: 'early-1', method: 'nope' }, bubbles: true }));
dispatchEvent(new Event('offline'));
dispatchEvent(new Event('online'));
${lastCommand}
`;
/** Right after the bundle, before the bridge is built: a command posted on the window comes last. */
const FIRST_SCRIPT = firstScript(
  'window.seenBeforeFirstScript = seen.length;',
  `dispatchEvent(new MessageEvent('message', { data: '{"id":"early-2","method":"nope"}' }));`,
);
/** Right after the starter, before the bundle exists: a command through ChatBridge.receive comes last. */
const FIRST_SCRIPT_AFTER_STARTER = firstScript(
  'window.starterVersion = ChatBridge.version;',
  `ChatBridge.receive('{"id":"early-2","method":"nope"}');`,
);

type Page = Window & { seen: Array<Record<string, unknown>>; starterVersion: string; ChatBridge: { version: string } };
/** The host's deliveries in short: types, with the id of each response. */
const summary = (seen: Array<Record<string, unknown>>) =>
  seen.map((message) => (message['type'] === 'response' ? `response ${message['id']}` : message['type']));

describe.skipIf(!requireChromium())('messages that come before the bridge is built (real bundle in Chromium)', () => {
  let chromium: LaunchedBrowser;
  let server: Awaited<ReturnType<typeof startStaticServer>>;

  const bundle = () => readFileSync(BUNDLE_PATH, 'utf8');

  beforeAll(async () => {
    /** The host's settings and a listener for its deliveries, then `script`, then the page's first script. */
    const page = (script: string, first: string) => `<!doctype html><html><head><meta charset="utf-8">
<script>window.chatBridgeSettings = ${JSON.stringify(settings)};
window.seen = [];
addEventListener('chatbridge', (event) => seen.push(event.detail));</script>
<script>${script}</script>
<script>${first}</script></head><body></body></html>`;
    server = await startStaticServer({
      mounts: {},
      pages: {
        '/early.html': page(bundle(), FIRST_SCRIPT),
        '/starter.html': page(readFileSync(STARTER_PATH, 'utf8'), FIRST_SCRIPT_AFTER_STARTER),
        // A host that answers ready at once, from its listener, while the bridge is being built.
        '/answers-ready.html': page(
          `addEventListener('chatbridge', (event) => event.detail.type === 'ready' && ChatBridge.receive({ id: 'on-ready', method: 'nope' }));
${bundle()}`,
          FIRST_SCRIPT,
        ),
        '/favicon.ico': '',
      },
    });
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
      expect(summary(seen)).toEqual(['ready', 'widget', 'response early-1', 'error', 'response early-2', 'error']);
      expect(seen[1]).toEqual({ type: 'widget', event: 'loaded', data: { locale: 'en' } });
    } finally {
      await tab.close();
    }
  });

  it('with two scripts, the starter keeps what comes before the bundle, which handles it: each once, in order, right after ready', async () => {
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
      expect(summary(seen)).toEqual(['ready', 'widget', 'response early-1', 'error', 'response early-2', 'error']);
      expect(seen[1]).toEqual({ type: 'widget', event: 'loaded', data: { locale: 'en' } });
    } finally {
      await tab.close();
    }
  });

  it('builds one bridge when the host answers ready from its listener: the answer comes after the kept messages', async () => {
    const tab = await chromium.browser.newPage();
    try {
      await tab.goto(`${server.url}/answers-ready.html`, { waitUntil: 'load' });
      await tab.waitForFunction(() => (window as unknown as Page).seen.length >= 8);
      await tab.waitForTimeout(200);
      const seen = await tab.evaluate(() => (window as unknown as Page).seen);
      // One ready (a second bridge would say it again and handle the kept messages twice).
      expect(summary(seen)).toEqual([
        'ready',
        'widget',
        'response early-1',
        'error',
        'response early-2',
        'error',
        'response on-ready',
        'error',
      ]);
    } finally {
      await tab.close();
    }
  });
});
