/**
 * JSON parsing that cannot pollute prototypes.
 *
 * `JSON.parse` itself only creates own properties, but later copies with `[[Set]]` semantics
 * (`Object.assign`, a schema library copying unknown keys) would turn an own `__proto__` key
 * into a prototype change. Dropping these keys at the boundary means nothing downstream has to care.
 * The reviver is slow, so it only runs when one of the keys can occur at all: spelled out, or
 * spelled with `\u` escapes (`"\u005f_proto__"` parses to `"__proto__"`).
 */
const FORBIDDEN_KEYS = ['__proto__', 'constructor', 'prototype', '\\u'];
/** Field names that say their value is a credential. */
export const CREDENTIAL_NAME = /token|secret|password/i;

export type JsonResult = { ok: true; value: unknown } | { ok: false };

/**
 * @param secrets when given, fields whose name says they hold a credential (`token`, `secret`,
 * `password`, any case, at any depth) are dropped too, and each one's `[name, value]` is added
 * here when the value is a string (widget events: see classify.ts).
 */
export function parseJson(text: string, secrets?: Array<[string, string]>): JsonResult {
  try {
    const value =
      // includes, not one regular expression: it skips over a 512 KiB attachment chunk many times faster.
      FORBIDDEN_KEYS.some((key) => text.includes(key)) || (secrets && CREDENTIAL_NAME.test(text))
        ? JSON.parse(text, (key, value: unknown) => {
            if (key === '__proto__' || key === 'constructor' || key === 'prototype') return undefined;
            if (!secrets || !CREDENTIAL_NAME.test(key)) return value;
            if (typeof value === 'string') secrets.push([key, value]);
          })
        : JSON.parse(text);
    return { ok: true, value };
  } catch {
    // The engine's message quotes the input, which may carry anything; callers say what failed.
    return { ok: false };
  }
}

/** Serializes a structured-clone object to text, or undefined when it cannot be (cycles, BigInt). */
export function toJsonText(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** A JSON object: not null, not an array. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
