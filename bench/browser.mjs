/** Headless Chromium for the browser figures, launched as the browser tests launch it. */
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/shared-settings.mjs';

export { CHROMIUM_PATH };

/** @returns {Promise<import('playwright-core').Browser | undefined>} undefined when Chromium is not installed */
export async function launchChromium() {
  if (!existsSync(CHROMIUM_PATH)) return undefined;
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}
