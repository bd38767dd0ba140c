/**
 * What each CORS header really breaks, in Chromium, next to what `chat-bridge doctor` says about
 * the same backend: the reference backend behind a small proxy that removes or doubles one
 * header. The doctor FAILs exactly where the bridge stops working and only WARNs where it works.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../tools/cli/main.js';
import { requireChromium } from '../helpers/chromium.js';
import { useBrowserHarness, WEBSITE_TOKEN, type BridgePage } from '../helpers/browser-harness.js';

interface Proxy {
  url: string;
  close(): Promise<void>;
}

/** Forwards everything to `target`, passing each answer's headers through `rewrite`. */
async function startProxy(
  target: string,
  rewrite: (headers: IncomingHttpHeaders) => OutgoingHttpHeaders,
): Promise<Proxy> {
  const server = createServer((req, res) => {
    const upstream = httpRequest(
      new URL(req.url ?? '/', target),
      { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, rewrite(answer.headers));
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const without =
  (name: string) =>
  ({ [name]: _dropped, ...rest }: IncomingHttpHeaders): OutgoingHttpHeaders =>
    rest;

async function doctor(baseUrl: string, origin: string): Promise<{ code: number; lines: string[] }> {
  let out = '';
  const code = await main(
    ['doctor', '--base-url', baseUrl, '--website-token', WEBSITE_TOKEN, '--origin', origin],
    (text) => (out += text),
    () => undefined,
  );
  return { code, lines: out.split('\n') };
}

const lineOf = (lines: string[], name: string) => lines.find((line) => line.slice(5).startsWith(`${name}:`)) ?? '';

describe.skipIf(!requireChromium())('CORS headers: what Chromium refuses, and what the doctor says', () => {
  const harness = useBrowserHarness();
  let proxy: Proxy | undefined;
  let tab: BridgePage | undefined;

  afterEach(async () => {
    await tab?.close();
    await proxy?.close();
    tab = undefined;
    proxy = undefined;
    harness.backend.reset();
  });

  async function through(rewrite: (headers: IncomingHttpHeaders) => OutgoingHttpHeaders): Promise<BridgePage> {
    proxy = await startProxy(harness.backend.url, rewrite);
    tab = await harness.open({ host: 'android', settings: { baseUrl: proxy.url } });
    return tab;
  }

  it('without Access-Control-Allow-Methods the bridge still sends (GET and POST are CORS-safelisted): the doctor only warns', async () => {
    const page = await through(without('access-control-allow-methods'));
    expect(await page.call('init')).toMatchObject({ ok: true });
    expect(await page.call('sendMessage', { content: 'through a preflight without Allow-Methods' })).toMatchObject({
      ok: true,
    });
    const run = await doctor(proxy?.url ?? '', harness.pageOrigin);
    expect(run.code).toBe(0);
    expect(lineOf(run.lines, 'CORS Access-Control-Allow-Methods')).toMatch(/^WARN /);
  });

  it('without Access-Control-Allow-Headers no message gets past its preflight (network_error): the doctor fails it', async () => {
    const page = await through(without('access-control-allow-headers'));
    // GET /config is a simple request: no preflight, so it still works.
    expect(await page.call('init')).toMatchObject({ ok: true });
    // The message stays in the outbox; the host hears why.
    const since = await page.mark();
    await page.send('sendMessage', { content: 'refused at the preflight' });
    expect(await page.waitFor({ type: 'error', code: 'network_error' }, { since })).toMatchObject({
      message: expect.stringContaining('[POST /messages] network error'),
    });
    expect(harness.backend.requests.filter((entry) => entry.method === 'POST' && entry.path === '/messages')).toEqual(
      [],
    );
    const run = await doctor(proxy?.url ?? '', harness.pageOrigin);
    expect(run.code).toBe(1);
    expect(lineOf(run.lines, 'CORS Access-Control-Allow-Headers')).toMatch(/^FAIL /);
    expect(lineOf(run.lines, 'GET /config')).toMatch(/^PASS /);
  });

  it('a doubled "Access-Control-Allow-Origin: *" breaks even GET /config: the doctor fails it and says to remove one', async () => {
    const page = await through((headers) => ({
      ...headers,
      'access-control-allow-origin': ['*', '*'] as unknown as string,
    }));
    expect(await page.call('init')).toMatchObject({ ok: false, error: { code: 'network_error' } });
    const run = await doctor(proxy?.url ?? '', harness.pageOrigin);
    expect(run.code).toBe(1);
    expect(lineOf(run.lines, 'CORS on API responses')).toMatch(/^FAIL .*Fix: remove one of the 2/);
  });
});
