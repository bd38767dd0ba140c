// @ts-check
/**
 * CORS headers for the reference backend. The first three are the contract's
 * self-hosting requirements; Expose-Headers is our addition, because without
 * it a cross-origin page cannot read Retry-After and a client can only guess
 * its backoff.
 */

/**
 * @param {string} allowOrigin
 * @param {{expose: boolean}} options
 * @returns {Record<string, string>}
 */
export function corsHeaders(allowOrigin, { expose }) {
  /** @type {Record<string, string>} */
  const headers = {
    'access-control-allow-origin': allowOrigin,
    'access-control-allow-methods': 'GET, POST, PATCH, DELETE, OPTIONS',
    'access-control-allow-headers': 'Content-Type, Authorization',
  };
  if (expose) headers['access-control-expose-headers'] = 'Retry-After';
  // A fixed origin makes the answer depend on the request's Origin for caches.
  if (allowOrigin !== '*') headers['vary'] = 'Origin';
  return headers;
}
