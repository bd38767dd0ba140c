// @ts-check
/**
 * The reference backend's Chatwoot mode: Chatwoot's widget API, widget page and their failures,
 * read from Chatwoot's source (chatwoot/chatwoot, develop of 2025-26; each module cites the file
 * it follows, reference-backend/README.md lists them). Started by
 * `startReferenceBackend({backend: 'chatwoot'})` or `node reference-backend/cli.mjs --backend chatwoot`;
 * it answers the same control surface (/__admin/...) and returns the same handle as the contract mode.
 *
 * Request pipeline, in order: admin routes -> CORS (rack-cors runs first in Chatwoot's middleware)
 * -> request log -> faults -> rack-attack -> route (404) -> handler.
 */
import { createServer } from 'node:http';
import { ADMIN_PREFIX, createAdminRoutes } from '../admin-routes.mjs';
import { createSwitchboard } from '../faults.mjs';
import { HttpError, send } from '../http-io.mjs';

import { createLogEntry } from '../request-log.mjs';
import { chatwootCors } from './cors.mjs';
import { CHATWOOT_FAULTS } from './faults.mjs';
import { NOT_FOUND_PAGE, RecordInvalid, errorBody } from './errors.mjs';
import { createRackAttack, RETRY_LATER } from './rack-attack.mjs';
import { createWidgetRoutes } from './routes.mjs';
import { createChatwootStore } from './store.mjs';
import { createTokenService } from './tokens.mjs';
import { createWidgetPage } from './widget-page.mjs';

/** Rails renders JSON with its charset. */
const CHATWOOT_JSON = 'application/json; charset=utf-8';

/** @typedef {import('../http-io.mjs').Reply} Reply */
/** @typedef {import('./routes.mjs').ChatwootRouteTable} ChatwootRouteTable */

/**
 * @typedef {object} ChatwootModeOptions
 * @property {number} port
 * @property {string} host
 * @property {ReadonlySet<string>} websiteTokens
 * @property {number} maxFileSize MAXIMUM_FILE_UPLOAD_SIZE in bytes (Chatwoot's default 40 MB).
 * @property {boolean} enableApiCors ENABLE_API_CORS.
 * @property {number} messagesPerMinute CONVERSATION_MESSAGE_PER_MINUTE_LIMIT.
 * @property {number | false} rackAttack RACK_ATTACK_LIMIT a minute, or false for ENABLE_RACK_ATTACK=false.
 * @property {() => number} now
 */

/**
 * @param {ChatwootModeOptions} config
 * @returns {Promise<import('../server.mjs').ReferenceBackend>}
 */
export async function startChatwootBackend(config) {
  const { now } = config;
  /** @type {import('../request-log.mjs').RequestLogEntry[]} */
  const requests = [];
  const store = createChatwootStore({
    websiteTokens: config.websiteTokens,
    messagesPerMinute: config.messagesPerMinute,
    now,
  });
  const tokens = createTokenService(now);
  const rackAttack =
    config.rackAttack === false ? undefined : createRackAttack({ requestsPerMinute: config.rackAttack, now });
  const faults = createSwitchboard(CHATWOOT_FAULTS, (name, on) => {
    if (name !== 'expired-contact-token') return;
    if (on) store.expireSessions();
    else store.restoreSessions();
  });
  const setFault = (/** @type {string} */ name, /** @type {boolean} */ on, /** @type {string=} */ detail) =>
    faults.set(name, on, detail);
  const reset = () => {
    faults.clear();
    store.reset();
    rackAttack?.reset();
    requests.length = 0;
  };
  let origin = '';
  /** @type {ChatwootRouteTable} */
  const routes = {
    ...createWidgetRoutes({ store, tokens, faults, maxFileSize: config.maxFileSize, origin: () => origin }),
    ...createWidgetPage({ store, tokens }),
  };
  /** @type {ChatwootRouteTable} */
  const adminRoutes = {
    ...createAdminRoutes({ faults, setFault, reset, requests }),
    '/__admin/conversations': { GET: async () => ({ status: 200, body: store.snapshot() }) },
  };

  /**
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   */
  async function handle(req, res) {
    const url = new URL(req.url ?? '/', 'http://chatwoot.invalid');
    if (url.pathname === '/__admin' || url.pathname.startsWith(ADMIN_PREFIX)) {
      const reply = req.method === 'OPTIONS' ? { status: 204 } : await dispatch(adminRoutes, req, url);
      // Admin routes always carry CORS, so the demo page can switch a fault off again.
      const admin = {
        'access-control-allow-origin': '*',
        'access-control-allow-headers': 'Content-Type',
        'access-control-allow-methods': 'GET, POST, DELETE',
      };
      return send(res, reply ?? { status: 500 }, admin, CHATWOOT_JSON);
    }
    const cors = chatwootCors(req, url.pathname, config.enableApiCors);
    const entry = createLogEntry(req, url, now());
    requests.push(entry);
    // rack-cors answers a preflight it covers itself; one it does not reaches Rails: no such route.
    const reply = req.method === 'OPTIONS' ? (cors ? { status: 200 } : NOT_FOUND_PAGE()) : await answer(req, url);
    if (reply === undefined) return; // hang
    if (reply === null) return void res.destroy(); // the answer is lost
    entry.status = reply.status;
    send(res, reply, cors ?? {}, CHATWOOT_JSON);
  }

  /**
   * @param {import('node:http').IncomingMessage} req
   * @param {URL} url
   * @returns {Promise<Reply | null | undefined>}
   */
  async function answer(req, url) {
    if (faults.isOn('hang')) return undefined;
    if (faults.isOn('drop-connection')) return null;
    if (faults.isOn('rate-limited')) return RETRY_LATER;
    if (rackAttack?.throttled(req.method ?? 'GET', url, req.socket.remoteAddress ?? 'unknown')) return RETRY_LATER;
    return dispatch(routes, req, url);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve(undefined);
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('reference backend: not listening on TCP');
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  origin = `http://${host}:${address.port}`;

  /** @type {Promise<void> | undefined} */
  let closing;
  const close = () => {
    closing ??= new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closing;
  };
  return { url: origin, port: address.port, requests, setFault, faults: () => faults.list(), reset, close };
}

/**
 * @param {ChatwootRouteTable} routes
 * @param {import('node:http').IncomingMessage} req
 * @param {URL} url
 * @returns {Promise<Reply | null>}
 */
async function dispatch(routes, req, url) {
  const handler = routes[url.pathname]?.[req.method ?? 'GET'];
  // Rails' routing error in production: the 404 page.
  if (!handler) return NOT_FOUND_PAGE();
  try {
    return await handler(req, url);
  } catch (error) {
    if (error instanceof RecordInvalid) return error.toReply();
    if (error instanceof HttpError) return errorBody(error.status, error.message);
    console.error('[reference-backend chatwoot] unexpected error:', error instanceof Error ? error.message : error);
    return errorBody(500, 'Internal Server Error');
  }
}
