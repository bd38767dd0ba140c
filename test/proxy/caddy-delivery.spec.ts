/**
 * Delivery behind a real Caddy (Debian's 2.6, started by the test on 127.0.0.1 in front of the
 * reference backend), in Chromium: docs/backend.md's Caddy configuration as written, and the
 * body limit without `handle_errors`, whose answer (Caddy 2.6's reverse proxy gives 502 for a
 * body over `request_body max_size`) carries no CORS headers (issue 32).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { requireChromium } from '../helpers/chromium.js';
import { useBrowserHarness, WEBSITE_TOKEN, type BridgePage } from '../helpers/browser-harness.js';
import { messageState, sendMessage } from '../helpers/delivery-steps.js';
import { ensureConversation, hostOf, MB, photo } from '../helpers/nginx-configs.js';
import { docsConfig, freePort, requireProxy, startCaddy, type RunningProxy } from '../helpers/proxies.js';

describe.skipIf(!(requireChromium() && requireProxy('caddy')))('delivery behind Caddy (Chromium)', () => {
  const harness = useBrowserHarness();
  const tabs: BridgePage[] = [];
  const proxies: RunningProxy[] = [];
  afterEach(async () => {
    for (const tab of tabs.splice(0)) await tab.close();
    for (const proxy of proxies.splice(0)) await proxy.stop();
    harness.backend.reset();
  });

  const open = async (site: string) => {
    const proxy = await startCaddy(site, hostOf(harness.backend.url));
    proxies.push(proxy);
    await ensureConversation(harness.backend.url, WEBSITE_TOKEN);
    const tab = await harness.open({ host: 'browser', settings: { baseUrl: proxy.url } });
    tabs.push(tab);
    return { tab, proxy };
  };
  const contents = async () => (await harness.storedMessages()).map((message) => message.content);

  it("delivers a 2 MB photo and a text through docs/backend.md's Caddy configuration, and its own errors carry CORS", async () => {
    const { tab, proxy } = await open(docsConfig('caddy'));
    await tab.send('sendMessage', { content: 'photo', messageId: 'photo', attachments: [photo('beach.jpg', 2 * MB)] });
    await sendMessage(tab, 'text');
    await messageState(tab, 'photo', 'sent', 20_000);
    await messageState(tab, 'text', 'sent');
    expect(await contents()).toEqual(['photo', 'text']);
    const answer = await fetch(`${proxy.url}/config?website_token=${WEBSITE_TOKEN}`);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.headers.get('access-control-expose-headers')).toBe('Retry-After');
    // Caddy's own 502 (here: nothing listens upstream) goes out with the header, from handle_errors.
    const down = await startCaddy(docsConfig('caddy'), `127.0.0.1:${await freePort()}`);
    proxies.push(down);
    const gateway = await fetch(`${down.url}/config?website_token=${WEBSITE_TOKEN}`);
    expect(gateway.status).toBe(502);
    expect(gateway.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('fails a photo over request_body max_size without handle_errors as upload_refused after 3 uploads; the text goes', async () => {
    const withoutErrors = docsConfig('caddy')
      .replace('max_size 6MB', 'max_size 1MB')
      .replace(/\thandle_errors \{[\s\S]*?\n\t\}\n/, '');
    expect(withoutErrors).not.toContain('handle_errors');
    const { tab } = await open(withoutErrors);
    await tab.send('sendMessage', { content: '', messageId: 'photo', attachments: [photo('beach.jpg', 2 * MB)] });
    await sendMessage(tab, 'text');
    const failed = await tab.waitFor({ type: 'message', messageId: 'photo', state: 'failed' }, { timeoutMs: 30_000 });
    expect(failed).toMatchObject({ attempt: 3, error: { code: 'upload_refused' } });
    await messageState(tab, 'text', 'sent');
    expect(await contents()).toEqual(['text']);
  });
});
