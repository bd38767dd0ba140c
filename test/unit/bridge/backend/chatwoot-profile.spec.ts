import { describe, expect, it } from 'vitest';
import { CHATWOOT } from '../../../../bridge/backend/chatwoot-profile.js';
import type { ApiResponse } from '../../../../bridge/backend/http.js';
import type { OutboxRecord } from '../../../../bridge/backend/outbox-record.js';

function answer(status: number, body?: unknown, text = body === undefined ? '' : JSON.stringify(body)): ApiResponse {
  return { status, body, text, headers: { get: () => null } };
}

const MESSAGES = { method: 'POST', path: '/api/v1/widget/messages' } as const;
const CONFIG = { method: 'POST', path: '/api/v1/widget/config' } as const;

describe("Chatwoot's profile: paths and credentials", () => {
  it('goes to /api/v1/widget/, website_token on every call, the contact token as X-Auth-Token', () => {
    expect(CHATWOOT.config).toEqual(CONFIG);
    expect(CHATWOOT.conversationsPath).toBe('/api/v1/widget/conversations');
    expect(CHATWOOT.messagesPath).toBe('/api/v1/widget/messages');
    expect(CHATWOOT.fileField).toBe('message[attachments][]');
    // app/models/attachment.rb ACCEPTABLE_FILE_TYPES: documents the contract refuses.
    expect(CHATWOOT.fileTypes.test('application/zip')).toBe(true);
    expect(CHATWOOT.tokenEverywhere).toBe(true);
    expect(CHATWOOT.widgetContact).toBe(true);
    expect(CHATWOOT.stale).toBe(404);
    const headers: Record<string, string> = {};
    CHATWOOT.sign(headers, 'eyJ.contact.token');
    expect(headers).toEqual({ 'X-Auth-Token': 'eyJ.contact.token' });
  });

  it("reads website_channel_config.auth_token and takes every credential out of the host's config", () => {
    const body = {
      website_channel_config: { auth_token: 'eyJ.contact.token', website_token: 'wt_chatwoot', website_name: 'Acme' },
      contact: { id: 4, name: 'Visitor', pubsub_token: 'pubsub_secret_1' },
      global_config: { BRAND_NAME: 'Chatwoot' },
    };
    const session = CHATWOOT.session(answer(200, body));
    expect(session.token).toBe('eyJ.contact.token');
    expect(session.config).toEqual({
      website_channel_config: { website_name: 'Acme' },
      contact: { id: 4, name: 'Visitor' },
      global_config: { BRAND_NAME: 'Chatwoot' },
    });
    expect(session.secrets.sort()).toEqual(['eyJ.contact.token', 'pubsub_secret_1', 'wt_chatwoot']);
  });

  it("reads develop's top-level auth_token as well", () => {
    const body = {
      chatwoot_website_channel: { website_name: 'Acme' },
      contact: { pubsub_token: 'pubsub_1' },
      auth_token: 'eyJ.top.level',
    };
    expect(CHATWOOT.session(answer(200, body))).toMatchObject({
      token: 'eyJ.top.level',
      config: { chatwoot_website_channel: { website_name: 'Acme' }, contact: {} },
    });
  });

  it('has no token in a config without a usable auth_token', () => {
    expect(CHATWOOT.session(answer(200, { website_channel_config: { auth_token: 'abc' } })).token).toBeUndefined();
    expect(CHATWOOT.session(answer(200, undefined, 'not json'))).toEqual({
      token: undefined,
      config: {},
      secrets: [],
    });
  });
});

