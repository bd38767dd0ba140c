import { describe, expect, it } from 'vitest';
import { parseJson, toJsonText } from '../../../bridge/inbound/safe-json.js';

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
