/**
 * The token checks (tools/doctor/config-checks.ts), on answers from a table.
 */
import { describe, expect, it } from 'vitest';
import { configCheck, rejectedTokenCheck } from '../../../../tools/doctor/config-checks.js';
import { answered, refused, tableProbe } from '../../../helpers/doctor-probe.js';

const GIVEN = 'GET /config';
const WRONG = 'GET /config with a wrong token';
const json = { 'content-type': 'application/json' };
const config = answered(GIVEN, { status: 200, headers: json, text: '{"authToken":"at_live_token_0123456789"}' });

describe('configCheck', () => {
  it('passes a 200 with a usable authToken, without showing it', async () => {
    const outcome = await configCheck.run(tableProbe({ [GIVEN]: config }));
    expect(outcome).toEqual({ status: 'pass', detail: 'answered 200 with a usable authToken (not shown)' });
  });

  it('fails a 2xx without a usable authToken, saying what the body was', async () => {
    const cases: Array<[string, string]> = [
      ['', 'an empty body'],
      ['<html>', 'a body that is not JSON (Content-Type application/json)'],
      ['{"authToken":""}', 'JSON without a non-empty string authToken'],
    ];
    for (const [text, what] of cases) {
      const outcome = await configCheck.run(
        tableProbe({ [GIVEN]: answered(GIVEN, { status: 200, headers: json, text }) }),
      );
      expect(outcome.status).toBe('fail');
      expect(outcome.detail).toContain(`answered 200 with ${what}:`);
    }
  });

  it("fails a refused token with the server's reason, and a 429 with its Retry-After", async () => {
    const refusedToken = answered(GIVEN, { status: 401, text: '{"message":"Invalid\\n website   token"}' });
    expect((await configCheck.run(tableProbe({ [GIVEN]: refusedToken }))).detail).toBe(
      'answered 401: the website token is invalid, disabled or rotated (server: "Invalid website token")',
    );
    const limited = answered(GIVEN, { status: 429, headers: { 'retry-after': '30' } });
    expect(await configCheck.run(tableProbe({ [GIVEN]: limited }))).toMatchObject({
      status: 'fail',
      detail: 'answered 429: rate limited (Retry-After: 30)',
    });
  });

  it('owns an unanswered request: fails with its reason and marks the cause for the others', async () => {
    const outcome = await configCheck.run(tableProbe({ [GIVEN]: refused(GIVEN) }));
    expect(outcome).toMatchObject({ status: 'fail', cause: expect.stringContaining('ECONNREFUSED') });
  });
});

describe('rejectedTokenCheck', () => {
  const run = (wrong: Parameters<typeof answered>[1]) =>
    rejectedTokenCheck.run(tableProbe({ [GIVEN]: config, [WRONG]: answered(WRONG, wrong) }));

  it('passes a 401 with an ErrorResponse body', async () => {
    expect(await run({ status: 401, text: '{"message":"Invalid website token"}' })).toEqual({
      status: 'pass',
      detail: 'a made-up website token got 401 with an ErrorResponse ("Invalid website token")',
    });
  });

  it('warns for a 401 without an ErrorResponse, for a 403, and for a backend that accepts any token', async () => {
    expect(await run({ status: 401, text: 'nope' })).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining('got 401 with a body that is not JSON'),
    });
    expect(await run({ status: 403, text: '{"message":"no"}' })).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining('got 403 with an ErrorResponse ("no")'),
    });
    expect(await run({ status: 200, text: '{"authToken":"at_other_0123456789"}' })).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining('got 200 instead of 401 and an authToken'),
    });
  });

  it('fails another refusal status, which the app would not see as auth_failed', async () => {
    expect(await run({ status: 404 })).toMatchObject({ status: 'fail', detail: expect.stringContaining('got 404') });
  });

  it('judges nothing while /config answers every token alike without an authToken', async () => {
    const broken = answered(GIVEN, { status: 200, text: '{}' });
    const outcome = await rejectedTokenCheck.run(
      tableProbe({ [GIVEN]: broken, [WRONG]: answered(WRONG, { status: 200, text: '{}' }) }),
    );
    expect(outcome.status).toBe('skip');
  });
});
