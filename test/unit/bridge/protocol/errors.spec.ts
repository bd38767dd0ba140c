import { describe, expect, it } from 'vitest';
import {
  bridgeError,
  BridgeError,
  ErrorCode,
  errorEvent,
  gotNoAnswer,
  isBridgeError,
  isRetryable,
  HOST_CODES,
  hostErrorEvent,
  type BridgeCode,
  RETRYABLE_CODES,
  toErrorEvent,
  withNote,
} from '../../../../bridge/protocol/errors.js';

describe('error codes', () => {
  it('are the snake_case values docs/reference.md documents, one per name, never repeated', () => {
    const codes = Object.values(ErrorCode);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
    expect(codes).toContain('unknown_method');
  });
});

describe('errorEvent', () => {
  it('builds {type, code, message} and adds status and field errors only when given', () => {
    expect(errorEvent('parse_error', 'bad')).toEqual({
      type: 'error',
      code: 'parse_error',
      retryable: false,
      message: 'bad',
    });
    expect(Object.keys(errorEvent('not_found', 'x', undefined, undefined))).toEqual([
      'type',
      'code',
      'message',
      'retryable',
    ]);
    expect(errorEvent('validation_error', 'x', 422, { email: ['is invalid'] })).toEqual({
      type: 'error',
      code: 'validation_error',
      retryable: false,
      message: 'x',
      status: 422,
      errors: { email: ['is invalid'] },
    });
  });
});

describe('retryable and retryAt', () => {
  it("a host's own code (HOST_CODES) is retryable, and made only by hostErrorEvent", () => {
    expect(HOST_CODES).toEqual(['webview_restarted']);
    expect(hostErrorEvent('webview_restarted', 'reloading')).toEqual({
      type: 'error',
      code: 'webview_restarted',
      message: 'reloading',
      retryable: true,
    });
    expect(isRetryable('webview_restarted')).toBe(true);
    // @ts-expect-error errorEvent takes the bridge's codes only: a host code would say retryable false
    errorEvent('webview_restarted', 'x');
  });

  it('says retryable from the code alone, true for exactly the codes of RETRYABLE_CODES', () => {
    for (const code of Object.values(ErrorCode)) {
      if ((HOST_CODES as readonly string[]).includes(code)) continue;
      const bridgeCode = code as BridgeCode;
      expect(errorEvent(bridgeCode, 'x').retryable, code).toBe((RETRYABLE_CODES as readonly string[]).includes(code));
      expect(errorEvent(bridgeCode, 'x', 500).retryable, `${code} with a status`).toBe(isRetryable(code));
    }
    expect((['network_error', 'rate_limited', 'server_error', 'storage_error'] as const).every(isRetryable)).toBe(true);
    expect(
      (['auth_failed', 'validation_error', 'file_too_large', 'not_found', 'cancelled'] as const).some(isRetryable),
    ).toBe(false);
  });

  it('adds retryAt last, only when given', () => {
    expect(errorEvent('rate_limited', 'x', 429, undefined, 1_700_000_000_000)).toEqual({
      type: 'error',
      code: 'rate_limited',
      message: 'x',
      retryable: true,
      status: 429,
      retryAt: 1_700_000_000_000,
    });
    expect('retryAt' in errorEvent('rate_limited', 'x', 429)).toBe(false);
  });
});

describe('BridgeError', () => {
  it('carries its finished event and the event message as its own', () => {
    const error = bridgeError('not_found', '[GET /conversations] 404: not found', 404);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('BridgeError');
    expect(error.message).toBe('[GET /conversations] 404: not found');
    expect(error.event).toEqual({
      type: 'error',
      code: 'not_found',
      retryable: false,
      message: error.message,
      status: 404,
    });
  });

  it('is recognised by name across realms, and plain errors are not mistaken for it', () => {
    const foreign = Object.assign(new Error('x'), { name: 'BridgeError', event: errorEvent('server_error', 'x') });
    expect(isBridgeError(foreign)).toBe(true);
    expect(isBridgeError(new BridgeError(errorEvent('server_error', 'x')))).toBe(true);
    expect(isBridgeError(Object.assign(new Error('x'), { name: 'BridgeError' }))).toBe(false);
    expect(isBridgeError({ name: 'BridgeError', event: {} })).toBe(false);
    expect(isBridgeError('BridgeError')).toBe(false);
  });
});

describe('toErrorEvent', () => {
  it('keeps a BridgeError event as it is', () => {
    const event = errorEvent('rate_limited', '[GET /config] 429: slow', 429);
    expect(toErrorEvent(new BridgeError(event), 'server_error', '[init]')).toBe(event);
  });

  it('turns any other thrown value into the fallback code, saying where, never losing it', () => {
    expect(toErrorEvent(new TypeError('x is not a function'), 'server_error', '[init]')).toEqual({
      type: 'error',
      code: 'server_error',
      retryable: true,
      message: '[init] x is not a function',
    });
    expect(toErrorEvent('plain string', 'network_error', '[POST /messages]').message).toBe(
      '[POST /messages] plain string',
    );
    expect(toErrorEvent(42, 'server_error', '[init]').message).toBe('[init] unknown failure');
    expect(toErrorEvent(undefined, 'server_error', '[init]').message).toBe('[init] unknown failure');
  });
});

describe('gotNoAnswer', () => {
  it.each([
    [bridgeError('network_error', '[GET /config] network error'), true],
    [bridgeError('server_error', '[GET /config] 500: failed', 500), false],
    [new Error('network_error'), false],
    [{ event: { code: 'network_error' } }, false],
    [undefined, false],
  ])('%o: %s', (thrown, expected) => {
    expect(gotNoAnswer(thrown)).toBe(expected);
  });
});

describe('withNote', () => {
  const failure = errorEvent('rate_limited', '[POST /messages] 429: too many requests', 429);

  it("puts the note after the failure's message and keeps every other field", () => {
    expect(withNote(failure, '3 queued')).toEqual({ ...failure, message: `${failure.message}; 3 queued` });
  });

  it('adds the extra fields given, and none for false', () => {
    expect(withNote(failure, 'n', { retryAt: 5 })).toEqual({
      ...failure,
      message: `${failure.message}; n`,
      retryAt: 5,
    });
    expect(withNote(failure, 'n', false)).not.toHaveProperty('retryAt');
  });

  it('leaves the failure it was given as it was', () => {
    const before = { ...failure };
    withNote(failure, 'n', { retryAt: 5 });
    expect(failure).toEqual(before);
  });
});
