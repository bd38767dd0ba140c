/**
 * Reading CORS response headers the way a browser does, as pure functions of the header
 * values, so each rule (and each wildcard exception) is stated once.
 *
 * The bridge never sends credentials (no cookies, `credentials` left at its default), so the
 * `*` wildcards count as wildcards here, except that `Access-Control-Allow-Headers: *` never
 * covers `Authorization` (Fetch standard, "CORS-preflight fetch": Authorization must be named).
 */

/** The contract's values (chat-service-errors.md, "Cross-origin requirements"). */
export const REQUIRED_METHODS = ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'] as const;
const REQUIRED_HEADERS = ['Content-Type', 'Authorization'] as const;

/** Why `Access-Control-Allow-Origin` would make a browser refuse the answer for `origin`, or undefined. */
export function allowOriginProblem(value: string | null, origin: string): string | undefined {
  if (value === null) return 'missing';
  const trimmed = value.trim();
  if (trimmed === '*' || trimmed === origin) return undefined;
  const copies = repeatedValue(trimmed);
  if (copies !== undefined)
    return `sent ${copies.count} times ("${trimmed}"): browsers accept exactly one value and refuse the answer`;
  if (trimmed.includes(',')) return `lists several values ("${trimmed}"); browsers accept exactly one origin or *`;
  if (trimmed === '') return 'present but empty';
  return `is "${trimmed}", which does not match the page origin ${origin}`;
}

/** What to change so that `allowOriginProblem` finds nothing: the fix for the value actually sent. */
export function allowOriginFix(value: string | null, origin: string): string {
  const copies = value === null ? undefined : repeatedValue(value.trim());
  if (copies !== undefined) {
    return (
      `remove one of the ${copies.count} "Access-Control-Allow-Origin: ${copies.value}" headers: two layers add it ` +
      '(a proxy such as nginx and the app); keep it in one place'
    );
  }
  const exactly = `"Access-Control-Allow-Origin: *" (or exactly "${origin}")`;
  if (value === null) return `send ${exactly} on every API response, preflights and errors included`;
  if (value.includes(',')) {
    return `send one value, ${exactly}, instead of a list; to allow several origins, echo the request's Origin when it is one of them (with "Vary: Origin")`;
  }
  return `send ${exactly} instead of "${value.trim()}"`;
}

/** `*, *` or `https://a, https://a`: one header value added by two layers, which browsers join with ", ". */
function repeatedValue(value: string): { value: string; count: number } | undefined {
  const parts = tokens(value);
  const first = parts[0];
  if (parts.length < 2 || first === undefined || !parts.every((part) => part === first)) return undefined;
  return { value: first, count: parts.length };
}

/** The required methods `Access-Control-Allow-Methods` leaves out. */
export function missingMethods(value: string | null): string[] {
  const listed = tokens(value).map((method) => method.toUpperCase());
  if (listed.includes('*')) return [];
  return REQUIRED_METHODS.filter((method) => !listed.includes(method));
}

/** The required request headers `Access-Control-Allow-Headers` leaves out, with a note when `*` misleads. */
export function missingRequestHeaders(value: string | null): { missing: string[]; wildcard: boolean } {
  const listed = tokens(value).map((name) => name.toLowerCase());
  const wildcard = listed.includes('*');
  const missing = REQUIRED_HEADERS.filter((name) => {
    const lower = name.toLowerCase();
    if (listed.includes(lower)) return false;
    return !(wildcard && lower !== 'authorization');
  });
  return { missing, wildcard };
}

/** Whether `Access-Control-Expose-Headers` lets the page read `Retry-After`. */
export function exposesRetryAfter(value: string | null): boolean {
  const listed = tokens(value).map((name) => name.toLowerCase());
  return listed.includes('retry-after') || listed.includes('*');
}

/** Whether `Vary` names `Origin` (or is `*`). */
export function variesByOrigin(value: string | null): boolean {
  const listed = tokens(value).map((name) => name.toLowerCase());
  return listed.includes('origin') || listed.includes('*');
}

function tokens(value: string | null): string[] {
  if (value === null) return [];
  return value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}
