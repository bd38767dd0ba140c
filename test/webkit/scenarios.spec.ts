/**
 * The bundle in real WebKit (WebKitGTK, the engine of WKWebView) for the three hosts that run
 * WebKit on iOS: the iOS app's own WKWebView, react-native-webview and webview_flutter, each with
 * its channel installed the way that library installs it (test/helpers/webkit-harness.ts). Against
 * the reference backend on another origin: the round trip with its CORS preflights, large
 * attachments, a strict Content-Security-Policy, the outbox across a reload, and every error code.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SLICE_BYTES } from '../../bridge/browser-storage.js';
import { CHUNK_MAX } from '../../bridge/protocol/limits.js';
import type { OutboundMessage } from '../../bridge/protocol/messages.js';
import { ChatBridgeError } from '../../host-adapters/client.js';
import { createReactNativeHost } from '../../host-adapters/react-native-host.js';
import { logLines } from '../helpers/browser-harness.js';
import { CASES, expectProduced, produce } from '../helpers/error-cases.js';
import { HAS_FROM_BASE64_JS, expectChunkGroupsChecked } from '../helpers/chunk-groups.js';
import { expectPreflightedRoundTrip } from '../helpers/page-servers.js';
import { runRoundTrip } from '../helpers/round-trip.js';
import { requireWebKit } from '../helpers/webkit.js';
import { WEBKIT_HOSTS, useWebKitHarness, type WebKitHostName, type WebKitPage } from '../helpers/webkit-harness.js';

/** The outbox's cases run with the Web Locks API and without it (iOS 12.2–15.3: its lease stands in). */
const LOCK_MODES = [
  ['Web Locks', false],
  ['lease, no Web Locks', true],
] as const;

