/**
 * The CORS header rules the doctor applies, as a browser applies them to a request without
 * credentials (the bridge never sends any).
 */
import { describe, expect, it } from 'vitest';
import {
  allowOriginProblem,
  exposesRetryAfter,
  missingMethods,
  missingRequestHeaders,
  variesByOrigin,
} from '../../../../tools/doctor/cors.js';

const ORIGIN = 'https://app.example.com';

describe('allowOriginProblem', () => {
  it('accepts * and the exact page origin', () => {
    expect(allowOriginProblem('*', ORIGIN)).toBeUndefined();
    expect(allowOriginProblem(` ${ORIGIN} `, ORIGIN)).toBeUndefined();
  });

  it('refuses a missing header, another origin, a list of origins and an origin with a trailing slash', () => {
    expect(allowOriginProblem(null, ORIGIN)).toBe('missing');
    expect(allowOriginProblem('https://other.example', ORIGIN)).toContain('does not match the page origin');
    expect(allowOriginProblem(`${ORIGIN}, https://other.example`, ORIGIN)).toContain('exactly one origin');
    expect(allowOriginProblem(`${ORIGIN}/`, ORIGIN)).toContain('does not match');
  });
});

describe('missingMethods', () => {
  it('names the contract methods a list leaves out, case-insensitively', () => {
    expect(missingMethods('get, Post, OPTIONS')).toEqual(['PATCH', 'DELETE']);
    expect(missingMethods(null)).toEqual(['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS']);
  });

  it('treats * as every method for requests without credentials', () => {
    expect(missingMethods('*')).toEqual([]);
  });
});

describe('missingRequestHeaders', () => {
  it('accepts Content-Type and Authorization in any case and order', () => {
    expect(missingRequestHeaders('authorization,CONTENT-TYPE')).toEqual({ missing: [], wildcard: false });
  });

  it('does not let * stand for Authorization, as the Fetch standard requires', () => {
    expect(missingRequestHeaders('*')).toEqual({ missing: ['Authorization'], wildcard: true });
    expect(missingRequestHeaders('*, Authorization')).toEqual({ missing: [], wildcard: true });
  });
});

describe('exposesRetryAfter and variesByOrigin', () => {
  it('find their header name in a list, case-insensitively, or a *', () => {
    expect(exposesRetryAfter('X-Request-Id, retry-after')).toBe(true);
    expect(exposesRetryAfter('*')).toBe(true);
    expect(exposesRetryAfter('X-Request-Id')).toBe(false);
    expect(exposesRetryAfter(null)).toBe(false);
    expect(variesByOrigin('Accept-Encoding, Origin')).toBe(true);
    expect(variesByOrigin('Accept-Encoding')).toBe(false);
  });
});
