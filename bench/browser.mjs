/**
 * Headless Chromium for the browser figures, launched as test/helpers/chromium.ts does (same
 * executable and flags; that file is TypeScript, so its few lines are repeated here).
 */
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** @returns {Promise<import('playwright-core').Browser | undefined>} undefined when Chromium is not installed */
export async function launchChromium() {
  if (!existsSync(CHROMIUM_PATH)) return undefined;
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}
