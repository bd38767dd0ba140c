import { describe, expect, it } from 'vitest';
import {
  MAX_WAIT,
  parseRetryAfter,
  retryDelay,
  tooFarOff,
  type RetryPolicy,
} from '../../../../bridge/backend/retry-timing.js';
import { errorEvent } from '../../../../bridge/protocol/errors.js';

const POLICY: RetryPolicy = { limit: 4, baseDelay: 1_000, maxDelay: 10_000 };
const NOW = Date.parse('2025-03-01T12:00:00Z');

const delayOf = (decision: ReturnType<typeof retryDelay>): number => {
  expect(typeof decision).toBe('number');
  return decision as number;
};
const reasonOf = (decision: ReturnType<typeof retryDelay>): string => {
  expect(typeof decision).toBe('string');
  return decision as string;
};

describe('exponential backoff', () => {
  it('doubles the delay with each attempt (random 0 gives the fixed half)', () => {
    const delays = [1, 2, 3, 4].map((attempt) => delayOf(retryDelay(attempt, undefined, POLICY, 0)));
    expect(delays).toEqual([500, 1_000, 2_000, 4_000]);
  });

  it('caps the exponential delay at maxDelay', () => {
    const policy = { ...POLICY, limit: 10 };
    expect(delayOf(retryDelay(5, undefined, policy, 0))).toBe(5_000); // 16 s capped to 10 s, then halved
    expect(delayOf(retryDelay(9, undefined, policy, 0.999))).toBeLessThanOrEqual(10_000);
    expect(delayOf(retryDelay(9, undefined, policy, 0.999))).toBeGreaterThanOrEqual(9_990);
  });

  it('keeps the jitter between half and all of the exponential delay', () => {
    for (const attempt of [1, 2, 3, 4]) {
      const exponential = 1_000 * 2 ** (attempt - 1);
      const low = delayOf(retryDelay(attempt, undefined, POLICY, 0));
      const high = delayOf(retryDelay(attempt, undefined, POLICY, 0.999));
      expect(low).toBe(exponential / 2);
      expect(high).toBeGreaterThan(low);
      expect(high).toBeLessThanOrEqual(exponential);
      expect(high).toBeGreaterThanOrEqual(Math.floor(exponential * 0.999));
    }
  });

  it('uses the random source, so different draws give different delays', () => {
    expect(delayOf(retryDelay(3, undefined, POLICY, 0.25))).toBe(2_000 + 500);
    expect(delayOf(retryDelay(3, undefined, POLICY, 0.5))).toBe(2_000 + 1_000);
  });
});

describe('Retry-After', () => {
  it('honours Retry-After in seconds over the backoff', () => {
    expect(delayOf(retryDelay(1, parseRetryAfter('3', NOW), POLICY, 0.999))).toBe(3_000);
    expect(delayOf(retryDelay(4, parseRetryAfter(' 2 ', NOW), POLICY, 0))).toBe(2_000);
    expect(delayOf(retryDelay(1, parseRetryAfter('0', NOW), POLICY, 0.5))).toBe(0);
  });

  it('honours Retry-After as an HTTP date, relative to now', () => {
    const header = new Date(NOW + 7_000).toUTCString(); // IMF-fixdate, e.g. "Sat, 01 Mar 2025 12:00:07 GMT"
    expect(delayOf(retryDelay(1, parseRetryAfter(header, NOW), POLICY, 0.999))).toBe(7_000);
    // The same header read later means a shorter wait.
    expect(delayOf(retryDelay(1, parseRetryAfter(header, NOW + 5_000), POLICY, 0.999))).toBe(2_000);
  });

  it('waits 0 for an HTTP date already in the past', () => {
    expect(delayOf(retryDelay(1, parseRetryAfter(new Date(NOW - 60_000).toUTCString(), NOW), POLICY, 0.5))).toBe(0);
  });

  it("refuses to retry when Retry-After asks for more than maxDelay, saying why (the error's retryAt says when)", () => {
    expect(reasonOf(retryDelay(1, parseRetryAfter('30', NOW), POLICY, 0))).toBe('Retry-After over the 10 s cap');
    expect(reasonOf(retryDelay(1, parseRetryAfter(new Date(NOW + 60_000).toUTCString(), NOW), POLICY, 0))).toBe(
      'Retry-After over the 10 s cap',
    );
    // At the cap, it waits.
    expect(delayOf(retryDelay(1, 10_000, POLICY, 0))).toBe(10_000);
  });

  it('accepts a Retry-After of exactly maxDelay', () => {
    expect(delayOf(retryDelay(1, parseRetryAfter('10', NOW), POLICY, 0))).toBe(10_000);
  });

  it.each([['soon'], [''], ['1.5'], ['-5'], ['10 s']])(
    'falls back to backoff for an unreadable Retry-After %j',
    (header) => {
      expect(delayOf(retryDelay(2, parseRetryAfter(header, NOW), POLICY, 0))).toBe(1_000);
    },
  );

  it('parses the header forms directly', () => {
    expect(parseRetryAfter(null, NOW)).toBeUndefined();
    expect(parseRetryAfter('120', NOW)).toBe(120_000);
    expect(parseRetryAfter('Sat, 01 Mar 2025 12:00:30 GMT', NOW)).toBe(30_000);
    expect(parseRetryAfter('1.5', NOW)).toBeUndefined();
  });
});

describe('retry budget', () => {
  it('stops once the attempt exceeds the limit, saying how many retries were made', () => {
    expect(delayOf(retryDelay(4, undefined, POLICY, 0))).toBe(4_000);
    expect(reasonOf(retryDelay(5, undefined, POLICY, 0))).toBe('gave up after 4 retries');
  });

  it('stops even when the server says to retry at once, once the budget is spent', () => {
    expect(reasonOf(retryDelay(5, parseRetryAfter('0', NOW), POLICY, 0))).toContain('gave up');
  });

  it('never retries with a limit of 0', () => {
    expect(reasonOf(retryDelay(1, parseRetryAfter('1', NOW), { ...POLICY, limit: 0 }, 0))).toBe(
      'gave up after 0 retries',
    );
  });

  it('says "retry" in the singular for a limit of 1', () => {
    expect(reasonOf(retryDelay(2, undefined, { ...POLICY, limit: 1 }, 0))).toBe('gave up after 1 retry');
  });
});

describe('a Retry-After too far off to wait for', () => {
  it('is one over a day', () => {
    expect(MAX_WAIT).toBe(86_400_000);
  });

  it("keeps the failure's code and status and gives when the server asked in retryAt, none past any date", () => {
    const failure = errorEvent('server_error', '[POST /messages] 503: unavailable', 503);
    const at = Date.UTC(2026, 11, 28);
    expect(tooFarOff(failure, at)).toEqual({
      ...failure,
      message: '[POST /messages] 503: unavailable; Retry-After over a day: not retried automatically',
      retryAt: at,
    });
    // Infinity would reach a native host as null (JSON); past the last date there is no when.
    expect(tooFarOff(failure, Infinity)).not.toHaveProperty('retryAt');
    expect(tooFarOff(failure, 1e16)).not.toHaveProperty('retryAt');
    // The original is left as it was.
    expect(failure.message).toBe('[POST /messages] 503: unavailable');
  });
});
