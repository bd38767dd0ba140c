import { describe, expect, it } from 'vitest';
import { conversationCalls } from '../../../../bridge/backend/conversation-calls.js';
import { CHATWOOT } from '../../../../bridge/backend/chatwoot-profile.js';
import type { ApiRequest, ApiResponse } from '../../../../bridge/backend/http.js';
import { CONTRACT, type Profile } from '../../../../bridge/backend/profile.js';
import { failure } from '../../../helpers/failure.js';

/**
 * The calls over a scripted `authorized` (the session's, api.ts): each request is kept as
 * "METHOD path", each answer is taken in order. Auth and renewal are api.spec.ts's concern.
 */
function scripted(answers: Array<{ status: number; body?: unknown }>, profile: Profile = CONTRACT) {
  const requests: string[] = [];
  const sent: ApiRequest[] = [];
  const authorized = async (request: ApiRequest): Promise<ApiResponse> => {
    requests.push(`${request.method} ${request.path}`);
    sent.push(request);
    const answer = answers.shift();
    if (answer === undefined) throw new Error(`unexpected request ${request.method} ${request.path}`);
    const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
    return { status: answer.status, body: answer.body, text, headers: { get: () => null } };
  };
  const calls = conversationCalls(authorized, profile, Date.now, (time) => time);
  return { calls, requests, sent };
}

const NOT_FOUND = { status: 404, body: { error: 'not found' } };
const OK = { status: 200, body: { id: 9 } };
const text = { v: 1 as const, messageId: 'm-1', content: 'hi' };
const photo = {
  v: 1 as const,
  messageId: 'm-2',
  files: [{ name: 'a.png', type: 'image/png', size: 3, data: new Uint8Array([1, 2, 3]).buffer }],
};

describe("the contract's conversation calls", () => {
  it('answers with the 2xx body, and null for an empty one', async () => {
    const { calls } = scripted([OK, { status: 204 }]);
    expect(await calls.getConversation({})).toEqual({ id: 9 });
    expect(await calls.getConversation({})).toBeNull();
  });

  it('creates the conversation on a 404 of getConversation, with the contact, and answers with it', async () => {
    const { calls, requests, sent } = scripted([NOT_FOUND, OK]);
    expect(await calls.getConversation({ name: 'Ada' })).toEqual({ id: 9 });
    expect(requests).toEqual(['GET /conversations', 'POST /conversations']);
    expect(sent[1]?.json).toEqual({ contact: { name: 'Ada' } });
  });

  it("answers a failure as the profile's error, with no recovery from a recovery", async () => {
    const { calls } = scripted([NOT_FOUND]);
    expect(await failure(calls.createConversation({}))).toMatchObject({ code: 'not_found', status: 404 });
  });

  it('retries a message once under the same request after creating the conversation a 404 said was missing', async () => {
    const { calls, requests, sent } = scripted([NOT_FOUND, OK, { status: 201, body: { id: 1 } }]);
    expect(await calls.sendMessage(text)).toEqual({ id: 1 });
    expect(requests).toEqual(['POST /messages', 'POST /conversations', 'POST /messages']);
    expect(sent[0]).toBe(sent[2]);
  });

  it('looks the conversation up before a photo until an answer says the contact has one, and again after a 404', async () => {
    const { calls, requests } = scripted([OK, OK, OK, NOT_FOUND, OK, OK, OK]);
    await calls.sendMessage(photo);
    await calls.sendMessage(photo);
    expect(requests).toEqual(['GET /conversations', 'POST /messages', 'POST /messages']);
    // A 404 of a conversation call: the contact may have none; the next photo looks again.
    await expect(calls.createConversation({})).rejects.toBeDefined();
    await calls.sendMessage(photo);
    expect(requests.slice(3)).toEqual(['POST /conversations', 'GET /conversations', 'POST /messages']);
  });
});

describe("Chatwoot's contact calls (contactPath)", () => {
  it('sets the contact fields before a message only when given and changed, and makes no conversation call', async () => {
    const { calls, requests, sent } = scripted([OK, OK, OK, OK, OK], CHATWOOT);
    await calls.sendMessage({ ...text, contact: { email: 'a@example.com' } });
    await calls.sendMessage({ ...text, contact: { email: 'a@example.com' } });
    await calls.sendMessage(text);
    await calls.sendMessage(photo);
    expect(requests).toEqual([
      'PATCH /api/v1/widget/contact',
      'POST /api/v1/widget/messages',
      'POST /api/v1/widget/messages',
      'POST /api/v1/widget/messages',
      'POST /api/v1/widget/messages',
    ]);
    expect(sent[0]?.json).toEqual({ email: 'a@example.com' });
  });

  it("creates no conversation: the fields are set and the contact's latest conversation is the answer", async () => {
    const { calls, requests } = scripted([OK, { status: 200, body: {} }], CHATWOOT);
    expect(await calls.createConversation({ name: 'Ada' })).toEqual({});
    expect(requests).toEqual(['PATCH /api/v1/widget/contact', 'GET /api/v1/widget/conversations']);
  });
});
