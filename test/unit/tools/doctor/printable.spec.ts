/**
 * Server text made safe for a terminal (tools/doctor/printable.ts).
 */
import { describe, expect, it } from 'vitest';
import { printable, withoutQuerySecrets } from '../../../../tools/doctor/printable.js';

describe('printable', () => {
  it('removes escape sequences whole, so none of their parameters are left behind', () => {
    expect(printable('a\x1b[2Jb')).toBe('ab');
    expect(printable('a\x9b31mb')).toBe('ab');
    // OSC 52 (set the clipboard), ended by BEL or by ST.
    expect(printable('x\x1b]52;c;ZXZpbA==\x07y')).toBe('xy');
    expect(printable('x\x1b]0;title\x1b\\y')).toBe('xy');
  });

  it('turns any other control, C1 control, line separator or bidirectional override into a space', () => {
    expect(printable('a\nb\rc\td\x00e\x7ff\x85g')).toBe('a b c d e f g');
    expect(printable('safe\u202eexe.txt\u2028\u2066')).toBe('safe exe.txt  ');
  });

  it('leaves ordinary text, non-Latin letters and emoji as they are', () => {
    expect(printable('Access-Control-Allow-Origin: https://app.example — ok ✓ 日本 🙂')).toBe(
      'Access-Control-Allow-Origin: https://app.example — ok ✓ 日本 🙂',
    );
  });
});

describe('withoutQuerySecrets', () => {
  it('redacts credential-named query values and user:password, keeping the rest of the URL', () => {
    expect(
      withoutQuerySecrets('https://user:pw@login.example/cb?website_token=wt_123&page=2&api_key=k&sig=s#top'),
    ).toBe('https://login.example/cb?website_token=<redacted>&page=2&api_key=<redacted>&sig=<redacted>#top');
  });

  it('redacts every value of a repeated parameter', () => {
    expect(withoutQuerySecrets('https://a.example/?Auth=1&Auth=2')).toBe('https://a.example/?Auth=<redacted>');
  });

  it('gives back what is not a URL unchanged', () => {
    expect(withoutQuerySecrets('/relative?token=x')).toBe('/relative?token=x');
  });
});
