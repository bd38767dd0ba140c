import { describe, expect, it } from 'vitest';
import { widgetErrorEvent } from '../../../../bridge/inbound/widget-error.js';

describe('widget error events', () => {
  it.each([
    ['message', { message: 'Inbox not found' }],
    ['error as text', { error: 'Inbox not found' }],
    ['error.message', { error: { message: 'Inbox not found' } }],
    ['reason', { reason: 'Inbox not found' }],
  ])('uses the widget detail given as %s', (_name, data) => {
    expect(widgetErrorEvent(data)).toEqual({
      type: 'error',
      code: 'widget_error',
      retryable: false,
      message: '[widget] error: Inbox not found',
    });
  });

  it('prefers message over error over reason', () => {
    expect(widgetErrorEvent({ reason: 'c', error: 'b', message: 'a' }).message).toBe('[widget] error: a');
    expect(widgetErrorEvent({ reason: 'c', error: 'b' }).message).toBe('[widget] error: b');
  });

  it.each([
    ['no fields', {}],
    ['blank text', { message: '   ' }],
    ['non-text values', { message: 42, error: { code: 7 }, reason: null }],
  ])('says there were no details when the widget gives %s', (_name, data) => {
    const event = widgetErrorEvent(data);
    expect(event.code).toBe('widget_error');
    expect(event.message).toBe('[widget] error without details');
  });

  it('cuts a very long detail to 500 characters', () => {
    const event = widgetErrorEvent({ message: 'x'.repeat(5_000) });
    expect(event.message).toBe(`[widget] error: ${'x'.repeat(500)}…`);
  });
});

describe("Chatwoot's widget error (its contacts store)", () => {
  it('names the error type and the server reason nested under data', () => {
    expect(
      widgetErrorEvent({
        errorType: 'SET_USER_ERROR',
        data: { message: 'HMAC failed: Invalid Identifier Hash Provided' },
      }),
    ).toEqual({
      type: 'error',
      code: 'widget_error',
      retryable: false,
      message: '[widget] error SET_USER_ERROR: HMAC failed: Invalid Identifier Hash Provided',
    });
  });

  it('names the type alone when no reason comes with it, and says there were no details', () => {
    expect(widgetErrorEvent({ errorType: 'SET_USER_ERROR', data: {} }).message).toBe(
      '[widget] error SET_USER_ERROR without details',
    );
  });

  it('takes a reason given as text under data', () => {
    expect(widgetErrorEvent({ errorType: 'SET_USER_ERROR', data: 'Invalid Identifier Hash' }).message).toBe(
      '[widget] error SET_USER_ERROR: Invalid Identifier Hash',
    );
  });
});
