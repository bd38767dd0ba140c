/**
 * The outbox's waits in real Chromium against the reference backend, with the Web Locks API and
 * without it (the lease): a 503 whose Retry-After is too far off to wait for ends the message's
 * automatic retries at once, without spinning, and a wait holds as long as the server asked with
 * the device's clock set back or forward meanwhile (test/helpers/wait-cases.ts).
 */
import type { BrowserContext } from 'playwright-core';
import { afterEach, describe, it } from 'vitest';
import { requireChromium } from '../helpers/chromium.js';
import { NO_WEB_LOCKS_JS, useBrowserHarness, type BridgePage } from '../helpers/browser-harness.js';
import {
  clockMoved,
  farOffRetryAfter,
  FAR_OFF,
  idleCostsNothing,
  WAIT_PROBE_JS,
  type WaitPage,
} from '../helpers/wait-cases.js';

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
    /** `shared`: a WebView of the same app as the tabs opened with that context. */
    const open = async (shared?: BrowserContext): Promise<WaitPage & BridgePage> => {
      const context = shared ?? (await harness.browser.newContext());
      if (!shared && noWebLocks) await context.addInitScript(NO_WEB_LOCKS_JS);
      if (!shared) await context.addInitScript(WAIT_PROBE_JS);
      const tab = await harness.open({ host: 'react-native', context });
      tabs.push(tab);
      return Object.assign(tab, {
        inPage: (body: string) => tab.page.evaluate(`(async () => { ${body} })()`),
      });
    };
    const contents = async () => (await harness.storedMessages()).map((message) => message.content as string);

    it.each(FAR_OFF)(
      'ends the automatic retries of a message whose 503 asks for %s, without spinning, and sends the next',
      async (_, header) => farOffRetryAfter(await open(), harness.backend, header()),
    );

    it.each([
      ['back an hour', -3_600_000],
      ['forward an hour', 3_600_000],
    ])('holds a message for the Retry-After asked, no more and no less, with the clock set %s', async (_, offset) =>
      clockMoved(await open(), harness.backend, contents, offset),
    );

    it.each([1, 3])('costs nothing idle: %i WebViews wake up 0 times and write nothing', async (count) => {
      const first = await open();
      const pages = [first];
      while (pages.length < count) pages.push(await open(first.context));
      await idleCostsNothing(pages);
    });
  });
});
