/**
 * Security properties over real HTTP on 127.0.0.1: the reference backend (or a small hostile one
 * where the test needs a backend that misbehaves), plus a second server on another port playing
 * a foreign origin that records whether anything ever reached it. It answers every request with
 * success and permissive CORS, so a bridge that did talk to it would not be stopped by an error.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createBridge } from '../../bridge/index.js';
import type { HostName } from '../../bridge/protocol/bridge-options.js';
import { normalizeOptions } from '../../bridge/options.js';
import { REDACTED } from '../../bridge/protocol/limits.js';
import { startReferenceBackend } from '../../reference-backend/server.mjs';
import { createInMemoryEnvironment, type InMemoryEnvironment } from '../../tools/testing/in-memory-environment.js';

type Backend = Awaited<ReturnType<typeof startReferenceBackend>>;
type Message = Record<string, unknown>;

const WEBSITE_TOKEN = 'wt_demo';
const PAGE_ORIGIN = 'https://app.example.test';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

interface TestServer {
  url: string;
  origin: string;
  seen: Seen[];
  close(): Promise<void>;
}

/** A node:http server on 127.0.0.1 that records every request and answers through `answer`. */
async function startServer(answer: (request: Seen) => Reply): Promise<TestServer> {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(request);
      const reply = req.method === 'OPTIONS' ? { status: 204 } : answer(request);
      res.writeHead(reply.status, {
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET, POST, PATCH, DELETE, OPTIONS',
        'access-control-allow-headers': 'Content-Type, Authorization',
        ...(reply.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...reply.headers,
      });
      res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('test server: not listening on TCP');
  const url = `http://127.0.0.1:${address.port}`;
  return {
    url,
    origin: url,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

let backend: Backend;
let foreign: TestServer;
const cleanups: Array<() => unknown> = [];

beforeAll(async () => {
  backend = await startReferenceBackend();
  foreign = await startServer(() => ({ status: 200, body: { authToken: 'at_foreign', id: 1, content: 'sent' } }));
});
afterAll(async () => {
  await backend.close();
  await foreign.close();
});
beforeEach(() => {
  backend.reset();
  foreign.seen.length = 0;
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

interface Harness {
  test: InMemoryEnvironment;
  receive(data: unknown): void;
  messages(): Message[];
  response(id: string): Promise<Message>;
  recording(): string;
}

function startBridge(
  options: Record<string, unknown>,
  { host = 'android', pageOrigin = PAGE_ORIGIN }: { host?: HostName; pageOrigin?: string } = {},
): Harness {
  const test = createInMemoryEnvironment({ channels: [host], pageOrigin });
  const bridge = createBridge(
    normalizeOptions({ websiteToken: WEBSITE_TOKEN, host, ...options }, pageOrigin),
    test.env,
  );
  cleanups.push(() => bridge.destroy());
  const messages = () => test.messages() as Message[];
  const find = (id: string) => messages().find((message) => message['type'] === 'response' && message['id'] === id);
  return {
    test,
    receive: (data) => bridge.receive(data),
    messages,
    recording: () => bridge.recording(),
    async response(id) {
      await until(`the response to "${id}"`, () => find(id) !== undefined);
      return find(id) as Message;
    },
  };
}

async function until(what: string, predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const routes = (requests: Array<{ method: string; path: string }>) =>
  requests.map(({ method, path }) => `${method} ${path}`);
const sentRoutes = (test: InMemoryEnvironment) =>
  test.requests.map(({ method, url }) => `${method} ${new URL(url).pathname}`);
const kinds = (messages: Message[]) =>
  messages.map((message) =>
    message['type'] === 'error'
      ? `error:${String(message['code'])}`
      : message['type'] === 'message'
        ? `message:${String(message['state'])}`
        : String(message['type']),
  );
/** A message's state events from queued to sent, then its command's response. */
const SENT = ['message:queued', 'message:sending', 'message:sent', 'response'];

/** What a hostile frame might post: host commands in all three spellings, widget events, garbage. */
function hostileMessages(tag: string): unknown[] {
  return [
    { id: `${tag}-object`, method: 'sendMessage', params: { content: `sent by ${tag}` } },
    JSON.stringify({ id: `${tag}-text`, method: 'getConversation' }),
    `chat-bridge:${JSON.stringify({ id: `${tag}-prefixed`, method: 'createConversation', params: { name: tag } })}`,
    `chatwoot-widget:${JSON.stringify({ event: 'loaded', from: tag })}`,
    `chatwoot-widget:${JSON.stringify({ event: 'error', message: `spoofed by ${tag}` })}`,
    'chatwoot-widget:{not json',
    'chat-bridge:{not json',
  ];
}

describe('messages from disallowed origins', () => {
  it('cause no request and no delivery, whatever they carry', async () => {
    const { test, response, messages } = startBridge({ baseUrl: backend.url });
    const disallowed = [
      foreign.origin,
      'null',
      'https://evil.example',
      'http://app.example.test',
      'https://app.example.test:8443',
      backend.url.replace('127.0.0.1', 'localhost'),
    ];
    for (const origin of disallowed) for (const data of hostileMessages('evil')) test.post(data, origin);

    // A probe from the page's own origin: sendMessage goes through the outbox in order, so once
    // the probe is answered, a hostile sendMessage before it would have been sent and answered.
    test.post({ id: 'probe', method: 'sendMessage', params: { content: 'probe' } }, PAGE_ORIGIN);
    expect(await response('probe')).toMatchObject({ ok: true });

    expect(kinds(messages())).toEqual(['ready', ...SENT]);
    const probeRoutes = ['GET /config', 'POST /messages', 'POST /conversations', 'POST /messages'];
    expect(sentRoutes(test)).toEqual(probeRoutes);
    expect(routes(backend.requests)).toEqual(probeRoutes);
    expect(foreign.seen).toEqual([]);
  });

  it('are handled when the same messages come from the page itself (the control)', async () => {
    const { test, response, messages } = startBridge({ baseUrl: backend.url });
    for (const data of hostileMessages('page')) test.post(data, PAGE_ORIGIN);
    for (const id of ['page-object', 'page-text', 'page-prefixed']) await response(id);

    expect(kinds(messages()).sort()).toEqual(
      [
        'error:parse_error',
        'error:parse_error',
        'error:widget_error',
        'ready',
        'message:queued',
        'message:sending',
        'message:sent',
        'response',
        'response',
        'response',
        'widget',
      ].sort(),
    );
    expect(routes(backend.requests)).toContain('POST /messages');
  });

  it('are dropped when allowedOrigins names other origins, even from the page itself', async () => {
    const { test, response, messages } = startBridge({
      baseUrl: backend.url,
      allowedOrigins: ['https://widget.example'],
    });
    for (const data of hostileMessages('page')) test.post(data, PAGE_ORIGIN);
    test.post({ id: 'probe', method: 'sendMessage', params: { content: 'probe' } }, 'https://widget.example');
    await response('probe');

    expect(kinds(messages())).toEqual(['ready', ...SENT]);
    expect(routes(backend.requests).filter((route) => route === 'POST /messages')).toHaveLength(2); // the probe's 404, then its retry
  });

  it('are dropped from other opaque-origin frames when the page itself has the opaque origin "null"', async () => {
    const { test, response, messages } = startBridge({ baseUrl: backend.url }, { pageOrigin: 'null' });
    for (const data of hostileMessages('sandboxed')) test.post(data, 'null');
    test.post({ id: 'probe', method: 'sendMessage', params: { content: 'probe' } }, '');
    await response('probe');

    expect(kinds(messages())).toEqual(['ready', ...SENT]);
    expect(routes(backend.requests)).toEqual([
      'GET /config',
      'POST /messages',
      'POST /conversations',
      'POST /messages',
    ]);
  });
});

describe('the Authorization header', () => {
  /** A backend under a path prefix, answering every route with success. */
  async function prefixedBackend(prefix: string): Promise<TestServer> {
    return startServer(({ method, url }) => {
      const path = new URL(url, 'http://x').pathname;
      if (!path.startsWith(`${prefix}/`)) return { status: 404, body: { message: 'not under the prefix' } };
      const route = `${method} ${path.slice(prefix.length)}`;
      if (route === 'GET /config') return { status: 200, body: { authToken: 'at_prefixed_4b7d0e', widget: {} } };
      if (route === 'GET /conversations' || route === 'POST /conversations')
        return { status: 200, body: { id: 1, messages: [] } };
      if (route === 'POST /messages') return { status: 200, body: { id: 2, content: 'sent' } };
      return { status: 404, body: { message: `no route ${route}` } };
    });
  }

  function expectOnlyTo(test: InMemoryEnvironment, server: TestServer): void {
    expect(test.requests.length).toBeGreaterThan(0);
    for (const request of test.requests) expect(new URL(request.url).origin).toBe(server.origin);
    expect(foreign.seen).toEqual([]);
  }

  it('goes only to the backend origin, under a baseUrl with a path, on every method', async () => {
    const api = await prefixedBackend('/api/v1');
    cleanups.push(() => api.close());
    const { test, receive, response } = startBridge({ baseUrl: `${api.url}/api/v1/` });
    receive({ id: 'init', method: 'init' });
    receive({ id: 'get', method: 'getConversation' });
    receive({ id: 'create', method: 'createConversation', params: { name: 'Ada' } });
    receive({ id: 'text', method: 'sendMessage', params: { content: 'hello' } });
    receive({
      id: 'file',
      method: 'sendMessage',
      params: { content: 'file', attachments: [{ name: 'a.txt', type: 'text/plain', data: 'aGk=' }] },
    });
    for (const id of ['init', 'get', 'create', 'text', 'file']) expect(await response(id)).toMatchObject({ ok: true });

    expectOnlyTo(test, api);
    for (const request of api.seen) {
      expect(request.url.startsWith('/api/v1/')).toBe(true);
      const route = `${request.method} ${new URL(request.url, 'http://x').pathname}`;
      if (route === 'GET /api/v1/config') expect(request.headers.authorization).toBeUndefined();
      else expect(request.headers.authorization).toBe('Bearer at_prefixed_4b7d0e');
    }
  });

  it('is never sent elsewhere by URLs in command params, method names or widget messages', async () => {
    const api = await prefixedBackend('/api');
    cleanups.push(() => api.close());
    const { test, receive, response } = startBridge({ baseUrl: `${api.url}/api` });
    const elsewhere = `${foreign.url}/steal`;
    const hostless = `//${new URL(foreign.url).host}/steal`;
    receive({ id: 'init', method: 'init', params: { baseUrl: foreign.url, url: elsewhere } });
    receive({
      id: 'get',
      method: 'getConversation',
      params: { name: elsewhere, identifier: hostless, baseUrl: foreign.url },
    });
    receive({
      id: 'send',
      method: 'sendMessage',
      params: {
        content: elsewhere,
        messageId: hostless,
        attachments: [{ name: `${elsewhere}/a.txt`, type: 'text/plain', data: 'aGk=' }],
        baseUrl: foreign.url,
        path: elsewhere,
      },
    });
    receive({ id: 'method-url', method: elsewhere });
    receive({ id: 'method-path', method: '../../steal' });
    test.post(
      `chatwoot-widget:${JSON.stringify({ event: 'loaded', baseUrl: foreign.url, url: elsewhere, websiteToken: 'wt_other' })}`,
      PAGE_ORIGIN,
    );
    test.post(
      `chatwoot-widget:${JSON.stringify({ event: 'config', apiHost: foreign.url, redirect: elsewhere })}`,
      PAGE_ORIGIN,
    );
    for (const id of ['init', 'get', 'send']) expect(await response(id)).toMatchObject({ ok: true });
    for (const id of ['method-url', 'method-path'])
      expect(await response(id)).toMatchObject({ ok: false, error: { code: 'unknown_method' } });

    expectOnlyTo(test, api);
    expect(api.seen.filter(({ headers }) => headers.authorization !== undefined).length).toBeGreaterThan(0);
  });

  it('never follows a redirect, so the credential cannot cross to another origin', async () => {
    // Old WebViews predate the Fetch rule that drops Authorization on a cross-origin redirect;
    // the bridge asks fetch to refuse redirects outright, and the command fails as network_error.
    const api = await startServer(({ method, url }) => {
      const path = new URL(url, 'http://x').pathname;
      if (path === '/config') return { status: 200, body: { authToken: 'at_redirected_9e2f1a', widget: {} } };
      if (method === 'GET' && path === '/conversations')
        return { status: 307, headers: { location: `${foreign.url}/conversations` } };
      return { status: 404, body: { message: 'no route' } };
    });
    cleanups.push(() => api.close());
    const { receive, response } = startBridge({ baseUrl: api.url });
    receive({ id: 'get', method: 'getConversation' });
    const answer = (await response('get')) as { ok: boolean; error?: { code: string } };

    expect(answer.ok).toBe(false);
    expect(answer.error?.code).toBe('network_error');
    expect(foreign.seen).toEqual([]);
  });
});

describe('a backend that echoes tokens', () => {
  const ECHO_WEBSITE_TOKEN = 'wt_echo_5d2c8e1f0a';

  /** Every auth token it issues goes into errors, bodies, keys and 100 levels deep. */
  async function echoingBackend(issued: string[]): Promise<TestServer> {
    let conversationsAsked = 0;
    return startServer(({ method, url, headers, body }) => {
      const path = new URL(url, 'http://x').pathname;
      const bearer = (headers.authorization ?? '').replace(/^Bearer /, '');
      if (path === '/config') {
        const token = `at_echo_${issued.length + 1}_7c1e9b3f`;
        issued.push(token);
        return {
          status: 200,
          body: {
            authToken: token,
            widget: { greeting: `hello ${ECHO_WEBSITE_TOKEN}`, [ECHO_WEBSITE_TOKEN]: url, copy: token },
          },
        };
      }
      if (method === 'GET' && path === '/conversations') {
        // The first token "expires": the bridge refetches the config and asks again.
        if (++conversationsAsked === 1) return { status: 401, body: { message: `auth token ${bearer} expired` } };
        let deep: unknown = `${bearer} ${ECHO_WEBSITE_TOKEN}`;
        for (let level = 0; level < 100; level++) deep = { level: deep };
        return {
          status: 200,
          body: {
            id: 1,
            echo: { authorization: headers.authorization, website_token: ECHO_WEBSITE_TOKEN, deep },
            messages: [{ content: `token ${bearer}` }],
          },
        };
      }
      if (method === 'POST' && path === '/conversations') {
        return {
          status: 422,
          body: {
            message: `invalid contact for ${bearer}`,
            errors: { email: [`${bearer} is not an e-mail`], [bearer]: ['echoed as a key'] },
          },
        };
      }
      if (method === 'POST' && path === '/messages') {
        if (body.includes('fail-500'))
          return { status: 500, body: { message: `boom for Bearer ${bearer} and ${ECHO_WEBSITE_TOKEN}` } };
        return { status: 401, body: { message: `auth token ${bearer} rejected for ${ECHO_WEBSITE_TOKEN}` } };
      }
      return { status: 404, body: { message: `no route ${method} ${path} (${ECHO_WEBSITE_TOKEN})` } };
    });
  }

  it.each(['android', 'ios'] as const)('leaks neither token into any %s event, response or recording', async (host) => {
    const issued: string[] = [];
    const api = await echoingBackend(issued);
    cleanups.push(() => api.close());
    const harness = startBridge({ baseUrl: api.url, websiteToken: ECHO_WEBSITE_TOKEN, record: true }, { host });
    const { receive, response } = harness;
    receive({ id: 'init', method: 'init' });
    receive({ id: 'get', method: 'getConversation' });
    receive({ id: 'create', method: 'createConversation', params: { email: 'ada@example.com' } });
    receive({ id: 'send-401', method: 'sendMessage', params: { content: 'hello' } });
    receive({ id: 'send-500', method: 'sendMessage', params: { content: 'fail-500' } });
    const [init, get, create, send401, send500] = await Promise.all(
      ['init', 'get', 'create', 'send-401', 'send-500'].map(response),
    );

    const secrets = [ECHO_WEBSITE_TOKEN, ...issued];
    expect(issued.length).toBeGreaterThanOrEqual(2);
    for (const { payload } of harness.test.deliveries) {
      const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
    const recording = harness.recording();
    expect(recording).not.toBe('');
    for (const secret of secrets) expect(recording).not.toContain(secret);

    // The echoed fields did arrive, scrubbed: the redaction, not an empty answer, kept them out.
    expect(init).toMatchObject({
      ok: true,
      result: { config: { widget: { greeting: `hello ${REDACTED}`, copy: REDACTED } } },
    });
    expect(get).toMatchObject({
      ok: true,
      result: { echo: { authorization: `Bearer ${REDACTED}`, website_token: REDACTED } },
    });
    expect(create).toMatchObject({
      ok: false,
      error: {
        code: 'validation_error',
        status: 422,
        errors: { email: [`${REDACTED} is not an e-mail`], [REDACTED]: ['echoed as a key'] },
      },
    });
    expect(send401).toMatchObject({ ok: false, error: { code: 'auth_failed', status: 401 } });
    expect(String((send401?.['error'] as Message)['message'])).toContain(REDACTED);
    expect(send500).toMatchObject({ ok: false, error: { code: 'server_error', status: 500 } });
    expect(String((send500?.['error'] as Message)['message'])).toContain(`Bearer ${REDACTED} and ${REDACTED}`);
  });
});

describe('the payload size caps', () => {
  const widget = (length: number) => {
    const frame = (pad: string) => `chatwoot-widget:${JSON.stringify({ event: 'loaded', pad })}`;
    return frame('a'.repeat(length - frame('').length));
  };

  it('refuse a widget message one character over maxMessageLength with one parse_error and nothing else', async () => {
    const { test, messages } = startBridge({ baseUrl: backend.url, maxMessageLength: 1000 });
    test.post(widget(1001), PAGE_ORIGIN);
    expect(messages()).toEqual([
      { type: 'ready' },
      { type: 'error', code: 'parse_error', retryable: false, message: expect.stringContaining('over the 1000 cap') },
    ]);
    test.post(widget(1000), PAGE_ORIGIN);
    expect(messages()[2]).toMatchObject({ type: 'widget', event: 'loaded' });
    expect(backend.requests).toEqual([]);
  });

  it('refuse a widget message over the default 1 MiB cap', () => {
    const { test, messages } = startBridge({ baseUrl: backend.url });
    test.post(widget(1024 * 1024 + 1), PAGE_ORIGIN);
    expect(kinds(messages())).toEqual(['ready', 'error:parse_error']);
  });

  it('refuse a host command one character over maxCommandLength in every spelling, answering its id, before any request', async () => {
    const options = { baseUrl: backend.url, maxMessageLength: 1000, maxFileSize: 3000 };
    const cap = normalizeOptions(options, PAGE_ORIGIN).maxCommandLength;
    const { test, receive, response, messages } = startBridge(options);
    const command = (id: string, length: number) => {
      const text = (content: string) => JSON.stringify({ id, method: 'sendMessage', params: { content } });
      return text('x'.repeat(length - text('').length));
    };

    receive(command('text', cap + 1));
    receive(JSON.parse(command('object', cap + 1)));
    receive(`chat-bridge:${command('prefixed', cap + 1)}`);
    test.post(`chat-bridge:${command('posted', cap + 1)}`, PAGE_ORIGIN);
    test.post(command('bare', cap + 1), PAGE_ORIGIN);
    const refused = ['response', 'error:parse_error'];
    expect(kinds(messages())).toEqual(['ready', ...Array(5).fill(refused).flat()]);
    for (const id of ['text', 'object', 'prefixed', 'posted', 'bare'])
      expect(await response(id)).toMatchObject({ ok: false, error: { code: 'parse_error' } });

    // At the cap the same command is sent; the outbox keeps order, so the refused ones would
    // have reached the backend before it.
    receive(command('at-cap', cap));
    expect(await response('at-cap')).toMatchObject({ ok: true });
    expect(kinds(messages())).toEqual(['ready', ...Array(5).fill(refused).flat(), ...SENT]);
    expect(routes(backend.requests)).toEqual([
      'GET /config',
      'POST /messages',
      'POST /conversations',
      'POST /messages',
    ]);
  });
});
