/**
 * The demo page's Outbox panel and Request timeline driven for real, as a person would: the
 * demo as `npm start` serves it (the page and the reference backend on two ports) in headless
 * Chromium, the device taken offline with Chromium's own offline mode (`context.setOffline`,
 * so `navigator.onLine` turns false and every request fails), a message sent from the page's
 * form, then the network given back. Nothing is posted by hand: every row and bar comes from
 * the bridge's own events and requests.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { requireChromium } from '../helpers/chromium.js';
import { switchFaultInBar } from '../helpers/demo-controls.js';
import { useDemoInChromium } from '../helpers/demo-in-chromium.js';

const WAIT = { timeout: 10_000 };

describe.skipIf(!requireChromium())('the demo page delivering a message through an offline spell', () => {
  const running = useDemoInChromium();
  let context: BrowserContext | undefined;
  /** Page errors and console errors other than Chromium's own reports of failed backend requests. */
  const problems: string[] = [];

  afterEach(async () => {
    expect(problems.splice(0)).toEqual([]);
    await context?.close();
    running.demo.backend.reset();
  });

  async function open(host: string): Promise<Page> {
    context = await running.chromium.browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      // Chromium logs each request that failed offline, and each 4xx/5xx answer (the backend's 404
      // before it creates the conversation, a 503 storm's answers); the page cannot stop that. Anything else is a problem.
      const fromBackend = message.location().url.startsWith(running.demo.backendUrl);
      const report =
        /^Failed to load resource: (net::ERR_INTERNET_DISCONNECTED|the server responded with a status of [45]\d\d)/;
      if (!fromBackend || !report.test(message.text())) problems.push(`console error: ${message.text()}`);
    });
    await page.goto(`${running.demo.pageUrl}&host=${host}`);
    await page.locator('#status', { hasText: 'installed for' }).waitFor(WAIT);
    return page;
  }

  const messagePosts = () =>
    running.demo.backend.requests.filter((entry) => entry.method === 'POST' && entry.path === '/messages');

  it('lists the message as queued while offline, without spinning retries, then sent once back online, with the timeline drawn', async () => {
    const page = await open('react-native');
    await page.click('#cmd-init');
    await page.locator('#events .received', { hasText: '"response"' }).first().waitFor(WAIT);

    await context!.setOffline(true);
    await page.fill('#message-text', 'written on the train');
    await page.click('#cmd-send');

    // The Outbox shows the message by its text, queued after its one failed attempt, and says why it waits.
    const row = page.locator('#outbox .outbox-row', { hasText: 'written on the train' });
    await page.locator('#outbox .outbox-row.queued', { hasText: 'attempt 1' }).waitFor(WAIT);
    expect(await row.textContent()).toMatch(
      /^○ queued demo-\S+ “written on the train”attempt 1 · waits for the networkcancel$/,
    );
    const messageId = (await row.locator('.outbox-id').textContent())!;
    // The status line says the device is offline, not that the backend is down.
    await page.locator('#status', { hasText: 'This device is offline' }).waitFor(WAIT);
    expect(await page.locator('body').getAttribute('class')).toContain('is-offline');
    // No timer spins while offline: still one attempt a few seconds later, and nothing reached the backend.
    await page.waitForTimeout(2_500);
    expect(await row.textContent()).toContain('attempt 1 ·');
    expect(messagePosts()).toEqual([]);
    // listOutbox (answered from storage while offline) lists it too.
    await page.click('#list-outbox');
    await page.locator('#events .received', { hasText: `messages: [{messageId: "${messageId}"` }).waitFor(WAIT);

    await context!.setOffline(false);
    // Back online the bridge sends it at once (the `online` event): a tick, after its second attempt.
    await page.locator('#outbox .outbox-row.sent', { hasText: 'written on the train' }).waitFor(WAIT);
    expect(await row.textContent()).toMatch(/^✓ sent demo-\S+ “written on the train”attempt 2$/);
    await page
      .locator('#events .received', { hasText: `echo_id: "${messageId}"` })
      .first()
      .waitFor(WAIT);
    expect(messagePosts().filter((entry) => entry.status === 200)).toHaveLength(1);
    await page.locator('#status', { hasText: 'installed for' }).waitFor(WAIT);

    // The timeline draws the message's lane: the attempt that got no answer, the offline wait, the 2xx.
    const lane = page.locator('#timeline .lane', { hasText: `message ${messageId}` });
    await lane.locator('.bar.s2xx').last().waitFor(WAIT);
    const bars = await lane.locator('.bar').evaluateAll((spans) => spans.map((span) => span.className));
    expect(bars[0]).toBe('bar failed');
    expect(bars.at(-1)).toBe('bar s2xx');
    expect(await lane.locator('.offline').count()).toBe(1);
    expect(await lane.locator('.waits').textContent()).toMatch(/^waited: offline, \d+\.\d s/);
    expect(await lane.locator('.bar').first().getAttribute('title')).toBe('POST /messages → no answer');
  });

  it("cancels a waiting message from its row (nothing is sent for it after), then sends it again from the failed row's button", async () => {
    const page = await open('android');
    // The page's Offline switch this time: its fetch fails and it fires the window's offline event.
    await page.locator('#offline').check();
    await page.fill('#message-text', 'on second thought');
    await page.click('#cmd-send');
    const row = page.locator('#outbox .outbox-row', { hasText: 'on second thought' });
    await page.locator('#outbox .outbox-row.queued', { hasText: 'waits for the network' }).waitFor(WAIT);
    const messageId = (await row.locator('.outbox-id').textContent())!;

    await row.getByRole('button', { name: 'cancel' }).click();
    await page.locator('#outbox .outbox-row.failed', { hasText: 'on second thought' }).waitFor(WAIT);
    expect(await row.textContent()).toMatch(/failed with cancelled/);
    await page
      .locator('#events .received', {
        hasText: `ChatEvent.Message(messageId = "${messageId}", state = MessageState.FAILED`,
      })
      .waitFor(WAIT);
    await page.locator('#events .received', { hasText: 'result = mapOf("cancelled" to true)' }).waitFor(WAIT);

    // Back online, nothing goes out for the cancelled message, however long the page stays.
    await page.locator('#offline').uncheck();
    await page.waitForTimeout(2_500);
    expect(messagePosts()).toEqual([]);

    // "send again" resends it under the same messageId: sent once.
    await row.getByRole('button', { name: 'send again' }).click();
    await page.locator('#outbox .outbox-row.sent', { hasText: 'on second thought' }).waitFor(WAIT);
    expect(await row.locator('.outbox-id').textContent()).toBe(messageId);
    expect(messagePosts().filter((entry) => entry.status === 200)).toHaveLength(1);
  });

  it("draws a message's retry schedule through a 503 storm on its own lane, with the countdown in the Outbox", async () => {
    const page = await open('ios');
    await switchFaultInBar(page, 'service-unavailable', true);
    await expect
      .poll(() => running.demo.backend.faults().find((fault) => fault.name === 'service-unavailable')?.on, WAIT)
      .toBe(true);
    await page.fill('#message-text', 'through the storm');
    await page.click('#cmd-send');

    // Kept and retried on its backoff (never failed): the row counts down to each next try.
    const row = page.locator('#outbox .outbox-row', { hasText: 'through the storm' });
    await page.locator('#outbox .outbox-row.queued', { hasText: 'attempt 3 · next try in' }).waitFor(WAIT);
    expect(await row.textContent()).toMatch(/attempt 3 · next try in [1-4] scancel$/);
    const messageId = (await row.locator('.outbox-id').textContent())!;
    await switchFaultInBar(page, 'service-unavailable', false);
    await page.locator('#outbox .outbox-row.sent', { hasText: 'through the storm' }).waitFor({ timeout: 15_000 });

    // Every request made for it, its config calls through the storm included, is on its own lane,
    // the waits between them named as the bridge's backoff, each longer than the one before.
    const lane = page.locator('#timeline .lane', { hasText: `message ${messageId}` });
    await lane.locator('.bar.s2xx').last().waitFor(WAIT);
    const titles = await lane.locator('.bar').evaluateAll((bars) => bars.map((bar) => bar.getAttribute('title')));
    expect(titles.filter((title) => title?.endsWith('→ 503')).length).toBeGreaterThanOrEqual(3);
    expect(titles.at(-1)).toBe('POST /messages → 200');
    const waits = [...((await lane.locator('.waits').textContent()) ?? '').matchAll(/backoff (\d+\.\d) s/g)].map(
      (match) => Number(match[1]),
    );
    expect(waits.length).toBeGreaterThanOrEqual(3);
    expect(waits[0]).toBeLessThanOrEqual(2);
    expect(waits[2]).toBeGreaterThan(waits[0]!);
    expect(await page.locator('#timeline .lane', { hasText: 'sendMessage ' }).count()).toBe(0);
  });
});
