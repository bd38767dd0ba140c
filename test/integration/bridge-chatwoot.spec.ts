// @vitest-environment node
/**
 * The bridge on Chatwoot's profile (`backend: 'chatwoot'`, bridge/backend/chatwoot-profile.ts)
 * against the reference backend's Chatwoot mode (reference-backend/chatwoot/) over real HTTP on
 * 127.0.0.1: the widget's contact, a lost answer, a stale token, the conversation commands,
 * Chatwoot's failures (rack-attack's 429 with the default retries), and what leaves (no
 * Authorization header, no token but website_token in a URL, none to the host).
 */
import { describe, expect, it } from 'vitest';
import type { MessageStateMessage } from '../../dist/types/bridge/index.js';
import { WEBSITE_TOKEN, base64Bytes, useReferenceBackend, type BridgeHarness } from '../helpers/bridge-harness.js';

const suite = useReferenceBackend({ backend: 'chatwoot' });
const API = '/api/v1/widget';

interface Conversation {
  id: number;
  contactId: number;
  messages: Array<{ content: string | null; attachments: Array<{ size: number }> }>;
}
const conversations = async () =>
  (await (await fetch(`${suite.backend.url}/__admin/conversations`)).json()) as Conversation[];

/** The widget page's token, as Chatwoot renders it into the page (widgets_controller.rb) for a new contact. */
async function widgetToken(): Promise<string> {
  const html = await (await fetch(`${suite.backend.url}/widget?website_token=${WEBSITE_TOKEN}`)).text();
  return JSON.parse(/window\.authToken = (".*?");/.exec(html)![1]!) as string;
}

