/**
 * The demo page's backend picker (demo-page/backend-picker.js) as `npm start` serves it, in
 * headless Chromium: both modes of the reference backend are offered; picking Chatwoot points
 * baseUrl, the faults and the request log at the Chatwoot mode and installs the bridge with
 * `backend: 'chatwoot'`; the choice survives a reload; picking the contract again undoes it.
 */
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { requireChromium } from '../helpers/chromium.js';
import { switchFaultInBar } from '../helpers/demo-controls.js';
import { useDemoInChromium } from '../helpers/demo-in-chromium.js';

const WAIT = { timeout: 10_000 };

describe.skipIf(!requireChromium())("the demo page's backend picker in Chromium", () => {
  const running = useDemoInChromium();
  const closers: Array<() => Promise<void>> = [];

  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
    running.demo.backend.reset();
    running.demo.chatwoot.reset();
  });

  async function open(): Promise<Page> {
    const context = await running.chromium.browser.newContext({ viewport: { width: 1440, height: 900 } });
    closers.push(() => context.close());
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    closers.push(async () => expect(errors).toEqual([]));
    await page.goto(running.demo.pageUrl);
    await page.locator('#status', { hasText: 'installed for' }).waitFor(WAIT);
    // Every later install's options, as the page hands them to the bridge.
    await page.evaluate(() => {
      const w = window as unknown as { ChatBridge: { install(options: object): unknown }; installs: object[] };
      const install = w.ChatBridge.install.bind(w.ChatBridge);
      w.installs = [];
      w.ChatBridge.install = (options) => (w.installs.push(options), install(options));
    });
    return page;
  }

  const lastInstall = (page: Page) =>
    page.evaluate(() => (window as unknown as { installs: Array<Record<string, unknown>> }).installs.at(-1));

  it('offers both modes, and picking Chatwoot points the page and the bridge at the Chatwoot mode', async () => {
    const page = await open();
    expect(await page.locator('#backend-mode option').allTextContents()).toEqual(['contract', 'Chatwoot']);
    expect(await page.inputValue('#base-url')).toBe(running.demo.backendUrl);

    await page.selectOption('#backend-mode', 'chatwoot');
    await expect
      .poll(() => lastInstall(page), WAIT)
      .toMatchObject({ backend: 'chatwoot', baseUrl: running.demo.chatwoot.url });
    expect(await page.inputValue('#base-url')).toBe(running.demo.chatwoot.url);
    // The faults are the Chatwoot mode's, and switching one reaches that backend.
    await page.locator('#fault-lost-answer').waitFor({ ...WAIT, state: 'attached' });
    await switchFaultInBar(page, 'account-suspended', true);
    expect(running.demo.chatwoot.faults().find((fault) => fault.name === 'account-suspended')?.on).toBe(true);
    expect(running.demo.backend.faults().some((fault) => fault.on)).toBe(false);
  });

  it('keeps the choice across a reload, and picking the contract again drops the setting', async () => {
    const page = await open();
    await page.selectOption('#backend-mode', 'chatwoot');
    await expect.poll(() => lastInstall(page), WAIT).toMatchObject({ backend: 'chatwoot' });
    await page.reload();
    await page.locator('#status', { hasText: 'installed for' }).waitFor(WAIT);
    expect(await page.inputValue('#backend-mode')).toBe('chatwoot');
    expect(await page.inputValue('#base-url')).toBe(running.demo.chatwoot.url);
    expect(
      await page.evaluate(() => (window as unknown as { chatBridgeSettings: object }).chatBridgeSettings),
    ).toMatchObject({
      backend: 'chatwoot',
    });

    await page.evaluate(() => {
      const w = window as unknown as { ChatBridge: { install(options: object): unknown }; installs: object[] };
      const install = w.ChatBridge.install.bind(w.ChatBridge);
      w.installs = [];
      w.ChatBridge.install = (options) => (w.installs.push(options), install(options));
    });
    await page.selectOption('#backend-mode', 'contract');
    await expect.poll(() => lastInstall(page), WAIT).toMatchObject({ baseUrl: running.demo.backendUrl });
    expect(await lastInstall(page)).not.toHaveProperty('backend');
    await page.locator('#fault-no-conversation').waitFor({ ...WAIT, state: 'attached' });
  });
});
