import { describe, expect, it } from 'vitest';
import { CONTRACT } from '../../../../bridge/backend/profile.js';
import type { ApiResponse } from '../../../../bridge/backend/http.js';

function answer(status: number, body?: unknown, text = body === undefined ? '' : JSON.stringify(body)): ApiResponse {
  return { status, body, text, headers: { get: (name) => (name === 'Retry-After' ? '3' : null) } };
}

describe("the contract's profile", () => {
  it('goes to the contract paths, with the token as Authorization: Bearer and renewed on 401', () => {
    expect(CONTRACT.config).toEqual({ method: 'GET', path: '/config' });
    expect([CONTRACT.conversationsPath, CONTRACT.messagesPath, CONTRACT.fileField]).toEqual([
      '/conversations',
      '/messages',
      'attachments[]',
    ]);
    expect(CONTRACT.stale).toBe(401);
    // The service's MIME types: a zip is refused before sending.
    expect(CONTRACT.fileTypes.test('image/png')).toBe(true);
    expect(CONTRACT.fileTypes.test('application/zip')).toBe(false);
    const headers: Record<string, string> = {};
    CONTRACT.sign(headers, 'at_secret_1');
    expect(headers).toEqual({ Authorization: 'Bearer at_secret_1' });
    // Nothing of the widget's contact and no look-up of lost answers: the backend drops repeats by echo_id.
    expect(CONTRACT.widgetContact).toBeFalsy();
    expect(CONTRACT.tokenEverywhere).toBeFalsy();
    expect(CONTRACT.findSent).toBeUndefined();
  });

  it('reads the auth token out of the config and gives the host the rest', () => {
    expect(CONTRACT.session(answer(200, { authToken: 'at_secret_1', inbox: 'Support' }))).toEqual({
      token: 'at_secret_1',
      config: { inbox: 'Support' },
      secrets: [],
    });
    expect(CONTRACT.session(answer(200, { authToken: 'abc' })).token).toBeUndefined();
    expect(CONTRACT.session(answer(200, undefined, '<html>')).config).toEqual({});
  });

  it("maps failures as http-errors.ts does: the ErrorResponse's message and errors, Retry-After kept", () => {
    const error = CONTRACT.error(
      { method: 'POST', path: '/messages' },
      answer(422, { message: 'bad email', errors: { email: ['is invalid'] } }),
    );
    expect(error.event).toEqual({
      type: 'error',
      code: 'validation_error',
      status: 422,
      message: '[POST /messages] 422: bad email',
      errors: { email: ['is invalid'] },
      retryable: false,
    });
    expect((error as unknown as { retryAfter: string }).retryAfter).toBe('3');
  });
});
