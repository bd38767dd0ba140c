import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBridge, type Bridge } from '../../../bridge/bridge.js';
import type { Environment, HttpRequest, HttpResponse } from '../../../bridge/environment.js';
import { normalizeOptions } from '../../../bridge/options.js';
import { createVirtualClock, withVirtualClock } from '../../../tools/testing/virtual-clock.js';
import { createInMemoryEnvironment, type InMemoryEnvironment } from '../../../tools/testing/in-memory-environment.js';
import { createRecorder } from '../../../bridge/recording/recorder.js';

const BASE = 'https://chat.example.test/api/v1';
const WEBSITE_TOKEN = 'wt_unit_7c1f0a9b';
const EVIL = 'https://evil.example.test';

/** For tests where the network is not the point: any request is a failure of the test. */
const noFetch = (_url: string, _request: HttpRequest): Promise<HttpResponse> =>
  Promise.reject(new Error('this test must make no request'));

/** Lets already-settled async work finish, without any timer. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

const bridges: Bridge[] = [];
const servers: Server[] = [];

afterEach(async () => {
  bridges.splice(0).forEach((bridge) => bridge.destroy());
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

function start(
  testEnv: InMemoryEnvironment,
  extra: Record<string, unknown> = {},
  env: Environment = testEnv.env,
): Bridge {
  const options = normalizeOptions(
    { baseUrl: BASE, websiteToken: WEBSITE_TOKEN, host: 'browser', ...extra },
    env.pageOrigin,
  );
  const bridge = createBridge(options, env);
  bridges.push(bridge);
  return bridge;
}

const ofType = (testEnv: InMemoryEnvironment, type: string) =>
  testEnv.messages().filter((message) => message['type'] === type);

describe('startup', () => {
  it('sends ready before anything else', () => {
    const t = createInMemoryEnvironment({ fetch: noFetch });
    const bridge = start(t);
    bridge.receive('{bad');
    expect(t.messages()[0]).toEqual({ type: 'ready' });
    expect(ofType(t, 'ready')).toHaveLength(1);
  });
});

describe('inbound handling', () => {
  it('answers a bad message with exactly one parse_error and still handles the next message', () => {
    const t = createInMemoryEnvironment({ fetch: noFetch });
    start(t);
    t.post('chatwoot-widget:{"event": nope');
    expect(ofType(t, 'error')).toEqual([expect.objectContaining({ code: 'parse_error' })]);

    t.post('chatwoot-widget:' + JSON.stringify({ event: 'loaded', unread: 2 }));
    expect(t.messages().slice(1)).toEqual([
      expect.objectContaining({ type: 'error', code: 'parse_error' }),
      { type: 'widget', event: 'loaded', data: { unread: 2 } },
    ]);
  });

  it('keeps handling host commands after a host command that is not JSON', async () => {
    const t = createInMemoryEnvironment({ fetch: noFetch });
    const bridge = start(t);
    bridge.receive('{"id":"1","method":');
    bridge.receive({ id: '2', method: 'noSuchMethod' });
    await settle();
    expect(t.messages().slice(1)).toEqual([
      expect.objectContaining({ type: 'error', code: 'parse_error' }),
      { type: 'response', id: '2', ok: false, error: expect.objectContaining({ code: 'unknown_method' }) },
      expect.objectContaining({ type: 'error', code: 'unknown_method' }),
    ]);
  });

  it('turns the widget error event into one widget_error event', () => {
    const t = createInMemoryEnvironment({ fetch: noFetch });
    start(t);
    t.post('chatwoot-widget:{"event":"error","message":"Inbox not found"}');
    expect(t.messages().slice(1)).toEqual([
      { type: 'error', code: 'widget_error', retryable: false, message: '[widget] error: Inbox not found' },
    ]);
  });

  it('drops messages from a disallowed origin: no delivery and no request', async () => {
    const t = createInMemoryEnvironment({ fetch: noFetch });
    start(t);
    t.post({ id: 'c1', method: 'init' }, EVIL);
    t.post(JSON.stringify({ id: 'c2', method: 'getConversation' }), EVIL);
    t.post('chatwoot-widget:{"event":"loaded"}', EVIL);
    t.post('chatwoot-widget:{broken', EVIL);
    await settle();
    expect(t.messages()).toEqual([{ type: 'ready' }]);
    expect(t.requests).toEqual([]);
  });

  it('refuses an attachment 12 MiB over the limit as file_too_large, not parse_error, without a request', async () => {
    const t = createInMemoryEnvironment({ fetch: noFetch });
    const bridge = start(t);
    const data = 'A'.repeat(12 * 1024 * 1024);
    bridge.receive({
      id: 'big',
      method: 'sendMessage',
      params: { attachments: [{ name: 'movie.mp4', type: 'video/mp4', data }] },
    });
    await settle();
    expect(t.messages().slice(1)).toEqual([
      {
        type: 'response',
        id: 'big',
        ok: false,
        error: expect.objectContaining({ code: 'file_too_large', status: 413 }),
      },
      expect.objectContaining({ type: 'error', code: 'file_too_large' }),
    ]);
    expect(t.requests).toEqual([]);
    expect(bridge.stats().outbox).toBe(0);
  });
});

describe('website token', () => {
  it('answers init without a websiteToken with auth_failed and makes no request', async () => {
    const t = createInMemoryEnvironment({ fetch: noFetch });
    const bridge = start(t, { websiteToken: undefined });
    bridge.receive({ id: 'i1', method: 'init' });
    bridge.receive({ id: 'g1', method: 'getConversation' });
    await settle();
    const responses = ofType(t, 'response');
    expect(responses).toEqual([
      { type: 'response', id: 'i1', ok: false, error: expect.objectContaining({ code: 'auth_failed', status: 401 }) },
      { type: 'response', id: 'g1', ok: false, error: expect.objectContaining({ code: 'auth_failed', status: 401 }) },
    ]);
    expect(ofType(t, 'error').map((e) => e['code'])).toEqual(['auth_failed', 'auth_failed']);
    expect(t.requests).toEqual([]);
    expect(bridge.stats().pendingCommands).toBe(0);
  });
});

describe('destroy', () => {
  it('is safe to call twice, removes its listeners once, and ignores everything afterwards', async () => {
    const t = createInMemoryEnvironment({ fetch: noFetch });
    let subscriptions = 0;
    const counted =
      <T>(subscribe: (listener: T) => () => void) =>
      (listener: T) => {
        subscriptions++;
        const unsubscribe = subscribe(listener);
        return () => {
          subscriptions--;
          unsubscribe();
        };
      };
    const env: Environment = {
      ...t.env,
      onMessage: counted(t.env.onMessage),
      onConnectivityChange: counted(t.env.onConnectivityChange),
    };
    const bridge = start(t, {}, env);
    const heard: unknown[] = [];
    bridge.on((message) => heard.push(message));
    expect(subscriptions).toBe(2);

    bridge.destroy();
    expect(() => bridge.destroy()).not.toThrow();
    expect(subscriptions).toBe(0);

    t.post('chatwoot-widget:{"event":"loaded"}');
    t.post({ id: 'x', method: 'init' });
    bridge.receive({ id: 'y', method: 'init' });
    bridge.receive('{bad');
    t.setOnline(false);
    t.setOnline(true);
    await settle();
    expect(t.messages()).toEqual([{ type: 'ready' }]);
    expect(heard).toEqual([]);
    expect(t.requests).toEqual([]);
  });
});

describe('host channels', () => {
  it("delivers only to the android channel with host: 'android', as JSON strings", async () => {
    const t = createInMemoryEnvironment({ fetch: noFetch });
    const bridge = start(t, { host: 'android' });
    expect(bridge.host).toBe('android');
    t.post('chatwoot-widget:{"event":"loaded"}');
    bridge.receive({ id: 'u', method: 'nope' });
    await settle();
    expect(t.deliveries.length).toBe(4);
    for (const delivery of t.deliveries) {
      expect(delivery.host).toBe('android');
      expect(typeof delivery.payload).toBe('string');
    }
    expect(t.messages().map((m) => m['type'])).toEqual(['ready', 'widget', 'response', 'error']);
  });

  it('queues events until a late channel appears, then delivers them in order', () => {
    const t = createInMemoryEnvironment({ fetch: noFetch, channels: [] });
    const clock = createVirtualClock();
    const bridge = start(t, { host: 'react-native' }, withVirtualClock(t.env, clock));
    t.post('chatwoot-widget:{"event":"loaded"}');
    bridge.receive('{bad');
    expect(bridge.stats().undelivered).toBe(3);

    clock.advance(500);
    expect(bridge.stats().undelivered).toBe(3);

    const received: string[] = [];
    t.env.scope['ReactNativeWebView'] = { postMessage: (payload: string) => received.push(payload) };
    // Looked for at 50, 150, 350 and 750 ms (doubling waits): the look at 750 ms finds it.
    clock.advance(1000);
    expect(received.map((payload) => (JSON.parse(payload) as { type: string }).type)).toEqual([
      'ready',
      'widget',
      'error',
    ]);
    expect(bridge.stats().undelivered).toBe(0);

    t.post('chatwoot-widget:{"event":"opened"}');
    expect(received).toHaveLength(4);
    expect(JSON.parse(received[3] as string)).toEqual({ type: 'widget', event: 'opened', data: {} });
    expect(clock.pending).toBe(0);
  });
});

describe('redaction', () => {
  /** A backend on 127.0.0.1 that echoes the tokens it is sent, as a careless proxy or server might. */
  async function echoingBackend(authToken: string): Promise<string> {
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      res.setHeader('content-type', 'application/json');
      if (url.pathname === '/api/v1/config') {
        const websiteToken = url.searchParams.get('website_token');
        res.end(JSON.stringify({ authToken, widget: { websiteToken, greeting: `Hello from inbox ${websiteToken}` } }));
        return;
      }
      if (url.pathname === '/api/v1/conversations') {
        res.statusCode = 422;
        const sent = req.headers.authorization ?? '';
        res.end(JSON.stringify({ message: `rejected ${sent}`, errors: { [authToken]: [`bad ${authToken}`] } }));
        return;
      }
      res.statusCode = 404;
      res.end('{}');
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  }

  it('never delivers a token, even when the backend echoes it in results, messages and keys', async () => {
    const authToken = 'at_unit_secret_5e4d3c2b1a';
    const baseUrl = await echoingBackend(authToken);
    const t = createInMemoryEnvironment();
    const bridge = start(t, { baseUrl });
    bridge.receive({ id: 'i', method: 'init' });
    bridge.receive({ id: 'g', method: 'getConversation' });
    await vi.waitFor(() => expect(ofType(t, 'response')).toHaveLength(2), { timeout: 5_000 });

    const [init, conversation] = ofType(t, 'response');
    expect(init).toEqual({
      type: 'response',
      id: 'i',
      ok: true,
      result: { config: { widget: { websiteToken: '<redacted>', greeting: 'Hello from inbox <redacted>' } } },
    });
    expect(conversation).toMatchObject({
      ok: false,
      error: { code: 'validation_error', message: '[GET /conversations] 422: rejected Bearer <redacted>' },
    });
    expect((conversation as { error: { errors: unknown } }).error.errors).toEqual({ '<redacted>': ['bad <redacted>'] });

    const everything = JSON.stringify(t.deliveries);
    expect(everything).not.toContain(WEBSITE_TOKEN);
    expect(everything).not.toContain(authToken);
    // The tokens did travel to the backend: the redaction is on the way out only.
    expect(t.requests.some((r) => r.url.includes(`website_token=${WEBSITE_TOKEN}`))).toBe(true);
    expect(t.requests.some((r) => r.headers['Authorization'] === `Bearer ${authToken}`)).toBe(true);
  });
});

