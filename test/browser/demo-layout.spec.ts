/**
 * The demo page read at a glance, in headless Chromium as `npm start` serves it: a message's
 * attachments, which the bridge uploads through XMLHttpRequest, appear on the request timeline
 * (and the page's Offline switch holds them back like any fetch); the control bar stays at the
 * top of the window; on a 390 × 844 phone the page is tabs, each pane about one screen and none
 * scrolling sideways.
 */
import { mkdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { requireChromium } from '../helpers/chromium.js';
import { useDemoInChromium } from '../helpers/demo-in-chromium.js';

const SCREENSHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));
const WAIT = { timeout: 10_000 };
const PHONE = { width: 390, height: 844 };

describe.skipIf(!requireChromium())('the demo page at a glance', () => {
  const running = useDemoInChromium();
  let context: BrowserContext | undefined;
  const problems: string[] = [];

  afterEach(async () => {
    expect(problems.splice(0)).toEqual([]);
    await context?.close();
    running.demo.backend.reset();
  });

  async function open(host: string, { phone = false } = {}): Promise<Page> {
    context = await running.chromium.browser.newContext(
      phone
        ? { viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 2 }
        : { viewport: { width: 1280, height: 900 } },
    );
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      // Chromium reports each 4xx/5xx answer of the backend (the 404 before a conversation exists).
      const fromBackend = message.location().url.startsWith(running.demo.backendUrl);
      if (!fromBackend || !/^Failed to load resource: the server responded/.test(message.text()))
        problems.push(`console error: ${message.text()}`);
    });
    await page.goto(`${running.demo.pageUrl}&host=${host}`);
    await page.locator('#status', { hasText: 'installed for' }).waitFor(WAIT);
    return page;
  }

  const messagePosts = () =>
    running.demo.backend.requests.filter((entry) => entry.method === 'POST' && entry.path === '/messages');

  /** Sends the form's text with one small photo; returns the message's id, read from its Outbox row. */
  async function sendPhoto(page: Page, text: string): Promise<string> {
    await page.setInputFiles('#message-files', {
      name: 'beach.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.alloc(200 * 1024, 7),
    });
    await page.fill('#message-text', text);
    await page.click('#cmd-send');
    const row = page.locator('#outbox .outbox-row', { hasText: text });
    await row.waitFor(WAIT);
    return (await row.locator('.outbox-id').textContent())!;
  }

  it("draws a photo's XHR upload on its message's row: the POST, the stretch its body went up, the answer", async () => {
    const page = await open('android');
    const messageId = await sendPhoto(page, 'a photo');
    await page.locator('#outbox .outbox-row.sent', { hasText: 'a photo' }).waitFor(WAIT);
    // The backend got it as multipart, the bridge's XHR path (fetch sends text messages as JSON).
    const upload = messagePosts().find((entry) => entry.status === 200);
    expect(upload?.headers['content-type']).toMatch(/^multipart\/form-data/);

    const lane = page.locator('#timeline .lane', { hasText: `message ${messageId}` });
    await lane.locator('.bar.s2xx').last().waitFor(WAIT);
    const titles = await lane.locator('.bar').evaluateAll((bars) => bars.map((bar) => bar.getAttribute('title')));
    expect(titles.at(-1)).toBe('POST /messages → 200');
    // Only XHR reports upload progress: the striped part over the bar is the observer's XHR wrap.
    const part = lane.locator('.upload-part').last();
    expect(await part.getAttribute('title')).toMatch(/^POST \/messages: body uploading \(\d+ KB\)$/);
  });

  it('holds an XHR upload back while the Offline switch is on, drawn as no answer, and sends it once back', async () => {
    const page = await open('react-native');
    // A first text message makes the conversation: the photo's first attempt is then its upload.
    await page.fill('#message-text', 'hi');
    await page.click('#cmd-send');
    await page.locator('#outbox .outbox-row.sent', { hasText: 'hi' }).waitFor(WAIT);
    const before = messagePosts().length;
    await page.locator('#offline').check();
    const messageId = await sendPhoto(page, 'a photo on the train');
    await page.locator('#outbox .outbox-row.queued', { hasText: 'waits for the network' }).waitFor(WAIT);
    expect(messagePosts()).toHaveLength(before);
    const lane = page.locator('#timeline .lane', { hasText: `message ${messageId}` });
    expect(await lane.locator('.bar').evaluateAll((bars) => bars.map((bar) => bar.getAttribute('title')))).toEqual([
      'POST /messages → no answer',
    ]);

    // An offline spell long enough to be a wait on the row, not one step to the next request.
    await page.waitForTimeout(500);
    await page.locator('#offline').uncheck();
    await page.locator('#outbox .outbox-row.sent', { hasText: 'a photo on the train' }).waitFor(WAIT);
    await lane.locator('.bar.s2xx').last().waitFor(WAIT);
    expect(await lane.locator('.waits').textContent(WAIT)).toMatch(/^waited: offline, \d+\.\d s$/);
  });

  it('keeps the control bar (platform, Offline, faults) at the top of the window, wherever the page is scrolled', async () => {
    const page = await open('ios');
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
    for (const id of ['#host', '#offline', '#faults-menu > summary']) {
      const box = (await page.locator(id).boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThan(60);
    }
    // Switched from there, the fault is named in the bar.
    await page.click('#faults-menu > summary');
    await page.locator('#fault-rate-limited').check();
    await page.locator('#faults-on', { hasText: 'rate-limited' }).waitFor(WAIT);
    await page.keyboard.press('Escape');
    expect(await page.locator('#faults').isVisible()).toBe(false);
  });

  it('is tabs on a 390 × 844 phone: each pane about one screen, none scrolling sideways', async () => {
    const page = await open('android', { phone: true });
    await page.click('#cmd-init');
    await sendPhoto(page, 'from the phone');
    await page.locator('#outbox .outbox-row.sent', { hasText: 'from the phone' }).waitFor(WAIT);
    await page.click('.tabs [data-tab=errors]');
    await page.click('#try-invalid-email');
    await page.click('#try-wrong-path');
    await page
      .locator('#events .received', { hasText: 'ChatEvent.Error(code = "not_found"' })
      .first()
      .waitFor({ state: 'attached' });

    const panes = { outbox: '#outbox', requests: '#timeline', platform: '#events', errors: '#legend' };
    const heights: Record<string, number> = {};
    mkdirSync(SCREENSHOTS, { recursive: true });
    for (const [tab, content] of Object.entries(panes)) {
      await page.click(`.tabs [data-tab=${tab}]`);
      await page.evaluate(() => window.scrollTo(0, 0));
      expect(await page.locator(content).isVisible()).toBe(true);
      // The other panes' content is hidden.
      for (const other of Object.values(panes).filter((selector) => selector !== content))
        expect(await page.locator(other).isVisible()).toBe(false);
      const layout = await page.evaluate(() => {
        const width = document.documentElement.clientWidth;
        // Boxes past the right edge, and boxes whose content spills out of them (a long word).
        const tooWide = [...document.querySelectorAll('body *')]
          // Drawn: not hidden with its pane, nor folded in a closed <details> (its summary is drawn).
          .filter(
            (element) =>
              element.getClientRects().length > 0 &&
              (element.tagName === 'SUMMARY' || element.closest('details:not([open])') === null),
          )
          .filter(
            (element) =>
              element.getBoundingClientRect().right > width + 0.5 ||
              (getComputedStyle(element).overflowX === 'visible' && element.scrollWidth > element.clientWidth + 1),
          )
          .map((element) => `${element.tagName.toLowerCase()}${element.id === '' ? '' : `#${element.id}`}`);
        return {
          width,
          scrollWidth: document.documentElement.scrollWidth,
          height: document.documentElement.scrollHeight,
          tooWide: tooWide.slice(0, 10),
        };
      });
      expect(layout.width).toBe(PHONE.width);
      expect(layout.tooWide).toEqual([]);
      expect(layout.scrollWidth).toBe(PHONE.width);
      await page.evaluate(() => window.scrollTo(200, 0));
      expect(await page.evaluate(() => window.scrollX)).toBe(0);
      heights[tab] = layout.height;
      const shot = `${SCREENSHOTS}demo-phone-${tab}.png`;
      await page.screenshot({ path: shot });
      expect(statSync(shot).size).toBeGreaterThan(10_000);
    }
    // The three panes a person switches between while a message goes out: about a screen each,
    // their logs scrolling inside (the legend of the errors pane is reading matter, longer).
    for (const tab of ['outbox', 'requests', 'platform']) expect(heights[tab]).toBeLessThanOrEqual(PHONE.height * 1.25);
  });
});
