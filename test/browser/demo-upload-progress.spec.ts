/**
 * The demo page's upload progress bar, driven as a person would: the demo as `npm start` serves
 * it in headless Chromium, the `slow-upload` fault switched on from the control bar's fault list,
 * three photos picked in the form's file input and sent. The bar comes from the bridge's own
 * `sending` events (XMLHttpRequest's upload progress), nothing is posted by hand.
 */
import type { BrowserContext } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { requireChromium } from '../helpers/chromium.js';
import { switchFaultInBar } from '../helpers/demo-controls.js';
import { useDemoInChromium } from '../helpers/demo-in-chromium.js';

describe.skipIf(!requireChromium())('the demo page showing an upload', () => {
  const running = useDemoInChromium();
  let context: BrowserContext | undefined;

  afterEach(async () => {
    await context?.close();
    running.demo.backend.reset();
  });

  it('draws a progress bar in the Outbox row that moves while the photos go up, and drops it once sent', async () => {
    context = await running.chromium.browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${running.demo.pageUrl}&host=android`);
    await page.locator('#status', { hasText: 'installed for' }).waitFor({ timeout: 10_000 });
    // A first text message, as a chat usually starts: it makes the contact's conversation (its
    // POST /messages answered 404, then POST /conversations and the message again). The next
    // test starts with the photos instead.
    await page.fill('#message-text', 'hi');
    await page.click('#cmd-send');
    await page
      .locator('#outbox .outbox-row', { hasText: 'hi' })
      .locator('.outbox-state', { hasText: 'sent' })
      .waitFor();
    await switchFaultInBar(page, 'slow-upload', true);
    await expect.poll(() => running.demo.backend.faults().find((fault) => fault.name === 'slow-upload')?.on).toBe(true);
    // Four times the panel's default pace (512 KiB/s), to keep the test short.
    running.demo.backend.setFault('slow-upload', true, '2048');

    // 12 MB: on loopback the socket buffers take the first ~4 MB at once, the rest follows the pace.
    const photo = Buffer.alloc(4 * 1024 * 1024, 1);
    await page.setInputFiles(
      '#message-files',
      [1, 2, 3].map((n) => ({ name: `beach-${n}.jpg`, mimeType: 'image/jpeg', buffer: photo })),
    );
    await page.fill('#message-text', 'three from the beach');
    await page.click('#cmd-send');

    const row = page.locator('#outbox .outbox-row', { hasText: 'three from the beach' });
    /** The row's bar and the figures beside it (the bar's own text is its fallback), read at one moment; null while it has none. */
    const readBar = () =>
      page.evaluate(() => {
        const bar = [...document.querySelectorAll('#outbox .outbox-row')]
          .find((item) => item.textContent?.includes('three from the beach'))
          ?.querySelector('progress.outbox-progress');
        return bar instanceof HTMLProgressElement
          ? {
              value: bar.value,
              max: bar.max,
              text: (bar.parentElement?.textContent ?? '').slice(bar.textContent?.length),
            }
          : null;
      });
    const readings: Array<{ value: number; max: number; text: string }> = [];
    // Two readings of the bar part-way, the second further on.
    for (const reading of [0, 1]) {
      await expect
        .poll(
          async () => {
            const bar = await readBar();
            const part = bar !== null && bar.value > (readings[reading - 1]?.value ?? 0) && bar.value < bar.max;
            if (part) readings.push(bar);
            return part;
          },
          { timeout: 15_000, interval: 50 },
        )
        .toBe(true);
    }
    for (const { max, text } of readings) {
      expect(max).toBeGreaterThan(12 * 1024 * 1024);
      // Under 1 MB the figure is in KB: the socket buffers usually take more than that at once, not always.
      expect(text).toMatch(/^\s*\d+% · (\d+ KB|[\d.]+ MB) of 12\.0 MB$/);
    }

    // The whole body out, the answer not in yet (the server still reads what the socket buffers
    // hold): the row says it waits for the server rather than sit at 100%.
    await expect
      .poll(async () => (await readBar())?.text ?? 'no bar', { timeout: 30_000, interval: 50 })
      .toMatch(/^\s*all 12\.0 MB sent · waiting for the server's answer$/);
    await row.locator('.outbox-state', { hasText: 'sent' }).waitFor({ timeout: 30_000 });
    expect(await readBar()).toBeNull();
    // "hi" made the conversation (404, POST /conversations, 200); the photos went up once.
    expect(
      running.demo.backend.requests
        .filter((entry) => entry.method === 'POST' && entry.path === '/messages')
        .map((entry) => entry.status),
    ).toEqual([404, 200, 200]);
    expect(errors).toEqual([]);
  }, 60_000);

  it("sends a new contact's first photos once: the bar never starts over and the backend gets one upload", async () => {
    context = await running.chromium.browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${running.demo.pageUrl}&host=android`);
    await page.locator('#status', { hasText: 'installed for' }).waitFor({ timeout: 10_000 });
    running.demo.backend.setFault('slow-upload', true, '2048');

    const photo = Buffer.alloc(4 * 1024 * 1024, 2);
    await page.setInputFiles(
      '#message-files',
      [1, 2, 3].map((n) => ({ name: `first-${n}.jpg`, mimeType: 'image/jpeg', buffer: photo })),
    );
    await page.fill('#message-text', 'first photos');
    await page.click('#cmd-send');

    // Every reading of the bar until the row says sent: an upload that started over would go back.
    const readings: number[] = [];
    const row = page.locator('#outbox .outbox-row', { hasText: 'first photos' });
    await expect
      .poll(
        async () => {
          const value = await page.evaluate(() => {
            const bar = [...document.querySelectorAll('#outbox .outbox-row')]
              .find((item) => item.textContent?.includes('first photos'))
              ?.querySelector('progress.outbox-progress');
            return bar instanceof HTMLProgressElement ? bar.value : null;
          });
          if (value !== null) readings.push(value);
          return row.locator('.outbox-state', { hasText: 'sent' }).count();
        },
        { timeout: 30_000, interval: 50 },
      )
      .toBe(1);

    expect(readings.length).toBeGreaterThan(0);
    expect(readings).toEqual([...readings].sort((a, b) => a - b));
    const log = running.demo.backend.requests.filter((entry) => entry.method !== 'OPTIONS');
    expect(log.map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual([
      'GET /config 200',
      'GET /conversations 404',
      'POST /conversations 200',
      'POST /messages 200',
    ]);
    // The backend received the three photos' bytes once (with the multipart framing around them).
    const uploaded = Number(log[3]?.headers['content-length']);
    expect(uploaded).toBeGreaterThanOrEqual(3 * photo.length);
    expect(uploaded).toBeLessThan(3 * photo.length + 4096);
    expect(errors).toEqual([]);
  }, 60_000);
});
