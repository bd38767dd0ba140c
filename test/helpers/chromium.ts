/**
 * Headless Chromium for browser tests: Debian's `chromium`, driven by playwright-core.
 *
 * When Chromium is missing, `requireChromium()` reports it loudly; under CI=true it fails the
 * run instead, since a CI that skips its browser tests proves nothing.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/shared-settings.mjs';

export { CHROMIUM_ARGS, CHROMIUM_PATH };

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM_PATH);
}

/**
 * Returns true when browser tests can run. Without Chromium: throws under CI=true, and
 * otherwise prints a loud warning (the caller then skips with `describe.skipIf`).
 */
export function requireChromium(): boolean {
  if (chromiumAvailable()) return true;
  const message = `Chromium not found at ${CHROMIUM_PATH}: browser tests cannot run. Install it with "apt-get install -y chromium" (or set CHROMIUM_PATH).`;
  if (process.env['CI'] === 'true') throw new Error(message);
  console.warn(`\n!!! ${message} They are SKIPPED on this machine. !!!\n`);
  return false;
}

export interface LaunchedBrowser {
  browser: Browser;
  close(): Promise<void>;
}

/** Launches Chromium with a fresh, empty profile (playwright makes and removes it). */
export async function launchChromium(): Promise<LaunchedBrowser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  return {
    browser,
    async close() {
      await browser.close().catch(() => undefined);
    },
  };
}
