import { describe, expect, it } from 'vitest';
import { parseJson, toJsonText } from '../../../../bridge/protocol/safe-json.js';

const valueOf = (text: string): unknown => {
  const result = parseJson(text);
  expect(result.ok).toBe(true);
  return result.ok ? result.value : undefined;
};

describe('parseJson', () => {
  it('parses ordinary JSON values', () => {
    expect(valueOf('{"a":[1,"x",null,true]}')).toEqual({ a: [1, 'x', null, true] });
    expect(valueOf('"text"')).toBe('text');
    expect(valueOf('3')).toBe(3);
  });

  it('reports invalid JSON as not ok instead of throwing, without the input', () => {
    for (const text of ['', '{', '{"a":}', 'undefined', "{'a':1}", 'secret-token-abc']) {
      expect(parseJson(text)).toEqual({ ok: false });
    }
  });

  it('drops __proto__, constructor and prototype keys at every depth', () => {
    const value = valueOf(
      '{"__proto__":{"polluted":1},"a":{"constructor":{"prototype":{"polluted":1}},"b":[{"prototype":2,"keep":3}]},"keep":true}',
    ) as Record<string, unknown>;
    expect(value).toEqual({ a: { b: [{ keep: 3 }] }, keep: true });
    expect(Object.prototype.hasOwnProperty.call(value, '__proto__')).toBe(false);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('keeps values that merely mention the forbidden words, and keys that contain them', () => {
    expect(valueOf('{"text":"__proto__ constructor prototype","myconstructor":1}')).toEqual({
      text: '__proto__ constructor prototype',
      myconstructor: 1,
    });
  });

  it('leaves a later Object.assign copy harmless', () => {
    const target: Record<string, unknown> = {};
    Object.assign(target, valueOf('{"__proto__":{"isAdmin":true}}'));
    expect(target['isAdmin']).toBeUndefined();
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
  });
});

describe('toJsonText', () => {
  it('serializes plain data', () => {
    expect(toJsonText({ a: [1, 'b'] })).toBe('{"a":[1,"b"]}');
  });

  it('answers undefined for a cycle or a BigInt instead of throwing', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(toJsonText(cyclic)).toBeUndefined();
    expect(toJsonText({ n: 1n })).toBeUndefined();
  });
});

describe('parseJson with secrets (widget events)', () => {
  const parse = (value: unknown) => {
    const secrets: Array<[string, string]> = [];
    const result = parseJson(JSON.stringify(value), secrets);
    return { value: result.ok ? result.value : 'not ok', secrets };
  };

  it('drops credential fields at any depth, case-insensitively, and hands over their string values', () => {
    expect(
      parse({
        config: { authToken: 'tok-1', AUTH_TOKEN: 'tok-2', list: [{ clientSecret: 'sec-1', ok: 1 }] },
        password: 'pw-1',
        secretStuff: { deep: 'inside a credential field: dropped with it' },
        kept: 'yes',
      }),
    ).toEqual({
      value: { config: { list: [{ ok: 1 }] }, kept: 'yes' },
      secrets: [
        ['authToken', 'tok-1'],
        ['AUTH_TOKEN', 'tok-2'],
        ['clientSecret', 'sec-1'],
        ['password', 'pw-1'],
      ],
    });
  });

  it('finds a credential field whose name is spelled with \\u escapes', () => {
    const secrets: Array<[string, string]> = [];
    const result = parseJson('{"auth\\u0054oken":"escaped-1","a":1}', secrets);
    expect(result).toEqual({ ok: true, value: { a: 1 }, deep: false });
    expect(secrets).toEqual([['authToken', 'escaped-1']]);
  });

  it('keeps credential fields without a secrets list (backend bodies are read as they are)', () => {
    expect(valueOf('{"authToken":"at_kept"}')).toEqual({ authToken: 'at_kept' });
  });
});

describe('parseJson and nesting', () => {
  it('reads text nested 100,000 deep without overflowing, withholding what lies past 64 levels', () => {
    const result = parseJson(`{"id":"x","a":${'['.repeat(100_000)}1${']'.repeat(100_000)}}`);
    expect(result.ok && result.deep).toBe(true);
    let depth = 1;
    for (let node = (result as { value: { a: unknown } }).value.a; Array.isArray(node); depth++) node = node[0];
    expect(depth).toBe(64);
  });

  it('says deep: false for text within the limit', () => {
    expect(parseJson(`${'['.repeat(64)}1${']'.repeat(64)}`)).toEqual({
      ok: true,
      value: expect.anything(),
      deep: false,
    });
    expect(parseJson(`${'['.repeat(65)}1${']'.repeat(65)}`)).toMatchObject({ ok: true, deep: true });
  });
});
