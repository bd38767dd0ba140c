/**
 * JSON text without recursion (tools/replay/json-text.ts).
 */
import { describe, expect, it } from 'vitest';
import { jsonText } from '../../../../tools/replay/json-text.js';

describe('jsonText', () => {
  it('writes what JSON.stringify writes for parsed values', () => {
    for (const text of [
      '{"a":1,"b":[true,null,"x\\n\\u2028"],"c":{"d":{}},"e":[]}',
      '[1,-2.5e-7,"\\"quoted\\"",{"":0}]',
      '"plain"',
      'null',
      '0',
    ]) {
      const value = JSON.parse(text);
      expect(jsonText(value)).toBe(JSON.stringify(value));
    }
  });

  it('drops undefined members and writes undefined array items as null, as JSON.stringify does', () => {
    const value = { a: undefined, b: [undefined, 1] };
    expect(jsonText(value)).toBe(JSON.stringify(value));
  });

  it('writes a body nested far deeper than the stack allows', () => {
    const depth = 200_000;
    const text = '['.repeat(depth) + ']'.repeat(depth);
    expect(() => JSON.stringify(JSON.parse(text))).toThrow(RangeError);
    expect(jsonText(JSON.parse(text))).toBe(text);
  });
});