/** The contact id a token names, read as the widget would (its contact is the one messages go to). */
async function contactOf(token: string): Promise<number> {
  await fetch(`${suite.backend.url}${API}/messages?website_token=${WEBSITE_TOKEN}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-auth-token': token },
    body: JSON.stringify({ message: { content: 'from the widget' } }),
  });
  const mine = (await conversations()).find((c) => c.messages.some((m) => m.content === 'from the widget'));
  return mine!.contactId;
}

function chatwootBridge(options: Record<string, unknown> = {}): BridgeHarness {
  return suite.bridge({ options: { backend: 'chatwoot', ...options } });
}

/** The widget's `loaded` event, as the widget page posts it (reference-backend/chatwoot/widget-page.mjs). */
function loaded(h: BridgeHarness, token: string): void {
  const message = { event: 'loaded', config: { authToken: token, channelConfig: { websiteToken: WEBSITE_TOKEN } } };
  h.te.post(`chatwoot-widget:${JSON.stringify(message)}`, suite.backend.url);
}

/** A Chatwoot bridge given a new widget contact's token by the page's `loaded` event. */
async function widgetBridge(options: Record<string, unknown> = {}): Promise<BridgeHarness> {
  const token = await widgetToken();
  const h = chatwootBridge(options);
  loaded(h, token);
  return h;
}

/** Nothing but website_token in a URL, never an Authorization header, X-Auth-Token on every token-scoped call. */
function expectCredentialsAsChatwoot(h: BridgeHarness): void {
  expect(h.sent.length).toBeGreaterThan(0);
  for (const request of h.sent) {
    expect(request.path.startsWith(API), request.path).toBe(true);
    expect(request.query).toEqual({ website_token: WEBSITE_TOKEN });
    expect(Object.keys(request.headers).map((name) => name.toLowerCase())).not.toContain('authorization');
    if (!request.path.endsWith('/config')) expect(request.headers['X-Auth-Token']).toMatch(/^eyJ/);
  }
}

function expectNoTokenTold(h: BridgeHarness, tokens: string[]): void {
  const told = JSON.stringify(h.outbound);
  for (const token of [WEBSITE_TOKEN, ...tokens]) expect(told).not.toContain(token);
}

describe("the widget's contact", () => {
  it("sends text and a photo into the conversation of the contact the widget's loaded event names, making no contact of its own", async () => {
    const token = await widgetToken();
    const contact = await contactOf(token);
    const h = chatwootBridge();
    loaded(h, token);

    expect(await h.send('sendMessage', { content: 'Hello from the app' })).toMatchObject({ ok: true });
    const photo = { name: 'photo.jpg', type: 'image/jpeg', data: base64Bytes(30_000) };
    expect(await h.send('sendMessage', { attachments: [photo] })).toMatchObject({ ok: true });

    const mine = (await conversations()).filter((c) => c.contactId === contact);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.messages.map((m) => [m.content || null, m.attachments.map((a) => a.size)])).toEqual([
      ['from the widget', []],
      ['Hello from the app', []],
      [null, [30_000]],
    ]);
    expect(h.sent.map((r) => `${r.method} ${r.path}`)).toEqual([`POST ${API}/messages`, `POST ${API}/messages`]);
    expectCredentialsAsChatwoot(h);
    expectNoTokenTold(h, [token]);
  });

  it('makes a contact with POST …/config only without a widget, and tells the host no token of it', async () => {
    const h = chatwootBridge();
    const init = await h.send('init');
    expect(init.ok).toBe(true);
    expect(JSON.stringify(init)).not.toMatch(/auth_token|pubsub_token|website_token/);
    expect(await h.send('sendMessage', { content: 'no widget here' })).toMatchObject({ ok: true });
    expect(h.sent.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      `POST ${API}/config 200`,
      `POST ${API}/messages 200`,
    ]);
    expectCredentialsAsChatwoot(h);
  });
});

describe('nothing stored twice', () => {
  it('settles a message whose answer was lost as sent, finding it in GET …/messages, without a second POST', async () => {
    const token = await widgetToken();
    const h = chatwootBridge();
    loaded(h, token);
    suite.backend.setFault('lost-answer', true);
    const answer = h.send('sendMessage', { content: 'Only once, please' }, 'lost-1', 10_000);
    await h.waitFor(() => h.sent.some((r) => r.method === 'POST' && r.path === `${API}/messages`), 'the first POST');
    await h.waitFor(() => h.errors().some((e) => e.code === 'network_error'), 'the lost answer');
    suite.backend.setFault('lost-answer', false);

    expect(await answer).toMatchObject({ ok: true, result: { content: 'Only once, please' } });
    const all = (await conversations()).flatMap((c) => c.messages).filter((m) => m.content === 'Only once, please');
    expect(all).toHaveLength(1);
    expect(h.sent.map((r) => `${r.method} ${r.path}`)).toEqual([`POST ${API}/messages`, `GET ${API}/messages`]);
  });
});

describe('a token the server no longer knows', () => {
  it('recovers once with a new contact (POST …/config without the old token), then sends', async () => {
    const token = await widgetToken();
    const h = chatwootBridge();
    loaded(h, token);
    suite.backend.setFault('expired-contact-token', true);

    expect(await h.send('sendMessage', { content: 'after the token lapsed' })).toMatchObject({ ok: true });
    expect(h.sent.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      `POST ${API}/messages 404`,
      `POST ${API}/config 200`,
      `POST ${API}/messages 200`,
    ]);
    expect(h.sent[1]!.headers['X-Auth-Token']).toBeUndefined();
    expect(h.sent[2]!.headers['X-Auth-Token']).not.toBe(token);
    expectNoTokenTold(h, [token, h.sent[2]!.headers['X-Auth-Token']!]);
  });

  it("answers not_found for a website token Chatwoot does not know, with Chatwoot's words", async () => {
    const h = chatwootBridge({ websiteToken: 'wt_not_an_inbox_1' });
    const response = await h.send('init');
    expect(response).toMatchObject({
      ok: false,
      error: { code: 'not_found', status: 404, message: `[POST ${API}/config] 404: Resource could not be found` },
    });
  });
});

describe('the conversation commands: on Chatwoot a conversation starts with its first message', () => {
  it('getConversation answers {} for a contact without one, and creates none', async () => {
    const h = await widgetBridge();
    expect(await h.send('getConversation', { name: 'Ada' })).toEqual({
      type: 'response',
      id: expect.any(String),
      ok: true,
      result: {},
    });
    expect(h.sent.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([`GET ${API}/conversations 200`]);
    expect(h.errors()).toEqual([]);
    expect(await conversations()).toEqual([]);
  });

  it("createConversation sets the contact's fields (PATCH …/contact) and answers the latest conversation: {} until the first message makes one", async () => {
    const token = await widgetToken();
    const contact = await contactOf(token);
    const h = chatwootBridge();
    loaded(h, token);
    // contactOf's message made a conversation already: the answer is that one, and none is added.
    const before = await conversations();
    const answer = await h.send('createConversation', { name: 'Ada', email: 'ada@example.com', identifier: 'user-7' });
    expect(answer).toMatchObject({ ok: true, result: { id: before[0]!.id, status: 'open' } });
    expect(h.sent.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      `PATCH ${API}/contact 200`,
      `GET ${API}/conversations 200`,
    ]);
    const after = await conversations();
    expect(after).toHaveLength(before.length);
    expect(after.find((c) => c.contactId === contact)).toMatchObject({
      contact: { name: 'Ada', email: 'ada@example.com', identifier: 'user-7' },
    });
    expect(h.errors()).toEqual([]);
    expectCredentialsAsChatwoot(h);
  });

  it('createConversation for a contact without a conversation answers {} and makes none', async () => {
    const h = await widgetBridge();
    expect(await h.send('createConversation', { name: 'Ada' })).toMatchObject({ ok: true, result: {} });
    expect(await conversations()).toEqual([]);
    // The fields are set: the first message then starts the conversation without setting them again.
    await h.send('sendMessage', { content: 'hello', name: 'Ada' });
    expect(h.sent.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      `PATCH ${API}/contact 200`,
      `GET ${API}/conversations 200`,
      `POST ${API}/messages 200`,
    ]);
    expect(await conversations()).toMatchObject([{ contact: { name: 'Ada' } }]);
  });

  it("sendMessage sets the contact's fields before the message when they are new or changed, and not again", async () => {
    const h = await widgetBridge();
    await h.send('sendMessage', { content: 'one', name: 'Ada', email: 'ada@example.com' });
    await h.send('sendMessage', { content: 'two', name: 'Ada', email: 'ada@example.com' });
    await h.send('sendMessage', { content: 'three' });
    await h.send('sendMessage', { content: 'four', name: 'Ada Lovelace', email: 'ada@example.com' });
    expect(h.sent.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      `PATCH ${API}/contact 200`,
      `POST ${API}/messages 200`,
      `POST ${API}/messages 200`,
      // No fields: nothing to set (the contact keeps what it has).
      `POST ${API}/messages 200`,
      `PATCH ${API}/contact 200`,
      `POST ${API}/messages 200`,
    ]);
    const [conversation] = await conversations();
    expect(conversation).toMatchObject({ contact: { name: 'Ada Lovelace', email: 'ada@example.com' } });
    expect(conversation!.messages.map((m) => m.content)).toEqual(['one', 'two', 'three', 'four']);
    expect(h.errors()).toEqual([]);
    expectCredentialsAsChatwoot(h);
  });

  it('sendMessage starts the conversation, which getConversation then answers', async () => {
    const h = await widgetBridge();
    const sent = await h.send('sendMessage', { content: 'the first one' });
    expect(sent).toMatchObject({ ok: true, result: { content: 'the first one' } });
    const id = (sent as { result: { conversation_id: number } }).result.conversation_id;
    expect(await h.send('getConversation')).toMatchObject({ ok: true, result: { id, status: 'open' } });
    expect(h.sent.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      `POST ${API}/messages 200`,
      `GET ${API}/conversations 200`,
    ]);
  });
});

describe("rack-attack's 429 (text/plain, no Retry-After), with the default retry option", () => {
  it('retries the request 4 times on its own backoff, then keeps the message queued with one rate_limited error; it is sent once when the limit is gone (issue 33)', async () => {
    const token = await widgetToken();
    // random 0: each wait is the least the jitter gives, retry.baseDelay × 2^(n-1) / 2, and the
    // outbox's first backoff its least, 0.5 s.
    const h = suite.bridge({ options: { backend: 'chatwoot', retry: undefined }, random: () => 0 });
    loaded(h, token);
    suite.backend.setFault('rate-limited', true);
    h.bridge.receive({ id: 'send-429', method: 'sendMessage', params: { content: 'throttled', messageId: 'm-429' } });
    const told = () =>
      h.outbound.filter((m): m is MessageStateMessage => m.type === 'message' && m.messageId === 'm-429');
    await h.waitFor(() => told().some((m) => m.state === 'queued' && m.attempt === 1), 'm-429 kept', 20_000);

    const posts = () => suite.log().filter((entry) => entry.method === 'POST' && entry.path === `${API}/messages`);
    expect(posts().map((entry) => entry.status)).toEqual([429, 429, 429, 429, 429]);
    const waits = posts()
      .slice(1)
      .map((entry, n) => entry.at - posts()[n]!.at);
    for (const [n, least] of [500, 1_000, 2_000, 4_000].entries()) expect(waits[n]).toBeGreaterThanOrEqual(least);
    // Kept, not failed: queued after its first attempt, with when the next one is due (the
    // outbox's backoff: rack-attack gives no Retry-After), and the one error that starts the burst.
    const kept = told().at(-1) as { state: string; attempt: number; nextAttemptAt: number };
    expect(kept).toEqual({
      type: 'message',
      messageId: 'm-429',
      state: 'queued',
      attempt: 1,
      nextAttemptAt: expect.any(Number),
    });
    expect(kept.nextAttemptAt - posts()[4]!.at).toBeGreaterThanOrEqual(500);
    expect(kept.nextAttemptAt - posts()[4]!.at).toBeLessThanOrEqual(2_000);
    const error = {
      type: 'error',
      code: 'rate_limited',
      message: `[POST ${API}/messages] 429: too many requests; gave up after 4 retries; 1 queued`,
      retryable: true,
      status: 429,
      retryAt: kept.nextAttemptAt,
    };
    expect(h.errors()).toEqual([error]);
    expect(told().some((m) => m.state === 'failed')).toBe(false);
    expect(h.responses().some((r) => r.id === 'send-429')).toBe(false);
    expect(await h.send('listOutbox')).toMatchObject({
      ok: true,
      result: { messages: [{ messageId: 'm-429', state: 'queued', attempt: 1, content: 'throttled' }] },
    });

    // Its next attempt, the limit still on, tells the host nothing new; the limit lifted, it is sent.
    await h.waitFor(() => posts().length === 6, "the outbox's next attempt", 5_000);
    expect(posts()[5]!.at).toBeGreaterThanOrEqual(kept.nextAttemptAt);
    suite.backend.setFault('rate-limited', false);
    const response = await h.response('send-429', 10_000);
    expect(response).toMatchObject({ ok: true, result: { content: 'throttled' } });
    // Normally one more 429 (the 6th) then 200; a very slow test machine may lift the fault a retry later.
    expect(
      posts()
        .map((entry) => entry.status)
        .join(),
    ).toMatch(/^(429,){6,7}200$/);
    expect(h.errors()).toEqual([error]);
    expect(told().at(-1)).toMatchObject({ state: 'sent', attempt: 2 });
    expect(new Set(h.sent.map((r) => r.echoId))).toEqual(new Set(['m-429']));
    expect((await conversations()).flatMap((c) => c.messages.map((m) => m.content))).toEqual(['throttled']);
    expectCredentialsAsChatwoot(h);
  }, 30_000);

  it('answers a command other than sendMessage rate_limited after its retries, as before: only messages are kept', async () => {
    const token = await widgetToken();
    const h = chatwootBridge({ retry: { limit: 1, baseDelay: 10, maxDelay: 100 } });
    loaded(h, token);
    suite.backend.setFault('rate-limited', true);
    const error = {
      type: 'error',
      code: 'rate_limited',
      message: `[GET ${API}/conversations] 429: too many requests; gave up after 1 retry`,
      retryable: true,
      status: 429,
    };
    expect(await h.send('getConversation', {}, 'conv-429')).toEqual({
      type: 'response',
      id: 'conv-429',
      ok: false,
      error,
    });
    expect(h.errors()).toEqual([error]);
    expect(h.sent.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      `GET ${API}/conversations 429`,
      `GET ${API}/conversations 429`,
    ]);
    expectCredentialsAsChatwoot(h);
  });
});

describe("Chatwoot's failures in the bridge's codes", () => {
  it.each([
    ['message-flood', { code: 'rate_limited', status: 422, message: `[POST ${API}/messages] 422: Too many messages` }],
    [
      'account-suspended',
      { code: 'auth_failed', status: 401, message: `[POST ${API}/messages] 401: Account is suspended` },
    ],
  ])('%s', async (fault, error) => {
    const token = await widgetToken();
    const h = chatwootBridge({ retry: { limit: 1, baseDelay: 10, maxDelay: 100 } });
    loaded(h, token);
    suite.backend.setFault(fault, true);
    const response = await h.send('sendMessage', { content: 'refused' });
    expect(response).toMatchObject({ ok: false, error });
    expectCredentialsAsChatwoot(h);
  });

  it("gives a 422's attributes as errors: content over Chatwoot's 150,000 characters", async () => {
    const h = await widgetBridge();
    const response = await h.send('sendMessage', { content: 'x'.repeat(150_001) });
    expect(response).toMatchObject({ ok: false, error: { code: 'validation_error', status: 422 } });
    expect(response.ok === false && response.error.errors).toEqual({ content: [expect.stringMatching(/too long/)] });
  });

  it("checks Chatwoot's types and 40 MiB before sending: a zip goes, an .exe and 40 MiB + 1 do not", async () => {
    const h = await widgetBridge();
    const zip = { name: 'logs.zip', type: 'application/zip', data: base64Bytes(100) };
    expect(await h.send('sendMessage', { attachments: [zip] })).toMatchObject({ ok: true });
    const exe = { name: 'setup.exe', type: 'application/x-msdownload', data: base64Bytes(10) };
    expect(await h.send('sendMessage', { attachments: [exe] })).toMatchObject({
      ok: false,
      error: { code: 'unsupported_file_type' },
    });
    const big = { name: 'clip.mov', type: 'video/quicktime', size: 40 * 1024 * 1024 + 1 };
    expect(await h.send('sendMessage', { attachments: [big] })).toMatchObject({
      ok: false,
      error: { code: 'file_too_large' },
    });
    expect(h.sent).toHaveLength(1);
  });
});