describe('widget credentials and the conversation token', () => {
  const LOADED = (authToken: string) =>
    'chatwoot-widget:' +
    JSON.stringify({ event: 'loaded', config: { authToken, locale: 'en' }, secretKey: 'sk_widget_1' });

  it('forwards loaded without its credential fields and scrubs their values from everything else', async () => {
    const echo = (_url: string): Promise<HttpResponse> =>
      Promise.resolve({
        status: 500,
        headers: { get: () => null },
        text: async () => JSON.stringify({ message: 'conversation cw_conversation_jwt_1 and sk_widget_1 broke' }),
      });
    const t = createInMemoryEnvironment({ fetch: echo });
    const bridge = start(t);
    const heard: unknown[] = [];
    bridge.on((message) => heard.push(message));
    t.post(LOADED('cw_conversation_jwt_1'));
    bridge.receive({ id: 'i', method: 'init' });
    await vi.waitFor(() => expect(ofType(t, 'response')).toHaveLength(1));

    expect(t.messages()[1]).toEqual({ type: 'widget', event: 'loaded', data: { config: { locale: 'en' } } });
    expect(ofType(t, 'error')[0]).toMatchObject({
      code: 'server_error',
      message: '[GET /config] 500: conversation <redacted> and <redacted> broke',
    });
    expect(ofType(t, 'conversationToken')).toEqual([]);
    for (const text of [JSON.stringify(t.deliveries), JSON.stringify(heard)]) {
      expect(text).not.toContain('cw_conversation_jwt_1');
      expect(text).not.toContain('sk_widget_1');
    }
  });

  it('with forwardConversationToken, sends the token of each loaded event to the channel only', () => {
    const t = createInMemoryEnvironment({ fetch: noFetch, channels: ['android'] });
    const bridge = start(t, { host: 'android', forwardConversationToken: true });
    const heard: unknown[] = [];
    bridge.on((message) => heard.push(message));
    t.post(LOADED('cw_conversation_jwt_1'));
    t.post('chatwoot-widget:{"event":"loaded","config":{}}');
    t.post(LOADED('cw_conversation_jwt_2'));

    expect(ofType(t, 'conversationToken')).toEqual([
      { type: 'conversationToken', token: 'cw_conversation_jwt_1' },
      { type: 'conversationToken', token: 'cw_conversation_jwt_2' },
    ]);
    // Every other message still has it scrubbed, and listeners never get it.
    const others = t.messages().filter((message) => message['type'] !== 'conversationToken');
    expect(JSON.stringify(others)).not.toMatch(/cw_conversation_jwt/);
    expect(JSON.stringify(heard)).not.toMatch(/cw_conversation_jwt/);
    expect(heard.some((message) => (message as { type: string }).type === 'conversationToken')).toBe(false);
  });

  it('never echoes a message the host posted to the widget (kebab-case commands)', () => {
    const t = createInMemoryEnvironment({ fetch: noFetch });
    const options = normalizeOptions({ baseUrl: BASE, websiteToken: WEBSITE_TOKEN, record: true }, t.env.pageOrigin);
    const bridge = createBridge(options, t.env, { recorder: createRecorder });
    bridges.push(bridge);
    t.post(
      'chatwoot-widget:' + JSON.stringify({ event: 'set-user', identifier: 'u1', user: { email: 'ada@example.com' } }),
    );
    t.post('chatwoot-widget:' + JSON.stringify({ event: 'set-locale', locale: 'fr' }));
    expect(t.messages()).toEqual([{ type: 'ready' }]);
    expect(bridge.recording()).not.toContain('ada@example.com');
  });
});

