/**
 * The demo page read at a glance, in headless Chromium as `npm start` serves it: a message's
 * attachments, which the bridge uploads through XMLHttpRequest, appear on the request timeline
 * (and the page's Offline switch holds them back like any fetch); the control bar stays at the
 * top of the window; on a 390 × 844 phone the page is tabs, each pane about one screen and none
 * scrolling sideways.
 */
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { requireChromium } from '../helpers/chromium.js';
import { useDemoInChromium } from '../helpers/demo-in-chromium.js';

const SCREENSHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));
const WAIT = { timeout: 10_000 };
const PHONE = { width: 390, height: 844 };
/** Tests that read a 6 MB photo into the page: slow on a loaded machine. */
const BIG_PHOTO_TEST = 90_000;
mkdirSync(SCREENSHOTS, { recursive: true });

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

  /** Picks a photo over the bridge's 5 MB limit in the Send pane and sends it. */
  async function sendTooLargePhoto(page: Page) {
    await page.setInputFiles('#message-files', {
      name: 'holiday.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.alloc(6 * 1024 * 1024, 7),
    });
    await page.fill('#message-text', 'a big photo');
    await page.click('#cmd-send');
    const row = page.locator('#outbox .outbox-row.refused', { hasText: 'a big photo' });
    // The page reads the 6 MB into base64 first: seconds on a loaded machine.
    await row.waitFor({ timeout: 60_000 });
    return row;
  }

  /** Elements drawn whose content is cut off: clipped past their box, or ending in an ellipsis. */
  const cutOff = (page: Page) =>
    page.evaluate(() =>
      [...document.querySelectorAll('body *')]
        .filter((element) => element.getClientRects().length > 0 && element.closest('details:not([open])') === null)
        .filter((element) => {
          const style = getComputedStyle(element);
          const clips =
            style.overflowX === 'hidden' || style.overflowY === 'hidden' || style.textOverflow === 'ellipsis';
          const clamped = style.webkitLineClamp !== 'none' && style.webkitLineClamp !== '';
          return (
            clamped ||
            (clips &&
              (element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1))
          );
        })
        .map(
          (element) =>
            `${element.tagName.toLowerCase()}${element.id === '' ? '' : `#${element.id}`}: ${element.textContent?.slice(0, 30)}`,
        ),
    );

  /** Whether the platform select is wide enough for the name it shows, its arrow beside it. */
  const selectFits = (page: Page) =>
    page.evaluate(() => {
      const select = document.getElementById('host') as HTMLSelectElement;
      const probe = document.createElement('span');
      probe.style.font = getComputedStyle(select).font;
      probe.style.position = 'absolute';
      probe.textContent = select.selectedOptions[0]?.textContent ?? '';
      document.body.append(probe);
      const needed = probe.getBoundingClientRect().width;
      probe.remove();
      const style = getComputedStyle(select);
      const inner = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      // Chromium draws the arrow inside the padding-less box, about 16 px at the end.
      return { shows: select.selectedOptions[0]?.textContent, needed, inner, fits: inner >= needed + 12 };
    });

  it.each([
    ['a 1280 × 900 screen', false],
    ['a 390 × 844 phone', true],
  ])(
    'on %s, shows a photo refused before sending in the Outbox as refused (checked before sending), and empties the picker',
    async (_, phone) => {
      const page = await open('react-native', { phone });
      const row = await sendTooLargePhoto(page);
      const text = (await row.textContent()) ?? '';
      expect(text).toContain('⊘ refused');
      expect(text).toContain('file_too_large · checked before sending, nothing was sent');
      expect(text).toMatch(/holiday\.jpg is \d+ bytes, over \d+/);
      // Not a server's status: no request was made.
      expect(text).not.toMatch(/\[POST \/messages\]|413/);
      expect(messagePosts()).toEqual([]);
      expect(await page.locator('#message-files').evaluate((input: HTMLInputElement) => input.files?.length)).toBe(0);
      await page.screenshot({ path: `${SCREENSHOTS}demo-refused-${phone ? 'phone' : 'wide'}.png` });
    },
    BIG_PHOTO_TEST,
  );

  it(
    'on a 390 × 844 phone, an error shows where the user is: a toast, and a badge on the Events tab until opened',
    async () => {
      const page = await open('android', { phone: true });
      expect(await page.locator('.tabs [data-tab]').allTextContents()).toEqual([
        'Send',
        'Requests',
        'Events',
        'Try errors',
      ]);
      await sendTooLargePhoto(page);
      const toast = page.locator('#error-toast');
      await toast.waitFor({ state: 'visible', ...WAIT });
      expect(await toast.textContent()).toContain('file_too_large: ');
      expect(await page.locator('#platform-tab .tab-badge').textContent()).toBe('1');
      // In view over the pane the user is on.
      const box = (await toast.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height);
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: `${SCREENSHOTS}demo-phone-error-toast.png` });

      // A second error counts too; opening the tab shows the events and clears the badge.
      await page.click('.tabs [data-tab=errors]');
      await page.click('#try-empty-message');
      await page.locator('#platform-tab .tab-badge', { hasText: '2' }).waitFor(WAIT);
      await page.click('#error-toast-open');
      expect(await page.locator('#events').isVisible()).toBe(true);
      expect(await page.locator('#events .received', { hasText: 'file_too_large' }).count()).toBeGreaterThan(0);
      expect(await page.locator('#platform-tab .tab-badge').isVisible()).toBe(false);
      expect(await toast.isVisible()).toBe(false);
      // In the Events pane, an error needs no toast.
      await page.click('.tabs [data-tab=platform]');
      await page.evaluate(() => document.getElementById('try-empty-message')?.click());
      await page
        .locator('#events .received', { hasText: 'empty_message' })
        .nth(1)
        .waitFor({ state: 'attached', ...WAIT });
      expect(await toast.isVisible()).toBe(false);
    },
    BIG_PHOTO_TEST,
  );

  it(
    'on a 1280 × 900 screen, where the events are in view, shows no toast',
    async () => {
      const page = await open('ios');
      await sendTooLargePhoto(page);
      await page
        .locator('#events .received', { hasText: 'file_too_large' })
        .first()
        .waitFor({ state: 'attached', ...WAIT });
      expect(await page.locator('#error-toast').isVisible()).toBe(false);
    },
    BIG_PHOTO_TEST,
  );

  it.each([
    ['a 1280 × 900 screen', false],
    ['a 390 × 844 phone', true],
  ])(
    'on %s, cuts nothing off: the platform select reads its whole name, no hint or tab ends in "…"',
    async (_, phone) => {
      const page = await open('react-native', { phone });
      const select = await selectFits(page);
      expect(select, JSON.stringify(select)).toMatchObject({ shows: 'React Native', fits: true });
      for (const tab of phone ? ['outbox', 'requests', 'platform', 'errors'] : ['none']) {
        if (phone) await page.click(`.tabs [data-tab=${tab}]`);
        expect(await cutOff(page), tab).toEqual([]);
      }
    },
  );

  it("resolves the legend's links: each names a page of the repository and a heading on it", async () => {
    const page = await open('browser');
    const links = await page
      .locator('#legend a[href]')
      .evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href') ?? ''));
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) {
      const [, file = '', anchor = ''] =
        /^https:\/\/github\.com\/chat-bridge\/chat-bridge\/blob\/main\/([^#]+)#?(.*)$/.exec(link) ?? [];
      expect(file, link).not.toBe('');
      const text = readFileSync(fileURLToPath(new URL(`../../${file}`, import.meta.url)), 'utf8');
      const slugs = [...text.matchAll(/^#+ (.+)$/gm)].map(([, heading = '']) =>
        heading
          .toLowerCase()
          .replace(/[^\w\- ]/g, '')
          .replace(/ /g, '-'),
      );
      if (anchor !== '') expect(slugs, link).toContain(anchor);
    }
    // The channel_error row points at the section that explains it.
    expect(await page.locator('#code-channel_error a').textContent()).toContain('When the channel appears late');
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
