/**
 * Token values never leave the bridge: every outbound message and every recorded step passes
 * through here, with each token the bridge has seen replaced by a placeholder wherever it
 * appears (a server echoing a token in an error message included).
 *
 * A server or a URL may carry a token encoded, so each token is known in these forms: raw;
 * JSON-escaped (as `JSON.stringify` writes it inside a string); `encodeURIComponent`; form
 * encoding (`URLSearchParams`, `+` for space); base64 and base64url of its UTF-8 bytes, padded,
 * unpadded, and as the characters it always gives inside a longer encoded text (at each of the
 * three byte alignments it can have there), and the same of its UTF-16 bytes (.NET's
 * `Encoding.Unicode`); percent-encoding twice over (a redirect or proxy encoding a query again);
 * HTML-escaped; hex. Each form is also known JSON-escaped. Percent-encoding's hex digits are
 * matched in either case (RFC 3986 §2.1: `%2b` is `%2B`; .NET writes lowercase). Where forms
 * overlap, the whole stretch becomes one placeholder: the longest wins and no fragment is left.
 *
 * It never throws. Whatever the bridge parses is cut at MAX_DEPTH where it is parsed
 * (protocol/safe-json.ts); a value that JSON cannot write (a cycle, or nesting past the engine's
 * stack: an object a host handed in) is copied here with the parts past MAX_DEPTH withheld.
 *
 * createRedactor runs a few lines past 80: its short inner functions share one closure's state
 * (the known tokens and their forms).
 */
import { MIN_TOKEN_LENGTH } from '../options.js';
import { MAX_DEPTH, REDACTED } from '../protocol/limits.js';

export { MIN_TOKEN_LENGTH };

/**
 * At most this many tokens are kept; past it, the one learned longest ago is forgotten. Each
 * refresh of the auth token adds one, and every outbound string is searched for all of them.
 */
export const MAX_TOKENS = 256;
/** A token is forgotten this long after the bridge last learned it (24 hours). */
export const TOKEN_MAX_AGE_MS = 86_400_000;

export interface Redactor {
  /**
   * Learns a token, optionally under a `slot` ("website", "auth", "widget"): each slot's newest
   * token is kept for the bridge's lifetime (the token in use is never forgotten), all others as
   * the limits say.
   */
  add(token: unknown, slot?: string): void;
  /** A copy of `value` (a message or a recorded step) without any form of any known token. */
  scrub<T extends string | object>(value: T): T;
}

export function createRedactor(now: () => number = Date.now): Redactor {
  const known = new Map<string, { forms: string[]; at: number }>();
  const current = new Map<string, string>();
  let forms: string[] = [];

  /**
   * Every character of every occurrence of every form is hidden, and a run of hidden characters
   * becomes one placeholder: a token that contains another (an auth token holding the website
   * token) goes whole, and overlapping tokens leave no fragment. Searched with its percent
   * escapes' hex digits uppercased, as the forms are (same length, so positions hold).
   */
  const scrubString = (text: string): string => {
    const searched = upperHex(text);
    const hidden = new Uint8Array(text.length);
    let anyHidden = false;
    for (const form of forms) {
      for (let at = searched.indexOf(form); at >= 0; at = searched.indexOf(form, at + 1)) {
        hidden.fill(1, at, at + form.length);
        anyHidden = true;
      }
    }
    return anyHidden
      ? text.replace(/[^]/g, (char, at: number) => (hidden[at] ? (hidden[at - 1] ? '' : REDACTED) : char))
      : text;
  };

  /**
   * Most messages carry no token: finding none is cheaper than copying them. JSON escapes each character on its own, so a token in any string or key shows in the
   * text as its JSON-escaped form. A value JSON cannot write (a cycle, or deeper than the
   * engine's stack) is copied, which cuts it.
   */
  const needsCopy = (value: unknown): boolean => {
    let text: string;
    try {
      text = upperHex(JSON.stringify(value));
    } catch {
      return true;
    }
    return forms.some((form) => text.includes(form));
  };

  /** `ancestors`: the objects above, so a cycle is withheld where it closes. */
  const scrub = (value: unknown, ancestors: unknown[]): unknown => {
    if (typeof value === 'string') return scrubString(value);
    if (typeof value !== 'object' || value === null) return value;
    // A subtree past the limit, or one that contains itself, is withheld, never sent unchecked.
    if (ancestors.length >= MAX_DEPTH || ancestors.includes(value)) return REDACTED;
    const below = ancestors.concat([value]);
    if (Array.isArray(value)) return value.map((item) => scrub(item, below));
    const copy: Record<string, unknown> = {};
    // Defined, not assigned: a "__proto__" key must stay a plain key.
    for (const [key, item] of Object.entries(value))
      Object.defineProperty(copy, scrubString(key), {
        value: scrub(item, below),
        enumerable: true,
        configurable: true,
        writable: true,
      });
    return copy;
  };

  return {
    add(token, slot) {
      if (typeof token !== 'string' || token.length < MIN_TOKEN_LENGTH) return;
      const time = now();
      // Re-inserted, so the map's order stays the order in which tokens were last learned.
      known.delete(token);
      known.set(token, { forms: formsOf(token), at: time });
      if (slot !== undefined) current.set(slot, token);
      for (const [old, { at }] of known) {
        if (known.size <= MAX_TOKENS && time - at <= TOKEN_MAX_AGE_MS) break;
        if (![...current.values()].includes(old)) known.delete(old);
      }
      forms = ([] as string[]).concat(...[...known.values()].map((entry) => entry.forms));
    },
    scrub<T extends string | object>(value: T): T {
      try {
        return needsCopy(value) ? (scrub(value, []) as T) : value;
      } catch {
        // A getter that throws (an object a host handed in): nothing of it is worth the risk.
        return REDACTED as T;
      }
    },
  };
}

