// @ts-check
/**
 * JSON values as literals of the receivers' languages, typed as each receiver decodes JSON:
 * Kotlin over org.json, Swift over JSONSerialization's Foundation values, Dart over jsonDecode.
 * Strings are escaped for each language's own rules, so any text the bridge sends stays valid code.
 */

/**
 * A string's characters escaped for a language's string literal: backslash and the quote always,
 * `$` where it starts a template, the common control characters by name, any other one by
 * code point (`\u{1b}` in Swift and Dart, `\u001b` in Kotlin, which has no braces form).
 * @param {string} text
 * @param {{quote: string, dollar: boolean, named: Record<string, string>, code: (c: number) => string}} rules
 */
function escapeText(text, { quote, dollar, named, code }) {
  let out = '';
  for (const char of text) {
    if (char === '\\' || char === quote || (dollar && char === '$')) out += `\\${char}`;
    else if (named[char] !== undefined) out += named[char];
    else if (char.charCodeAt(0) < 0x20 || char === '\u007f') out += code(/** @type {number} */ (char.codePointAt(0)));
    else out += char;
  }
  return out;
}
const CONTROL = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const hex = (/** @type {number} */ c) => c.toString(16);

/** Kotlin: `"$x"` is a template, and `\u` takes exactly four digits. @returns {string} */
export const kotlinString = (/** @type {string} */ text) =>
  `"${escapeText(text, { quote: '"', dollar: true, named: { ...CONTROL, '\b': '\\b' }, code: (c) => `\\u${hex(c).padStart(4, '0')}` })}"`;
/** @returns {string} */
export const swiftString = (/** @type {string} */ text) =>
  `"${escapeText(text, { quote: '"', dollar: false, named: { ...CONTROL, '\0': '\\0' }, code: (c) => `\\u{${hex(c)}}` })}"`;
/** @returns {string} */
export const dartString = (/** @type {string} */ text) =>
  `'${escapeText(text, { quote: "'", dollar: true, named: { ...CONTROL, '\b': '\\b', '\f': '\\f', '\v': '\\v' }, code: (c) => `\\u{${hex(c)}}` })}'`;

/** A JSON number as a literal: Kotlin needs `L` beyond Int; the others take it as is. */
function numberLiteral(/** @type {number} */ value, /** @type {boolean} */ kotlinLong) {
  const text = JSON.stringify(value) ?? 'null';
  return kotlinLong && Number.isInteger(value) && (value > 2147483647 || value < -2147483648) ? `${text}L` : text;
}

/** Kotlin, as `ChatEvent.decode` gives JSON: Map<String, Any?>, List<Any?>, String, Int/Long, Double, Boolean. @returns {string} */
export function kotlin(/** @type {unknown} */ value) {
  if (Array.isArray(value)) return value.length === 0 ? 'emptyList<Any?>()' : `listOf(${value.map(kotlin).join(', ')})`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    return entries.length === 0
      ? 'emptyMap<String, Any?>()'
      : `mapOf(${entries.map(([key, v]) => `${kotlinString(key)} to ${kotlin(v)}`).join(', ')})`;
  }
  if (typeof value === 'string') return kotlinString(value);
  if (typeof value === 'number') return numberLiteral(value, true);
  return value === null || value === undefined ? 'null' : String(value);
}

/**
 * Swift, as JSONSerialization gives JSON (ChatEvent reads the bridge's text in
 * `WKScriptMessage.body` with it): collections typed `[String: Any]` and `[Any]` explicitly (a
 * mixed literal has no type of its own), and null inside them as `NSNull()`.
 * @returns {string}
 */
export function swift(/** @type {unknown} */ value) {
  if (Array.isArray(value)) return `[${value.map(swift).join(', ')}] as [Any]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    return entries.length === 0
      ? '[:] as [String: Any]'
      : `[${entries.map(([key, v]) => `${swiftString(key)}: ${swift(v)}`).join(', ')}] as [String: Any]`;
  }
  if (typeof value === 'string') return swiftString(value);
  if (typeof value === 'number') return numberLiteral(value, false);
  return value === null || value === undefined ? 'NSNull()' : String(value);
}

/** Dart, as `jsonDecode` gives JSON. @returns {string} */
export function dart(/** @type {unknown} */ value) {
  if (Array.isArray(value)) return `[${value.map(dart).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.entries(value)
      .map(([key, v]) => `${dartString(key)}: ${dart(v)}`)
      .join(', ')}}`;
  }
  if (typeof value === 'string') return dartString(value);
  if (typeof value === 'number') return numberLiteral(value, false);
  return value === null || value === undefined ? 'null' : String(value);
}
