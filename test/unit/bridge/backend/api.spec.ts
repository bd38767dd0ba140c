import { describe, expect, it } from 'vitest';
import { createApi } from '../../../../bridge/backend/api.js';
import { CHATWOOT } from '../../../../bridge/backend/chatwoot-profile.js';
import type { ApiRequest, ApiResponse, Http } from '../../../../bridge/backend/http.js';
import { failure } from '../../../helpers/failure.js';
import { bridgeError } from '../../../../bridge/protocol/errors.js';

/**
 * The API over a scripted `Http` (the interface api.ts is written against): each request is
 * kept, each answer is taken in order. The network itself is http.spec.ts's concern.
 */
function scriptedHttp(answers: Array<Partial<ApiResponse> & { status: number }>) {
  const requests: Array<ApiRequest & { authToken?: string }> = [];
  const http: Http = async (request, authToken) => {
    // Kept with the auth token it was sent with, to check which one each call carried.
    requests.push(authToken === undefined ? request : { ...request, authToken });
    const answer = answers.shift();
    if (answer === undefined) throw new Error(`unexpected request ${request.method} ${request.path}`);
    const body = answer.body;
    return {
      status: answer.status,
      body,
      text: answer.text ?? (body === undefined ? '' : JSON.stringify(body)),
      headers: { get: () => null },
    };
  };
  return { http, requests };
}

const CONFIG = { status: 200, body: { authToken: 'at_token_1', inbox: 'Support' } };
const CONVERSATION = { status: 200, body: { id: 9, status: 'open' } };

function api(answers: Parameters<typeof scriptedHttp>[0], settings: { websiteToken?: string | undefined } = {}) {
  const websiteToken = 'websiteToken' in settings ? settings.websiteToken : 'wt_1';
  const scripted = scriptedHttp(answers);
  const tokens: string[] = [];
  return { ...scripted, tokens, api: createApi(scripted.http, websiteToken, (t) => tokens.push(t)) };
}

describe('init', () => {
  it('gets the config with the website token as a query parameter and keeps the auth token to itself', async () => {
    const { api: client, requests, tokens } = api([CONFIG]);
    expect(await client.init()).toEqual({ inbox: 'Support' });
    expect(requests).toEqual([{ method: 'GET', path: '/config', query: { website_token: 'wt_1' } }]);
    expect(tokens).toEqual(['at_token_1']);
  });

  it('answers auth_failed without any request when no website token is configured', async () => {
    const { api: client, requests } = api([], { websiteToken: undefined });
    expect(await failure(client.init())).toEqual({
      type: 'error',
      code: 'auth_failed',
      retryable: false,
      status: 401,
      message: '[GET /config] no websiteToken option',
    });
    expect(requests).toEqual([]);
  });

  it.each([
    ['empty body', { status: 200, text: '' }],
    ['body not JSON', { status: 200, text: '<html>proxy</html>' }],
    ['no authToken', { status: 200, body: { inbox: 'Support' } }],
  ])('answers config_error naming %s when the config has no auth token', async (what, answer) => {
    const { api: client } = api([answer]);
    expect(await failure(client.init())).toMatchObject({
      code: 'config_error',
      status: 200,
      message: `[GET /config] 200: ${what}`,
    });
  });

  it('maps a failed config answer by its status (401 is auth_failed)', async () => {
    const { api: client } = api([{ status: 401, body: { message: 'Invalid website token' } }]);
    expect(await failure(client.init())).toMatchObject({
      code: 'auth_failed',
      message: '[GET /config] 401: Invalid website token',
    });
  });

  it('shares one config request between concurrent callers', async () => {
    const { api: client, requests } = api([CONFIG]);
    await Promise.all([client.init(), client.init(), client.getConversation({}).catch(() => undefined)]);
    expect(requests.filter((request) => request.path === '/config')).toHaveLength(1);
  });
});