describe.skipIf(!requireWebKit())('chat-bridge.js in WebKit', () => {
  const harness = useWebKitHarness();
  let tab: WebKitPage | undefined;

  describe.each(WEBKIT_HOSTS)('[webkit %s]', (host) => {
    afterEach(async () => {
      // The bridge never hands WebKit an `undefined` (its JSON text has none; a dictionary could not carry it).
      expect(tab?.received.flatMap((message) => message.undefinedAt) ?? []).toEqual([]);
      await tab?.close();
      tab = undefined;
      harness.backend.reset();
    });

    it('keeps window messages that come before a (re)installed bridge is built, and handles them after its ready', async () => {
      tab = await harness.open({ host });
      const since = await tab.mark();
      // In one task, as a page's script right after the bundle: the new bridge is built in the next one.
      await tab.evaluate(`ChatBridge.install();
        dispatchEvent(new MessageEvent('message', { data: 'chatwoot-widget:' + JSON.stringify({ event: 'loaded', locale: 'en' }) }));
        document.dispatchEvent(new MessageEvent('message', { data: { id: 'early-wk', method: 'nope' }, bubbles: true }));
        return null;`);
      await tab.waitFor({ type: 'error', code: 'unknown_method' }, { since });
      const after = (await tab.messages())
        .slice(since)
        .map((message) => (message.type === 'response' ? `response ${message.id}` : message.type));
      expect(after).toEqual(['ready', 'widget', 'response early-wk', 'error']);
    });

    it('runs init, getConversation (404, then created) and a multipart sendMessage through real CORS preflights', async () => {
      tab = await harness.open({ host });
      const { backend } = harness;
      expect(await tab.evaluate('return ChatBridge.bridge.host;')).toBe(host);

      await runRoundTrip(tab, 'Hello from WebKit');

      expectPreflightedRoundTrip(backend, harness.pageOrigin);

      // Each payload as JSON text, on iOS as on the other two (WKScriptMessage.body a String).
      for (const payload of await tab.payloads()) expect(typeof payload).toBe('string');
      expect((await tab.messages()).filter((message) => message.type === 'error')).toEqual([]);
      expect(await tab.consoleErrors()).toEqual([]);
    });

    // The 8 MB command is built in the page, as the app's own code would build it, rather than
    // shipped through the test's pipe to WebKit: that pipe is the harness, not the bridge, and on a
    // slow CI machine it once took over 20 s to carry it.
    it('uploads large attachments: 5 MiB (the limit) and 1 MiB in one message, bytes intact', async () => {
      tab = await harness.open({ host });
      expect(await tab.call('getConversation')).toMatchObject({ ok: true });
      const since = await tab.mark();
      const commandLength = await tab.evaluate(`
        const base64Of = (byte, length) => btoa(String.fromCharCode(byte).repeat(length));
        const command = JSON.stringify({
          id: 'large',
          method: 'sendMessage',
          params: {
            content: 'large',
            attachments: [
              { name: 'big.bin', type: 'application/pdf', data: base64Of(7, ${5 * 1024 * 1024}) },
              { name: 'medium.png', type: 'image/png', data: base64Of(1, ${1024 * 1024}) },
            ],
          },
        });
        ChatBridge.receive(command);
        return command.length;`);
      expect(commandLength).toBeGreaterThan(8 * 1024 * 1024);
      const sent = await tab.waitFor({ type: 'response', id: 'large' }, { since, timeoutMs: 30_000 });
      const sha256 = (byte: number, length: number) =>
        createHash('sha256').update(Buffer.alloc(length, byte)).digest('hex');
      expect(sent).toMatchObject({
        ok: true,
        result: {
          attachments: [
            { name: 'big.bin', size: 5 * 1024 * 1024 },
            { name: 'medium.png', size: 1024 * 1024 },
          ],
        },
      });
      expect((await harness.storedMessages()).map((message) => message.attachments)).toEqual([
        [
          { name: 'big.bin', type: 'application/pdf', size: 5 * 1024 * 1024, sha256: sha256(7, 5 * 1024 * 1024) },
          { name: 'medium.png', type: 'image/png', size: 1024 * 1024, sha256: sha256(1, 1024 * 1024) },
        ],
      ]);
      expect(logLines(harness.backend).filter((line) => line.startsWith('POST /messages'))).toEqual([
        'POST /messages 200',
      ]);
    }, 60_000);

    it('works under a strict CSP: no eval, no inline script, connect-src only the backend; no violation', async () => {
      tab = await harness.open({ host, strictCsp: true });
      expect(await tab.call('init')).toMatchObject({ ok: true });
      expect(await tab.call('getConversation', { name: 'Grace' })).toMatchObject({ ok: true });
      expect(
        await tab.call('sendMessage', {
          content: 'under CSP',
          attachments: [{ name: 'dot.png', type: 'image/png', data: 'iVBORw0KGgo=' }],
        }),
      ).toMatchObject({ ok: true, result: { attachments: [{ name: 'dot.png', size: 8 }] } });
      const since = await tab.mark();
      await tab.postWindowMessage('chatwoot-widget:{"event":"loaded","config":{"locale":"en"}}');
      expect(await tab.waitFor({ type: 'widget' }, { since })).toEqual({
        type: 'widget',
        event: 'loaded',
        data: { config: { locale: 'en' } },
      });
      expect(await tab.violations()).toEqual([]);
      expect(await tab.consoleErrors()).toEqual([]);
    });

    it.each(LOCK_MODES)(
      'keeps messages (a photo too) sent offline through a reload in IndexedDB, then sends each exactly once, in order [%s]',
      async (_, noWebLocks) => {
        tab = await harness.open({ host, noWebLocks });
        expect(await tab.call('getConversation')).toMatchObject({ ok: true });
        await tab.setOffline(true);
        const photo = Buffer.alloc(40_000, 9).toString('base64');
        const ids = [
          await tab.send('sendMessage', { content: 'first', messageId: 'first' }),
          await tab.send('sendMessage', {
            content: 'second',
            messageId: 'second',
            attachments: [{ name: 'photo.jpg', type: 'image/jpeg', data: photo }],
          }),
        ];
        await tab.waitFor({ type: 'message', messageId: 'second', state: 'queued' });
        expect((await tab.stats()).outbox).toBe(2);

        await tab.reload();
        // The new page finds both records (WebKit's IndexedDB, bytes as an ArrayBuffer) and tries the first.
        await tab.waitFor({ type: 'message', messageId: 'first', state: 'sending' });
        await tab.setOffline(false);
        for (const messageId of ['first', 'second'])
          expect(await tab.waitFor({ type: 'message', messageId, state: 'sent' })).toMatchObject({
            result: { content: messageId },
          });
        // An earlier page's messages are reported by messageId, never as responses to its command ids.
        const responded = (await tab.messages()).flatMap((message) =>
          message.type === 'response' ? [message.id] : [],
        );
        expect(responded.filter((id) => ids.includes(id))).toEqual([]);
        expect(logLines(harness.backend).filter((line) => line.startsWith('POST /messages'))).toEqual([
          'POST /messages 200',
          'POST /messages 200',
        ]);
        expect((await tab.stats()).outbox).toBe(0);
        const stored = await harness.storedMessages();
        expect(stored.map((message) => [message.content, message.attachments.length])).toEqual([
          ['first', 0],
          ['second', 1],
        ]);
        expect(stored[1]?.attachments[0]?.size).toBe(40_000);
      },
    );

    it("checks a chunk's 4-character groups where WebKit decodes it natively: wrapped and padded chunks taken, a cut one refused", async () => {
      tab = await harness.open({ host });
      expect(await tab.evaluate(`return ${HAS_FROM_BASE64_JS};`)).toBe(true);
      await expectChunkGroupsChecked(tab, () => harness.storedMessages());
    });

    it.each(LOCK_MODES)(
      'keeps a photo sent in chunks queued offline through a reload (WebKitGTK refuses Blobs in IndexedDB: stored in slices), then uploads it once, byte for byte, and leaves nothing stored [%s]',
      async (_, noWebLocks) => {
        tab = await harness.open({ host, noWebLocks });
        expect(await tab.call('getConversation')).toMatchObject({ ok: true });
        await tab.setOffline(true);
        // Three slices: two whole, one part.
        const photo = randomBytes(2 * SLICE_BYTES + 12_345);
        const text = photo.toString('base64');
        for (let index = 0; index * CHUNK_MAX < text.length; index++) {
          const data = text.slice(index * CHUNK_MAX, (index + 1) * CHUNK_MAX);
          expect(await tab.call('appendAttachment', { uploadId: 'photo', index, data })).toMatchObject({ ok: true });
        }
        await tab.send('sendMessage', {
          content: 'chunked',
          messageId: 'chunked',
          attachments: [{ name: 'photo.jpg', type: 'image/jpeg', uploadId: 'photo' }],
        });
        await tab.waitFor({ type: 'message', messageId: 'chunked', state: 'queued' });
        // Queued is said at once; the write takes longer here (WebKitGTK refuses the Blob, so its bytes
        // are read and written in slices instead): reload once the record is in IndexedDB, as an app's
        // user would by the time they close it.
        const page = tab;
        /** What the store holds: each key, with its value's byte length where it is bytes. */
        const stored = () =>
          page.evaluate(`return await new Promise((resolve) => {
          const open = indexedDB.open('chat-bridge');
          open.onerror = () => resolve('no database');
          open.onsuccess = () => {
            const store = open.result.transaction('outbox').objectStore('outbox');
            const keys = store.getAllKeys();
            const values = store.getAll();
            values.onsuccess = () => {
              resolve(keys.result.map((key, i) => [typeof key === 'string' ? 'record' : key.slice(1), values.result[i] instanceof ArrayBuffer ? values.result[i].byteLength : 'record']));
              open.result.close();
            };
            values.onerror = () => resolve('unreadable');
          };
        });`);
        await vi.waitFor(
          async () =>
            expect(await stored()).toEqual([
              ['record', 'record'],
              [[0, 0], SLICE_BYTES],
              [[0, 1], SLICE_BYTES],
              [[0, 2], 12_345],
            ]),
          { timeout: 10_000, interval: 100 },
        );

        await tab.reload();
        await tab.waitFor({ type: 'message', messageId: 'chunked', state: 'sending' });
        await tab.setOffline(false);
        await tab.waitFor({ type: 'message', messageId: 'chunked', state: 'sent' });
        expect(logLines(harness.backend).filter((line) => line.startsWith('POST /messages'))).toEqual([
          'POST /messages 200',
        ]);
        // The record and its slices are gone once it is sent.
        await vi.waitFor(async () => expect(await stored()).toEqual([]), { timeout: 5_000, interval: 100 });
        const received = await harness.storedMessages();
        expect(received.map((message) => message.attachments)).toEqual([
          [
            {
              name: 'photo.jpg',
              type: 'image/jpeg',
              size: photo.length,
              sha256: createHash('sha256').update(photo).digest('hex'),
            },
          ],
        ]);
      },
    );
  });

  describe.each(['ios', 'react-native'] as const)('[webkit %s] two scripts', (host) => {
    afterEach(async () => {
      await tab?.close();
      tab = undefined;
      harness.backend.reset();
    });

    it('the starter at document start, the bundle at document end: what the widget posted in between is delivered after ready, and messages go', async () => {
      // A widget message at document start, long before the bundle comes (dispatched at once: a
      // postMessage task could come after a small page's document end).
      const earlyScript = `dispatchEvent(new MessageEvent('message', {
        data: 'chatwoot-widget:' + JSON.stringify({ event: 'loaded', locale: 'en' }),
        origin: location.origin,
      }));`;
      tab = await harness.open({ host, twoScripts: true, earlyScript });
      expect(await tab.evaluate('return ChatBridge.version;')).toMatch(/^\d+\.\d+\.\d+$/);
      await tab.waitFor({ type: 'widget' });
      expect((await tab.messages()).map((message) => message.type)).toEqual(['ready', 'widget']);
      expect(await tab.call('sendMessage', { content: 'after two scripts' })).toMatchObject({
        ok: true,
        result: { content: 'after two scripts' },
      });
      expect(await tab.consoleErrors()).toEqual([]);
    });
  });

  it('[webkit react-native] createReactNativeHost drives the page: its client settles from what the real handler received', async () => {
    tab = await harness.open({ host: 'react-native' });
    const page = tab;
    const events: OutboundMessage[] = [];
    /** What the injected scripts' evaluations failed with while the test ran. */
    const injectErrors: string[] = [];
    const rn = createReactNativeHost({
      onEvent: (event) => events.push(event),
      // injectJavaScript, as react-native-webview evaluates it in the WKWebView: the app gets no
      // result. Failures are kept and checked before the view closes; one still running as it
      // closes fails on the closed view, which is not the page's doing.
      webView: () => ({
        injectJavaScript: (script: string) =>
          void page.evaluate(script).catch((error: unknown) => injectErrors.push(String(error))),
      }),
    });
    // What react-native-webview does with each WKScriptMessage: <WebView onMessage> with its body.
    const feed = (body: unknown) => rn.onMessage({ nativeEvent: { data: body as string } });
    const stop = page.onMessage((message) => feed(message.body));
    try {
      for (const message of page.received) feed(message.body); // the ready that came with the page
      expect(await rn.client.init()).toMatchObject({ config: { widget: { name: 'Reference inbox' } } });
      expect(await rn.client.sendMessage({ content: 'through the React Native side' })).toMatchObject({
        content: 'through the React Native side',
      });
      const failed = await rn.client.sendMessage({ content: '   ' }).catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(ChatBridgeError);
      expect(failed).toMatchObject({ code: 'empty_message' });
      // Answered calls settle the client; only the bridge's own events reach onEvent. The error
      // event follows the failed response through the handler, so it may still be on its way.
      await vi.waitFor(() => expect(events.map((event) => event.type)).toContain('error'), { timeout: 5_000 });
      expect(events.map((event) => (event.type === 'message' ? `message:${event.state}` : event.type))).toEqual([
        'ready',
        'message:queued',
        'message:sending',
        'message:sent',
        'error',
      ]);
      expect(injectErrors).toEqual([]);
    } finally {
      stop();
      await page.close();
      tab = undefined;
      harness.backend.reset();
    }
  });

  it('[webkit] blocks and reports an inline script and eval on the strict-CSP control page', async () => {
    tab = await harness.open({ host: 'ios', strictCsp: true, path: '/csp-control.html' });
    try {
      expect(await tab.evaluate('return { inline: window.__inlineRan ?? null, eval: window.__evalRan };')).toEqual({
        inline: null,
        eval: false,
      });
      const violations = await tab.violations();
      // The same two reports Chromium gives (test/browser/bridge-e2e.spec.ts).
      expect(violations.map((violation) => `${violation.directive} ${violation.blockedURI}`).sort()).toEqual([
        'script-src eval',
        'script-src-elem inline',
      ]);
    } finally {
      await tab.close();
      tab = undefined;
    }
  });

  describe('[webkit ios, react-native, flutter] every error code', () => {
    const tabs: WebKitPage[] = [];
    const hosts: WebKitHostName[] = [...WEBKIT_HOSTS];
    beforeAll(async () => {
      const retry = { limit: 1, baseDelay: 10, maxDelay: 2000 };
      for (const host of hosts) tabs.push(await harness.open({ host, settings: { retry } }));
    });
    afterAll(async () => {
      await Promise.all(tabs.map((page) => page.close()));
    });
    beforeEach(() => {
      harness.backend.reset();
    });

    it.each(CASES.map((testCase) => [`${testCase.code} (${testCase.via})`, testCase] as const))(
      'delivers %s to each WebKit host in its native form',
      async (_, testCase) => {
        const { backend } = harness;
        if (testCase.fault !== undefined) backend.setFault(testCase.fault, true);
        const produced = await Promise.all(tabs.map((page) => produce(page, testCase, backend.url)));
        const tokens = (await Promise.all(tabs.map((page) => page.authTokens()))).flat();
        produced.forEach((result, index) => expectProduced(result, hosts[index] ?? 'ios', testCase, tokens));
        if (testCase.local) expect(backend.requests, 'a local refusal sends nothing').toEqual([]);
      },
    );
  });
});
