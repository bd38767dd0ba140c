// @vitest-environment node
/**
 * What the built bridge puts on the wire against the reference backend: which headers, where
 * each token travels, one config fetch for concurrent commands, one echo_id per message across
 * every retry, and no token in anything the host receives.
 */
import { describe, expect, it } from 'vitest';
import {
  WEBSITE_TOKEN,
  base64Bytes,
  useReferenceBackend,
  type BridgeHarness,
  type SentRequest,
} from '../helpers/bridge-harness.js';

const suite = useReferenceBackend();

const routes = () => suite.log().map((entry) => `${entry.method} ${entry.path} ${entry.status}`);
const posts = (h: BridgeHarness): SentRequest[] =>
  h.sent.filter((request) => request.method === 'POST' && request.path === '/messages');

/** Headers Node's fetch adds by itself; a browser adds its own. Everything else came from the bridge. */
const ADDED_BY_FETCH = new Set([
  'host',
  'connection',
  'accept',
  'accept-language',
  'sec-fetch-mode',
  'user-agent',
  'accept-encoding',
  'content-length',
]);

/** A session touching every endpoint: config, 404 → create, text, upload, and a token refresh. */
async function fullSession(h: BridgeHarness): Promise<void> {
  expect((await h.send('init')).ok).toBe(true);
  expect((await h.send('getConversation', { name: 'Ada' })).ok).toBe(true);
  expect((await h.send('sendMessage', { content: 'hello' })).ok).toBe(true);
  expect(
    (
      await h.send('sendMessage', {
        content: 'photo',
        attachments: [{ name: 'a.png', type: 'image/png', data: base64Bytes(300) }],
      })
    ).ok,
  ).toBe(true);
  suite.backend.setFault('expired-auth-token', true);
  expect((await h.send('sendMessage', { content: 'after expiry' })).ok).toBe(true);
}

describe('headers and token transport', () => {
  it('sends only Content-Type and Authorization, Bearer only on conversation and message endpoints', async () => {
    const h = suite.bridge();

    await fullSession(h);

    expect(routes()).toEqual([
      'GET /config 200',
      'GET /conversations 404',
      'POST /conversations 200',
      'POST /messages 200',
      'POST /messages 200',
      'POST /messages 401',
      'GET /config 200',
      'POST /messages 200',
    ]);
    for (const request of h.sent) {
      const names = Object.keys(request.headers);
      expect(
        names.every((name) => name === 'Content-Type' || name === 'Authorization'),
        `${request.method} ${request.path}: ${names.join(', ')}`,
      ).toBe(true);
      if (request.path === '/config') {
        expect(request.headers['Authorization']).toBeUndefined();
        expect(request.query).toEqual({ website_token: WEBSITE_TOKEN });
      } else {
        expect(request.headers['Authorization']).toMatch(/^Bearer [A-Za-z0-9_-]{20,}$/);
        expect(request.query).toEqual({});
      }
    }
    // The JSON bodies say so; the multipart one leaves its Content-Type (with boundary) to fetch.
    expect(
      h.sent
        .filter((request) => request.body === 'json')
        .every((request) => request.headers['Content-Type'] === 'application/json'),
    ).toBe(true);
    expect(
      h.sent.filter((request) => request.body === 'multipart').map((request) => request.headers['Content-Type']),
    ).toEqual([undefined]);

    // And what the backend actually received (its log redacts token values).
    for (const entry of suite.log()) {
      const fromBridge = Object.keys(entry.headers).filter((name) => !ADDED_BY_FETCH.has(name));
      expect(
        fromBridge.every((name) => name === 'content-type' || name === 'authorization'),
        `${entry.method} ${entry.path}: ${fromBridge.join(', ')}`,
      ).toBe(true);
      if (entry.path === '/config') {
        expect(entry.headers['authorization']).toBeUndefined();
        expect(entry.query).toEqual({ website_token: '<redacted>' });
      } else {
        expect(entry.headers['authorization']).toBe('<redacted>');
      }
    }
  });
});

describe('one config fetch for concurrent commands', () => {
  it('shares one GET /config between a getConversation and a sendMessage sent together before init', async () => {
    const h = suite.bridge();

    const [conversation, message] = await Promise.all([
      h.send('getConversation'),
      h.send('sendMessage', { content: 'together' }),
    ]);

    expect(conversation.ok).toBe(true);
    expect(message).toMatchObject({ ok: true, result: { content: 'together' } });
    expect(suite.log().filter((entry) => entry.path === '/config')).toHaveLength(1);
    expect(new Set(h.issuedTokens).size).toBe(1);
    expect(await suite.storedMessages()).toMatchObject([{ content: 'together' }]);
  });

  it('shares one GET /config between three inits sent together', async () => {
    const h = suite.bridge();

    const answers = await Promise.all([h.send('init'), h.send('init'), h.send('init')]);

    expect(answers.every((answer) => answer.ok)).toBe(true);
    expect(routes()).toEqual(['GET /config 200']);
  });
});

describe('one config refetch for concurrent 401s', () => {
  it('refetches the config once when two commands meet the same expired token, and both succeed', async () => {
    const h = suite.bridge();
    await h.send('createConversation');
    suite.backend.setFault('expired-auth-token', true);
    suite.clearRequests();

    const [conversation, message] = await Promise.all([
      h.send('getConversation'),
      h.send('sendMessage', { content: 'after expiry' }),
    ]);

    expect(conversation.ok && message.ok).toBe(true);
    expect(h.errors()).toEqual([]);
    expect(routes().filter((route) => route.startsWith('GET /config'))).toEqual(['GET /config 200']);
    expect(routes().filter((route) => route.endsWith(' 401'))).toHaveLength(2);
    expect(routes()).toHaveLength(5);
  });
});

