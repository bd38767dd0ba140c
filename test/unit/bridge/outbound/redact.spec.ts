import { describe, expect, it } from 'vitest';
import {
  createRedactor,
  formsOf,
  MAX_TOKENS,
  MIN_TOKEN_LENGTH,
  TOKEN_MAX_AGE_MS,
} from '../../../../bridge/outbound/redact.js';
import { REDACTED } from '../../../../bridge/protocol/limits.js';

const WEBSITE = 'wt_live_9f8e7d6c';
const AUTH = 'at_secret_0123456789';

function redactor(...tokens: Array<string | undefined>) {
  const r = createRedactor();
  tokens.forEach((token, i) => r.add(token, `slot-${i}`));
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
    r.add(AUTH, 'test');
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
  it(`ignores values shorter than ${MIN_TOKEN_LENGTH} characters, so ordinary words survive`, () => {
    const r = redactor('abc', '', 'x', 'abcde');
    expect(r.scrub('abc xyz abcabc abcde')).toBe('abc xyz abcabc abcde');
  });

  it(`scrubs a token of exactly ${MIN_TOKEN_LENGTH} characters`, () => {
    expect(redactor('abcdef').scrub('xabcdefx')).toBe(`x${REDACTED}x`);
  });

  it('ignores undefined and non-strings, and returns the very same value when it knows no token', () => {
    const r = redactor(undefined);
    r.add(123456789, 'test');
    const value = { a: 1, b: '123456789' };
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

describe('encoded forms', () => {
  const TOKEN = 'wt+live/ü ~!(x)&"<é>\\';
  const bytes = Buffer.from(TOKEN, 'utf8');
  const json = JSON.stringify(TOKEN).slice(1, -1);
  const cases: Array<[string, string]> = [
    ['raw', TOKEN],
    ['encodeURIComponent', encodeURIComponent(TOKEN)],
    ['form encoding (URLSearchParams)', new URLSearchParams({ t: TOKEN }).toString().slice(2)],
    ['base64', bytes.toString('base64')],
    ['base64url', bytes.toString('base64url')],
    ['base64url, padded', bytes.toString('base64').replace(/\+/g, '-').replace(/\//g, '_')],
    ['JSON-escaped', json],
  ];

  it.each(cases)('scrubs the %s form, leaving nothing of it', (_name, form) => {
    expect(form.length).toBeGreaterThanOrEqual(MIN_TOKEN_LENGTH);
    expect(redactor(TOKEN).scrub(`before ${form} after`)).toBe(`before ${REDACTED} after`);
  });

  it.each([0, 1, 2, 3, 4, 5])('scrubs the base64 of the token inside a longer base64 text, %i bytes in', (offset) => {
    const text = Buffer.concat([Buffer.from('website_token='.slice(0, offset)), bytes, Buffer.from('&x=1')]);
    for (const encoded of [text.toString('base64'), text.toString('base64url')]) {
      const scrubbed = redactor(TOKEN).scrub(encoded);
      expect(scrubbed).toContain(REDACTED);
      // What is left decodes to at most the few bytes that shared a character with the token.
      const left = scrubbed.split(REDACTED).join('');
      expect(left.length).toBeLessThanOrEqual(encoded.length - Math.floor((bytes.length * 8) / 6) + 2);
    }
  });

  it('lists every form once, each at least as long as the shortest token', () => {
    for (const token of ['abcdef', 'ünïcødé', 'a b+c/d', '😀😀😀']) {
      const forms = formsOf(token);
      expect(forms).toContain(token);
      for (const form of forms) expect(form.length).toBeGreaterThanOrEqual(MIN_TOKEN_LENGTH);
    }
  });

  it('does not throw on a lone surrogate (no URI form exists) and still scrubs the raw token', () => {
    const token = 'abc\ud800def';
    expect(redactor(token).scrub(`x${token}x`)).toBe(`x${REDACTED}x`);
  });
});

describe('no fragments', () => {
  it('redacts an auth token that contains the website token whole, not around the inner one', () => {
    const website = 'wt_live_9f8e7d6c';
    const auth = `Zz9_${website}_Yy8`;
    for (const order of [
      [website, auth],
      [auth, website],
    ]) {
      const r = redactor(...order);
      expect(r.scrub(`token=${auth}.`)).toBe(`token=${REDACTED}.`);
      expect(r.scrub(`token=${encodeURIComponent(auth)}.`)).toBe(`token=${REDACTED}.`);
      expect(r.scrub(`t=${Buffer.from(auth).toString('base64')}`)).toBe(`t=${REDACTED}`);
    }
  });

  it('covers overlapping tokens with one placeholder, leaving no fragment of either', () => {
    const r = redactor('abcdefgh', 'efghijkl');
    expect(r.scrub('[abcdefghijkl]')).toBe(`[${REDACTED}]`);
    expect(r.scrub('[abcdefgh efghijkl]')).toBe(`[${REDACTED} ${REDACTED}]`);
  });

  it('replaces a shorter token inside a longer one with the longer, leaving no trace', () => {
    const r = redactor('abcdef', 'xxabcdefyy', 'abcdefyy');
    expect(r.scrub('[xxabcdefyy] [abcdefyy] [abcdef]')).toBe(`[${REDACTED}] [${REDACTED}] [${REDACTED}]`);
  });
});

describe('token lifetime', () => {
  it(`keeps every token it learned, up to ${MAX_TOKENS}, not just the newest few`, () => {
    const r = createRedactor(() => 0);
    r.add('wt_website_token', 'website');
    const auth = Array.from({ length: MAX_TOKENS - 1 }, (_, i) => `at_refresh_${String(i).padStart(4, '0')}`);
    auth.forEach((token) => r.add(token, 'auth'));
    const scrubbed = r.scrub({ all: ['wt_website_token', ...auth].join(' ') }).all;
    expect(scrubbed.split(' ')).toEqual(Array(MAX_TOKENS).fill(REDACTED));
  });

  it(`forgets the oldest past ${MAX_TOKENS}, but never the website token or the auth token in use`, () => {
    const r = createRedactor(() => 0);
    r.add('wt_website_token', 'website');
    const auth = Array.from({ length: MAX_TOKENS + 10 }, (_, i) => `at_refresh_${String(i).padStart(4, '0')}`);
    auth.forEach((token) => r.add(token, 'auth'));
    const words = r.scrub(['wt_website_token', ...auth].join(' ')).split(' ');
    expect(words[0]).toBe(REDACTED);
    expect(words.slice(1, 12)).toEqual(auth.slice(0, 11));
    expect(words.slice(12).every((word) => word === REDACTED)).toBe(true);
  });

  it("forgets a token 24 hours after it was last learned, except each slot's newest", () => {
    let now = 0;
    const r = createRedactor(() => now);
    r.add('wt_website_token', 'website');
    r.add('at_first_token', 'auth');
    r.add('at_second_token', 'auth');
    r.add('widget_secret_x', 'widget');
    r.add('widget_secret_y', 'widget');
    now = TOKEN_MAX_AGE_MS;
    r.add('at_third_token', 'auth');
    const text = 'wt_website_token at_first_token at_second_token widget_secret_x widget_secret_y at_third_token';
    expect(r.scrub(text)).toBe(Array(6).fill(REDACTED).join(' '));
    now += 1;
    r.add('at_fourth_token', 'auth');
    // Forgotten: the three learned over 24 hours ago that no slot holds as its newest.
    expect(r.scrub(`${text} at_fourth_token`)).toBe(
      `${REDACTED} at_first_token at_second_token widget_secret_x ${REDACTED} ${REDACTED} ${REDACTED}`,
    );
  });

  it('returns a message without any token as the very same object (nothing copied)', () => {
    const redactor = createRedactor();
    redactor.add('wt_website_token', 'test');
    const message = { type: 'widget', data: { nested: ['a', { b: 'c' }] } };
    expect(redactor.scrub(message)).toBe(message);
  });
});

describe('forms a server or a proxy writes (issue: lowercase and double percent-encoding)', () => {
  const TOKEN = 'wt+Enc/9c=ü&<x>';
  const utf8 = Buffer.from(TOKEN, 'utf8');
  const uri = encodeURIComponent(TOKEN);
  const lower = (text: string) => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
  it.each([
    ['percent-encoded, lowercase hex', lower(uri)],
    ['percent-encoded, mixed case', uri.replace('%2B', '%2b')],
    ['percent-encoded twice', encodeURIComponent(uri)],
    ['percent-encoded twice, lowercase', lower(encodeURIComponent(lower(uri)))],
    ['form-encoded, lowercase hex', lower(new URLSearchParams({ t: TOKEN }).toString().slice(2))],
    ['HTML-escaped', 'wt+Enc/9c=ü&amp;&lt;x&gt;'],
    ['hex', utf8.toString('hex')],
    ['hex, uppercase', utf8.toString('hex').toUpperCase()],
    ['base64 of UTF-16', Buffer.from(TOKEN, 'utf16le').toString('base64')],
  ])('hides the token %s', (_name, form) => {
    const text = redactor(TOKEN).scrub(`echo ${form}!`);
    expect(text).toBe(`echo ${REDACTED}!`);
  });

  it('hides the token inside a longer base64 text of UTF-16', () => {
    const encoded = Buffer.from(`token=${TOKEN}&x=1`, 'utf16le').toString('base64');
    expect(redactor(TOKEN).scrub(encoded)).toContain(REDACTED);
  });
});

describe('values no serializer can write', () => {
  it('copies a cyclic object with the cycle withheld, never throwing', () => {
    const cyclic: Record<string, unknown> = { note: `has ${WEBSITE}` };
    cyclic['self'] = cyclic;
    expect(redactor(WEBSITE).scrub(cyclic)).toEqual({ note: `has ${REDACTED}`, self: REDACTED });
  });

  it('copies an object nested 50,000 deep with the parts past 64 levels withheld, never throwing', () => {
    let deep: unknown = 'bottom';
    for (let level = 0; level < 50_000; level++) deep = { a: deep };
    let depth = 0;
    for (let node = redactor(WEBSITE).scrub(deep as object) as unknown; typeof node === 'object'; depth++)
      node = (node as { a: unknown }).a;
    expect(depth).toBe(64);
  });
});
