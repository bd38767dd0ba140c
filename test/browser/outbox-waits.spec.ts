/**
 * The outbox's waits in real Chromium against the reference backend, with the Web Locks API and
 * without it (the lease): a 503 whose Retry-After is too far off to wait for ends the message's
 * automatic retries at once, without spinning, and a wait holds as long as the server asked with
 * the device's clock set back or forward meanwhile (test/helpers/wait-cases.ts).
 */
import { afterEach, describe } from 'vitest';
import { requireChromium } from '../helpers/chromium.js';
import { NO_WEB_LOCKS_JS, useBrowserHarness, type BridgePage } from '../helpers/browser-harness.js';
import { WAIT_PROBE_JS, waitTests, type WaitPage } from '../helpers/wait-cases.js';

describe.skipIf(!requireChromium())('outbox waits (real bundle in Chromium, reference backend)', () => {
  const harness = useBrowserHarness();
  const tabs: BridgePage[] = [];

  afterEach(async () => {
    for (const tab of tabs.splice(0)) await tab.context.close();
    harness.backend.setFault('service-unavailable', false);
    harness.backend.reset();
  });

  describe.each([
    ['Web Locks', false],
    ['lease, no Web Locks', true],
  ] as const)('[%s]', (_, noWebLocks) => {
    /** A tab whose probe runs before the bridge (the harness adds the Web Locks removal first). */
    /** `beside`: a WebView of the same app (its browser context). */
    const open = async (beside?: BridgePage): Promise<WaitPage & BridgePage> => {
      const shared = beside?.context;
      const context = shared ?? (await harness.browser.newContext());
      if (!shared && noWebLocks) await context.addInitScript(NO_WEB_LOCKS_JS);
      if (!shared) await context.addInitScript(WAIT_PROBE_JS);
      const tab = await harness.open({ host: 'react-native', context });
      tabs.push(tab);
      return Object.assign(tab, {
        inPage: (body: string) => tab.page.evaluate(`(async () => { ${body} })()`),
      });
    };
    waitTests(open, harness);
  });
});