describe("Chatwoot's errors in the bridge's codes", () => {
  it.each([
    [MESSAGES, 404, { error: 'Resource could not be found' }, 'auth_failed', false, 'Resource could not be found'],
    [CONFIG, 404, { error: 'Resource could not be found' }, 'not_found', false, 'Resource could not be found'],
    [MESSAGES, 401, { error: 'Account is suspended' }, 'auth_failed', false, 'Account is suspended'],
    [
      MESSAGES,
      422,
      { error: 'param is missing or the value is empty: message' },
      'validation_error',
      false,
      'param is missing or the value is empty: message',
    ],
    // The code changes from the status's validation_error, and retryable with it (issue 35).
    [MESSAGES, 422, { message: 'Too many messages', attributes: ['base'] }, 'rate_limited', true, 'Too many messages'],
    [MESSAGES, 500, { error: 'boom' }, 'server_error', true, 'boom'],
  ] as const)(
    '%j %i %j is %s (retryable: %s) with the server words',
    (request, status, body, code, retryable, words) => {
      const event = CHATWOOT.error(request, answer(status, body)).event;
      expect(event).toMatchObject({
        code,
        status,
        retryable,
        message: `[${request.method} ${request.path}] ${status}: ${words}`,
      });
      expect(event.errors).toBeUndefined();
    },
  );

  it("gives a 422's attributes that name fields as errors, with Chatwoot's message", () => {
    const body = { message: 'Content is too long (maximum is 150000 characters)', attributes: ['content', 'base'] };
    expect(CHATWOOT.error(MESSAGES, answer(422, body)).event).toEqual({
      type: 'error',
      code: 'validation_error',
      status: 422,
      message: `[POST /api/v1/widget/messages] 422: ${body.message}`,
      errors: { content: [body.message] },
      retryable: false,
    });
  });

  it("says the status's own words for rack-attack's text/plain 429 and a body that is not JSON", () => {
    expect(CHATWOOT.error(MESSAGES, answer(429, undefined, 'Retry later\n')).event).toMatchObject({
      code: 'rate_limited',
      message: '[POST /api/v1/widget/messages] 429: too many requests',
    });
    expect(CHATWOOT.error(MESSAGES, answer(502, undefined, '<html>')).event.code).toBe('server_error');
  });
});

describe('finding a message stored by an attempt that got no answer', () => {
  const record = (content?: string, files = 0): OutboxRecord => ({
    v: 1,
    messageId: 'm-1',
    content,
    files: Array.from({ length: files }, (_, i) => ({ name: `p${i}.jpg`, type: 'image/jpeg', size: 3 })),
  });
  const message = (id: number, content: string | null, createdAt: number, more: object = {}) => ({
    id,
    content,
    message_type: 0,
    created_at: createdAt,
    ...more,
  });
  const SINCE = 1_700_000_000_000;

  it('finds the incoming message with the same content made since the attempt began', () => {
    const list = [message(1, 'hello', SINCE / 1000 - 60), message(2, 'hello', SINCE / 1000 + 1)];
    expect(CHATWOOT.findSent!(list, record('hello'), SINCE, new Set())).toEqual(list[1]);
  });

  it('allows the two seconds of created_at and Date rounding, no more', () => {
    expect(CHATWOOT.findSent!([message(1, 'hi', SINCE / 1000 - 2)], record('hi'), SINCE, new Set())).toBeDefined();
    expect(CHATWOOT.findSent!([message(1, 'hi', SINCE / 1000 - 3)], record('hi'), SINCE, new Set())).toBeUndefined();
  });

  it("skips other content, the agent's messages, messages already settled, and other numbers of attachments", () => {
    const at = SINCE / 1000 + 1;
    expect(CHATWOOT.findSent!([message(1, 'other', at)], record('hello'), SINCE, new Set())).toBeUndefined();
    expect(
      CHATWOOT.findSent!([message(1, 'hello', at, { message_type: 1 })], record('hello'), SINCE, new Set()),
    ).toBeUndefined();
    expect(CHATWOOT.findSent!([message(1, 'hello', at)], record('hello'), SINCE, new Set([1]))).toBeUndefined();
    const photo = message(3, null, at, { attachments: [{ id: 5, file_type: 'image' }] });
    expect(CHATWOOT.findSent!([photo], record(undefined, 2), SINCE, new Set())).toBeUndefined();
    expect(CHATWOOT.findSent!([photo], record(undefined, 1), SINCE, new Set())).toEqual(photo);
  });

  it('matches on echo_id alone where the list gives one back', () => {
    const old = SINCE / 1000 - 3600;
    const echoed = message(7, 'hello', old, { content_attributes: { echo_id: 'm-1' } });
    expect(CHATWOOT.findSent!([echoed], record('hello'), SINCE, new Set())).toEqual(echoed);
    const other = message(8, 'hello', SINCE / 1000 + 1, { echo_id: 'm-2' });
    expect(CHATWOOT.findSent!([other], record('hello'), SINCE, new Set())).toBeUndefined();
  });

  it('finds nothing in a body that is not a list', () => {
    expect(CHATWOOT.findSent!({ error: 'x' }, record('hello'), SINCE, new Set())).toBeUndefined();
    expect(CHATWOOT.findSent!([null, 'x'], record('hello'), SINCE, new Set())).toBeUndefined();
  });
});
