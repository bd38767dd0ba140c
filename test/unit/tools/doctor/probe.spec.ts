/**
 * The doctor's HTTP side (tools/doctor/probe.ts) against a real server on 127.0.0.1: each request
 * sent once and shared, as a WebView would send it, and failures turned into reasons.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createProbe, type DoctorTarget } from '../../../../tools/doctor/probe.js';

const TOKEN = 'wt_given_token_0123456789';
const ORIGIN = 'https://app.example';

let server: Server | undefined;
async function stop() {
  const running = server;
  server = undefined;
  if (running === undefined) return;
  running.closeAllConnections();
  await new Promise((resolve) => running.close(resolve));
}
afterEach(stop);

/** A server answering `answer(req)`; returns its base URL and the requests it saw. */
async function serve(answer: (req: IncomingMessage) => { status: number; headers?: object; body?: string } | null) {
  const seen: Array<{ method: string; url: string; headers: IncomingMessage['headers'] }> = [];
  server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    const reply = answer(req);
    if (reply === null) return; // never answered
    res.writeHead(reply.status, { ...reply.headers });
    res.end(reply.body ?? '');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/api`, seen };
}

const target = (baseUrl: string, timeoutMs = 2_000): DoctorTarget => ({
  baseUrl,
  websiteToken: TOKEN,
  origin: ORIGIN,
  fetch: (url, init) => fetch(url, init),
  timeoutMs,
});

describe('createProbe', () => {
  it("sends GET /config with the page's Origin and the token, once however many checks read it", async () => {
    const { baseUrl, seen } = await serve(() => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: '{"authToken":"at_handed_out_0123456789"}',
    }));
    const probe = createProbe(target(baseUrl));
    const [first, second] = await Promise.all([probe.config('given'), probe.config('given')]);
    expect(first).toBe(second);
    expect(first).toMatchObject({ answered: true, label: 'GET /config', status: 200 });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.url).toBe(`/api/config?website_token=${TOKEN}`);
    expect(seen[0]?.headers.origin).toBe(ORIGIN);
    // Both tokens are known to the report's scrubber: the one sent and the one handed out.
    expect(probe.secrets().sort()).toEqual(['at_handed_out_0123456789', TOKEN].sort());
  });

  it('sends a made-up token for the wrong-token request, labelled without it', async () => {
    const { baseUrl, seen } = await serve(() => ({ status: 401 }));
    const answer = await createProbe(target(baseUrl)).config('wrong');
    expect(answer.label).toBe('GET /config with a wrong token');
    expect(seen[0]?.url).toMatch(/website_token=doctor-invalid-[0-9a-f-]{36}$/);
  });

  it('sends preflights as a browser does, and does not follow redirects', async () => {
    const { baseUrl, seen } = await serve((req) =>
      req.method === 'OPTIONS' ? { status: 301, headers: { location: 'https://elsewhere.example/' } } : null,
    );
    const answer = await createProbe(target(baseUrl)).preflight('/messages', 'POST', 'content-type, authorization');
    expect(answer).toMatchObject({ answered: true, label: 'OPTIONS /messages', status: 301 });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.headers).toMatchObject({
      origin: ORIGIN,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, authorization',
    });
  });

  it('turns a refused connection and a hang into reasons a person can act on', async () => {
    const { baseUrl } = await serve(() => null);
    const hung = await createProbe(target(baseUrl, 200)).config('given');
    expect(hung).toMatchObject({ answered: false, reason: expect.stringMatching(/^no answer within 200 ms/) });

    await stop();
    const refused = await createProbe(target(baseUrl)).config('given');
    expect(refused).toMatchObject({
      answered: false,
      reason: expect.stringContaining('connection refused: nothing listens there (ECONNREFUSED)'),
    });
  });

  it('sendAll sends the four requests the checks read, at once', async () => {
    const { baseUrl, seen } = await serve(() => ({ status: 204 }));
    const probe = createProbe(target(baseUrl));
    probe.sendAll();
    await Promise.all([probe.config('given'), probe.config('wrong'), probe.preflight('/messages', 'POST')]);
    await probe.preflight('/config', 'GET');
    expect(seen.map((request) => `${request.method} ${request.url.split('?')[0]}`).sort()).toEqual([
      'GET /api/config',
      'GET /api/config',
      'OPTIONS /api/config',
      'OPTIONS /api/messages',
    ]);
  });
});
