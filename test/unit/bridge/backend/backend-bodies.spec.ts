/**
 * Reading the backend's answers leniently: a proxy, an old server or a broken deployment may answer
 * instead, so each reader takes only a well-formed field and otherwise says there is none.
 */
import { describe, expect, it } from 'vitest';
import { authTokenOf, errorMessageOf, fieldErrorsOf, usableToken } from '../../../../bridge/backend/backend-bodies.js';
import { MIN_TOKEN_LENGTH } from '../../../../bridge/outbound/redact.js';

/** Bodies that are not JSON objects: what a 2xx without JSON, an HTML error page or a bare value parse to. */
const NOT_OBJECTS = [undefined, null, 'text', 42, true, ['authToken', 'message', 'errors']];

describe('usableToken', () => {
  it('keeps a string of at least MIN_TOKEN_LENGTH characters and refuses a shorter one', () => {
    expect(usableToken('x'.repeat(MIN_TOKEN_LENGTH))).toBe('x'.repeat(MIN_TOKEN_LENGTH));
    expect(usableToken('x'.repeat(MIN_TOKEN_LENGTH - 1))).toBeUndefined();
  });

  it.each([undefined, null, '', 1234567890, ['at_0123456789'], { token: 'at_0123456789' }])('refuses %j', (token) =>
    expect(usableToken(token)).toBeUndefined(),
  );
});

describe('authTokenOf', () => {
  it("takes a config answer's authToken string", () => {
    expect(authTokenOf({ authToken: 'at_0123456789', website_channel_config: {} })).toBe('at_0123456789');
  });

  it('takes a token of exactly MIN_TOKEN_LENGTH characters and refuses a shorter one, which could not be scrubbed safely', () => {
    expect(authTokenOf({ authToken: 'x'.repeat(MIN_TOKEN_LENGTH) })).toBe('x'.repeat(MIN_TOKEN_LENGTH));
    expect(authTokenOf({ authToken: 'x'.repeat(MIN_TOKEN_LENGTH - 1) })).toBeUndefined();
    expect(authTokenOf({ authToken: '' })).toBeUndefined();
  });

  it.each([
    {},
    { authToken: 1234567890 },
    { authToken: null },
    { authToken: ['at_0123456789'] },
    { token: 'at_0123456789' },
  ])('finds no token in %j', (body) => expect(authTokenOf(body)).toBeUndefined());

  it.each(NOT_OBJECTS)('finds no token in a body that is not an object: %j', (body) => {
    expect(authTokenOf(body)).toBeUndefined();
  });
});

describe('errorMessageOf', () => {
  it("takes an ErrorResponse's message", () => {
    expect(errorMessageOf({ message: 'Conversation not found', errors: {} })).toBe('Conversation not found');
  });

  it.each([{}, { message: '' }, { message: 404 }, { message: { text: 'x' } }, { error: 'Not found' }])(
    'finds no message in %j',
    (body) => expect(errorMessageOf(body)).toBeUndefined(),
  );

  it.each(NOT_OBJECTS)('finds no message in a body that is not an object: %j', (body) => {
    expect(errorMessageOf(body)).toBeUndefined();
  });
});

describe('fieldErrorsOf', () => {
  it('takes the fields whose problems are a list of strings', () => {
    const errors = { email: ['is invalid', 'is too long'], name: [] };
    expect(fieldErrorsOf({ message: 'Validation failed', errors })).toEqual(errors);
  });

  it('leaves out each field that is not a list of strings and keeps the well-formed ones', () => {
    const body = { errors: { email: ['is invalid'], name: 'is blank', phone: [1], avatar: ['ok', null], extra: {} } };
    expect(fieldErrorsOf(body)).toEqual({ email: ['is invalid'] });
  });

  it('finds none when no field is well formed, or errors is not an object', () => {
    expect(fieldErrorsOf({ errors: { email: 'is invalid' } })).toBeUndefined();
    expect(fieldErrorsOf({ errors: {} })).toBeUndefined();
    expect(fieldErrorsOf({ errors: ['email is invalid'] })).toBeUndefined();
    expect(fieldErrorsOf({ errors: 'email is invalid' })).toBeUndefined();
    expect(fieldErrorsOf({ message: 'no errors here' })).toBeUndefined();
  });

  it.each(NOT_OBJECTS)('finds none in a body that is not an object: %j', (body) => {
    expect(fieldErrorsOf(body)).toBeUndefined();
  });
});
