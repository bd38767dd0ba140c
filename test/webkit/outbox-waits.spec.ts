/**
 * The outbox's waits in WebKit (WebKitGTK, the engine of WKWebView), with the Web Locks API and
 * without it (the lease, as on iOS 12.2–15.3): a 503 whose Retry-After is too far off to wait for
 * ends the message's automatic retries at once, without spinning, and a wait holds as long as the
 * server asked with the device's clock set back or forward meanwhile (test/helpers/wait-cases.ts).
 */
import { afterEach, describe } from 'vitest';
import { requireWebKit } from '../helpers/webkit.js';
import { useWebKitHarness, type WebKitPage } from '../helpers/webkit-harness.js';
import { WAIT_PROBE_JS, waitTests, type WaitPage } from '../helpers/wait-cases.js';

describe.skipIf(!requireWebKit())('outbox waits in WebKit', () => {
  const harness = useWebKitHarness();
  const views: WebKitPage[] = [];
  afterEach(async () => {
    for (const view of views.splice(0)) await view.close();
    harness.backend.setFault('service-unavailable', false);
    harness.backend.reset();
  });

  describe.each([
    ['Web Locks', false],
    ['lease, no Web Locks', true],
  ] as const)('[webkit ios, %s]', (_, noWebLocks) => {
    /** `shareWith`: a WebView of the same app as that one (its data store). */
    const open = async (shareWith?: WebKitPage): Promise<WaitPage & WebKitPage> => {
      const view = await harness.open({
        host: 'ios',
        noWebLocks,
        firstScript: WAIT_PROBE_JS,
        ...(shareWith && { shareWith }),
      });
      views.push(view);
      return Object.assign(view, { inPage: view.evaluate });
    };
    waitTests(open, harness);
  });
});