describe('authorized calls', () => {
  it('fetches the config first and sends the auth token with the call', async () => {
    const { api: client, requests } = api([CONFIG, { status: 200, body: { id: 7 } }]);
    expect(await client.getConversation({})).toEqual({ id: 7 });
    expect(requests[1]).toMatchObject({ method: 'GET', path: '/conversations', authToken: 'at_token_1' });
  });

  it('refreshes the config once after a 401 and retries once with the new token', async () => {
    const { api: client, requests } = api([
      CONFIG,
      { status: 401 },
      { status: 200, body: { authToken: 'at_token_2' } },
      { status: 200, body: { id: 7 } },
    ]);
    expect(await client.getConversation({})).toEqual({ id: 7 });
    expect(requests.map((request) => `${request.method} ${request.path} ${request.authToken ?? '-'}`)).toEqual([
      'GET /config -',
      'GET /conversations at_token_1',
      'GET /config -',
      'GET /conversations at_token_2',
    ]);
  });

  it('answers auth_failed after a second 401, without trying a third time', async () => {
    const { api: client, requests } = api([CONFIG, { status: 401 }, CONFIG, { status: 401 }]);
    expect(await failure(client.getConversation({}))).toMatchObject({
      code: 'auth_failed',
      message: '[GET /conversations] 401: unauthorized',
    });
    expect(requests).toHaveLength(4);
  });
});

describe('conversations', () => {
  it('creates the conversation with the contact when the contact has none yet (404)', async () => {
    const { api: client, requests } = api([CONFIG, { status: 404 }, { status: 201, body: { id: 9 } }]);
    expect(await client.getConversation({ name: 'Ada', email: 'ada@example.com' })).toEqual({ id: 9 });
    expect(requests[2]).toMatchObject({
      method: 'POST',
      path: '/conversations',
      json: { contact: { name: 'Ada', email: 'ada@example.com' } },
    });
  });

  it('leaves the service rules to the host commands: a contact is sent as given, not checked again', async () => {
    const { api: client, requests } = api([
      CONFIG,
      { status: 404 },
      { status: 422, body: { errors: { email: ['x'] } } },
    ]);
    expect(await failure(client.getConversation({ email: 'not-an-email' }))).toMatchObject({
      code: 'validation_error',
      message: '[POST /conversations] 422: validation failed',
      errors: { email: ['x'] },
    });
    expect(requests).toHaveLength(3);
  });

  it('answers not_found for a 404 on creating a conversation (no recovery from the recovery)', async () => {
    const { api: client } = api([CONFIG, { status: 404 }]);
    expect(await failure(client.createConversation({}))).toMatchObject({ code: 'not_found', status: 404 });
  });
});

describe('messages', () => {
  it('sends a text message as JSON carrying its id as echo_id', async () => {
    const { api: client, requests } = api([CONFIG, { status: 200, body: { id: 1 } }]);
    await client.sendMessage({ v: 1, messageId: 'm-1', content: 'Hello' });
    expect(requests[1]).toMatchObject({
      method: 'POST',
      path: '/messages',
      json: { message: { content: 'Hello', echo_id: 'm-1' } },
    });
  });

  it('sends attachments as multipart with their bytes, the type and the name', async () => {
    const { api: client, requests } = api([CONFIG, CONVERSATION, { status: 200, body: { id: 1 } }]);
    const data = new TextEncoder().encode('hello').buffer as ArrayBuffer;
    await client.sendMessage({ v: 1, messageId: 'm-2', files: [{ name: 'a.txt', type: 'text/plain', data }] });
    const form = requests[2]?.form as FormData;
    expect(form.get('message[echo_id]')).toBe('m-2');
    expect(form.get('message[content]')).toBe('');
    const file = form.get('attachments[]') as File;
    expect([file.name, file.type, await file.text()]).toEqual(['a.txt', 'text/plain', 'hello']);
  });

  it('after a 404 creates the conversation and retries once under the same echo_id', async () => {
    const { api: client, requests } = api([
      CONFIG,
      { status: 404 },
      { status: 201, body: { id: 9 } },
      { status: 200, body: { id: 1 } },
    ]);
    expect(await client.sendMessage({ v: 1, messageId: 'm-3', content: 'Hi', contact: { name: 'Ada' } })).toEqual({
      id: 1,
    });
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /config',
      'POST /messages',
      'POST /conversations',
      'POST /messages',
    ]);
    expect(requests[2]?.json).toEqual({ contact: { name: 'Ada' } });
    expect(requests[1]?.json).toEqual(requests[3]?.json);
  });

  it('answers not_found when the message still finds no conversation after creating one', async () => {
    const { api: client } = api([CONFIG, { status: 404 }, { status: 201, body: {} }, { status: 404 }]);
    expect(await failure(client.sendMessage({ v: 1, messageId: 'm-4', content: 'Hi' }))).toMatchObject({
      code: 'not_found',
      message: '[POST /messages] 404: not found',
    });
  });
});

