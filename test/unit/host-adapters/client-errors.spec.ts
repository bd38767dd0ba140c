/**
 * How a typed client's call fails (host-adapters/client-errors.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  bridgeCodeError,
  ChatBridgeError,
  clientError,
  errorOf,
  isObjectLike,
} from '../../../host-adapters/client-errors.js';

describe('ChatBridgeError', () => {
  it('carries the event, its code, status and field errors, and says its name across realms', () => {
    const event = {
      type: 'error' as const,
      code: 'validation_error' as const,
      retryable: false,
      message: '[createConversation] 422: email is invalid',
      status: 422,
      errors: { email: ['is invalid'] },
    };
    const error = new ChatBridgeError(event);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'ChatBridgeError', code: 'validation_error', status: 422, event });
    expect(error.message).toBe(event.message);
    expect(error.errors).toEqual({ email: ['is invalid'] });
  });

  it("is made for the client's own codes and for the bridge's codes the client finds itself", () => {
    expect(clientError('timeout', '[init] no answer')).toMatchObject({ code: 'timeout', status: undefined });
    expect(bridgeCodeError('parse_error', '[init] bad').event).toEqual({
      type: 'error',
      code: 'parse_error',
      retryable: false,
      message: '[init] bad',
    });
  });
});

describe('errorOf', () => {
  it('reads an event without a boolean retryable (a bridge older than the field) as not retryable', () => {
    for (const retryable of [undefined, 'yes', 1])
      expect(errorOf({ code: 'network_error', message: 'x', retryable }, 'init').retryable).toBe(false);
  });

  it("keeps the bridge's error event, its type forced to error", () => {
    const event = { type: 'x', code: 'server_error', message: '[POST /messages] 500', retryable: true, status: 500 };
    expect(errorOf(event, 'send')).toEqual({
      type: 'error',
      code: 'server_error',
      retryable: true,
      message: '[POST /messages] 500',
      status: 500,
    });
  });

  it('answers parse_error, naming the method, for a missing or malformed event', () => {
    for (const value of [undefined, null, 'boom', { code: 'server_error' }, { code: 7, message: 'x' }]) {
      expect(errorOf(value, 'sendMessage')).toEqual({
        type: 'error',
        code: 'parse_error',
        retryable: false,
        message: "[sendMessage] the bridge's answer carries no valid error event",
      });
    }
  });
});

describe('isObjectLike', () => {
  it('is true for objects and arrays, false for null and primitives', () => {
    expect([{}, [], new Date()].map(isObjectLike)).toEqual([true, true, true]);
    expect([null, undefined, 'a', 1, true].map(isObjectLike)).toEqual([false, false, false, false, false]);
  });
});