describe('upload progress', () => {
  const answer = (status: number, body: unknown): HttpResponse => ({
    status,
    headers: new Headers(),
    text: async () => JSON.stringify(body),
  });
  const backend = async (url: string) =>
    url.includes('/config') ? answer(200, { authToken: 'at_unit_progress_0123456789' }) : answer(201, { id: 1 });

  for (const host of ['react-native', 'android', 'ios', 'flutter', 'browser'] as const) {
    it(`reaches the ${host} host in the message's sending events, from the upload transport; text goes through fetch`, async () => {
      const uploaded: string[] = [];
      const t = createInMemoryEnvironment({
        fetch: backend,
        upload: async (url, _request, onProgress) => {
          uploaded.push(url);
          onProgress(0, 4_000);
          onProgress(4_000, 4_000);
          return backend(url);
        },
      });
      const bridge = start(t, { host });
      const photo = Buffer.from('photo bytes').toString('base64');
      const sent = {
        id: 'p',
        method: 'sendMessage',
        params: { messageId: 'photo', attachments: [{ name: 'a.png', type: 'image/png', data: photo }] },
      };
      bridge.receive(JSON.stringify(sent));
      bridge.receive(JSON.stringify({ id: 't', method: 'sendMessage', params: { messageId: 'text', content: 'hi' } }));
      await vi.waitFor(() => expect(ofType(t, 'response')).toHaveLength(2));

      expect(uploaded).toEqual([`${BASE}/messages`]);
      const states = (id: string) =>
        ofType(t, 'message').flatMap(({ messageId, state, progress }) => (messageId === id ? [[state, progress]] : []));
      expect(states('photo')).toEqual([
        ['queued', undefined],
        ['sending', undefined],
        ['sending', { sentBytes: 0, totalBytes: 4_000 }],
        ['sending', { sentBytes: 4_000, totalBytes: 4_000 }],
        ['sent', undefined],
      ]);
      expect(states('text')).toEqual([
        ['queued', undefined],
        ['sending', undefined],
        ['sent', undefined],
      ]);
      // In the payloads of this host alone (on a native host, with other states of their task).
      const payloads = t.deliveries.filter((delivery) => JSON.stringify(delivery.payload).includes('sentBytes'));
      expect(payloads.length).toBeGreaterThan(0);
      expect(new Set(payloads.map((delivery) => delivery.host))).toEqual(new Set([host]));
      const form = host === 'browser' ? 'object' : 'string';
      expect(payloads.every((delivery) => typeof delivery.payload === form)).toBe(true);
    });
  }
});

