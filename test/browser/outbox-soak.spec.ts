/**
 * The outbox's soak, in real Chromium against the reference backend, with the Web Locks API and
 * without it: three WebViews of one app (pages of one browser context) send hundreds of messages
 * through a seeded schedule of backend faults (503, dropped connections, slow answers), reloads
 * and offline spells, and one WebView is closed while it sends. At the end every message is
 * stored once (one echo_id each) and each WebView's messages are in the order it queued them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { requireChromium } from '../helpers/chromium.js';
import { useBrowserHarness, type BridgePage } from '../helpers/browser-harness.js';
import { seeded } from '../helpers/seeded.js';

const MESSAGES = 160;

describe.skipIf(!requireChromium())('outbox soak (real bundle in Chromium, reference backend)', () => {
  const harness = useBrowserHarness();
  const tabs: BridgePage[] = [];

  afterEach(async () => {
    for (const tab of tabs.splice(0).reverse()) await tab.close();
    for (const fault of ['service-unavailable', 'drop-connection', 'slow'] as const)
      harness.backend.setFault(fault, false);
    harness.backend.reset();
  });

  it.each([
    ['Web Locks', false, 61],
    ['lease, no Web Locks', true, 62],
  ] as const)(
    '[%s] loses nothing through faults, reloads, offline spells and a WebView closed mid-send',
    async (_, noWebLocks, seed) => {
      const random = seeded(seed);
      const open = async (beside?: BridgePage) => {
        const tab = await harness.open({
          host: 'react-native',
          noWebLocks,
          ...(beside && { context: beside.context }),
        });
        tabs.push(tab);
        return tab;
      };
      const a = await open();
      const b = await open(a);
      const c = await open(a);
      expect(await a.call('getConversation')).toMatchObject({ ok: true });
      const queued: Record<string, string[]> = { a: [], b: [], c: [] };
      const offline = new Set<BridgePage>();
      const send = async (name: string, tab: BridgePage, id: string) => {
        queued[name]?.push(id);
        await tab.send('sendMessage', { content: id, messageId: id });
      };
      /** A reload once the page's last message is on disk or answered: what it queued survives. */
      const settledOrStored = (tab: BridgePage, id: string) =>
        tab.page.waitForFunction(
          async (messageId) => {
            const received = (window as unknown as { __received: unknown[] }).__received.map((p) =>
              typeof p === 'string' ? JSON.parse(p) : p,
            );
            if (received.some((m) => m.messageId === messageId && (m.state === 'sent' || m.state === 'failed')))
              return true;
            return new Promise<boolean>((resolve) => {
              const request = indexedDB.open('chat-bridge');
              request.onsuccess = () => {
                const all = request.result.transaction('outbox').objectStore('outbox').getAll();
                all.onsuccess = () =>
                  resolve((all.result as Array<{ messageId: string }>).some((r) => r.messageId === messageId));
              };
              request.onerror = () => resolve(false);
            });
          },
          id,
          { timeout: 15_000, polling: 50 },
        );

      let closed = false;
      for (let i = 0; i < MESSAGES; i++) {
        const roll = random();
        const [name, tab] =
          closed || roll < 0.45 ? (['a', a] as const) : roll < 0.9 ? (['b', b] as const) : (['c', c] as const);
        const id = `${name}-${String(i).padStart(3, '0')}`;
        await send(name, tab, id);
        const event = random();
        if (!closed && i >= MESSAGES / 2) {
          // C, online again, sends slowly and is closed while a request is under way.
          closed = true;
          for (const fault of ['service-unavailable', 'drop-connection'] as const)
            harness.backend.setFault(fault, false);
          harness.backend.setFault('slow', true, '800');
          if (offline.delete(c)) await c.setOffline(false);
          const since = await c.mark();
          await send('c', c, `c-${String(i).padStart(3, '0')}-last`);
          await c.waitFor({ type: 'message', state: 'sending' }, { since, timeoutMs: 15_000 });
          await c.close();
          harness.backend.setFault('slow', false);
        } else if (event < 0.08) {
          harness.backend.setFault(random() < 0.5 ? 'service-unavailable' : 'drop-connection', random() < 0.6);
        } else if (event < 0.13) {
          await settledOrStored(tab, id);
          await tab.reload();
        } else if (event < 0.18) {
          const going = !offline.has(tab);
          if (going) offline.add(tab);
          else offline.delete(tab);
          await tab.setOffline(going);
        } else {
          await new Promise((resolve) => setTimeout(resolve, random() * 60));
        }
      }
      for (const fault of ['service-unavailable', 'drop-connection'] as const) harness.backend.setFault(fault, false);
      for (const tab of offline) await tab.setOffline(false);
      // The next message retries what waits at once.
      await send('a', a, 'a-end');
      await send('b', b, 'b-end');
      const total = Object.values(queued).reduce((sum, ids) => sum + ids.length, 0);
      let stored: Awaited<ReturnType<typeof harness.storedMessages>> = [];
      await expect
        .poll(async () => (stored = await harness.storedMessages()).length, { timeout: 45_000, interval: 500 })
        .toBeGreaterThanOrEqual(total);
      const contents = stored.map((message) => message.content);
      expect([...contents].sort()).toEqual(Object.values(queued).flat().sort());
      for (const [name, ids] of Object.entries(queued))
        expect(contents.filter((content) => content.startsWith(`${name}-`))).toEqual(ids);
      expect(new Set(stored.map((message) => message.echo_id)).size).toBe(total);
    },
    120_000,
  );
});
