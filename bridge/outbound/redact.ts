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

/**
 * Auth tokens kept besides the website token. Each config fetch issues a new one; an unbounded
 * set would grow with every refresh and slow every message down. A token this many refreshes
 * old is long expired on any backend.
 */
const AUTH_TOKENS_KEPT = 8;

export function createRedactor(): Redactor {
  const tokens = new Set<string>();

  const scrubString = (text: string): string => {
    let result = text;
    for (const token of tokens) if (result.includes(token)) result = result.split(token).join(REDACTED);
    return result;
  };

  /** Most messages carry no token: finding none is cheaper than copying them. */
  const containsToken = (value: unknown, depth: number): boolean => {
    if (typeof value === 'string') {
      for (const token of tokens) if (value.includes(token)) return true;
      return false;
    }
    if (typeof value !== 'object' || value === null) return false;
    if (depth > 64) return true;
    for (const key in value) {
      if (containsToken(key, depth) || containsToken((value as Record<string, unknown>)[key], depth + 1)) return true;
    }
    return false;
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
      Object.defineProperty(copy, scrubString(key), {
        value: scrub(item, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return copy;
  };

  return {
    add(token) {
      // Very short values would blank out ordinary words; real tokens are long.
      if (token === undefined || token.length < 4) return;
      tokens.delete(token);
      tokens.add(token);
      // The first token added is the website token, kept for good; the oldest auth token goes.
      if (tokens.size > AUTH_TOKENS_KEPT + 1) tokens.delete([...tokens][1] as string);
    },
    scrub: <T>(value: T): T => (tokens.size > 0 && containsToken(value, 0) ? (scrub(value, 0) as T) : value),
  };
}