describe('one echo_id per message', () => {
  it('answers POST /messages 404 by creating the conversation and retrying once with the same echo_id', async () => {
    const h = suite.bridge();
    await h.send('createConversation');
    suite.backend.setFault('no-conversation', true);
    suite.clearRequests();

    const response = await h.send('sendMessage', { content: 'into the void?' });

    expect(response).toMatchObject({ ok: true, result: { content: 'into the void?' } });
    expect(h.errors()).toEqual([]);
    expect(routes()).toEqual(['POST /messages 404', 'POST /conversations 200', 'POST /messages 200']);
    const [first, retry] = posts(h);
    expect(first?.echoId).toEqual(expect.any(String));
    expect(retry?.echoId).toBe(first?.echoId);
    expect(await suite.storedMessages()).toMatchObject([{ content: 'into the void?', echo_id: first?.echoId }]);
  });

  it('retries a 429 with the same echo_id and the backend stores the message once', async () => {
    const h = suite.bridge({ options: { retry: { limit: 2, baseDelay: 10, maxDelay: 2000 } } });
    await h.send('createConversation');
    suite.backend.setFault('rate-limited', true);
    suite.clearRequests();

    const pending = h.send('sendMessage', { content: 'patience' });
    await h.waitFor(() => suite.log().some((entry) => entry.status === 429), 'the first 429');
    suite.backend.setFault('rate-limited', false);
    const response = await pending;

    expect(response).toMatchObject({ ok: true, result: { content: 'patience' } });
    // Normally one 429 then 200; a very slow test machine may switch the fault off a retry later.
    expect(routes().join()).toMatch(/^(POST \/messages 429,){1,2}POST \/messages 200$/);
    const echoIds = posts(h).map((request) => request.echoId);
    expect(echoIds[0]).toEqual(expect.any(String));
    expect(new Set(echoIds).size).toBe(1);
    expect(await suite.storedMessages()).toMatchObject([{ content: 'patience', echo_id: echoIds[0] }]);
  });

  it('keeps one echo_id through every attempt of a message that is finally rate_limited', async () => {
    const h = suite.bridge({ options: { retry: { limit: 2, baseDelay: 10, maxDelay: 2000 } } });
    await h.send('createConversation');
    suite.backend.setFault('rate-limited-no-retry-after', true);
    suite.clearRequests();

    const response = await h.send('sendMessage', { content: 'never lands' });

    expect(response).toMatchObject({ ok: false, error: { code: 'rate_limited', status: 429 } });
    expect(posts(h)).toHaveLength(3);
    expect(new Set(posts(h).map((request) => request.echoId)).size).toBe(1);
    suite.backend.setFault('rate-limited-no-retry-after', false);
    expect(await suite.storedMessages()).toEqual([]);
  });

  it('gives each message its own echo_id, and uses a host-given messageId as the echo_id', async () => {
    const h = suite.bridge();
    await h.send('createConversation');
    suite.clearRequests();

    await h.send('sendMessage', { content: 'one' });
    await h.send('sendMessage', { content: 'two', messageId: 'host-chosen-id-1' });
    // The host repeating its own message id is a repeat of the same message: stored once.
    const repeat = await h.send('sendMessage', { content: 'two', messageId: 'host-chosen-id-1' });

    const echoIds = posts(h).map((request) => request.echoId);
    expect(echoIds).toHaveLength(3);
    expect(echoIds[0]).not.toBe('host-chosen-id-1');
    expect(echoIds.slice(1)).toEqual(['host-chosen-id-1', 'host-chosen-id-1']);
    expect(repeat.ok).toBe(true);
    expect((await suite.storedMessages()).map((message) => message.content)).toEqual(['one', 'two']);
  });
});

describe('tokens stay inside the bridge', () => {
  it('never delivers the website token or any issued authToken, on success or failure', async () => {
    const h = suite.bridge({ options: { record: true } });

    await fullSession(h);
    suite.backend.setFault('expired-auth-token', false);
    suite.backend.setFault('always-401', true);
    expect((await h.send('getConversation')).ok).toBe(false);
    suite.backend.setFault('always-401', false);
    suite.backend.setFault('validation-422', true);
    expect((await h.send('sendMessage', { content: 'refused' })).ok).toBe(false);

    // Tokens were issued and used, so their absence below means something.
    expect(new Set(h.issuedTokens).size).toBeGreaterThanOrEqual(3);
    expect(h.sent.some((request) => request.headers['Authorization'] === `Bearer ${h.issuedTokens[0]}`)).toBe(true);
    expect(h.sent.some((request) => request.query['website_token'] === WEBSITE_TOKEN)).toBe(true);

    const delivered = JSON.stringify(h.te.deliveries);
    expect(h.te.deliveries.length).toBeGreaterThan(8);
    const recorded = h.bridge.recording();
    expect(recorded).not.toBe('');
    for (const secret of [WEBSITE_TOKEN, ...h.issuedTokens]) {
      expect(delivered).not.toContain(secret);
      expect(JSON.stringify(h.outbound)).not.toContain(secret);
      expect(recorded).not.toContain(secret);
    }
  });
});
