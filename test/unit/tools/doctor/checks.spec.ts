/**
 * The doctor's run (tools/doctor/checks.ts): the checks in order on one probe, and a problem an
 * earlier check failed on reported once, the later checks skipped with its name.
 */
import { describe, expect, it } from 'vitest';
import type { Check } from '../../../../tools/doctor/check.js';
import { runDoctor } from '../../../../tools/doctor/checks.js';

/** Nothing listens on port 9 of 127.0.0.1 here: the probe's requests are refused at once. */
const target = {
  baseUrl: 'http://127.0.0.1:9/api',
  websiteToken: 'wt_given_token_0123456789',
  origin: 'https://app.example',
  fetch: (url: string, init: RequestInit) => fetch(url, init),
  timeoutMs: 2_000,
};

const check = (name: string, outcome: Awaited<ReturnType<Check['run']>>): Check => ({
  name,
  run: async () => outcome,
});

describe('runDoctor', () => {
  it('names each outcome after its check, in order, and knows the token for the report', async () => {
    const run = await runDoctor(target, [
      check('first', { status: 'pass', detail: 'fine' }),
      check('second', { status: 'warn', detail: 'hmm', fix: 'do' }),
    ]);
    expect(run.results).toEqual([
      { name: 'first', status: 'pass', detail: 'fine' },
      { name: 'second', status: 'warn', detail: 'hmm', fix: 'do' },
    ]);
    expect(run.secrets).toContain(target.websiteToken);
  });

  it('skips a later check failing for a cause an earlier one failed on, naming that check', async () => {
    const down = { status: 'fail' as const, detail: 'refused', cause: 'server down' };
    const run = await runDoctor(target, [
      check('owner', down),
      check('other cause', { status: 'fail', detail: 'x', cause: 'redirect' }),
      check('same cause', down),
      check('unrelated', { status: 'pass', detail: 'ok' }),
    ]);
    expect(run.results.map((result) => [result.name, result.status])).toEqual([
      ['owner', 'fail'],
      ['other cause', 'fail'],
      ['same cause', 'skip'],
      ['unrelated', 'pass'],
    ]);
    expect(run.results[2]?.detail).toBe('not checked: the same problem as "owner" (server down)');
    // The cause is the runner's: it is not part of a result.
    expect(run.results[0]).not.toHaveProperty('cause');
  });

  it('does not skip after a cause that only warned', async () => {
    const slow = { status: 'warn' as const, detail: 'slow', cause: 'c' };
    const run = await runDoctor(target, [check('a', slow), check('b', slow)]);
    expect(run.results.map((result) => result.status)).toEqual(['warn', 'warn']);
  });
});