describe('attachments go up once: the conversation is known before the body leaves', () => {
  const PHOTO = { name: 'a.jpg', type: 'image/jpeg', size: 2048 };
  const routes = (requests: ApiRequest[]) => requests.map((request) => `${request.method} ${request.path}`);

  it('looks the conversation up first, creates it on 404, then sends the body once', async () => {
    const { api: client, requests } = api([
      CONFIG,
      { status: 404 },
      { status: 200, body: { id: 9 } },
      { status: 200, body: { id: 1 } },
    ]);
    await client.sendMessage({ v: 1, messageId: 'm-5', files: [PHOTO], contact: { name: 'Ada' } });
    expect(routes(requests)).toEqual(['GET /config', 'GET /conversations', 'POST /conversations', 'POST /messages']);
    expect(requests[2]?.json).toEqual({ contact: { name: 'Ada' } });
  });

  it('looks it up once a page: later photos go straight out', async () => {
    const { api: client, requests } = api([CONFIG, CONVERSATION, { status: 200 }, { status: 200 }]);
    await client.sendMessage({ v: 1, messageId: 'm-6', files: [PHOTO] });
    await client.sendMessage({ v: 1, messageId: 'm-7', files: [PHOTO] });
    expect(routes(requests)).toEqual(['GET /config', 'GET /conversations', 'POST /messages', 'POST /messages']);
  });

  it('shares one lookup between photos sent at the same time', async () => {
    const { api: client, requests } = api([CONFIG, CONVERSATION, { status: 200 }, { status: 200 }]);
    await Promise.all([
      client.sendMessage({ v: 1, messageId: 'm-8', files: [PHOTO] }),
      client.sendMessage({ v: 1, messageId: 'm-9', files: [PHOTO] }),
    ]);
    expect(routes(requests).filter((route) => route === 'GET /conversations')).toHaveLength(1);
  });

  it('needs no lookup once a text message or a conversation command has answered', async () => {
    const { api: client, requests } = api([CONFIG, { status: 200 }, { status: 200 }]);
    await client.sendMessage({ v: 1, messageId: 'm-10', content: 'Hi' });
    await client.sendMessage({ v: 1, messageId: 'm-11', files: [PHOTO] });
    expect(routes(requests)).toEqual(['GET /config', 'POST /messages', 'POST /messages']);
  });

  it('looks again after a 404 said the conversation was gone', async () => {
    const { api: client, requests } = api([
      CONFIG,
      CONVERSATION,
      { status: 404 },
      { status: 404 },
      CONVERSATION,
      {
        status: 200,
      },
    ]);
    await client.getConversation({});
    // A text message finds the conversation gone, and creating one fails too (not-found for good).
    expect(await failure(client.sendMessage({ v: 1, messageId: 'm-12', content: 'Hi' }))).toMatchObject({
      code: 'not_found',
    });
    await client.sendMessage({ v: 1, messageId: 'm-13', files: [PHOTO] });
    expect(routes(requests).slice(-2)).toEqual(['GET /conversations', 'POST /messages']);
  });

  it("sends no body when the lookup fails, and answers with the lookup's error", async () => {
    const { api: client, requests } = api([CONFIG, { status: 500, body: { message: 'boom' } }]);
    expect(await failure(client.sendMessage({ v: 1, messageId: 'm-14', files: [PHOTO] }))).toMatchObject({
      code: 'server_error',
      message: '[GET /conversations] 500: boom',
    });
    expect(routes(requests)).toEqual(['GET /config', 'GET /conversations']);
  });
});

