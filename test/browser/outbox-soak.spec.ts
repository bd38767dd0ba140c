/**
 * The outbox's soak in real Chromium against the reference backend, with the Web Locks API and
 * without it (removed before any script runs, as on iOS 12.2–15.3): the schedule of
 * test/helpers/soak.ts (faults, reloads, offline spells, a WebView closed mid-send, "Clear site
 * data" mid-run) and the two-reload clock chain of test/helpers/clock-chain.ts. Pages of one
 * browser context are WebViews of one app: they share storage and locks.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Request } from 'playwright-core';
import { requireChromium } from '../helpers/chromium.js';
import { useBrowserHarness, type BridgePage } from '../helpers/browser-harness.js';
import { RECORD_IDS_JS } from '../helpers/stored-records.js';
import { runSoak, soakSeed, type SoakEngine, type SoakPage } from '../helpers/soak.js';
import type { Attempt } from '../helpers/soak-ledger.js';
import { clockChain, CLOCK_OFFSET_JS } from '../helpers/clock-chain.js';

const MESSAGES = 300;
const LOCK_MODES = [
  ['Web Locks', false, 61],
  ['lease, no Web Locks', true, 62],
] as const;

describe.skipIf(!requireChromium())('outbox soak (real bundle in Chromium, reference backend)', () => {
  const harness = useBrowserHarness();
  const tabs: BridgePage[] = [];

  afterEach(async () => {
    for (const tab of tabs.splice(0).reverse()) await tab.close();
    harness.backend.reset();
  });

  /** The soak's view of Chromium: pages of one context, the origin's data cleared over CDP. */
  const chromiumEngine = (noWebLocks: boolean): SoakEngine => {
    const attempts: Attempt[] = [];
    const byPage = new Map<SoakPage, BridgePage>();
    const record = (request: Request) => {
      if (request.method() !== 'POST' || new URL(request.url()).pathname !== '/messages') return;
      const { message } = request.postDataJSON() as { message: { content: string; echo_id: string } };
      attempts.push({ content: message.content, echoId: message.echo_id });
    };
    return {
      backend: harness.backend,
      async open(beside) {
        const shared = beside && byPage.get(beside);
        const tab = await harness.open({
          host: 'react-native',
          noWebLocks,
          ...(shared && { context: shared.context }),
        });
        tabs.push(tab);
        // Every attempt, answered, refused or dropped, from the browser's side.
        if (!shared) tab.context.on('request', record);
        const page: SoakPage = {
          call: (method) => tab.call(method),
          send: async (id) => void (await tab.send('sendMessage', { content: id, messageId: id })),
          messages: () => tab.messages(),
          mark: () => tab.mark(),
          waiting: async () => (await tab.stats()).outbox,
          waitFor: (pattern, options) => tab.waitFor(pattern, options),
          setOffline: (offline, announce) => tab.setOffline(offline, announce),
          recordIds: () => tab.page.evaluate(RECORD_IDS_JS) as Promise<string[]>,
          reload: () => tab.reload(),
          close: () => tab.close(),
        };
        byPage.set(page, tab);
        return page;
      },
      async clearSiteData(through) {
        const tab = byPage.get(through) as BridgePage;
        const cdp = await tab.context.newCDPSession(tab.page);
        await cdp.send('Storage.clearDataForOrigin', { origin: harness.pageOrigin, storageTypes: 'all' });
        await cdp.detach();
      },
      storedMessages: () => harness.storedMessages(),
      attempts: () => attempts,
    };
  };

  it.each(LOCK_MODES)(
    '[%s] loses nothing through faults, reloads, offline spells, a WebView closed mid-send and a storage clear',
    async (mode, noWebLocks, fallbackSeed) => {
      const report = await runSoak(chromiumEngine(noWebLocks), soakSeed(fallbackSeed), MESSAGES);
      expect(report.stored).toBeGreaterThan(MESSAGES / 2);
      console.info(`[soak chromium, ${mode}] ${JSON.stringify(report)}`);
    },
    150_000,
  );

  it('after "Clear site data", a WebView that did not create the database again still writes its waiting message again', async () => {
    const a = await harness.open({ host: 'react-native' });
    const b = await harness.open({ host: 'react-native', context: a.context });
    tabs.push(a, b);
    const records = (tab: BridgePage) => tab.page.evaluate(RECORD_IDS_JS) as Promise<string[]>;
    expect(await a.call('getConversation')).toMatchObject({ ok: true });
    await b.setOffline(true);
    await b.send('sendMessage', { content: 'b1', messageId: 'b1' });
    await expect.poll(() => records(b), { timeout: 10_000 }).toEqual(['b1']);
    const cdp = await a.context.newCDPSession(a.page);
    await cdp.send('Storage.clearDataForOrigin', { origin: harness.pageOrigin, storageTypes: 'all' });
    await b.setOffline(true, false);
    // A, online, writes at once: its open creates the database before B's reopens.
    await a.send('sendMessage', { content: 'a1', messageId: 'a1' });
    await a.waitFor({ type: 'message', messageId: 'a1', state: 'sent' });
    await expect.poll(() => records(b), { timeout: 10_000 }).toContain('b1');
    await b.reload();
    await b.setOffline(false);
    await b.waitFor({ type: 'message', messageId: 'b1', state: 'sent' }, { timeoutMs: 15_000 });
    expect((await harness.storedMessages()).map((message) => message.content)).toEqual(['a1', 'b1']);
  }, 60_000);

  describe.each(LOCK_MODES)('[%s]', (_, noWebLocks) => {
    it("keeps one WebView's order when the clock is set back ten minutes across a reload and forward across the next", async () => {
      const tab = await harness.open({ host: 'react-native', noWebLocks });
      tabs.push(tab);
      await tab.page.addInitScript(CLOCK_OFFSET_JS);
      await clockChain(
        {
          ...tab,
          setClock: (offset) => tab.page.evaluate((ms) => sessionStorage.setItem('harness:clock', String(ms)), offset),
          recordIds: () => tab.page.evaluate(RECORD_IDS_JS) as Promise<string[]>,
        },
        harness.backend,
        async () => (await harness.storedMessages()).map((message) => message.content),
      );
    }, 60_000);
  });
});
