import { describe, expect, it } from 'vitest';
import { askedWait, backoff, isTransient } from '../../../../bridge/backend/retry-policy.js';
import { httpError, httpErrorEvent } from '../../../../bridge/backend/http-errors.js';
import { bridgeError, toErrorEvent } from '../../../../bridge/protocol/errors.js';

const POST_MESSAGES = { method: 'POST', path: '/messages' } as const;
const answer = (status: number, retryAfter: string | null = null) => ({
  status,
  body: undefined,
  text: '',
  headers: { get: (name: string) => (name === 'Retry-After' ? retryAfter : null) },
});
/** A failure as the outbox sees it: the error event what was thrown is reported as. */
const failure = (thrown: unknown) => toErrorEvent(thrown, 'server_error', '[POST /messages]');

describe('which failures the outbox keeps the message through', () => {
  it.each([408, 502, 503, 504])('keeps it after a %i answer', (status) => {
    expect(isTransient(failure(httpError(POST_MESSAGES, answer(status))))).toBe(true);
  });

  it("keeps it after a 429 its request gave up on only where the profile's rate limits pass (issue 33: Chatwoot)", () => {
    // As http.ts throws it after its own retries, with and without the server's Retry-After.
    const message = '[POST /messages] 429: too many requests; gave up after 4 retries';
    expect(isTransient(failure(bridgeError('rate_limited', message, 429)), true)).toBe(true);
    expect(isTransient(failure(bridgeError('rate_limited', message, 429, undefined, 60_000)), true)).toBe(true);
    expect(isTransient(failure(bridgeError('rate_limited', message, 429)))).toBe(false);
    expect(isTransient(failure(bridgeError('rate_limited', message, 429)), false)).toBe(false);
  });

  it('keeps it after no answer at the network level', () => {
    expect(isTransient(failure(bridgeError('network_error', '[POST /messages] network error')))).toBe(true);
  });

  it.each([400, 401, 404, 413, 422, 429, 500])('gives up at once after a %i answer', (status) => {
    expect(isTransient(failure(httpError(POST_MESSAGES, answer(status))))).toBe(false);
  });

  it('gives up on what is not a bridge error (a programming error is never retried)', () => {
    expect(isTransient(failure(new TypeError('x is not a function')))).toBe(false);
  });

  it('reports a 408 as network_error: no answer in time, not a message the server refused', () => {
    expect(httpErrorEvent(POST_MESSAGES, answer(408))).toMatchObject({ code: 'network_error', status: 408 });
  });
});

describe('when the outbox tries again', () => {
  it("takes the server's Retry-After, in seconds or as an HTTP date", () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(askedWait(httpError(POST_MESSAGES, answer(503, '7')), now)).toBe(7_000);
    expect(askedWait(httpError(POST_MESSAGES, answer(503, 'Thu, 01 Jan 2026 00:00:30 GMT')), now)).toBe(30_000);
  });

  it('has no asked wait without a readable Retry-After', () => {
    expect(askedWait(httpError(POST_MESSAGES, answer(503)), 0)).toBeUndefined();
    expect(askedWait(httpError(POST_MESSAGES, answer(503, 'soon')), 0)).toBeUndefined();
    expect(askedWait(bridgeError('network_error', 'x'), 0)).toBeUndefined();
  });

  it('backs off from 0.5-1 s, doubling with jitter, never more than 60 s apart, without limit', () => {
    expect(backoff(1, 0)).toBe(500);
    expect(backoff(1, 0.99)).toBe(995);
    expect(backoff(2, 0)).toBe(1_000);
    expect(backoff(3, 0.5)).toBe(3_000);
    expect(backoff(10, 0)).toBe(30_000);
    expect(backoff(1_000, 0.999)).toBeLessThanOrEqual(60_000);
  });
});
