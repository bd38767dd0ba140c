// @ts-check
/** Defaults for the reference backend and the one place options are checked. */

/**
 * @typedef {object} ReferenceBackendOptions
 * @property {'contract' | 'chatwoot'} [backend] Which API to serve: the chat service contract, or Chatwoot's widget API read from its source (chatwoot/). (default 'contract')
 * @property {boolean} [enableApiCors] Chatwoot mode: CORS on /api/* as ENABLE_API_CORS=true gives it. (default false)
 * @property {number} [messagesPerMinute] Chatwoot mode: messages a minute one conversation takes (CONVERSATION_MESSAGE_PER_MINUTE_LIMIT). (default 200)
 * @property {number | false} [rackAttack] Chatwoot mode: rack-attack's requests a minute per IP (RACK_ATTACK_LIMIT), or false to switch it off. (default 3000)
 * @property {number} [port] Port to listen on; 0 picks a free one. (default 0)
 * @property {string} [host] Interface to listen on. Keep it loopback: this server has no real security. (default '127.0.0.1')
 * @property {readonly string[]} [websiteTokens] Website tokens GET /config accepts. (default ['wt_demo'])
 * @property {number} [maxFileSize] Per-file upload limit in bytes; the contract states both 5 MB and 10 MB, this takes the higher; the Chatwoot mode's is MAXIMUM_FILE_UPLOAD_SIZE, 40 MB. (default 10485760, Chatwoot mode 41943040)
 * @property {{limit?: number, windowMs?: number}} [rateLimit] Requests allowed per auth token (or client IP) per window. (default {limit: 120, windowMs: 10000})
 * @property {number} [authTokenTtlMs] How long an issued auth token stays valid. (default 3600000)
 * @property {string} [allowOrigin] Value of Access-Control-Allow-Origin. (default '*')
 * @property {() => number} [now] Clock in epoch milliseconds, injectable for tests. (default Date.now)
 */

/**
 * @typedef {object} NormalizedOptions
 * @property {'contract' | 'chatwoot'} backend
 * @property {boolean} enableApiCors
 * @property {number} messagesPerMinute
 * @property {number | false} rackAttack
 * @property {number} port
 * @property {string} host
 * @property {ReadonlySet<string>} websiteTokens
 * @property {number} maxFileSize
 * @property {{limit: number, windowMs: number}} rateLimit
 * @property {number} authTokenTtlMs
 * @property {string} allowOrigin
 * @property {() => number} now
 */

export const DEFAULTS = Object.freeze({
  port: 0,
  host: '127.0.0.1',
  websiteTokens: Object.freeze(['wt_demo']),
  maxFileSize: 10 * 1024 * 1024,
  rateLimit: Object.freeze({ limit: 120, windowMs: 10_000 }),
  authTokenTtlMs: 60 * 60 * 1000,
  allowOrigin: '*',
  now: Date.now,
  backend: 'contract',
  chatwootMaxFileSize: 40 * 1024 * 1024,
  messagesPerMinute: 200,
  rackAttack: 3000,
});

/**
 * Fills defaults and rejects bad input early, naming the option at fault.
 * @param {ReferenceBackendOptions} [options]
 * @returns {NormalizedOptions}
 */
export function normalizeOptions(options = {}) {
  const port = options.port ?? DEFAULTS.port;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new TypeError(`startReferenceBackend: "port" must be an integer from 0 to 65535, got ${String(port)}`);
  }
  const host = options.host ?? DEFAULTS.host;
  requireNonEmptyString('host', host);
  const websiteTokens = options.websiteTokens ?? DEFAULTS.websiteTokens;
  if (!Array.isArray(websiteTokens) || websiteTokens.length === 0) {
    throw new TypeError('startReferenceBackend: "websiteTokens" must be a non-empty array of strings');
  }
  for (const token of websiteTokens) requireNonEmptyString('websiteTokens[]', token);
  const backend = options.backend ?? DEFAULTS.backend;
  if (backend !== 'contract' && backend !== 'chatwoot') {
    throw new TypeError(`startReferenceBackend: "backend" must be 'contract' or 'chatwoot', got ${String(backend)}`);
  }
  const chatwoot = backend === 'chatwoot';
  const maxFileSize = options.maxFileSize ?? (chatwoot ? DEFAULTS.chatwootMaxFileSize : DEFAULTS.maxFileSize);
  requirePositiveInteger('maxFileSize', maxFileSize);
  const limit = options.rateLimit?.limit ?? DEFAULTS.rateLimit.limit;
  const windowMs = options.rateLimit?.windowMs ?? DEFAULTS.rateLimit.windowMs;
  requirePositiveInteger('rateLimit.limit', limit);
  requirePositiveInteger('rateLimit.windowMs', windowMs);
  const authTokenTtlMs = options.authTokenTtlMs ?? DEFAULTS.authTokenTtlMs;
  requirePositiveInteger('authTokenTtlMs', authTokenTtlMs);
  const allowOrigin = options.allowOrigin ?? DEFAULTS.allowOrigin;
  requireNonEmptyString('allowOrigin', allowOrigin);
  const now = options.now ?? DEFAULTS.now;
  if (typeof now !== 'function') throw new TypeError('startReferenceBackend: "now" must be a function');

  const messagesPerMinute = options.messagesPerMinute ?? DEFAULTS.messagesPerMinute;
  requirePositiveInteger('messagesPerMinute', messagesPerMinute);
  const rackAttack = options.rackAttack ?? DEFAULTS.rackAttack;
  if (rackAttack !== false) requirePositiveInteger('rackAttack', rackAttack);

  return {
    backend,
    enableApiCors: options.enableApiCors === true,
    messagesPerMinute,
    rackAttack,
    port,
    host,
    websiteTokens: new Set(websiteTokens),
    maxFileSize,
    rateLimit: { limit, windowMs },
    authTokenTtlMs,
    allowOrigin,
    now,
  };
}

/**
 * @param {string} name
 * @param {unknown} value
 */
function requirePositiveInteger(name, value) {
  if (!Number.isInteger(value) || /** @type {number} */ (value) <= 0) {
    throw new TypeError(`startReferenceBackend: "${name}" must be a positive integer, got ${String(value)}`);
  }
}

/**
 * @param {string} name
 * @param {unknown} value
 */
function requireNonEmptyString(name, value) {
  if (typeof value !== 'string' || value === '') {
    throw new TypeError(`startReferenceBackend: "${name}" must be a non-empty string`);
  }
}
