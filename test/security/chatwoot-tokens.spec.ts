/**
 * Chatwoot's credentials are tokens like the others (bridge/outbound/redact.ts): the contact's
 * `X-Auth-Token` (from the widget's loaded event, the page's `cw_conversation`, or a config
 * answer), the page's `cw_conversation` and ActionCable's `pubsub_token` never reach an event, a
 * recording or its replay, in any encoding, even from a hostile server that echoes them in its
 * answers. Over real HTTP on 127.0.0.1.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createBridge, normalizeOptions, type Bridge } from '../../bridge/index.js';
import { formsOf } from '../../bridge/outbound/redact.js';
import { replay } from '../../tools/replay/index.js';
import { createInMemoryEnvironment } from '../../tools/testing/in-memory-environment.js';

const WEBSITE_TOKEN = 'wt_cw_security_81f3';
const PAGE_TOKEN = 'eyJhbGciOiJIUzI1NiJ9.cGFnZQ.page_contact_S1g';
const WIDGET_TOKEN = 'eyJhbGciOiJIUzI1NiJ9.d2lkZ2V0.widget_contact_Q9x';
const CONFIG_TOKEN = 'eyJhbGciOiJIUzI1NiJ9.Y29uZmln.config_contact_Z4m';
const PUBSUB_TOKEN = 'pubsub_cw_security_Hq27';
/** Generous: on a loaded machine a round trip over 127.0.0.1 may take over vi.waitFor's default second. */
const WAIT = { timeout: 10_000 };
const ALL = [WEBSITE_TOKEN, PAGE_TOKEN, WIDGET_TOKEN, CONFIG_TOKEN, PUBSUB_TOKEN];

/** A hostile Chatwoot: it echoes every token it is sent, in several encodings, in each answer. */
let server: ReturnType<typeof createServer>;
let root = '';
const seen: Array<{ method: string; url: string; headers: IncomingMessage['headers'] }> = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    req.resume();
    req.on('end', () => {
      const sent = String(req.headers['x-auth-token'] ?? '');
      const echo = `${sent} ${encodeURIComponent(sent)} ${Buffer.from(sent).toString('base64')} ${PAGE_TOKEN}`;
      const path = (req.url ?? '').split('?')[0];
      const [status, body] =
        path === '/api/v1/widget/config'
          ? [200, { auth_token: CONFIG_TOKEN, contact: { pubsub_token: PUBSUB_TOKEN }, note: `was ${echo}` }]
          : path === '/api/v1/widget/conversations'
            ? [404, { error: `Resource could not be found: ${echo} ${Buffer.from(PUBSUB_TOKEN).toString('hex')}` }]
            : [422, { message: `Too long for ${echo}`, attributes: ['content', echo] }];
      res.writeHead(status, { 'content-type': 'application/json', 'x-echo': encodeURIComponent(sent) });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function start(page = true) {
  const t = createInMemoryEnvironment({ fetch: (url, request) => fetch(url, request), pageOrigin: root });
  const cw = page ? `&cw_conversation=${PAGE_TOKEN}` : '';
  t.env.scope['location'] = { search: `?website_token=${WEBSITE_TOKEN}${cw}` };
  const raw = { baseUrl: root, websiteToken: WEBSITE_TOKEN, backend: 'chatwoot', host: 'android', record: true };
  const bridge: Bridge = createBridge(normalizeOptions(raw, root), t.env, { rawOptions: raw });
  const told: unknown[] = [];
  bridge.on((message) => told.push(message));
  const responses = () => told.filter((message) => (message as { type: string }).type === 'response');
  const loaded = {
    event: 'loaded',
    config: { authToken: WIDGET_TOKEN, channelConfig: { websiteToken: WEBSITE_TOKEN } },
  };
  return {
    bridge,
    told,
    responses,
    deliveries: () => JSON.stringify(t.deliveries),
    loaded: () => t.post(`chatwoot-widget:${JSON.stringify(loaded)}`, root),
  };
}

/** `known`: the tokens the bridge was given (a page without cw_conversation never gave it that one). */
function expectNoToken(text: string, where: string, known = ALL): void {
  const encodings = known.flatMap((token) => formsOf(token).filter((form) => form.length >= 8));
  // Every encoding the redactor knows of each (raw, JSON, URI, form, base64(url), hex, HTML...).
  for (const form of encodings) expect(text.includes(form), `${where} carries ${form}`).toBe(false);
}

function expectRequestsAsChatwoot(): void {
  for (const request of seen) {
    expect(request.headers['authorization']).toBeUndefined();
    expect(request.url).toMatch(new RegExp(`^/api/v1/widget/\\w+\\?website_token=${WEBSITE_TOKEN}$`));
  }
}

describe("Chatwoot's tokens never leave", () => {
  it("in events, listeners or the recording: the page's, the widget's and a config's contact, whatever the server echoes", async () => {
    seen.length = 0;
    const { bridge, told, responses, deliveries, loaded } = start();
    // The page's contact (cw_conversation), then the widget's (its loaded event)...
    bridge.receive({ id: 'a', method: 'sendMessage', params: { content: `hello ${PAGE_TOKEN}` } });
    await vi.waitFor(() => expect(responses()).toHaveLength(1), WAIT);
    loaded();
    bridge.receive({ id: 'b', method: 'sendMessage', params: { content: 'again' } });
    await vi.waitFor(() => expect(responses()).toHaveLength(2), WAIT);
    // ...then a 404 that renews the contact with POST …/config (a config token and a pubsub token).
    bridge.receive({ id: 'c', method: 'getConversation' });
    await vi.waitFor(() => expect(responses()).toHaveLength(3), WAIT);
    bridge.receive({ id: 'd', method: 'init' });
    await vi.waitFor(() => expect(responses()).toHaveLength(4), WAIT);

    expect(seen.map((request) => request.headers['x-auth-token'])).toEqual([
      PAGE_TOKEN,
      WIDGET_TOKEN,
      WIDGET_TOKEN,
      undefined,
      CONFIG_TOKEN,
      CONFIG_TOKEN,
    ]);
    expectRequestsAsChatwoot();
    expectNoToken(JSON.stringify(told), 'an event');
    expectNoToken(deliveries(), 'a delivery');
    const recording = bridge.recording();
    expect(recording).toContain('"backend":"chatwoot"');
    expectNoToken(recording, 'the recording');
    bridge.destroy();
  });

  it("nor in a recording's replay, whose requests show X-Auth-Token as <redacted>", async () => {
    seen.length = 0;
    const { bridge, responses, loaded } = start(false);
    loaded();
    bridge.receive({ id: 'a', method: 'sendMessage', params: { content: 'hello' } });
    await vi.waitFor(() => expect(responses()).toHaveLength(1), WAIT);
    bridge.receive({ id: 'c', method: 'getConversation' });
    await vi.waitFor(() => expect(responses()).toHaveLength(2), WAIT);
    expectRequestsAsChatwoot();
    const recording = bridge.recording();
    bridge.destroy();
    const replayed = await replay(recording, { host: 'android' });
    expect(replayed).toContain('"X-Auth-Token":"<redacted>"');
    expect(replayed).toContain('/api/v1/widget/config');
    const given = ALL.filter((token) => token !== PAGE_TOKEN);
    expectNoToken(recording, 'the recording', given);
    expectNoToken(replayed, 'the replay', given);
  });
});
