import { describe, expect, it } from 'vitest';
import { createRedactor, REDACTED } from '../../../bridge/outbound/redact.js';

const WEBSITE = 'wt_live_9f8e7d6c';
const AUTH = 'at_secret_0123456789';

function redactor(...tokens: Array<string | undefined>) {
  const r = createRedactor();
  tokens.forEach((token) => r.add(token));
  return r;
}

describe('scrubbing', () => {
  it('replaces a token inside a string, every time it occurs', () => {
    expect(redactor(WEBSITE).scrub(`token ${WEBSITE} and again ${WEBSITE}!`)).toBe(
      `token ${REDACTED} and again ${REDACTED}!`,
    );
  });

  it('scrubs strings nested in objects and arrays, leaving other values as they are', () => {
    const message = {
      type: 'response',
      id: 'c1',
      ok: true,
      result: { config: { widget: { note: `echo ${AUTH}`, list: ['a', [`${WEBSITE}`], 3, null, true] }, count: 2 } },
    };
    expect(redactor(WEBSITE, AUTH).scrub(message)).toEqual({
      type: 'response',
      id: 'c1',
      ok: true,
      result: { config: { widget: { note: `echo ${REDACTED}`, list: ['a', [REDACTED], 3, null, true] }, count: 2 } },
    });
  });

  it('scrubs tokens used as object keys', () => {
    const scrubbed = redactor(AUTH).scrub({ [AUTH]: 'value', [`prefix-${AUTH}`]: 1 });
    expect(Object.keys(scrubbed)).toEqual([REDACTED, `prefix-${REDACTED}`]);
    expect(JSON.stringify(scrubbed)).not.toContain(AUTH);
  });

  it('scrubs every token the redactor was told about, including ones learned later', () => {
    const r = redactor(WEBSITE);
    expect(r.scrub(AUTH)).toBe(AUTH);
    r.add(AUTH);
    expect(r.scrub(`${WEBSITE}/${AUTH}`)).toBe(`${REDACTED}/${REDACTED}`);
  });

  it('does not change the input it was given', () => {
    const input = { message: `bad token ${AUTH}`, nested: [AUTH] };
    const copy = structuredClone(input);
    redactor(AUTH).scrub(input);
    expect(input).toEqual(copy);
  });

  it('never passes a token through, however deep it is nested', () => {
    let deep: unknown = `leak ${AUTH}`;
    for (let i = 0; i < 100; i++) deep = i % 2 === 0 ? { child: deep } : [deep];
    expect(JSON.stringify(redactor(AUTH).scrub({ type: 'response', result: deep }))).not.toContain(AUTH);
  });
});

describe('which tokens count', () => {
  it('ignores tokens shorter than 4 characters, so ordinary words survive', () => {
    const r = redactor('abc', '', 'x');
    expect(r.scrub('abc xyz abcabc')).toBe('abc xyz abcabc');
  });

  it('scrubs a token of exactly 4 characters', () => {
    expect(redactor('abcd').scrub('xabcdx')).toBe(`x${REDACTED}x`);
  });

  it('ignores undefined, and returns the very same value when it knows no token', () => {
    const r = redactor(undefined);
    const value = { a: 1 };
    expect(r.scrub(value)).toBe(value);
  });
});

describe('prototype safety', () => {
  it('keeps a "__proto__" key as a plain own key, without changing the prototype', () => {
    const input = JSON.parse(`{"__proto__":{"polluted":"${AUTH}"},"safe":1}`) as Record<string, unknown>;
    const scrubbed = redactor(AUTH).scrub(input) as Record<string, unknown>;
    expect(Object.getPrototypeOf(scrubbed)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(scrubbed, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(scrubbed, '__proto__')?.value).toEqual({ polluted: REDACTED });
    expect(scrubbed['polluted']).toBeUndefined();
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(JSON.parse(JSON.stringify(scrubbed))).toEqual(
      JSON.parse(`{"__proto__":{"polluted":"${REDACTED}"},"safe":1}`),
    );
  });
});

describe('token window', () => {
  it('keeps the website token and the eight newest auth tokens, so refreshes do not grow it without end', () => {
    const redactor = createRedactor();
    redactor.add('wt_website_token');
    const auth = Array.from({ length: 20 }, (_, i) => `at_refresh_${String(i).padStart(2, '0')}`);
    auth.forEach((token) => redactor.add(token));
    const scrubbed = redactor.scrub({ all: ['wt_website_token', ...auth].join(' ') }).all;
    expect(scrubbed.split(' ')).toEqual(['<redacted>', ...auth.slice(0, 12), ...Array(8).fill('<redacted>')]);
  });

  it('returns a message without any token as the very same object (nothing copied)', () => {
    const redactor = createRedactor();
    redactor.add('wt_website_token');
    const message = { type: 'widget', data: { nested: ['a', { b: 'c' }] } };
    expect(redactor.scrub(message)).toBe(message);
  });
});
