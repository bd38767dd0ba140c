/**
 * The shared vectors through Chromium, for all five hosts: each vector's message encoded by
 * Chromium in the page as the host's adapter does (its own JSON.stringify for the text channels,
 * a structured clone for iOS, a CustomEvent's detail for the browser) and posted through the
 * channel as the bridge posts it. What the channel received must be the vector's `payload`, so
 * the native receivers' tests start from what a real engine produces. (Chromium has no native
 * side here: the channels are the harness's stand-ins in the page. WebKit's real handlers are
 * checked in test/webkit/vectors.spec.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireChromium } from '../helpers/chromium.js';
import { HOSTS, startBrowserHarness, type BridgePage, type BrowserHarness } from '../helpers/browser-harness.js';
import { encodedVectors, postThroughChannel } from '../helpers/engine-vectors.js';

describe.skipIf(!requireChromium())('the vectors as Chromium encodes and delivers them', () => {
  let harness: BrowserHarness;
  const tabs: BridgePage[] = [];

  beforeAll(async () => {
    harness = await startBrowserHarness();
    // No settings: the bundle is loaded but not installed, so only the posted vectors arrive.
    tabs.push(...(await Promise.all(HOSTS.map((host) => harness.open({ host, settings: false })))));
  });
  afterAll(async () => {
    await harness?.close();
  });

  it.each(HOSTS.map((host, index) => [host, index] as const))(
    '[chromium %s] delivers every vector message as exactly the vector payload',
    async (host, index) => {
      const tab = tabs[index] as BridgePage;
      const vectors = encodedVectors(host);
      expect(vectors.length).toBeGreaterThan(20);
      const body = postThroughChannel(
        host,
        vectors.map(({ message }) => message),
      );
      expect(await tab.page.evaluate(`(async () => { ${body} })()`)).toBe(vectors.length);
      const payloads = await tab.payloads();
      expect(payloads).toHaveLength(vectors.length);
      vectors.forEach((vector, i) => expect(payloads[i], vector.name).toStrictEqual(vector.payload));
    },
  );
});
