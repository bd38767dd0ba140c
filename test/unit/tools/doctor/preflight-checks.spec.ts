/**
 * The preflight checks (tools/doctor/preflight-checks.ts), on answers from a table: what breaks
 * the bridge (OPTIONS /messages) FAILs, what only the contract asks for WARNs.
 */
import { describe, expect, it } from 'vitest';
import {
  allowHeadersCheck,
  allowMethodsCheck,
  allowOriginCheck,
  configPreflightCheck,
  messagesPreflightCheck,
} from '../../../../tools/doctor/preflight-checks.js';
import { answered, ORIGIN, refused, tableProbe } from '../../../helpers/doctor-probe.js';

const MESSAGES = 'OPTIONS /messages';
const CONFIG = 'OPTIONS /config';
const GOOD = {
  'access-control-allow-origin': ORIGIN,
  vary: 'Origin',
  'access-control-allow-headers': 'Content-Type, Authorization',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
};

const probeWith = (messages: Record<string, string>, config: Record<string, string> = messages, status = 204) =>
  tableProbe({
    [MESSAGES]: answered(MESSAGES, { status, headers: messages }),
    [CONFIG]: answered(CONFIG, { status, headers: config }),
  });

describe('the preflight status checks', () => {
  it('fail a non-2xx preflight of /messages, and only warn for /config', async () => {
    const probe = probeWith(GOOD, GOOD, 401);
    expect(await messagesPreflightCheck.run(probe)).toMatchObject({ status: 'fail', detail: /^answered 401/ });
    expect(await configPreflightCheck.run(probe)).toMatchObject({ status: 'warn' });
    expect(await messagesPreflightCheck.run(probeWith(GOOD))).toEqual({ status: 'pass', detail: 'answered 204' });
  });
});

describe('allowOriginCheck', () => {
  it('passes the page origin on both preflights', async () => {
    expect(await allowOriginCheck.run(probeWith(GOOD))).toEqual({
      status: 'pass',
      detail: `"${ORIGIN}" on both preflights`,
    });
  });

  it('fails a wrong origin on OPTIONS /messages, naming the value sent', async () => {
    const outcome = await allowOriginCheck.run(
      probeWith({ ...GOOD, 'access-control-allow-origin': 'https://other.example' }),
    );
    expect(outcome.status).toBe('fail');
    expect(outcome.detail).toContain('on OPTIONS /messages and OPTIONS /config');
    expect(outcome.detail).toContain('https://other.example');
  });

  it('only warns when the wrong origin is on the /config preflight alone', async () => {
    const outcome = await allowOriginCheck.run(probeWith(GOOD, { ...GOOD, 'access-control-allow-origin': 'null' }));
    expect(outcome.status).toBe('warn');
    expect(outcome.detail).toContain('the bridge never preflights GET /config');
  });

  it('warns for an echoed origin without Vary: Origin', async () => {
    const { vary: _, ...noVary } = GOOD;
    expect(await allowOriginCheck.run(probeWith(noVary))).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining('without "Vary: Origin"'),
    });
  });

  it('skips when neither preflight could be read, and says which check reports them', async () => {
    const outcome = await allowOriginCheck.run(
      tableProbe({ [MESSAGES]: refused(MESSAGES), [CONFIG]: refused(CONFIG) }),
    );
    expect(outcome.status).toBe('skip');
    expect(outcome.detail).toContain('see "preflight OPTIONS /messages" and "preflight OPTIONS /config"');
  });
});

describe('allowHeadersCheck and allowMethodsCheck', () => {
  it('fail a preflight of /messages that does not allow Authorization, a * included', async () => {
    const outcome = await allowHeadersCheck.run(probeWith({ ...GOOD, 'access-control-allow-headers': '*' }));
    expect(outcome.status).toBe('fail');
    expect(outcome.detail).toContain('(a * never covers Authorization)');
    expect(outcome.fix).toContain('"*, Authorization"');
  });

  it('only warn for missing methods: GET and POST pass a preflight without them', async () => {
    const outcome = await allowMethodsCheck.run(probeWith({ ...GOOD, 'access-control-allow-methods': 'GET' }));
    expect(outcome).toMatchObject({ status: 'warn', detail: expect.stringMatching(/^missing POST/) });
  });
});
