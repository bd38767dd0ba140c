/**
 * CORS on the API's actual answers (tools/doctor/response-checks.ts), on answers from a table.
 */
import { describe, expect, it } from 'vitest';
import { exposeRetryAfterCheck, responseCorsCheck } from '../../../../tools/doctor/response-checks.js';
import { answered, CORS, ORIGIN, refused, tableProbe } from '../../../helpers/doctor-probe.js';

const GIVEN = 'GET /config';
const WRONG = 'GET /config with a wrong token';

const probeWith = (given: Record<string, string>, wrong: Record<string, string> = given, preflight = {}) =>
  tableProbe({
    [GIVEN]: answered(GIVEN, { status: 200, headers: given }),
    [WRONG]: answered(WRONG, { status: 401, headers: wrong }),
    'OPTIONS /messages': answered('OPTIONS /messages', { status: 204, headers: preflight }),
  });

describe('responseCorsCheck', () => {
  it('passes the page origin on both config answers', async () => {
    expect(await responseCorsCheck.run(probeWith(CORS))).toEqual({
      status: 'pass',
      detail: 'Access-Control-Allow-Origin right on GET /config (200) and on GET /config with a wrong token (401)',
    });
  });

  it('fails an error answer sent without the header (nginx without "always"), naming that answer', async () => {
    const outcome = await responseCorsCheck.run(probeWith(CORS, {}));
    expect(outcome.status).toBe('fail');
    expect(outcome.detail).toContain('the 401 answer of GET /config with a wrong token');
    expect(outcome.detail).not.toContain('the 200 answer');
    expect(outcome.fix).toContain('always');
  });

  it('reads the answers it can and says which it could not', async () => {
    const outcome = await responseCorsCheck.run(
      tableProbe({ [GIVEN]: answered(GIVEN, { status: 200, headers: CORS }), [WRONG]: refused(WRONG) }),
    );
    expect(outcome.status).toBe('pass');
    expect(outcome.detail).toContain('; not checked on GET /config with a wrong token got no answer');
  });
});

describe('exposeRetryAfterCheck', () => {
  it('passes when Retry-After is exposed on the answers', async () => {
    expect((await exposeRetryAfterCheck.run(probeWith(CORS))).status).toBe('pass');
  });

  it('warns when it is not, noticing a copy on the preflight only, and extends the list sent', async () => {
    const headers = { 'access-control-allow-origin': ORIGIN, 'access-control-expose-headers': 'X-Request-Id' };
    const outcome = await exposeRetryAfterCheck.run(
      probeWith(headers, headers, { 'access-control-expose-headers': 'Retry-After' }),
    );
    expect(outcome.status).toBe('warn');
    expect(outcome.detail).toContain('(only the preflight sends it, where browsers ignore it)');
    expect(outcome.fix).toBe(
      'add Retry-After to Access-Control-Expose-Headers ("X-Request-Id, Retry-After") on every API response',
    );
  });
});
