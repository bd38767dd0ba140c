/**
 * The persisted outbox in a real page: messages sent offline survive a reload in localStorage
 * and reach the reference backend exactly once each, in order, whether the network comes back
 * after a reload or while the page stays.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requireChromium } from '../helpers/chromium.js';
import { logLines, startBrowserHarness, type BridgePage, type BrowserHarness } from '../helpers/browser-harness.js';

describe.skipIf(!requireChromium())('the outbox across offline, reload and online (real bundle in Chromium)', () => {
  let harness: BrowserHarness;
  let tab: BridgePage | undefined;

  beforeAll(async () => {
    harness = await startBrowserHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });
  afterEach(async () => {
    await tab?.close();
    tab = undefined;
    harness.backend.reset();
  });

  /** POST /messages requests that reached the backend: each one is a send attempt. */
  const posts = () => logLines(harness.backend).filter((line) => line.startsWith('POST /messages'));

  /** Sends `content` while the fetch stand-in is offline and waits for the outbox's network_error. */
  async function sendOffline(page: BridgePage, content: string): Promise<string> {
    const since = await page.mark();
    const id = await page.send('sendMessage', { content });
    const error = await page.waitFor({ type: 'error', code: 'network_error' }, { since });
    expect(error).toMatchObject({ message: expect.stringContaining('[POST /messages]') });
    return id;
  }

  /** Every response to `id` the host received, decoded. */
  async function responsesTo(page: BridgePage, id: string) {
    return (await page.messages()).filter((message) => message.type === 'response' && message.id === id);
  }

  async function expectDeliveredOnce(page: BridgePage, ids: string[], contents: string[]) {
    for (const [index, id] of ids.entries()) {
      expect(await page.waitFor({ type: 'response', id })).toMatchObject({
        ok: true,
        result: { content: contents[index] },
      });
    }
    const order = (await page.messages()).flatMap((message) => (message.type === 'response' ? [message.id] : []));
    expect(order.filter((id) => ids.includes(id))).toEqual(ids);
    for (const id of ids) expect(await responsesTo(page, id)).toHaveLength(1);
    expect(posts()).toEqual(contents.map(() => 'POST /messages 200'));
    expect((await page.stats()).outbox).toBe(0);
    const stored = await page.page.evaluate(() =>
      Object.keys(localStorage).filter((key) => key.startsWith('chat-bridge:outbox:')),
    );
    expect(stored).toEqual([]);
    expect((await harness.storedMessages()).map((message) => message.content)).toEqual(contents);
  }

  it('keeps two messages sent offline through a reload while still offline, then sends each exactly once, in order, on online', async () => {
    tab = await harness.open({ host: 'react-native' });
    expect(await tab.call('getConversation')).toMatchObject({ ok: true });
    await tab.setOffline(true);

    const first = await sendOffline(tab, 'first');
    const second = await sendOffline(tab, 'second');
    expect((await tab.stats()).outbox).toBe(2);
    expect(
      await tab.page.evaluate(() => (window as unknown as { __offlineFetches: number }).__offlineFetches),
    ).toBeGreaterThanOrEqual(2);

    await tab.reload();
    // The new bridge found both in localStorage and tried them at once; still offline.
    const stalled = await tab.waitFor({ type: 'error', code: 'network_error' });
    expect(stalled).toMatchObject({ message: expect.stringContaining('2 message(s)') });
    expect((await tab.stats()).outbox).toBe(2);
    expect(posts()).toEqual([]);

    await tab.setOffline(false);
    await expectDeliveredOnce(tab, [first, second], ['first', 'second']);

    // One more reload: nothing is left to resend.
    await tab.reload();
    expect((await tab.stats()).outbox).toBe(0);
    expect(await tab.call('init')).toMatchObject({ ok: true });
    expect(posts()).toHaveLength(2);
  });

  it('sends what the previous page left in the outbox when the bridge is installed again, network back', async () => {
    tab = await harness.open({ host: 'android' });
    expect(await tab.call('getConversation')).toMatchObject({ ok: true });
    await tab.setOffline(true);
    const first = await sendOffline(tab, 'one');
    const second = await sendOffline(tab, 'two');

    // The WebView is restarted with the network back: no online event, only a fresh install.
    await tab.setOffline(false, false);
    expect(posts()).toEqual([]);
    await tab.reload();

    await expectDeliveredOnce(tab, [first, second], ['one', 'two']);
  });

  it("sends the outbox when Chromium's own offline emulation ends and the page gets the online event; a later message follows them", async () => {
    tab = await harness.open({ host: 'ios' });
    expect(await tab.call('getConversation')).toMatchObject({ ok: true });
    // Real network emulation this time: navigator.onLine, the events and the failing fetch are Chromium's.
    await tab.context.setOffline(true);
    expect(await tab.page.evaluate(() => navigator.onLine)).toBe(false);
    const first = await sendOffline(tab, 'a');
    const second = await sendOffline(tab, 'b');
    expect(posts()).toEqual([]);

    await tab.context.setOffline(false);
    for (const id of [first, second]) expect(await tab.waitFor({ type: 'response', id })).toMatchObject({ ok: true });
    expect(await tab.call('sendMessage', { content: 'c' })).toMatchObject({ ok: true, result: { content: 'c' } });

    expect(posts()).toEqual(['POST /messages 200', 'POST /messages 200', 'POST /messages 200']);
    expect((await harness.storedMessages()).map((message) => message.content)).toEqual(['a', 'b', 'c']);
  });
});
