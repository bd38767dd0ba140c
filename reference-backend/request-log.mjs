// @ts-check
/**
 * The in-memory request log tests read. Entries are redacted when recorded,
 * not when read, so no token value is ever held in the log.
 */

/**
 * @typedef {{
 *   method: string,
 *   path: string,
 *   query: Record<string, string>,
 *   headers: Record<string, string>,
 *   status: number | null,
 *   at: number,
 * }} RequestLogEntry
 * `status` stays null for a request that was never answered (the hang fault).
 */

const REDACTED = '<redacted>';
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);

/**
 * Any query key or header naming a token is a credential, whatever the client called it; so is
 * Chatwoot's `cw_conversation` (the contact's token in the widget page's URL).
 */
const looksLikeToken = (/** @type {string} */ name) => /token|cw_conversation/i.test(name);

/**
 * @param {import('node:http').IncomingMessage} req
 * @param {URL} url
 * @param {number} at
 * @returns {RequestLogEntry}
 */
export function createLogEntry(req, url, at) {
  /** @type {Record<string, string>} */
  const query = {};
  for (const [key, value] of url.searchParams) {
    query[key] = looksLikeToken(key) ? REDACTED : value;
  }
  /** @type {Record<string, string>} */
  const headers = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    headers[lower] =
      SECRET_HEADERS.has(lower) || looksLikeToken(lower) ? REDACTED : Array.isArray(value) ? value.join(', ') : value;
  }
  return { method: req.method ?? 'GET', path: url.pathname, query, headers, status: null, at };
}
