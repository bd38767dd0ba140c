/**
 * The demo as `npm start` serves it (the page and the reference backend on two ports) and a
 * headless Chromium, started once for a describe block and stopped after it: the set-up every
 * demo spec shares. Each spec keeps its own contexts and per-test checks.
 */
import { afterAll, beforeAll } from 'vitest';
import { startDemo } from '../../demo-page/serve.mjs';
import { launchChromium, type LaunchedBrowser } from './chromium.js';

export type Demo = Awaited<ReturnType<typeof startDemo>>;

/** Registers the describe block's beforeAll/afterAll; the fields are set once beforeAll has run. */
export function useDemoInChromium(): { demo: Demo; chromium: LaunchedBrowser } {
  const running = {} as { demo: Demo; chromium: LaunchedBrowser };
  beforeAll(async () => {
    running.demo = await startDemo({ backendPort: 0, pagePort: 0 });
    running.chromium = await launchChromium();
  });
  afterAll(async () => {
    await running.chromium?.close();
    await running.demo?.close();
  });
  return running;
}
