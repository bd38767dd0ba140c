import { describe, expect, it } from 'vitest';
import { createApi } from '../../../../bridge/backend/api.js';
import type { ApiRequest, ApiResponse, Http } from '../../../../bridge/backend/http.js';
import { failure } from '../../../helpers/failure.js';

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
