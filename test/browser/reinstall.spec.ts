/**
 * A bridge that goes away answers what it leaves behind: the real bundle in Chromium, the
 * reference backend hung (every API request accepted, never answered), and a command in
 * flight when the page installs the bridge again or destroys it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { requireChromium } from '../helpers/chromium.js';
import {
  OTHER_WEBSITE_TOKEN,
  useBrowserHarness,
  waitForLog,
  WEBSITE_TOKEN,
  type BridgePage,
} from '../helpers/browser-harness.js';

describe.skipIf(!requireChromium())('a command in flight when the bridge goes (real bundle in Chromium)', () => {
  const harness = useBrowserHarness();
  let tab: BridgePage | undefined;

  afterEach(async () => {
    await tab?.close();
    tab = undefined;
    harness.backend.reset();
  });

  /** Opens a page, hangs the backend and starts `method`; returns the command's id once its request is held. */
  async function inFlight(method: string): Promise<{ page: BridgePage; id: string }> {
    const page = await harness.open({ host: 'react-native' });
    tab = page;
    harness.backend.setFault('hang', true);
    const id = await page.send(method);
    await waitForLog(harness.backend, (log) => log.some((entry) => entry.path === '/config' && entry.status === null));
    expect(await page.stats()).toMatchObject({ pendingCommands: 1 });
    return { page, id };
  }

  it('a second install answers the command with network_error at once, before the new bridge says ready', async () => {
    const { page, id } = await inFlight('init');
    const since = await page.mark();

    await page.install();

    const after = (await page.messages()).slice(since);
    expect(after).toEqual([
      {
        type: 'response',
        id,
        ok: false,
        error: {
          type: 'error',
          code: 'network_error',
          retryable: true,
          message: '[init] bridge reinstalled',
        },
      },
      { type: 'error', code: 'network_error', retryable: true, message: '[init] bridge reinstalled' },
      { type: 'ready' },
    ]);
    expect(await page.stats()).toMatchObject({ pendingCommands: 0 });

    // The new bridge works, and the old command is never answered a second time.
    harness.backend.setFault('hang', false);
    const second = await page.call('init');
    expect(second).toMatchObject({ ok: true });
    expect((await page.messages()).filter((message) => message.type === 'response' && message.id === id)).toHaveLength(
      1,
    );
  });

  it('a message waiting in the outbox is not failed by a second install: it stays queued for the new bridge', async () => {
    const page = await harness.open({ host: 'react-native' });
    tab = page;
    expect(await page.call('init')).toMatchObject({ ok: true });
    harness.backend.setFault('hang', true);
    const id = await page.send('sendMessage', { content: 'survives the reinstall' });
    await waitForLog(harness.backend, (log) =>
      log.some((entry) => entry.path === '/messages' && entry.status === null),
    );
    const since = await page.mark();

    await page.install();

    const after = (await page.messages()).slice(since);
    expect(after.filter((message) => message.type === 'response' && message.id === id)).toEqual([]);
    expect(after.filter((message) => message.type === 'error')).toEqual([]);
    // The new bridge takes the message in from storage in the task after install (asynchronously).
    let outbox = 0;
    for (let tries = 0; tries < 50 && outbox !== 1; tries++) {
      outbox = (await page.stats()).outbox;
      if (outbox !== 1) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(outbox).toBe(1);
  });

  it('ChatBridge.destroy answers the command with network_error saying the bridge was destroyed', async () => {
    const { page, id } = await inFlight('getConversation');

    await page.page.evaluate(() => (window as unknown as { ChatBridge: { destroy(): void } }).ChatBridge.destroy());

    expect(await page.waitFor({ type: 'response', id }, { timeoutMs: 1_000 })).toMatchObject({
      ok: false,
      error: {
        code: 'network_error',
        message: '[getConversation] bridge destroyed',
      },
    });
  });

  // Issue 34, case 5: installed again for another inbox while a message waits offline.
  it('installed for another inbox, a waiting sendMessage is answered inbox_switched; its message goes to its own inbox alone, when installed again', async () => {
    const page = await harness.open({ host: 'android' });
    tab = page;
    await page.setOffline(true, true);
    const id = await page.send('sendMessage', { content: 'for inbox A only', messageId: 'switch-m1' });
    await page.waitFor({ type: 'message', messageId: 'switch-m1', state: 'queued' });
    const since = await page.mark();

    await page.install({ websiteToken: OTHER_WEBSITE_TOKEN });

    expect(await page.waitFor({ type: 'response', id }, { since, timeoutMs: 2_000 })).toMatchObject({
      ok: false,
      error: { code: 'inbox_switched', message: '[sendMessage] bridge installed for another inbox' },
    });
    // Inbox B's bridge, online, never sends A's message with B's credentials.
    await page.setOffline(false, true);
    expect(await page.call('init')).toMatchObject({ ok: true });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await harness.storedMessages(OTHER_WEBSITE_TOKEN)).toEqual([]);

    // A again: its bridge sends the stored copy, once, to A.
    const back = await page.mark();
    await page.install({ websiteToken: WEBSITE_TOKEN });
    await page.waitFor({ type: 'message', messageId: 'switch-m1', state: 'sent' }, { since: back, timeoutMs: 10_000 });
    expect((await harness.storedMessages(WEBSITE_TOKEN)).map((message) => message.content)).toEqual([
      'for inbox A only',
    ]);
    expect(await harness.storedMessages(OTHER_WEBSITE_TOKEN)).toEqual([]);
  });

  it('installed again for the same inbox, a waiting sendMessage is not answered: the new bridge sends its message', async () => {
    const page = await harness.open({ host: 'android' });
    tab = page;
    await page.setOffline(true, true);
    const id = await page.send('sendMessage', { content: 'same inbox', messageId: 'switch-m2' });
    await page.waitFor({ type: 'message', messageId: 'switch-m2', state: 'queued' });
    await page.install({ websiteToken: WEBSITE_TOKEN });
    await page.setOffline(false, true);
    await page.waitFor({ type: 'message', messageId: 'switch-m2', state: 'sent' }, { timeoutMs: 10_000 });
    expect((await page.messages()).filter((message) => message.type === 'response' && message.id === id)).toEqual([]);
    expect((await harness.storedMessages(WEBSITE_TOKEN)).map((message) => message.content)).toEqual(['same inbox']);
  });
});