describe("on Chatwoot's profile (chatwoot-profile.ts)", () => {
  const CW_CONFIG = {
    status: 200,
    body: { website_channel_config: { auth_token: 'eyJ.new.contact' }, contact: { pubsub_token: 'pubsub_1' } },
  };
  const NOT_FOUND = { status: 404, body: { error: 'Resource could not be found' } };
  const LOST = 'lost';

  /** Scripted like scriptedHttp, with `LOST` for a request that got no answer; a clock the test moves. */
  function chatwoot(answers: Array<(Partial<ApiResponse> & { status: number }) | typeof LOST>, date?: string) {
    const requests: string[] = [];
    const sent: ApiRequest[] = [];
    let time = 1_700_000_000_000;
    const http: Http = async (request, authToken) => {
      const query = new URLSearchParams(request.query).toString();
      requests.push(`${request.method} ${request.path}?${query} ${authToken ?? '-'}`);
      sent.push(request);
      const answer = answers.shift();
      if (answer === undefined) throw new Error(`unexpected request ${request.method} ${request.path}`);
      if (answer === LOST)
        throw Object.assign(new Error('lost'), { name: 'BridgeError', event: { code: 'network_error' } });
      const body = answer.body;
      return {
        status: answer.status,
        body,
        text: answer.text ?? (body === undefined ? '' : JSON.stringify(body)),
        headers: { get: (name: string) => (name === 'Date' && date !== undefined ? date : null) },
      };
    };
    const tokens: string[] = [];
    const client = createApi(
      http,
      'wt_chatwoot',
      (t) => tokens.push(t),
      CHATWOOT,
      () => time,
    );
    return { client, requests, sent, tokens, tick: (ms: number) => void (time += ms) };
  }
  const record = (content: string) => ({ v: 1 as const, messageId: 'm-1', content });

  it("sends as the widget's contact, with website_token on every call, without a config call", async () => {
    const { client, requests, sent } = chatwoot([{ status: 200, body: { id: 1, content: 'hi' } }]);
    client.useContactToken('eyJ.widget.contact');
    expect(await client.sendMessage(record('hi'))).toEqual({ id: 1, content: 'hi' });
    expect(requests).toEqual(['POST /api/v1/widget/messages?website_token=wt_chatwoot eyJ.widget.contact']);
    expect(sent[0]?.json).toEqual({ message: { content: 'hi', echo_id: 'm-1' } });
  });

  it('makes a contact with POST …/config only where the page gave none, and learns every token in it', async () => {
    const { client, requests, tokens } = chatwoot([CW_CONFIG, { status: 200, body: {} }]);
    await client.getConversation({});
    expect(requests).toEqual([
      'POST /api/v1/widget/config?website_token=wt_chatwoot -',
      'GET /api/v1/widget/conversations?website_token=wt_chatwoot eyJ.new.contact',
    ]);
    expect([...new Set(tokens)].sort()).toEqual(['eyJ.new.contact', 'pubsub_1']);
  });

  it("keeps the widget's contact on init: its token goes with the config call", async () => {
    const { client, requests } = chatwoot([CW_CONFIG]);
    client.useContactToken('eyJ.widget.contact');
    expect(await client.init()).toEqual({ website_channel_config: {}, contact: {} });
    expect(requests).toEqual(['POST /api/v1/widget/config?website_token=wt_chatwoot eyJ.widget.contact']);
  });

  it('recovers a token the server no longer knows (404) once, as the widget does: a new contact, then the call again', async () => {
    const { client, requests } = chatwoot([NOT_FOUND, CW_CONFIG, { status: 200, body: { id: 2 } }]);
    client.useContactToken('eyJ.stale.contact');
    expect(await client.sendMessage(record('hi'))).toEqual({ id: 2 });
    expect(requests).toEqual([
      'POST /api/v1/widget/messages?website_token=wt_chatwoot eyJ.stale.contact',
      'POST /api/v1/widget/config?website_token=wt_chatwoot -',
      'POST /api/v1/widget/messages?website_token=wt_chatwoot eyJ.new.contact',
    ]);
  });

  it("answers auth_failed with the server's words after a second 404, and not_found for an unknown website token", async () => {
    const stale = chatwoot([NOT_FOUND, CW_CONFIG, NOT_FOUND]);
    stale.client.useContactToken('eyJ.stale.contact');
    expect(await failure(stale.client.getConversation({}))).toMatchObject({
      code: 'auth_failed',
      status: 404,
      message: '[GET /api/v1/widget/conversations] 404: Resource could not be found',
    });
    expect(stale.requests).toHaveLength(3);
    const unknown = chatwoot([NOT_FOUND]);
    expect(await failure(unknown.client.init())).toMatchObject({ code: 'not_found', status: 404 });
  });

  it('does not create a conversation on a 404 (Chatwoot makes it with the first message)', async () => {
    const { client, requests } = chatwoot([NOT_FOUND, CW_CONFIG, { status: 200, body: {} }]);
    client.useContactToken('eyJ.stale.contact');
    expect(await client.getConversation({ name: 'Ada' })).toEqual({});
    expect(requests.every((request) => !request.startsWith('POST /api/v1/widget/conversations'))).toBe(true);
  });

  it('settles a message whose last attempt got no answer as sent when the conversation has it, without sending it again', async () => {
    const stored = { id: 31, content: 'hello', message_type: 0, created_at: 1_700_000_001 };
    const { client, requests, tick } = chatwoot([LOST, { status: 200, body: [stored] }]);
    client.useContactToken('eyJ.widget.contact');
    expect((await failure(client.sendMessage(record('hello')))).code).toBe('network_error');
    tick(30_000);
    expect(await client.sendMessage(record('hello'))).toEqual(stored);
    expect(requests.map((request) => request.split('?')[0])).toEqual([
      'POST /api/v1/widget/messages',
      'GET /api/v1/widget/messages',
    ]);
  });

  it("sends it again when it is not there; the look-up starts from the first lost attempt, on the server's clock", async () => {
    // The server's clock is an hour behind the device's: its messages are an hour "older".
    const date = new Date(1_700_000_000_000 - 3_600_000).toUTCString();
    const earlier = { id: 30, content: 'hello', message_type: 0, created_at: 1_700_000_000 - 3_600 - 60 };
    const stored = { id: 31, content: 'hello', message_type: 0, created_at: 1_700_000_000 - 3_600 + 1 };
    const { client, requests } = chatwoot(
      [
        { status: 200, body: [] },
        LOST,
        { status: 200, body: [earlier] },
        LOST,
        { status: 200, body: [earlier, stored] },
      ],
      date,
    );
    client.useContactToken('eyJ.widget.contact');
    await client.getConversation({});
    await failure(client.sendMessage(record('hello')));
    await failure(client.sendMessage(record('hello')));
    expect(await client.sendMessage(record('hello'))).toEqual(stored);
    expect(requests.map((request) => request.split('?')[0])).toEqual([
      'GET /api/v1/widget/conversations',
      'POST /api/v1/widget/messages',
      'GET /api/v1/widget/messages',
      'POST /api/v1/widget/messages',
      'GET /api/v1/widget/messages',
    ]);
  });

  it('looks nothing up for a message whose attempts were answered, or refused', async () => {
    const { client, requests } = chatwoot([
      { status: 422, body: { message: 'Too many messages', attributes: ['base'] } },
      { status: 200, body: { id: 3 } },
    ]);
    client.useContactToken('eyJ.widget.contact');
    expect((await failure(client.sendMessage(record('a')))).code).toBe('rate_limited');
    await client.sendMessage(record('a'));
    expect(requests.map((request) => request.split(' ')[0])).toEqual(['POST', 'POST']);
  });

  it('sends attachments as message[attachments][] without a conversation look-up first', async () => {
    const { client, sent } = chatwoot([{ status: 200, body: { id: 4 } }]);
    client.useContactToken('eyJ.widget.contact');
    await client.sendMessage({
      ...record(''),
      files: [{ name: 'p.jpg', type: 'image/jpeg', data: new ArrayBuffer(3) }],
    });
    expect(sent).toHaveLength(1);
    expect([...(sent[0]?.form?.keys() ?? [])]).toEqual([
      'message[content]',
      'message[echo_id]',
      'message[attachments][]',
    ]);
  });
});

describe("the contract's profile and the widget's contact", () => {
  it("never uses the widget's token: the contract's token comes from its config", async () => {
    const { api: client, requests } = api([CONFIG, CONVERSATION]);
    client.useContactToken('widget_token_1');
    await client.getConversation({});
    expect(requests[1]).toMatchObject({ authToken: 'at_token_1' });
  });
});

describe('reachable', () => {
  it('asks GET /config, the request the bridge makes anyway, and takes any answer it can read for yes', async () => {
    const { api: client, requests, tokens } = api([CONFIG, { status: 401, body: { message: 'no' } }]);
    expect(await client.reachable()).toBe(true);
    expect(tokens).toEqual(['at_token_1']);
    expect(await client.reachable()).toBe(true);
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /config', 'GET /config']);
  });

  it('says no when GET /config gets no answer either (offline, unreachable, no CORS)', async () => {
    const client = createApi(
      async () => {
        throw bridgeError('network_error', '[GET /config] network error');
      },
      'wt_1',
      () => undefined,
    );
    expect(await client.reachable()).toBe(false);
  });
});
