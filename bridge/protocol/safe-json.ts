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
import { MAX_DEPTH, REDACTED } from './limits.js';

const FORBIDDEN_KEYS = ['__proto__', 'constructor', 'prototype'];
/** Field names that say their value is a credential. */
export const CREDENTIAL_NAME = /token|secret|password/i;

/** `deep`: parts nested past MAX_DEPTH were replaced by the placeholder (see `parseJson`). */
export type JsonResult = { ok: true; value: unknown; deep: boolean } | { ok: false };

/**
 * @param secrets when given, fields whose name says they hold a credential (`token`, `secret`,
 * `password`, any case, at any depth) are dropped too, and each one's `[name, value]` is added
 * here when the value is a string (widget events: see classify.ts).
 *
 * An object or array nested deeper than MAX_DEPTH becomes the REDACTED placeholder and the
 * result says `deep`: input is refused for it, a backend body is read without those parts.
 */
export function parseJson(text: string, secrets?: Array<[string, string]>): JsonResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // The engine's message quotes the input, which may carry anything; callers say what failed.
    return { ok: false };
  }
  // The root goes in as the one field of a holder, so that it is cleaned like any part inside it.
  return { ok: true, value, deep: cleanParsed({ value }, secrets, 0) };
}

/**
 * Drops the forbidden keys (and credentials, with `secrets`) at every depth, in document order,
 * and cuts what lies past MAX_DEPTH. JSON.parse itself nests as deep as the text does; the
 * recursion here stops at the limit, so no nesting it accepts can overflow the stack.
 */
function cleanParsed(
  object: Record<string, unknown>,
  secrets: Array<[string, string]> | undefined,
  depth: number,
): boolean {
  let deep = false;
  for (const key of Object.keys(object)) {
    const item = object[key];
    const credential = secrets && CREDENTIAL_NAME.test(key);
    if (credential || FORBIDDEN_KEYS.includes(key)) {
      if (credential && typeof item === 'string') (secrets as Array<[string, string]>).push([key, item]);
      delete object[key];
    } else if (typeof item === 'object' && item !== null) {
      if (depth < MAX_DEPTH) deep = cleanParsed(item as Record<string, unknown>, secrets, depth + 1) || deep;
      else {
        object[key] = REDACTED;
        deep = true;
      }
    }
  }
  return deep;
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
