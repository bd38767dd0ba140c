/**
 * Whose `message` events count: the one rule the bridge's classifier and the starter share.
 * (classify.spec.ts checks that the classifier drops what this refuses.)
 */
import { describe, expect, it } from 'vitest';
import { fromAllowedOrigin } from '../../../../bridge/inbound/origin.js';

const allowed = new Set(['https://app.example.test', 'https://chat.example.test']);

describe('fromAllowedOrigin', () => {
  it('admits the listed origins and no other', () => {
    expect(fromAllowedOrigin('https://app.example.test', allowed)).toBe(true);
    expect(fromAllowedOrigin('https://chat.example.test', allowed)).toBe(true);
    expect(fromAllowedOrigin('https://evil.example.test', allowed)).toBe(false);
  });

  it('compares whole origins: no prefix, other port, other scheme or the string "null" gets in', () => {
    for (const origin of [
      'https://app.example.test.evil.test',
      'https://app.example.test:8443',
      'http://app.example.test',
      'null',
      'HTTPS://APP.EXAMPLE.TEST',
    ])
      expect(fromAllowedOrigin(origin, allowed), origin).toBe(false);
  });

  it("admits the empty origin of a same-realm event (react-native-webview's), whatever the list", () => {
    expect(fromAllowedOrigin('', allowed)).toBe(true);
    expect(fromAllowedOrigin('', new Set())).toBe(true);
  });

  it("admits every origin when the list is '*'", () => {
    expect(fromAllowedOrigin('https://evil.example.test', '*')).toBe(true);
    expect(fromAllowedOrigin('null', '*')).toBe(true);
  });

  it('admits nothing but same-realm events with an empty list', () => {
    expect(fromAllowedOrigin('https://app.example.test', new Set())).toBe(false);
  });
});
