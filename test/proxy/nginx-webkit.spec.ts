/**
 * The refused photo behind a real nginx in WebKit (WebKitGTK, the engine of WKWebView): its
 * XMLHttpRequest upload meets nginx's default 1m limit, answered 413 without CORS headers. The
 * photo fails as upload_refused after 3 uploads and the text sent after it goes (issue 32).
 */
import { afterEach, describe, it } from 'vitest';
import { requireWebKit } from '../helpers/webkit.js';
import { useWebKitHarness, type WebKitPage } from '../helpers/webkit-harness.js';
import { corsSnippet, ensureConversation, hostOf, refusedPhotoThenText } from '../helpers/nginx-configs.js';
import { requireProxy, startNginx, type RunningProxy } from '../helpers/proxies.js';
import { WEBSITE_TOKEN } from '../helpers/browser-harness.js';

describe.skipIf(!(requireWebKit() && requireProxy('nginx')))('a photo refused by nginx (WebKit)', () => {
  const harness = useWebKitHarness();
  const views: WebKitPage[] = [];
  const proxies: RunningProxy[] = [];
  afterEach(async () => {
    for (const view of views.splice(0)) await view.close();
    for (const proxy of proxies.splice(0)) await proxy.stop();
    harness.backend.reset();
  });

  it('fails a 2 MB photo over the default 1m limit as upload_refused after 3 uploads; the text behind it goes', async () => {
    const proxy = await startNginx(corsSnippet({ always: false }), hostOf(harness.backend.url));
    proxies.push(proxy);
    await ensureConversation(harness.backend.url, WEBSITE_TOKEN);
    const view = await harness.open({ host: 'ios', settings: { baseUrl: proxy.url } });
    views.push(view);
    await refusedPhotoThenText(view, proxy, () => harness.storedMessages());
  }, 60_000);
});
