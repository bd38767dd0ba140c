/**
 * The bridge in Chatwoot's widget page, as Chatwoot's mobile SDKs load it: a real Chromium opens
 * `/widget?website_token=…&cw_conversation=<token>` from the reference backend's Chatwoot mode
 * (reference-backend/chatwoot/widget-page.mjs stands in for app/controllers/widgets_controller.rb),
 * with the bridge injected as each platform's docs say (settings, then dist/chat-bridge.js, at
 * document start, before the page's scripts) and `backend: 'chatwoot'`. Text and a photo sent
 * through it land in the conversation of the contact the page names, with X-Auth-Token and
 * never Authorization, and no token reaches the host.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, requireChromium, type LaunchedBrowser } from '../helpers/chromium.js';
import { BUNDLE_PATH, HOSTS, decodePayloads } from '../helpers/browser-harness.js';
import { startReferenceBackend } from '../../reference-backend/server.mjs';
import type { HostName } from '../../bridge/protocol/bridge-options.js';

const WEBSITE_TOKEN = 'wt_cw_chromium_5d2e';
const API = '/api/v1/widget';

/** The native channel of each platform, standing in for the app: it keeps what it is handed. */
const channel = (host: HostName) =>
  ({
    'react-native': 'window.ReactNativeWebView = { postMessage: function (p) { window.__got.push(p); } };',
    android: 'window.ChatBridgeAndroid = { postMessage: function (p) { window.__got.push(p); } };',
    flutter: 'window.ChatBridgeFlutter = { postMessage: function (p) { window.__got.push(p); } };',
    ios: 'window.webkit = { messageHandlers: { chatBridge: { postMessage: function (p) { window.__got.push(structuredClone(p)); } } } };',
    browser: 'addEventListener("chatbridge", function (e) { window.__got.push(e.detail); });',
  })[host];

describe.skipIf(!requireChromium())("the bridge in Chatwoot's widget page, in Chromium", () => {
  let backend: Awaited<ReturnType<typeof startReferenceBackend>>;
  let launched: LaunchedBrowser;
  beforeAll(async () => {
    backend = await startReferenceBackend({ backend: 'chatwoot', websiteTokens: [WEBSITE_TOKEN] });
    launched = await launchChromium();
  });
  afterAll(async () => {
    await launched?.close();
    await backend?.close();
  });

  const conversations = async () =>
    (await (await fetch(`${backend.url}/__admin/conversations`)).json()) as Array<{
      contactId: number;
      messages: Array<{ content: string | null; attachments: Array<{ size: number; sha256: string }> }>;
    }>;

  /** A contact as the widget page makes one, and its id (found from a message the widget sends as it). */
  async function widgetContact(): Promise<{ token: string; contactId: number }> {
    const html = await (await fetch(`${backend.url}/widget?website_token=${WEBSITE_TOKEN}`)).text();
    const token = JSON.parse(/window\.authToken = (".*?");/.exec(html)![1]!) as string;
    const marker = `widget says hi ${token.slice(-8)}`;
    await fetch(`${backend.url}${API}/messages?website_token=${WEBSITE_TOKEN}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-auth-token': token },
      body: JSON.stringify({ message: { content: marker } }),
    });
    const mine = (await conversations()).find((c) => c.messages.some((m) => m.content === marker));
    return { token, contactId: mine!.contactId };
  }

  it.each(HOSTS)(
    'on %s: text and a photo land in the conversation of the contact cw_conversation names',
    async (host) => {
      const { token, contactId } = await widgetContact();
      const context = await launched.browser.newContext();
      try {
        const page = await context.newPage();
        const settings = { baseUrl: backend.url, websiteToken: WEBSITE_TOKEN, backend: 'chatwoot', host };
        await page.addInitScript(
          `window.__got = []; ${channel(host)} window.chatBridgeSettings = ${JSON.stringify(settings)};\n` +
            readFileSync(BUNDLE_PATH, 'utf8'),
        );
        backend.requests.length = 0;
        await page.goto(`${backend.url}/widget?website_token=${WEBSITE_TOKEN}&cw_conversation=${token}`);
        const messages = async () =>
          (await page.evaluate(() => (window as unknown as { __got: unknown[] }).__got.slice())).flatMap((p) =>
            decodePayloads(host, p),
          );
        const answer = async (id: string) => {
          await expect
            .poll(async () => (await messages()).some((m) => m.type === 'response' && m.id === id), { timeout: 10_000 })
            .toBe(true);
          return (await messages()).find((m) => m.type === 'response' && m.id === id);
        };
        const photo = Buffer.alloc(48_000, 9).toString('base64');
        await page.evaluate(
          ([p]) => {
            const bridge = (window as unknown as { ChatBridge: { receive(text: string): void } }).ChatBridge;
            bridge.receive(
              JSON.stringify({ id: 't', method: 'sendMessage', params: { content: 'Text from the app' } }),
            );
            bridge.receive(
              JSON.stringify({
                id: 'p',
                method: 'sendMessage',
                params: { attachments: [{ name: 'photo.jpg', type: 'image/jpeg', data: p }] },
              }),
            );
          },
          [photo] as const,
        );
        expect(await answer('t')).toMatchObject({ ok: true });
        expect(await answer('p')).toMatchObject({ ok: true });

        const mine = (await conversations()).filter((c) => c.contactId === contactId);
        expect(mine).toHaveLength(1);
        expect(mine[0]!.messages.slice(1).map((m) => [m.content || null, m.attachments.map((a) => a.size)])).toEqual([
          ['Text from the app', []],
          [null, [48_000]],
        ]);
        const api = backend.requests.filter((r) => r.path.startsWith(API));
        expect(api.map((r) => `${r.method} ${r.path}`)).toEqual([`POST ${API}/messages`, `POST ${API}/messages`]);
        for (const request of api) {
          expect(Object.keys(request.query)).toEqual(['website_token']);
          expect(request.headers['authorization']).toBeUndefined();
          expect(request.headers['x-auth-token']).toBeDefined();
        }
        const told = JSON.stringify(await messages());
        for (const secret of [token, WEBSITE_TOKEN]) expect(told).not.toContain(secret);
      } finally {
        await context.close();
      }
    },
    30_000,
  );
});