/** Every form in which `token` may travel (see the module comment), percent escapes in uppercase. */
export function formsOf(token: string): string[] {
  const forms = [
    token,
    JSON.stringify(token).slice(1, -1),
    token.replace(/[&<>"']/g, (char) => `&${HTML['&<>"\''.indexOf(char)]};`),
  ];
  try {
    const uri = encodeURIComponent(token);
    // Its UTF-8 bytes, one character each; and its UTF-16 code units as little-endian byte pairs.
    const bytes = unescape(uri);
    const utf16 = token.replace(/[^]/g, (char) =>
      String.fromCharCode(char.charCodeAt(0) & 255, char.charCodeAt(0) >> 8),
    );
    const hex = bytes.replace(/[^]/g, (char) => (char.charCodeAt(0) + 256).toString(16).slice(1));
    // Form encoding (URLSearchParams) escapes !'()~ too, and writes a space as +.
    const form = uri.replace(/[!'()~]/g, (char) => `%${char.charCodeAt(0).toString(16)}`).replace(/%20/g, '+');
    forms.push(uri, form, encodeURIComponent(uri), encodeURIComponent(form), hex, hex.toUpperCase());
    // Inside a longer encoded text the token starts 0, 1 or 2 bytes into a 3-byte group; the
    // characters made of its bits alone are the same whatever surrounds it (pad 3: alone, padded).
    for (const units of [bytes, utf16]) {
      for (let pad = 0; pad < 4; pad++) {
        const base64 =
          pad > 2
            ? btoa(units)
            : btoa('\0'.repeat(pad) + units).slice(((pad * 4 + 2) / 3) | 0, (((pad + units.length) * 4) / 3) | 0);
        for (const encoded of [base64, base64.replace(/\+/g, '-').replace(/\//g, '_')])
          forms.push(encoded, encoded.replace(/=+$/, ''));
      }
    }
  } catch {
    // A lone surrogate has no URI or UTF-8 form: such a token is known raw, JSON- and HTML-escaped.
  }
  // Each also JSON-escaped, as `scrub` finds it in a message's JSON text (the JSON form twice escaped).
  // Most forms coincide (a plain token is its own URI, form and JSON form): each is searched once,
  // since every message the bridge sends is searched for every form.
  return [...new Set(forms.concat(forms.map((form) => JSON.stringify(form).slice(1, -1))).map(upperHex))];
}

/** The entities of `&<>"'`, in that order, as HTML escapers write them. */
const HTML = ['amp', 'lt', 'gt', 'quot', '#39'];

/** `%2b` and `%2B` are one character, and so are `%252b` and `%252B` (encoded twice). */
function upperHex(text: string): string {
  return text.replace(/%(?:25)*[\da-f]{2}/gi, (escape) => escape.toUpperCase());
}