describe('a host channel that never appears', () => {
  it('stops looking after a minute with one channel_error, and delivers everything if it appears later', () => {
    const t = createInMemoryEnvironment({ fetch: noFetch, channels: [] });
    const clock = createVirtualClock();
    const bridge = start(t, { host: 'react-native' }, withVirtualClock(t.env, clock));
    const heard: Array<Record<string, unknown>> = [];
    bridge.on((message) => heard.push(message as never));
    t.post('chatwoot-widget:{"event":"loaded"}');

    clock.advance(59_000);
    expect(heard.filter((message) => message['code'] === 'channel_error')).toEqual([]);
    clock.advance(2_000);
    expect(heard.filter((message) => message['code'] === 'channel_error')).toEqual([
      {
        type: 'error',
        code: 'channel_error',
        retryable: true,
        message: expect.stringMatching(/^\[channel\] no react-native channel after 6\d{4} ms$/) as unknown,
      },
    ]);
    expect(clock.pending).toBe(0);
    clock.advance(600_000);
    expect(heard.filter((message) => message['code'] === 'channel_error')).toHaveLength(1);

    const received: string[] = [];
    t.env.scope['ReactNativeWebView'] = { postMessage: (payload: string) => received.push(payload) };
    bridge.receive('{bad');
    const delivered = received.map((payload) => JSON.parse(payload) as { type: string; code?: string });
    expect(delivered.map((message) => message.code ?? message.type)).toEqual([
      'ready',
      'widget',
      'channel_error',
      'parse_error',
    ]);
    expect(bridge.stats().undelivered).toBe(0);
  });
});

