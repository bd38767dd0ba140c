/**
 * When an answer says nothing about what a check reads (tools/doctor/gates.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  isRedirect,
  notChecked,
  notCheckedOn,
  ownerVerdict,
  skippedFor,
  unusable,
  unusablePreflight,
} from '../../../../tools/doctor/gates.js';
import { answered, REFUSED, refused } from '../../../helpers/doctor-probe.js';

const redirect = answered('GET /config', {
  status: 301,
  headers: { location: 'https://login.example/sso?token=secret#x' },
});

describe('unusable', () => {
  it('is undefined for an answer a check can read, even an error status', () => {
    expect(unusable(answered('GET /config', { status: 500 }))).toBeUndefined();
  });

  it('names the cause of no answer, and of a redirect by the target origin only', () => {
    expect(unusable(refused('GET /config'))?.said).toMatch(/^got no answer \(cannot reach/);
    expect(unusable(redirect)).toEqual({
      cause: 'a 301 redirect to https://login.example',
      said: 'was redirected (301) to https://login.example',
    });
  });

  it('counts a preflight that is not 2xx as unusable, where a request would not be', () => {
    const forbidden = answered('OPTIONS /messages', { status: 403 });
    expect(unusable(forbidden)).toBeUndefined();
    expect(unusablePreflight(forbidden)).toEqual({ cause: 'OPTIONS /messages answered 403', said: 'answered 403' });
    expect(unusablePreflight(answered('OPTIONS /messages', { status: 204 }))).toBeUndefined();
  });
});

describe('ownerVerdict', () => {
  it("gives the owner's status with the reason and fix of an unanswered request", () => {
    expect(ownerVerdict(refused('GET /config'), 'fail', 'use the final URL')).toEqual({
      status: 'fail',
      detail: REFUSED,
      fix: 'check --base-url',
      cause: REFUSED,
    });
  });

  it('shows the whole redirect target, credential-named query values redacted', () => {
    expect(ownerVerdict(redirect, 'warn', 'use the final URL', ' (note)')).toEqual({
      status: 'warn',
      detail: 'answered 301, a redirect to https://login.example/sso?token=<redacted>#x (note)',
      fix: 'use the final URL',
      cause: 'a 301 redirect to https://login.example',
    });
  });
});

describe('notChecked and notCheckedOn', () => {
  it('say once per cause which requests could not be read and which check reports them', () => {
    const gate = unusable(refused('x'))!;
    const skipped = [
      skippedFor(refused('GET /config'), gate, 'GET /config'),
      skippedFor(refused('GET /config with a wrong token'), gate, 'rejected website token'),
    ];
    expect(notChecked(skipped)).toEqual({
      status: 'skip',
      detail: `not checked: GET /config and GET /config with a wrong token ${gate.said}, see "GET /config" and "rejected website token"`,
    });
    expect(notCheckedOn([])).toBe('');
    const redirected = unusable(redirect)!;
    expect(notCheckedOn([skippedFor(redirect, redirected, 'GET /config'), skippedFor(redirect, redirected, 'x')])).toBe(
      '; not checked on GET /config and GET /config were redirected (301) to https://login.example, see "GET /config" and "x"',
    );
  });

  it('takes a reason as it is', () => {
    expect(notChecked('no config')).toEqual({ status: 'skip', detail: 'not checked: no config' });
  });
});

describe('isRedirect', () => {
  it('is true for 3xx only', () => {
    expect([299, 300, 304, 399, 400].map(isRedirect)).toEqual([false, true, true, true, false]);
  });
});
