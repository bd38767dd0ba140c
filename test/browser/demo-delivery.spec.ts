/**
 * The demo page's Outbox panel and Request timeline driven for real, as a person would: the
 * demo as `npm start` serves it (the page and the reference backend on two ports) in headless
 * Chromium, the device taken offline with Chromium's own offline mode (`context.setOffline`,
 * so `navigator.onLine` turns false and every request fails), a message sent from the page's
 * form, then the network given back. Nothing is posted by hand: every row and bar comes from
 * the bridge's own events and requests.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startDemo } from '../../demo-page/serve.mjs';
import { launchChromium, requireChromium, type LaunchedBrowser } from '../helpers/chromium.js';

const WAIT = { timeout: 10_000 };

type Demo = Awaited<ReturnType<typeof startDemo>>;

describe.skipIf(!requireChromium())('the demo page delivering a message through an offline spell', () => {
  let demo: Demo;
  let chromium: LaunchedBrowser;
  let context: BrowserContext | undefined;
  /** Page errors and console errors other than Chromium's own reports of failed backend requests. */
  const problems: string[] = [];

  beforeAll(async () => {
    demo = await startDemo({ backendPort: 0, pagePort: 0 });
    chromium = await launchChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await demo?.close();
  });
  afterEach(async () => {
    expect(problems.splice(0)).toEqual([]);
    await context?.close();
    demo.backend.reset();
  });

  async function open(host: string): Promise<Page> {
    context = await chromium.browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      // Chromium logs each request that failed offline, and each 4xx answer (the backend's 404
      // before it creates the conversation); the page cannot stop that. Anything else is a problem.
      const fromBackend = message.location().url.startsWith(demo.backendUrl);
      const report =
        /^Failed to load resource: (net::ERR_INTERNET_DISCONNECTED|the server responded with a status of 4\d\d)/;
      if (!fromBackend || !report.test(message.text())) problems.push(`console error: ${message.text()}`);
    });
    await page.goto(`${demo.pageUrl}&host=${host}`);
    await page.locator('#status', { hasText: 'installed for' }).waitFor(WAIT);
    return page;
  }

  const messagePosts = () =>
    demo.backend.requests.filter((entry) => entry.method === 'POST' && entry.path === '/messages');

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
      /^○ queued demo-\S+ “written on the train”attempt 1 · waits for the network$/,
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
});