describe('on() listeners', () => {
  it('reports a throwing listener without breaking delivery to the channel or to the other listeners', async () => {
    const testEnv = createInMemoryEnvironment({ fetch: noFetch });
    const bridge = start(testEnv, { host: 'android' });
    const seen: string[] = [];
    const reported: unknown[] = [];
    const onUncaught = (error: unknown) => reported.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      bridge.on(() => {
        throw new Error('host listener bug');
      });
      bridge.on((message) => seen.push(message.type));
      testEnv.post('chatwoot-widget:{"event":"loaded"}');
      await settle();
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(seen).toEqual(['widget']);
    expect(testEnv.messages().map((message) => message['type'])).toEqual(['ready', 'widget']);
    expect(reported).toHaveLength(1);
    expect(String(reported[0])).toContain('host listener bug');
  });
});

describe("backend: 'chatwoot' (backend/chatwoot-profile.ts)", () => {
  const ROOT = 'https://chat.example.test';
  /** A fetch that keeps each request's URL and headers and answers one JSON body. */
  function keeping(body: unknown = { id: 1 }) {
    const seen: Array<{ url: string; headers: Record<string, string> }> = [];
    const fetch = async (url: string, request: HttpRequest): Promise<HttpResponse> => {
      seen.push({ url, headers: request.headers });
      return { status: 200, headers: { get: () => null }, text: async () => JSON.stringify(body) };
    };
    return { seen, fetch };
  }
  function chatwoot(t: InMemoryEnvironment, search = ''): Bridge {
    t.env.scope['location'] = { search };
    const options = normalizeOptions({ baseUrl: ROOT, websiteToken: WEBSITE_TOKEN, backend: 'chatwoot' }, ROOT);
    const bridge = createBridge(options, t.env);
    bridges.push(bridge);
    return bridge;
  }

  it("sends as the page's cw_conversation contact: X-Auth-Token, website_token the one query parameter", async () => {
    const { seen, fetch } = keeping();
    const t = createInMemoryEnvironment({ fetch, pageOrigin: ROOT });
    const bridge = chatwoot(t, '?website_token=x&cw_conversation=eyJ.page.contact_1');
    bridge.receive({ id: 's', method: 'sendMessage', params: { content: 'hi' } });
    await vi.waitFor(() => expect(ofType(t, 'response')).toHaveLength(1), { timeout: 5_000 });
    expect(seen).toEqual([
      {
        url: `${ROOT}/api/v1/widget/messages?website_token=${WEBSITE_TOKEN}`,
        headers: { 'Content-Type': 'application/json', 'X-Auth-Token': 'eyJ.page.contact_1' },
      },
    ]);
  });

  it("takes the widget's loaded token over the page's, and never tells the host either", async () => {
    const { seen, fetch } = keeping({ id: 1, echo: 'eyJ.page.contact_1 eyJ.widget.contact_2' });
    const t = createInMemoryEnvironment({ fetch, pageOrigin: ROOT });
    const bridge = chatwoot(t, '?cw_conversation=eyJ.page.contact_1');
    t.post(
      `chatwoot-widget:${JSON.stringify({ event: 'loaded', config: { authToken: 'eyJ.widget.contact_2' } })}`,
      ROOT,
    );
    bridge.receive({ id: 's', method: 'sendMessage', params: { content: 'hi' } });
    await vi.waitFor(() => expect(ofType(t, 'response')).toHaveLength(1), { timeout: 5_000 });
    expect(seen[0]?.headers['X-Auth-Token']).toBe('eyJ.widget.contact_2');
    expect(JSON.stringify(t.deliveries)).not.toMatch(/eyJ\.(page|widget)\.contact/);
  });

  it('makes its own contact only where the page has none', async () => {
    const { seen, fetch } = keeping({ auth_token: 'eyJ.own.contact_3' });
    const t = createInMemoryEnvironment({ fetch, pageOrigin: ROOT });
    const bridge = chatwoot(t);
    bridge.receive({ id: 'c', method: 'getConversation' });
    await vi.waitFor(() => expect(ofType(t, 'response')).toHaveLength(1), { timeout: 5_000 });
    expect(seen.map((request) => [request.url.replace(ROOT, ''), request.headers['X-Auth-Token']])).toEqual([
      [`/api/v1/widget/config?website_token=${WEBSITE_TOKEN}`, undefined],
      [`/api/v1/widget/conversations?website_token=${WEBSITE_TOKEN}`, 'eyJ.own.contact_3'],
    ]);
  });

  it("leaves the contract's bridge alone: no cw_conversation read, its own token as Authorization", async () => {
    const { seen, fetch } = keeping({ authToken: 'at_contract_4' });
    const t = createInMemoryEnvironment({ fetch });
    t.env.scope['location'] = { search: '?cw_conversation=eyJ.page.contact_1' };
    const bridge = start(t);
    t.post(`chatwoot-widget:${JSON.stringify({ event: 'loaded', config: { authToken: 'eyJ.widget.contact_2' } })}`);
    bridge.receive({ id: 'c', method: 'getConversation' });
    await vi.waitFor(() => expect(ofType(t, 'response')).toHaveLength(1), { timeout: 5_000 });
    expect(seen.map((request) => request.headers['Authorization'])).toEqual([undefined, 'Bearer at_contract_4']);
    expect(seen.every((request) => !request.headers['X-Auth-Token'])).toBe(true);
  });
});
