import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../../../../bridge/backend/http.js';
import { codeForStatus, httpError, httpErrorEvent } from '../../../../bridge/backend/http-errors.js';

const POST_MESSAGES = { method: 'POST', path: '/messages' } as const;
const GET_CONFIG = { method: 'GET', path: '/config' } as const;

function answer(status: number, body?: unknown): ApiResponse {
  const text = body === undefined ? '' : JSON.stringify(body);
  return { status, body, text, headers: { get: () => null } };
}

describe('status to code', () => {
  it.each([
    [400, 'bad_request'],
    [401, 'auth_failed'],
    [403, 'auth_failed'],
    [404, 'not_found'],
    [408, 'network_error'],
    [413, 'file_too_large'],
    [422, 'validation_error'],
    [429, 'rate_limited'],
    [500, 'server_error'],
    [502, 'server_error'],
    [503, 'server_error'],
    [409, 'bad_request'],
    [418, 'bad_request'],
  ])('maps %i to %s', (status, code) => {
    expect(httpErrorEvent(POST_MESSAGES, answer(status)).code).toBe(code);
    expect(codeForStatus(status)).toBe(code);
  });

  it.each([
    'Too many files: at most 5 per message',
    'Unsupported file type application/zip',
    'File too large',
    'message.content is required',
    'Malformed request body',
  ])(
    'gives a server 400 reading %j the code bad_request, keeping its message (the specific codes come from the checks before sending)',
    (message) => {
      const event = httpErrorEvent(POST_MESSAGES, answer(400, { message }));
      expect(event.code).toBe('bad_request');
      expect(event.message).toBe(`[POST /messages] 400: ${message}`);
    },
  );
});

describe('messages', () => {
  it('formats the message as [METHOD /path] status: text with the server message', () => {
    const event = httpErrorEvent(
      POST_MESSAGES,
      answer(413, { message: 'File exceeds the maximum upload size of 5 MB' }),
    );
    expect(event).toEqual({
      type: 'error',
      code: 'file_too_large',
      retryable: false,
      message: '[POST /messages] 413: File exceeds the maximum upload size of 5 MB',
      status: 413,
    });
  });

  it('falls back to a status text when the server gives no message', () => {
    expect(httpErrorEvent(POST_MESSAGES, answer(413)).message).toBe('[POST /messages] 413: file too large');
    expect(httpErrorEvent(GET_CONFIG, answer(401, { message: '' })).message).toBe('[GET /config] 401: unauthorized');
    expect(httpErrorEvent(GET_CONFIG, answer(503, 'down')).message).toBe('[GET /config] 503: server error');
    expect(httpErrorEvent(GET_CONFIG, answer(418, { message: 42 })).message).toBe('[GET /config] 418: request failed');
  });

  it('keeps the status on every event', () => {
    for (const status of [400, 401, 404, 413, 422, 429, 500, 503])
      expect(httpErrorEvent(POST_MESSAGES, answer(status)).status).toBe(status);
  });

  it('wraps the event in a BridgeError that carries it', () => {
    const error = httpError(POST_MESSAGES, answer(404, { message: 'Conversation not found' }));
    expect(error.name).toBe('BridgeError');
    expect(error.message).toBe('[POST /messages] 404: Conversation not found');
    expect(error.event.code).toBe('not_found');
  });
});

describe('field errors', () => {
  it('keeps the 422 field errors exactly as the server gave them', () => {
    const errors = { email: ['is invalid'], identifier: ["can't be blank", 'is too short'] };
    const event = httpErrorEvent(
      { method: 'POST', path: '/conversations' },
      answer(422, { message: 'Validation failed', errors }),
    );
    expect(event).toEqual({
      type: 'error',
      code: 'validation_error',
      retryable: false,
      message: '[POST /conversations] 422: Validation failed',
      status: 422,
      errors,
    });
  });

  it('drops malformed field entries and keeps the well-formed ones', () => {
    const body = { errors: { email: 'is invalid', name: ['ok', 3], identifier: ["can't be blank"], phone: null } };
    expect(httpErrorEvent(POST_MESSAGES, answer(422, body)).errors).toEqual({ identifier: ["can't be blank"] });
  });

  it('leaves errors out when none is well formed', () => {
    for (const errors of [['email is invalid'], 'bad', null, { email: 'x' }, {}]) {
      const event = httpErrorEvent(POST_MESSAGES, answer(422, { errors }));
      expect(event).not.toHaveProperty('errors');
      expect(event.code).toBe('validation_error');
    }
  });

  it('leaves errors out when the body is not an object', () => {
    expect(httpErrorEvent(POST_MESSAGES, answer(422, ['x']))).not.toHaveProperty('errors');
    expect(httpErrorEvent(POST_MESSAGES, answer(422))).not.toHaveProperty('errors');
  });
});
