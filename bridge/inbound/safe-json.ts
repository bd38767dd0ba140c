/**
 * JSON parsing that cannot pollute prototypes.
 *
 * `JSON.parse` itself only creates own properties, but later copies with `[[Set]]` semantics
 * (`Object.assign`, a schema library copying unknown keys) would turn an own `__proto__` key
 * into a prototype change. Dropping these keys at the boundary means nothing downstream has to care.
 * The reviver is slow, so it only runs when one of the keys can occur at all: spelled out, or
 * spelled with `\u` escapes (`"\u005f_proto__"` parses to `"__proto__"`).
 */
const FORBIDDEN_KEYS = /__proto__|constructor|prototype|\\u/;

export type JsonResult = { ok: true; value: unknown } | { ok: false };

export function parseJson(text: string): JsonResult {
  try {
    const value = FORBIDDEN_KEYS.test(text) ? JSON.parse(text, dropForbiddenKeys) : JSON.parse(text);
    return { ok: true, value };
  } catch {
    // The engine's message quotes the input, which may carry anything; callers say what failed.
    return { ok: false };
  }
}

function dropForbiddenKeys(key: string, value: unknown): unknown {
  return key === '__proto__' || key === 'constructor' || key === 'prototype' ? undefined : value;
}

/** Serializes a structured-clone object to text, or undefined when it cannot be (cycles, BigInt). */
export function toJsonText(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
