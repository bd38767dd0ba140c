/**
 * JSON parsing that cannot pollute prototypes.
 *
 * `JSON.parse` itself only creates own properties, but later copies with `[[Set]]` semantics
 * (`Object.assign`, a schema library copying unknown keys) would turn an own `__proto__` key
 * into a prototype change. Dropping these keys at the boundary means nothing downstream has to care.
 * They are dropped from the parsed value rather than looked for in the text: a command's text
 * is mostly one long string (a 512 KiB attachment chunk), which four `includes` scans cost
 * about 0.7 ms a chunk in Chromium, while its parsed keys are a handful.
 */
const FORBIDDEN_KEYS = ['__proto__', 'constructor', 'prototype'];
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
    // A name may be spelled with `\u` escapes ("\u0074oken" parses to "token").
    if (secrets && (CREDENTIAL_NAME.test(text) || text.includes('\\u'))) {
      return {
        ok: true,
        value: JSON.parse(text, (key, value: unknown) => {
          if (FORBIDDEN_KEYS.includes(key)) return undefined;
          if (!CREDENTIAL_NAME.test(key)) return value;
          if (typeof value === 'string') secrets.push([key, value]);
        }),
      };
    }
    const value: unknown = JSON.parse(text);
    dropForbiddenKeys(value);
    return { ok: true, value };
  } catch {
    // The engine's message quotes the input, which may carry anything; callers say what failed.
    return { ok: false };
  }
}

/** Every depth, without recursion: no nesting JSON.parse accepts can overflow the stack here. */
function dropForbiddenKeys(value: unknown): void {
  const stack = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
      continue;
    }
    const object = node as Record<string, unknown>;
    for (const key of FORBIDDEN_KEYS) if (Object.prototype.hasOwnProperty.call(object, key)) delete object[key];
    for (const key of Object.keys(object)) stack.push(object[key]);
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
