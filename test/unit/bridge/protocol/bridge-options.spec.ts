/**
 * The install options' defaults and host names: what a host gets when it leaves an option out
 * must be what the options' own doc comments (the declarations hosts read) say, and must pass
 * the options' check.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { adapters } from '../../../../bridge/outbound/adapters/index.js';
import { normalizeOptions } from '../../../../bridge/options.js';
import { DEFAULTS, HOST_NAMES } from '../../../../bridge/protocol/bridge-options.js';

const source = readFileSync(
  fileURLToPath(new URL('../../../../bridge/protocol/bridge-options.ts', import.meta.url)),
  'utf8',
);

/** Each option's `@default` text, by the member its doc comment stands above. */
function documentedDefaults(): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of source.matchAll(/\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*(\w+)\??:/g)) {
    const comment = (match[1] ?? '').replace(/\n\s*\*/g, ' ');
    const stated = /@default\s+(.*?)\s*$/.exec(comment)?.[1];
    if (stated !== undefined) found.set(match[2] ?? '', stated);
  }
  return found;
}

/** A stated default as a value: `"text"`, a number (words after it are a gloss), or `{name: value, ...}`. */
function valueOf(stated: string): unknown {
  if (stated.startsWith('"')) return JSON.parse(/^"[^"]*"/.exec(stated)?.[0] ?? '');
  if (stated.startsWith('{')) return JSON.parse(stated.replace(/(\w+):/g, '"$1":'));
  const number = /^\d+/.exec(stated)?.[0];
  return number === undefined ? stated : Number(number);
}

describe('DEFAULTS', () => {
  it('is, option by option, what the @default of its doc comment says', () => {
    const stated = documentedDefaults();
    for (const [name, value] of Object.entries(DEFAULTS)) {
      expect(stated.has(name), `${name} has no @default`).toBe(true);
      expect(valueOf(stated.get(name) ?? ''), name).toEqual(value);
    }
  });

  // What leaving an option out resolves to is options.spec.ts's; here, that the defaults are valid input.
  it('passes the options check when a host passes it explicitly, value for value', () => {
    const given = normalizeOptions({ baseUrl: 'https://chat.example.test/api/v1', ...DEFAULTS }, '');
    for (const name of Object.keys(DEFAULTS) as Array<keyof typeof DEFAULTS>)
      expect(given[name], name).toEqual(DEFAULTS[name]);
  });

  it('has a first retry delay no longer than the cap on each delay', () => {
    expect(DEFAULTS.retry.baseDelay).toBeLessThanOrEqual(DEFAULTS.retry.maxDelay);
  });
});

describe('HOST_NAMES', () => {
  it('names each host the bridge has an adapter for, once', () => {
    expect(new Set(HOST_NAMES).size).toBe(HOST_NAMES.length);
    expect([...HOST_NAMES].sort()).toEqual(Object.keys(adapters).sort());
  });
});
