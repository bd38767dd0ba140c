/**
 * Issue 22's attacks, in real Chromium with the built scripts as a host injects them: a frame of
 * another origin flooding the starter (case 1), a backend echoing the tokens in encodings the
 * plain forms miss (case 2), a backend answering with bodies nested 20,000 deep (case 3), and a
 * host sending an upload in 200,000 chunks of 4 characters (case 5).
 * The backend is a small hostile server on 127.0.0.1 (hostile-backend.ts).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStaticServer } from '../../demo-page/static-server.mjs';
import { BUNDLE_PATH, STARTER_PATH, useBrowserHarness } from '../helpers/browser-harness.js';
import { launchChromium, requireChromium, type LaunchedBrowser } from '../helpers/chromium.js';
import { startHostileBackend, type HostileBackend } from './hostile-backend.js';

const deepArray = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
const lowerHex = (text: string) => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());

describe.skipIf(!requireChromium())('the backend attacks (real bundle in Chromium)', () => {
  const harness = useBrowserHarness();
  let hostile: HostileBackend;

  beforeAll(async () => {
    hostile = await startHostileBackend();
  });
  afterAll(async () => {
    await hostile?.close();
  });

  it('case 2: a token echoed with lowercase hex or percent-encoded twice reaches no host', async () => {
    const websiteToken = 'wt+e2e/Secret=9c ü';
    const uri = encodeURIComponent(websiteToken);
    const forms = [lowerHex(uri), encodeURIComponent(uri), lowerHex(encodeURIComponent(lowerHex(uri)))];
    hostile.routes.set('GET /config', {
      status: 401,
      body: JSON.stringify({ message: `unknown website_token ${forms.join(' / ')}` }),
    });
    for (const host of ['react-native', 'ios'] as const) {
      const tab = await harness.open({ host, settings: { baseUrl: hostile.url, websiteToken } });
      try {
        const answer = await tab.call('init');
        expect(answer).toMatchObject({ ok: false, error: { code: 'auth_failed' } });
        const text = JSON.stringify(await tab.payloads());
        for (const form of [...forms, websiteToken, uri]) expect(text).not.toContain(form);
        expect(text).toContain('<redacted>');
      } finally {
        await tab.close();
      }
    }
  });

  it('case 3: bodies nested 20,000 deep: init answered, the message sent, each command answered once', async () => {
    hostile.routes.set('GET /config', {
      status: 200,
      body: `{"authToken":"at_hostile_deep_token","widget":{"x":${deepArray(20_000)}}}`,
    });
    hostile.routes.set('GET /conversations', { status: 200, body: '{"id":1,"messages":[]}' });
    hostile.routes.set('POST /messages', { status: 200, body: `{"id":5,"content":"hi","x":${deepArray(20_000)}}` });
    const tab = await harness.open({ host: 'android', settings: { baseUrl: hostile.url } });
    try {
      expect(await tab.call('init')).toMatchObject({ ok: true });
      const since = await tab.mark();
      const id = await tab.send('sendMessage', { content: 'hi' });
      await tab.waitFor({ type: 'response', id }, { since });
      await tab.waitFor({ type: 'message', state: 'sent' }, { since });
      // Whatever else was coming has come by the time a later command is answered.
      await tab.call('nope');
      const messages = (await tab.messages()).slice(since);
      expect(messages.filter((message) => message.type === 'response' && message.id === id)).toEqual([
        expect.objectContaining({ ok: true }),
      ]);
      expect(messages.filter((message) => message.type === 'error' && message.code === 'storage_error')).toEqual([]);
      expect((await tab.messages()).map((message) => message.type === 'message' && message.state)).toContain('sent');
      expect(tab.consoleErrors).toEqual([]);
    } finally {
      await tab.close();
    }
  });
});

describe.skipIf(!requireChromium())('case 5: tiny chunks (real bundle in Chromium)', () => {
  const harness = useBrowserHarness();

  it('200,000 appendAttachment chunks of 4 characters are refused past the limit and hold no memory', async () => {
    const tab = await harness.open({ host: 'android' });
    try {
      const cdp = await tab.context.newCDPSession(tab.page);
      const heap = async () => {
        await cdp.send('HeapProfiler.collectGarbage');
        return (await cdp.send('Runtime.getHeapUsage')).usedSize;
      };
      // The stand-in keeps every payload; this channel keeps the refusals' texts only, so the
      // heap shows what the bridge holds.
      await tab.page.evaluate(() => {
        const page = window as unknown as { refusals: string[]; ChatBridgeAndroid: unknown };
        page.refusals = [];
        page.ChatBridgeAndroid = {
          postMessage(text: string) {
            if (text.includes('"ok":false') && page.refusals.length < 3) page.refusals.push(text);
          },
        };
      });
      const before = await heap();
      await tab.page.evaluate(async () => {
        const bridge = (window as unknown as { ChatBridge: { receive(data: string): void } }).ChatBridge;
        for (let index = 0; index < 200_000; index++) {
          bridge.receive(
            `{"id":"c${index}","method":"appendAttachment","params":{"uploadId":"tiny","index":${index},"data":"AAAA"}}`,
          );
          // Answers are async: let them go out as a host's calls would, a batch at a time.
          if (index % 2000 === 1999) await new Promise((resolve) => setTimeout(resolve, 0));
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      });
      const after = await heap();
      const refusals = await tab.page.evaluate(() => (window as unknown as { refusals: string[] }).refusals);
      expect(JSON.parse(refusals[0] as string)).toMatchObject({
        id: 'c4096',
        ok: false,
        error: { code: 'parse_error', message: '[appendAttachment] upload "tiny" over 4096 chunks' },
      });
      // Held, the chunks took 11 MiB; refused, the heap is about where it was.
      expect(after - before).toBeLessThan(3 * 1024 * 1024);
      expect(await tab.stats()).toMatchObject({ pendingCommands: 0 });
    } finally {
      await tab.close();
    }
  }, 120_000);
});

describe.skipIf(!requireChromium())('case 1: the starter under a flood (real starter and bundle in Chromium)', () => {
  let chromium: LaunchedBrowser;
  let page: Awaited<ReturnType<typeof startStaticServer>>;
  let other: Awaited<ReturnType<typeof startStaticServer>>;

  const loaded = `'chatwoot-widget:' + JSON.stringify({ event: 'loaded', locale: 'en' })`;

  beforeAll(async () => {
    // The starter at document start with the host's settings; the bundle comes later (the test injects it).
    const host = (body: string) => `<!doctype html><html><head><meta charset="utf-8">
<script>window.chatBridgeSettings = { baseUrl: 'https://chat.example.test/api/v1', websiteToken: 'wt_flood_token', host: 'browser' };
window.seen = []; window.fromOthers = 0;
addEventListener('chatbridge', (event) => seen.push(event.detail));
addEventListener('message', (event) => { if (event.origin !== location.origin) fromOthers++; });</script>
<script>${readFileSync(STARTER_PATH, 'utf8')}</script></head><body>${body}</body></html>`;
    other = await startStaticServer({
      mounts: {},
      pages: {
        '/flood.html': `<!doctype html><script>
for (let i = 0; i < 1000; i++) parent.postMessage('junk ' + i, '*');
parent.postMessage(${loaded.replace("'loaded'", "'fake'")}, '*');
</script>`,
        '/favicon.ico': '',
      },
    });
    page = await startStaticServer({
      mounts: {},
      pages: {
        '/framed.html': host(`<iframe src="${other.url}/flood.html"></iframe>`),
        '/plain.html': host(''),
        '/favicon.ico': '',
      },
    });
    chromium = await launchChromium();
  });

  afterAll(async () => {
    await chromium?.close();
    await page?.close();
    await other?.close();
  });

  /** Posts from the page itself, waits until each has been dispatched, injects the bundle, and returns what the host got. */
  async function thenBundle(
    tab: import('playwright-core').Page,
    posts: string,
  ): Promise<Array<Record<string, unknown>>> {
    await tab.evaluate(`new Promise((resolve) => {
      ${posts}
      addEventListener('message', (event) => event.data === 'sync' && resolve());
      postMessage('sync', location.origin);
    })`);
    await tab.addScriptTag({ content: readFileSync(BUNDLE_PATH, 'utf8') });
    await tab.waitForFunction(() => (window as unknown as { seen: unknown[] }).seen.length > 0);
    // Everything the bundle was handed is handled in the task after it: one more turn.
    await tab.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50)));
    return tab.evaluate(() => (window as unknown as { seen: Array<Record<string, unknown>> }).seen);
  }

  it("a frame of another origin posting 1,000 messages first does not cost the widget's loaded event", async () => {
    const tab = await chromium.browser.newPage();
    try {
      await tab.goto(`${page.url}/framed.html`, { waitUntil: 'load' });
      await tab.waitForFunction(() => (window as unknown as { fromOthers: number }).fromOthers >= 1001);
      const seen = await thenBundle(tab, `postMessage(${loaded}, location.origin);`);
      expect(seen).toEqual([{ type: 'ready' }, { type: 'widget', event: 'loaded', data: { locale: 'en' } }]);
    } finally {
      await tab.close();
    }
  });

  it('keeps at most 8 MiB of message data, and the bridge says how many it dropped, once, after ready', async () => {
    const tab = await chromium.browser.newPage();
    try {
      await tab.goto(`${page.url}/plain.html`, { waitUntil: 'load' });
      const seen = await thenBundle(
        tab,
        `const junk = 'x'.repeat(4 * 1024 * 1024); for (let i = 0; i < 16; i++) postMessage(junk + i, location.origin);`,
      );
      // Junk text is foreign to the bridge: only the count of what the starter could not keep shows.
      expect(seen).toEqual([
        { type: 'ready' },
        { type: 'error', code: 'channel_error', retryable: true, message: '[starter] 15 event(s) dropped' },
      ]);
    } finally {
      await tab.close();
    }
  });
});
