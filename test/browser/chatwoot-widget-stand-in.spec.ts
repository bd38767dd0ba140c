/**
 * The reference backend's Chatwoot widget page (reference-backend/chatwoot/widget-page.mjs) in
 * Chromium: /widget?website_token=…&cw_conversation=… renders the contact's token into the page,
 * and its widget stand-in posts `loaded` as Chatwoot's widget does (App.vue `mounted`): to
 * window.ReactNativeWebView in a React Native WebView, to the parent when framed, nowhere else;
 * and a photo Chromium posts from that page, in its own multipart encoding, arrives byte for byte.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceBackend } from '../../reference-backend/server.mjs';
import { launchChromium, requireChromium, type LaunchedBrowser } from '../helpers/chromium.js';

type Backend = Awaited<ReturnType<typeof startReferenceBackend>>;

describe.skipIf(!requireChromium())("the Chatwoot mode's widget page in Chromium", () => {
  let backend: Backend;
  let chromium: LaunchedBrowser;
  let token: string;
  let closeParent: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    backend = await startReferenceBackend({ backend: 'chatwoot' });
    chromium = await launchChromium();
    const res = await fetch(`${backend.url}/api/v1/widget/config?website_token=wt_demo`, { method: 'POST' });
    token = ((await res.json()) as { auth_token: string }).auth_token;
  });
  afterAll(async () => {
    await chromium?.close();
    await backend?.close();
  });

  const widgetUrl = (conversation?: string) =>
    `${backend.url}/widget?website_token=wt_demo${conversation ? `&cw_conversation=${encodeURIComponent(conversation)}` : ''}`;

  const loaded = (authToken: string) => ({
    event: 'loaded',
    config: { authToken, channelConfig: { websiteName: 'Inbox 1', websiteToken: 'wt_demo', locale: 'en' } },
  });

  it("posts loaded with the cw_conversation contact's token to window.ReactNativeWebView", async () => {
    const context = await chromium.browser.newContext();
    try {
      const page = await context.newPage();
      await page.addInitScript(() => {
        const w = window as unknown as { posted: string[]; ReactNativeWebView: { postMessage(m: string): void } };
        w.posted = [];
        w.ReactNativeWebView = { postMessage: (message) => w.posted.push(message) };
      });
      await page.goto(widgetUrl(token));
      await page.locator('#app[data-loaded="true"]').waitFor({ state: 'attached' });
      const posted = await page.evaluate(() => (window as unknown as { posted: string[] }).posted);
      expect(posted).toHaveLength(1);
      expect(posted[0]!.startsWith('chatwoot-widget:')).toBe(true);
      expect(JSON.parse(posted[0]!.slice('chatwoot-widget:'.length))).toEqual(loaded(token));
    } finally {
      await context.close();
    }
  });

  it('posts loaded to the parent when framed (a new contact without cw_conversation), and nothing at the top level', async () => {
    const context = await chromium.browser.newContext();
    try {
      const page = await context.newPage();
      await page.addInitScript(() => {
        const w = window as unknown as { heard: string[] };
        w.heard = [];
        if (window.self === window.top) addEventListener('message', (event) => w.heard.push(String(event.data)));
      });
      // The frame's parent on another origin (another port), as a web page embedding the widget.
      const parent = createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(`<iframe src="${widgetUrl()}"></iframe>`);
      });
      await new Promise<void>((resolve) => parent.listen(0, '127.0.0.1', resolve));
      closeParent = () => new Promise<void>((resolve) => parent.close(() => resolve()));
      await page.goto(`http://127.0.0.1:${(parent.address() as AddressInfo).port}/`);
      await expect.poll(() => page.evaluate(() => (window as unknown as { heard: string[] }).heard.length)).toBe(1);
      const heard = await page.evaluate(() => (window as unknown as { heard: string[] }).heard[0]!);
      const event = JSON.parse(heard.slice('chatwoot-widget:'.length)) as { config: { authToken: string } };
      expect(event.config.authToken).not.toBe(token);
      expect(event).toEqual(loaded(event.config.authToken));

      const top = await context.newPage();
      await top.addInitScript(() => {
        const w = window as unknown as { heard: string[] };
        w.heard = [];
        addEventListener('message', (event) => w.heard.push(String(event.data)));
      });
      await top.goto(widgetUrl(token));
      await top.locator('#app[data-loaded="true"]').waitFor({ state: 'attached' });
      expect(await top.evaluate(() => (window as unknown as { heard: string[] }).heard)).toEqual([]);
    } finally {
      await context.close();
      await closeParent();
    }
  });

  it("takes a photo Chromium posts from the widget page as multipart, with the page's own token", async () => {
    const context = await chromium.browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(widgetUrl(token));
      const answer = await page.evaluate(async () => {
        const bytes = new Uint8Array(70_000).map((_, i) => (i * 7) % 256);
        const form = new FormData();
        form.append('message[content]', 'a "quoted" photo');
        form.append('message[attachments][]', new Blob([bytes], { type: 'image/jpeg' }), 'photo "1".jpg');
        const auth = (window as unknown as { authToken: string }).authToken;
        const res = await fetch(`/api/v1/widget/messages?website_token=wt_demo`, {
          method: 'POST',
          headers: { 'X-Auth-Token': auth },
          body: form,
        });
        return { status: res.status, body: (await res.json()) as { content: string } };
      });
      expect(answer).toMatchObject({ status: 200, body: { content: 'a "quoted" photo' } });
      const stored = (await (await fetch(`${backend.url}/__admin/conversations`)).json()) as Array<{
        messages: Array<{ content: string; attachments: Array<{ sha256: string; size: number }> }>;
      }>;
      const expected = createHash('sha256')
        .update(new Uint8Array(70_000).map((_, i) => (i * 7) % 256))
        .digest('hex');
      expect(stored.flatMap((c) => c.messages).at(-1)?.attachments).toMatchObject([{ sha256: expected, size: 70_000 }]);
    } finally {
      await context.close();
    }
  });
});
