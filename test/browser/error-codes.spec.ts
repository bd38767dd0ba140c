/**
 * Every error code a browser can produce, through each of the five native channels, from the
 * real bundle in Chromium against the reference backend on another origin. One page per host;
 * each case runs on all five at once, with the backend's faults reset between cases. The cases
 * are in test/helpers/error-cases.ts, shared with the WebKit run.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { requireChromium } from '../helpers/chromium.js';
import { HOSTS, startBrowserHarness, type BridgePage, type BrowserHarness } from '../helpers/browser-harness.js';
import { CASES, expectProduced, produce } from '../helpers/error-cases.js';

describe.skipIf(!requireChromium())('each error code reaches each host channel (real bundle in Chromium)', () => {
  let harness: BrowserHarness;
  const tabs: BridgePage[] = [];

  beforeAll(async () => {
    harness = await startBrowserHarness();
    const retry = { limit: 1, baseDelay: 10, maxDelay: 2000 };
    tabs.push(...(await Promise.all(HOSTS.map((host) => harness.open({ host, settings: { retry } })))));
  });
  afterAll(async () => {
    await harness?.close();
  });
  beforeEach(() => {
    harness.backend.reset();
  });

  it('detects each host from the native channel present in the page', async () => {
    const detected = await Promise.all(
      tabs.map((tab) =>
        tab.page.evaluate(
          () => (window as unknown as { ChatBridge: { bridge: { host: string } } }).ChatBridge.bridge.host,
        ),
      ),
    );
    expect(detected).toEqual([...HOSTS]);
  });

  it.each(CASES.map((testCase) => [`${testCase.code} (${testCase.via})`, testCase] as const))(
    'delivers %s to every host in its native form',
    async (_, testCase) => {
      const { backend } = harness;
      if (testCase.fault !== undefined) backend.setFault(testCase.fault, true);

      const produced = await Promise.all(tabs.map((tab) => produce(tab, testCase, backend.url)));

      produced.forEach((result, index) =>
        expectProduced(result, HOSTS[index] ?? 'browser', testCase, harness.authTokens),
      );
      if (testCase.local) expect(backend.requests, 'a local refusal sends nothing').toEqual([]);
    },
  );
});
