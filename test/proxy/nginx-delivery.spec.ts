/**
 * Delivery behind a real nginx (Debian's 1.22, started by the test on 127.0.0.1 in front of the
 * reference backend), in Chromium: the configurations self-hosters copy, nginx's own error answers
 * (its 413, limit_req's 503 and 429, 502 while the app server restarts, 504, an HTML page), and
 * what the bridge makes of each (issue 32).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { requireChromium } from '../helpers/chromium.js';
import { useBrowserHarness, WEBSITE_TOKEN, type BridgePage } from '../helpers/browser-harness.js';
import { messageState, sendMessage } from '../helpers/delivery-steps.js';
import { corsSnippet, ensureConversation, hostOf, MB, photo, refusedPhotoThenText } from '../helpers/nginx-configs.js';
import {
  docsConfig,
  requireProxy,
  startForwarder,
  startNginx,
  type Forwarder,
  type RunningProxy,
} from '../helpers/proxies.js';

describe.skipIf(!(requireChromium() && requireProxy('nginx')))('delivery behind nginx (Chromium)', () => {
  const harness = useBrowserHarness();
  const tabs: BridgePage[] = [];
  const running: Array<RunningProxy | Forwarder> = [];

  afterEach(async () => {
    for (const tab of tabs.splice(0)) await tab.close();
    for (const server of running.splice(0)) await ('stop' in server ? server.stop() : server.close());
    harness.backend.setFault('slow', false);
    harness.backend.reset();
  });

  const nginx = async (http: string, upstream = hostOf(harness.backend.url)) => {
    const proxy = await startNginx(http, upstream);
    running.push(proxy);
    return proxy;
  };
  const open = async (proxy: RunningProxy, baseUrl = proxy.url) => {
    await ensureConversation(harness.backend.url, WEBSITE_TOKEN);
    const tab = await harness.open({ host: 'android', settings: { baseUrl } });
    tabs.push(tab);
    return tab;
  };
  const contents = async () => (await harness.storedMessages()).map((message) => message.content);

  it('fails a photo over the default 1m limit (a 413 without CORS) as upload_refused after 3 uploads; the text behind it goes', async () => {
    const proxy = await nginx(corsSnippet({ always: false }));
    await refusedPhotoThenText(await open(proxy), proxy, () => harness.storedMessages());
  });

  it('with `always`, the same limit gives file_too_large at once, and the text behind goes', async () => {
    const proxy = await nginx(corsSnippet({ always: true }));
    const tab = await open(proxy);
    await tab.send('sendMessage', { content: '', messageId: 'photo', attachments: [photo('beach.jpg', 2 * MB)] });
    await sendMessage(tab, 'after');
    const failed = await tab.waitFor({ type: 'message', messageId: 'photo', state: 'failed' });
    expect(failed).toMatchObject({ attempt: 1, error: { code: 'file_too_large', status: 413 } });
    await messageState(tab, 'after', 'sent');
    expect(await contents()).toEqual(['after']);
  });

  it.each([
    ['503 pages without CORS', false, ''],
    ['429 with `always` (limit_req_status 429)', true, 'limit_req_status 429;'],
  ])(
    'delivers twelve quick messages each once through limit_req (%s)',
    async (_, always, status) => {
      const proxy = await nginx(
        corsSnippet({
          always,
          http: 'limit_req_zone $binary_remote_addr zone=tight:1m rate=3r/s;',
          location: `limit_req zone=tight burst=2 nodelay; ${status}`,
        }),
      );
      const tab = await open(proxy);
      const ids = Array.from({ length: 12 }, (_, n) => `quick ${n + 1}`);
      for (const id of ids) await sendMessage(tab, id);
      for (const id of ids) await messageState(tab, id, 'sent', 60_000);
      expect(await contents()).toEqual(ids);
      const limited = (await proxy.requests()).filter((line) => line.endsWith(always ? ' 429' : ' 503'));
      expect(limited.length).toBeGreaterThan(0);
      expect((await tab.messages()).some((m) => m.type === 'message' && m.state === 'failed')).toBe(false);
    },
    90_000,
  );

  it('delivers three messages sent while the app server restarts behind nginx (502 for 8 s) each once', async () => {
    const forwarder = await startForwarder(hostOf(harness.backend.url));
    running.push(forwarder);
    const proxy = await nginx(corsSnippet({ always: false }), forwarder.upstream);
    const tab = await open(proxy);
    expect(await tab.call('getConversation')).toMatchObject({ ok: true });
    const restarting = forwarder.restart(8_000);
    for (const id of ['during 1', 'during 2', 'during 3']) {
      await sendMessage(tab, id);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    }
    await restarting;
    for (const id of ['during 1', 'during 2', 'during 3']) await messageState(tab, id, 'sent', 30_000);
    expect(await contents()).toEqual(['during 1', 'during 2', 'during 3']);
    expect((await proxy.requests()).some((line) => line === 'POST /messages 502')).toBe(true);
  }, 60_000);

  it('retries through an upstream timeout (504) and stores the message once', async () => {
    const proxy = await nginx(corsSnippet({ always: true, location: 'proxy_read_timeout 1s;' }));
    const tab = await open(proxy);
    expect(await tab.call('getConversation')).toMatchObject({ ok: true });
    harness.backend.setFault('slow', true, '2000');
    await sendMessage(tab, 'slow one');
    await expect
      .poll(async () => (await proxy.requests()).filter((l) => l === 'POST /messages 504').length, {
        timeout: 15_000,
      })
      .toBeGreaterThanOrEqual(2);
    harness.backend.setFault('slow', false);
    await messageState(tab, 'slow one', 'sent', 30_000);
    // Every attempt reached the backend under one echo_id: it kept one message.
    expect(
      harness.backend.requests.filter((e) => e.method === 'POST' && e.path === '/messages').length,
    ).toBeGreaterThanOrEqual(3);
    expect(await contents()).toEqual(['slow one']);
  }, 60_000);

  it('reports a base URL on an HTML page as config_error, at once, with no retry storm', async () => {
    const proxy = await nginx(
      corsSnippet({
        always: false,
        server: `location /chat/ { default_type text/html; add_header Access-Control-Allow-Origin *; return 200 '<!doctype html><title>Welcome to nginx</title>'; }`,
      }),
    );
    const tab = await open(proxy, `${proxy.url}/chat`);
    const init = await tab.call('init');
    expect(init).toMatchObject({ ok: false, error: { code: 'config_error' } });
    expect(JSON.stringify(init)).toContain('body not JSON');
    await sendMessage(tab, 'to nowhere');
    await tab.waitFor({ type: 'message', messageId: 'to nowhere', state: 'failed' });
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const log = await proxy.requests();
    expect(log.filter((line) => line.startsWith('GET /chat/config')).length).toBeLessThanOrEqual(2);
    expect(log.filter((line) => !line.startsWith('GET /chat/config') && !line.startsWith('OPTIONS'))).toEqual([]);
  });

  it("works as docs/backend.md's nginx configuration says: a 2 MB photo delivered, rate limits answered 429 with CORS", async () => {
    const proxy = await nginx(docsConfig('nginx'));
    const tab = await open(proxy);
    await tab.send('sendMessage', { content: 'photo', messageId: 'photo', attachments: [photo('beach.jpg', 2 * MB)] });
    await messageState(tab, 'photo', 'sent', 20_000);
    expect(await contents()).toEqual(['photo']);
    // nginx's own error answers carry the CORS headers: a body over the limit is a readable 413.
    const big = await fetch(`${proxy.url}/messages`, { method: 'POST', body: Buffer.alloc(7 * MB) });
    expect(big.status).toBe(413);
    expect(big.headers.get('access-control-allow-origin')).toBe('*');
    expect(big.headers.get('access-control-expose-headers')).toBe('Retry-After');
  });
});
