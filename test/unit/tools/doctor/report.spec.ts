/**
 * The doctor's output (tools/doctor/report.ts): one line per check or one JSON document, tokens
 * scrubbed and server control characters taken out at the last step.
 */
import { describe, expect, it } from 'vitest';
import type { DoctorRun } from '../../../../tools/doctor/checks.js';
import { failed, formatJson, formatText } from '../../../../tools/doctor/report.js';

const context = { baseUrl: 'https://chat.example/api', origin: 'https://app.example' };
const TOKEN = 'wt_secret_0123456789abcdef';

const run: DoctorRun = {
  results: [
    { name: 'GET /config', status: 'pass', detail: 'answered 200' },
    {
      name: 'Allow-Origin',
      status: 'fail',
      detail: `answered with \x1b[2J* for ${TOKEN}`,
      fix: 'send the page origin',
    },
    { name: 'Expose Retry-After', status: 'warn', detail: 'not exposed', fix: 'expose it' },
    { name: 'OPTIONS /config', status: 'skip', detail: 'not checked', fix: 'never shown for a skip' },
  ],
  secrets: [TOKEN],
};

describe('failed', () => {
  it('is true only when a check failed', () => {
    expect(failed(run)).toBe(true);
    expect(failed({ results: run.results.filter((result) => result.status !== 'fail'), secrets: [] })).toBe(false);
  });
});

describe('formatText', () => {
  const text = formatText(run, context);

  it('writes a heading, one marked line per check with its fix, and a summary naming warnings and skips', () => {
    expect(text.split('\n')).toEqual([
      'chat-bridge doctor: https://chat.example/api as a WebView on https://app.example sees it',
      'PASS GET /config: answered 200',
      'FAIL Allow-Origin: answered with * for <redacted>. Fix: send the page origin',
      'WARN Expose Retry-After: not exposed. Fix: expose it',
      'SKIP OPTIONS /config: not checked',
      '1 of 4 checks failed (1 warning(s), 1 skipped).',
      '',
    ]);
  });

  it('says OK with the count of passes when nothing failed', () => {
    const passing: DoctorRun = { results: [run.results[0]!], secrets: [] };
    expect(formatText(passing, context).trimEnd().split('\n').at(-1)).toBe('OK: 1 of 1 checks passed.');
  });
});

describe('formatJson', () => {
  it('is one document with ok, the context and the checks, the token scrubbed and controls removed', () => {
    const text = formatJson(run, context);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain('\x1b');
    const document = JSON.parse(text);
    expect(document).toMatchObject({ ok: false, ...context });
    expect(document.checks).toHaveLength(4);
    expect(document.checks[1].detail).toBe('answered with * for <redacted>');
  });
});
