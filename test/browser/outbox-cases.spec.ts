/**
 * The delivery issue's cases, in real Chromium against the reference backend, with the Web
 * Locks API and without it (removed before any script runs, as on iOS 12.2–15.3, where the
 * outbox's lease in localStorage stands in): messages queued before a reload, two WebViews
 * under faults and reloads, a WebView closed with messages waiting, a busy WebView beside a
 * quiet one, a clock set back, and a cancel behind a slow send. Two pages of one browser
 * context share storage and locks, as two WebViews of one app do.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { requireChromium } from '../helpers/chromium.js';
import { useBrowserHarness, type BridgePage, type BrowserHarness } from '../helpers/browser-harness.js';
import type { OutboundMessage } from '../../bridge/protocol/messages.js';
import { seeded } from '../helpers/seeded.js';
import { sendMessage as send, messageState as state } from '../helpers/delivery-steps.js';
import { RECORD_IDS_JS } from '../helpers/stored-records.js';

const LOCK_MODES = [
  ['Web Locks', false],
  ['lease, no Web Locks', true],
] as const;

describe.skipIf(!requireChromium())('delivery cases (real bundle in Chromium, reference backend)', () => {
  const harness = useBrowserHarness();
  const tabs: BridgePage[] = [];

  afterEach(async () => {
    for (const tab of tabs.splice(0).reverse()) await tab.close();
    for (const fault of ['service-unavailable', 'drop-connection', 'slow'])
      harness.backend.setFault(fault as never, false);
    harness.backend.reset();
  });

  describe.each(LOCK_MODES)('[%s]', (_, noWebLocks) => {
    const open = async (options: Partial<Parameters<BrowserHarness['open']>[0]> = {}) => {
      const tab = await harness.open({ host: 'react-native', noWebLocks, ...options });
      tabs.push(tab);
      return tab;
    };
    const contents = async () => (await harness.storedMessages()).map((message) => message.content);
    /** Waits until the backend holds `count` messages (polled through its own API). */
    const stored = async (count: number, timeout = 20_000) => {
      await expect
        .poll(async () => (await contents()).length, { timeout, interval: 250 })
        .toBeGreaterThanOrEqual(count);
      return contents();
    };
    /** The message ids whose records are in this page's IndexedDB now (written, not yet removed). */
    const inStorage = (tab: BridgePage) => tab.page.evaluate(RECORD_IDS_JS) as Promise<string[]>;
    /** A reload once `messageId` is on disk or sent: what the host was told is queued survives it. */
    const reloadAfter = async (tab: BridgePage, messageId: string) => {
      await expect
        .poll(
          async () =>
            (await inStorage(tab)).includes(messageId) ||
            (await tab.messages()).some(
              (m) => m.type === 'message' && m.messageId === messageId && m.state !== 'queued' && m.state !== 'sending',
            ),
          { timeout: 10_000, interval: 50 },
        )
        .toBe(true);
      await tab.reload();
    };

    it('sends two messages queued before a reload after it, in order, each once', async () => {
      const tab = await open();
      expect(await tab.call('getConversation')).toMatchObject({ ok: true });
      harness.backend.setFault('service-unavailable', true);
      await send(tab, 'first');
      await send(tab, 'second');
      await state(tab, 'first', 'sending');
      await reloadAfter(tab, 'second');
      harness.backend.setFault('service-unavailable', false);
      const started = Date.now();
      await state(tab, 'first', 'sent', 15_000);
      await state(tab, 'second', 'sent', 15_000);
      // Within a few seconds (a retry's backoff), not once an old lease has run out.
      expect(Date.now() - started).toBeLessThan(6_000);
      expect(await contents()).toEqual(['first', 'second']);
    });

    it("waits the Retry-After a 503 asked for before the message's next attempt, not its own backoff", async () => {
      const tab = await open();
      expect(await tab.call('getConversation')).toMatchObject({ ok: true });
      harness.backend.setFault('service-unavailable', true, '30');
      const asked = Date.now();
      await send(tab, 'later');
      // The first backoff is at most a second; the server's 30 s reach the outbox from the response.
      const queued = await tab.waitFor({ type: 'message', messageId: 'later', state: 'queued', attempt: 1 });
      expect(queued).toMatchObject({ nextAttemptAt: expect.any(Number) });
      const wait = (queued as { nextAttemptAt: number }).nextAttemptAt - asked;
      expect(wait).toBeGreaterThan(25_000);
      expect(wait).toBeLessThanOrEqual(31_000);
    });

    it('loses nothing from two WebViews under faults and reloads: each message once, each WebView in order', async () => {
      const random = seeded(20);
      const a = await open();
      const b = await open({ context: a.context });
      expect(await a.call('getConversation')).toMatchObject({ ok: true });
      const faults = ['service-unavailable', 'drop-connection'] as const;
      const ids: Record<string, string[]> = { a: [], b: [] };
      for (let i = 0; i < 60; i++) {
        const [name, tab] = random() < 0.5 ? (['a', a] as const) : (['b', b] as const);
        const id = `${name}${i}`;
        ids[name]?.push(id);
        await send(tab, id);
        const roll = random();
        if (roll < 0.15) harness.backend.setFault(faults[i % 2] as never, random() < 0.6);
        else if (roll < 0.25) await reloadAfter(tab, id);
        else await new Promise((resolve) => setTimeout(resolve, 30 + random() * 120));
      }
      for (const fault of faults) harness.backend.setFault(fault, false);
      // The next message retries what waits at once (no backoff wait).
      for (const [name, tab] of [
        ['a', a],
        ['b', b],
      ] as const) {
        ids[name]?.push(`${name}-end`);
        await send(tab, `${name}-end`);
      }
      const got = await stored(62, 40_000);
      expect([...got].sort()).toEqual([...ids['a']!, ...ids['b']!].sort());
      expect(got.filter((id) => id.startsWith('a'))).toEqual(ids['a']);
      expect(got.filter((id) => id.startsWith('b'))).toEqual(ids['b']);
      expect(new Set((await harness.storedMessages()).map((message) => message.echo_id)).size).toBe(62);
    }, 90_000);

    it("sends a closed WebView's messages from a live WebView within a few seconds, in their order, with no event", async () => {
      // B owns the browser context: closing A closes its page only.
      const b = await open();
      const a = await open({ context: b.context });
      expect(await b.call('getConversation')).toMatchObject({ ok: true });
      harness.backend.setFault('service-unavailable', true);
      await send(a, 'closed1');
      await send(a, 'closed2');
      await state(a, 'closed1', 'sending');
      await expect.poll(async () => (await inStorage(a)).length, { timeout: 10_000 }).toBe(2);
      await a.close();
      harness.backend.setFault('service-unavailable', false);
      const started = Date.now();
      await state(b, 'closed1', 'sent', 12_000);
      await state(b, 'closed2', 'sent', 12_000);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(await contents()).toEqual(['closed1', 'closed2']);
    });

    it("sends a closed WebView's message from a live one within seconds when it sent others before it, then was idle", async () => {
      // The page lock is kept while a page lives (Web Locks): its next record after an idle spell
      // must still tell the live WebView to watch for the page to go.
      const b = await open();
      const a = await open({ context: b.context });
      expect(await b.call('getConversation')).toMatchObject({ ok: true });
      await send(a, 'earlier');
      await state(a, 'earlier', 'sent');
      await expect.poll(async () => (await inStorage(a)).length, { timeout: 10_000 }).toBe(0);
      // B's look prompted by A's first record has ended by now (it found nothing left to watch).
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      harness.backend.setFault('service-unavailable', true);
      await send(a, 'later');
      await state(a, 'later', 'sending');
      await expect.poll(async () => (await inStorage(a)).length, { timeout: 10_000 }).toBe(1);
      await a.close();
      harness.backend.setFault('service-unavailable', false);
      const started = Date.now();
      await state(b, 'later', 'sent', 12_000);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(await contents()).toEqual(['earlier', 'later']);
    });

    it("serves a quiet WebView's message between a busy WebView's sends, not after its burst", async () => {
      const a = await open();
      const b = await open({ context: a.context });
      expect(await a.call('getConversation')).toMatchObject({ ok: true });
      let stop = false;
      const burst = (async () => {
        for (let i = 0; !stop && i < 30; i++) {
          await send(b, `busy${i}`);
          await new Promise((resolve) => setTimeout(resolve, 150));
        }
      })();
      await state(b, 'busy3', 'sent');
      const since = (await b.messages()).length;
      await send(a, 'quiet');
      await state(a, 'quiet', 'sent', 15_000);
      // How many of B's messages went while A's waited: its turn comes after about one.
      const during = (await b.messages())
        .slice(since)
        .filter((m: OutboundMessage) => m.type === 'message' && m.state === 'sent');
      stop = true;
      await burst;
      expect(during.length).toBeLessThanOrEqual(3);
    });

    it('keeps the order of messages queued before a reload when the clock is set back across it', async () => {
      const tab = await open();
      expect(await tab.call('getConversation')).toMatchObject({ ok: true });
      harness.backend.setFault('service-unavailable', true);
      await send(tab, 'early1');
      await send(tab, 'early2');
      await state(tab, 'early1', 'sending');
      // The device's clock goes back ten minutes, for the page after the reload.
      await tab.page.addInitScript(() => {
        const now = Date.now.bind(Date);
        Date.now = () => now() - 600_000;
      });
      await reloadAfter(tab, 'early2');
      await send(tab, 'later');
      await state(tab, 'later', 'queued');
      harness.backend.setFault('service-unavailable', false);
      await state(tab, 'later', 'sent', 15_000);
      expect(await stored(3)).toEqual(['early1', 'early2', 'later']);
    });

    it("answers a cancel of an earlier page's message at once, behind a slow send, and never sends it", async () => {
      const tab = await open();
      expect(await tab.call('getConversation')).toMatchObject({ ok: true });
      harness.backend.setFault('service-unavailable', true);
      await send(tab, 'slowly');
      await send(tab, 'cancel me');
      await state(tab, 'slowly', 'sending');
      await reloadAfter(tab, 'cancel me');
      // Marked before the backend recovers: the new page's retry may start the moment it does.
      const since = await tab.mark();
      harness.backend.setFault('slow', true, '4000');
      harness.backend.setFault('service-unavailable', false);
      // The new page took both in; an attempt at the first starts now and takes seconds.
      // Its next attempt comes at the end of a backoff that the 503s may have stretched to seconds.
      await tab.waitFor({ type: 'message', messageId: 'slowly', state: 'sending' }, { since, timeoutMs: 20_000 });
      const started = Date.now();
      expect(await tab.call('cancelMessage', { messageId: 'cancel me' })).toMatchObject({
        ok: true,
        result: { cancelled: true },
      });
      expect(Date.now() - started).toBeLessThan(2_000);
      await state(tab, 'slowly', 'sent', 20_000);
      harness.backend.setFault('slow', false);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(await contents()).toEqual(['slowly']);
    }, 60_000);
  });
});
