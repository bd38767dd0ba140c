/**
 * The outbox's soak in real WebKit (WebKitGTK, the engine of WKWebView) with the iOS host's script
 * message handler, with the Web Locks API and without it (removed before the bridge runs, as on
 * iOS 12.2–15.3): the schedule of test/helpers/soak.ts (faults, reloads, offline spells, a WebView
 * closed mid-send, the data store cleared mid-run as an app's logout clears it) and the two-reload
 * clock chain of test/helpers/clock-chain.ts. Views opened in one web context share storage and
 * locks, as two WKWebViews of one app do.
 */
import { afterEach, describe, expect, it } from 'vitest';

import { requireWebKit } from '../helpers/webkit.js';
import { useWebKitHarness, type WebKitPage } from '../helpers/webkit-harness.js';
import { RECORD_IDS_JS } from '../helpers/stored-records.js';
import { runSoak, soakSeed, type SoakEngine, type SoakPage } from '../helpers/soak.js';
import type { Attempt } from '../helpers/soak-ledger.js';
import { clockChain, CLOCK_OFFSET_JS } from '../helpers/clock-chain.js';

const MESSAGES = 300;
const LOCK_MODES = [
  ['Web Locks', false, 71],
  ['lease, no Web Locks', true, 72],
] as const;

/**
 * At document start, before the bridge (which takes fetch as it finds it at install): every POST /messages body the page's fetch is given is
 * also handed to the iOS host's handler as `{type: 'harness-attempt', body}` in JSON text, as the
 * bridge's own payloads are, so that the test sees each attempt (answered, refused or dropped) as
 * Chromium's request events show it.
 */
const ATTEMPTS_JS = `(function () {
  var pageFetch = window.fetch;
  window.fetch = function (input, init) {
    if (init && init.method === 'POST' && /\\/messages$/.test(String(input)) && typeof init.body === 'string')
      webkit.messageHandlers.chatBridge.postMessage(JSON.stringify({ type: 'harness-attempt', body: init.body }));
    return pageFetch.call(window, input, init);
  };
})();`;

describe.skipIf(!requireWebKit())('outbox soak (real bundle in WebKit, reference backend)', () => {
  const harness = useWebKitHarness();
  const views: WebKitPage[] = [];
  afterEach(async () => {
    for (const view of views.splice(0).reverse()) await view.close();
    harness.backend.reset();
  });

  const recordIds = async (view: WebKitPage) => (await view.evaluate(`return await ${RECORD_IDS_JS};`)) as string[];

  /** The soak's view of WebKit: views of one web context, its data store cleared as a logout does. */
  const webKitEngine = (noWebLocks: boolean): SoakEngine => {
    const byPage = new Map<SoakPage, WebKitPage>();
    const attempts: Attempt[] = [];
    const record = ({ body }: { body: unknown }) => {
      const { type, body: text } = JSON.parse(body as string) as { type?: string; body?: string };
      if (type !== 'harness-attempt') return;
      const { message } = JSON.parse(text as string) as { message: { content: string; echo_id: string } };
      attempts.push({ content: message.content, echoId: message.echo_id });
    };
    return {
      backend: harness.backend,
      async open(beside) {
        const shared = beside && byPage.get(beside);
        const view = await harness.open({
          host: 'ios',
          noWebLocks,
          firstScript: ATTEMPTS_JS,
          ...(shared && { shareWith: shared }),
        });
        views.push(view);
        view.onMessage(record);
        // The mode is what it claims: WebKitGTK has Web Locks, and the init script removes them.
        expect(await view.evaluate('return typeof navigator.locks;')).toBe(noWebLocks ? 'undefined' : 'object');
        const page: SoakPage = {
          call: (method) => view.call(method),
          send: async (id) => void (await view.send('sendMessage', { content: id, messageId: id })),
          messages: () => view.messages(),
          mark: () => view.mark(),
          waitFor: (pattern, options) => view.waitFor(pattern, options),
          waiting: async () => (await view.stats()).outbox,
          setOffline: (offline, announce) => view.setOffline(offline, announce),
          recordIds: () => recordIds(view),
          reload: () => view.reload(),
          close: () => view.close(),
        };
        byPage.set(page, view);
        return page;
      },
      clearSiteData: (through) => (byPage.get(through) as WebKitPage).clearData(),
      storedMessages: () => harness.storedMessages(),
      attempts: () => attempts,
    };
  };

  it.each(LOCK_MODES)(
    '[webkit ios, %s] loses nothing through faults, reloads, offline spells, a WebView closed mid-send and a storage clear',
    async (mode, noWebLocks, fallbackSeed) => {
      const report = await runSoak(webKitEngine(noWebLocks), soakSeed(fallbackSeed), MESSAGES);
      console.info(`[soak webkit, ${mode}] ${JSON.stringify(report)}`);
      expect(report.stored).toBeGreaterThan(MESSAGES / 2);
    },
    150_000,
  );

  it('after the data store is cleared, a WebView that did not create the database again still writes its waiting message again', async () => {
    const a = await harness.open({ host: 'ios' });
    const b = await harness.open({ host: 'ios', shareWith: a });
    views.push(a, b);
    expect(await a.call('getConversation')).toMatchObject({ ok: true });
    await b.setOffline(true);
    await b.send('sendMessage', { content: 'b1', messageId: 'b1' });
    await expect.poll(() => recordIds(b), { timeout: 10_000 }).toEqual(['b1']);
    await a.clearData();
    await b.setOffline(true, false);
    // A, online, writes at once: its open creates the database before B's reopens.
    await a.send('sendMessage', { content: 'a1', messageId: 'a1' });
    await a.waitFor({ type: 'message', messageId: 'a1', state: 'sent' });
    await expect.poll(() => recordIds(b), { timeout: 10_000 }).toContain('b1');
    await b.reload();
    await b.setOffline(false);
    await b.waitFor({ type: 'message', messageId: 'b1', state: 'sent' }, { timeoutMs: 15_000 });
    expect((await harness.storedMessages()).map((message) => message.content)).toEqual(['a1', 'b1']);
  }, 60_000);

  it.each(LOCK_MODES)(
    "[webkit ios, %s] keeps one WebView's order when the clock is set back ten minutes across a reload and forward across the next",
    async (_, noWebLocks) => {
      const view = await harness.open({ host: 'ios', noWebLocks, earlyScript: CLOCK_OFFSET_JS });
      views.push(view);
      await clockChain(
        {
          ...view,
          setClock: (offset) => view.evaluate(`sessionStorage.setItem('harness:clock', '${offset}'); return null;`),
          recordIds: () => recordIds(view),
        },
        harness.backend,
        async () => (await harness.storedMessages()).map((message) => message.content),
      );
    },
    60_000,
  );
});
