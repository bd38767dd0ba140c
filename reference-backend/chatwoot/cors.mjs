// @ts-check
/**
 * CORS as config/initializers/cors.rb sets rack-cors up: `origins '*'`; `/packs/*` and `/audio/*`
 * for GET; and `/api/*` (headers :any, methods :any, expose access-token client uid expiry) only
 * when ENABLE_API_CORS is true: the `enableApiCors` option. The widget API is same-origin by
 * design otherwise. rack-cors answers only requests with an Origin; a preflight it does not
 * cover goes on to Rails, which has no OPTIONS route (404).
 */

/**
 * Headers for a CORS request to `path`, or undefined where no resource covers it.
 * @param {import('node:http').IncomingMessage} req
 * @param {string} path
 * @param {boolean} enableApiCors
 * @returns {Record<string, string> | undefined}
 */
export function chatwootCors(req, path, enableApiCors) {
  if (!req.headers.origin) return undefined;
  const api = enableApiCors && path.startsWith('/api/');
  const assets = path.startsWith('/packs/') || path.startsWith('/audio/');
  if (!api && !assets) return undefined;
  /** @type {Record<string, string>} */
  const headers = { 'access-control-allow-origin': '*' };
  if (req.method === 'OPTIONS') {
    headers['access-control-allow-methods'] = api ? 'GET, POST, PUT, PATCH, DELETE, OPTIONS, HEAD' : 'GET, OPTIONS';
    // headers :any: rack-cors allows whatever the preflight asks for.
    const asked = req.headers['access-control-request-headers'];
    if (asked) headers['access-control-allow-headers'] = asked;
    headers['access-control-max-age'] = '7200';
  } else if (api) {
    headers['access-control-expose-headers'] = 'access-token, client, uid, expiry';
  }
  return headers;
}
