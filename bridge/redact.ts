/**
 * Token values never leave the bridge: every outbound message and every recorded line passes
 * through here, with each token the bridge has seen replaced by a placeholder, wherever it
 * appears (a server echoing a token in an error message included).
 */
export const REDACTED = '<redacted>';

export interface Redactor {
  add(token: string | undefined): void;
  scrub<T>(value: T): T;
}

export function createRedactor(): Redactor {
  const tokens = new Set<string>();

  const scrubString = (text: string): string => {
    let result = text;
    for (const token of tokens) if (result.includes(token)) result = result.split(token).join(REDACTED);
    return result;
  };

  const scrub = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') return scrubString(value);
    if (typeof value !== 'object' || value === null) return value;
    // No real message nests this deep; a subtree past the guard is withheld, never sent unchecked.
    if (depth > 64) return REDACTED;
    if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1));
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      // defineProperty, not assignment: a "__proto__" key must stay a plain key.
      Object.defineProperty(copy, scrubString(key), { value: scrub(item, depth + 1), enumerable: true, writable: true, configurable: true });
    }
    return copy;
  };

  return {
    add(token) {
      // Very short values would blank out ordinary words; real tokens are long.
      if (token !== undefined && token.length >= 4) tokens.add(token);
    },
    scrub: <T>(value: T): T => (tokens.size === 0 ? value : (scrub(value, 0) as T)),
  };
}
