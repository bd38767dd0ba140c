// @ts-check
/**
 * The reference backend: a small, honest implementation of the chat service
 * contract (shared/spec/chat-service-errors.md) with switchable faults, for
 * the demo page and the integration tests. Standard library only.
 *
 * Request pipeline, in order: preflight -> admin routes -> request log ->
 * global faults (hang, 500, 429) -> rate limiter -> route (404/405) -> handler.
 */
import { createServer } from 'node:http';
import { ADMIN_PREFIX, createAdminRoutes } from './admin-routes.mjs';
import { bearerToken, createApiRoutes } from './api-routes.mjs';
import { corsHeaders } from './cors.mjs';
import { createFaults } from './faults.mjs';
import { HttpError, drainBody, errorReply, send } from './http-io.mjs';
import { normalizeOptions } from './options.mjs';
import { createRateLimiter } from './rate-limit.mjs';
import { createLogEntry } from './request-log.mjs';
import { createStore } from './store.mjs';
import { pacedRequest } from './slow-upload.mjs';
import { startChatwootBackend } from './chatwoot/server.mjs';

/** The most of an unread request body read before answering; a larger one is answered at once. */
const DRAIN_LIMIT = 64 * 1024 * 1024;

/** @typedef {import('./options.mjs').ReferenceBackendOptions} ReferenceBackendOptions */
/** @typedef {import('./request-log.mjs').RequestLogEntry} RequestLogEntry */
/** @typedef {import('./faults.mjs').FaultState} FaultState */
/** @typedef {import('./faults.mjs').FaultName} FaultName */
/** @typedef {import('./http-io.mjs').Reply} Reply */
/** @typedef {import('./api-routes.mjs').RouteTable} RouteTable */

/**
 * @typedef {object} ReferenceBackend
 * @property {string} url Base URL without a trailing slash, e.g. 'http://127.0.0.1:8787'.
 * @property {number} port The port actually bound.
 * @property {RequestLogEntry[]} requests The live request log (admin requests excluded), redacted.
 * @property {(name: FaultName | (string & {}), on: boolean, detail?: string) => void} setFault
 *   Switches a fault; throws TypeError for an unknown name. Detail "always-401" on expired-auth-token
 *   behaves like the always-401 fault.
 * @property {() => FaultState[]} faults Every fault with its state and description.
 * @property {() => void} reset Switches faults off and clears data, the log and the rate limiter.
 * @property {() => Promise<void>} close Stops the server and ends every connection, hung ones included. Safe to call twice.
 */

/**
 * Starts the reference backend and resolves once it is listening.
 * @param {ReferenceBackendOptions} [options]
 * @returns {Promise<ReferenceBackend>}
 */
export async function startReferenceBackend(options = {}) {
  const config = normalizeOptions(options);
  if (config.backend === 'chatwoot') return startChatwootBackend(config);
  const { now } = config;
  /** @type {RequestLogEntry[]} */
  const requests = [];
  const store = createStore({ authTokenTtlMs: config.authTokenTtlMs, now });
  const limiter = createRateLimiter({ ...config.rateLimit, now });
  const faults = createFaults((name, on) => {
    if (name === 'expired-auth-token') {
      if (on) store.revokeIssuedTokens();
      else store.restoreIssuedTokens();
    } else if (name === 'no-conversation') {
      if (on) store.hideConversations();
      else store.restoreHiddenConversations();
    }
  });

  /** @type {ReferenceBackend['setFault']} */
  const setFault = (name, on, detail) => faults.set(name, on, detail);
  const reset = () => {
    faults.clear();
    store.reset();
    limiter.reset();
    // Emptied in place: callers hold on to `backend.requests`.
    requests.length = 0;
  };

  const apiRoutes = createApiRoutes({
    store,
    faults,
    websiteTokens: config.websiteTokens,
    maxFileSize: config.maxFileSize,
  });
  const adminRoutes = createAdminRoutes({ faults, setFault, reset, requests });
  // Admin routes always carry CORS, so a demo page can switch no-cors off again.
  const adminCors = corsHeaders(config.allowOrigin, { expose: true });
  const apiCors = () =>
    faults.isOn('no-cors') ? {} : corsHeaders(config.allowOrigin, { expose: !faults.isOn('no-expose-retry-after') });

  /**
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   */
  async function handle(req, res) {
    const url = new URL(req.url ?? '/', 'http://reference-backend.invalid');
    const isAdmin = url.pathname === '/__admin' || url.pathname.startsWith(ADMIN_PREFIX);
    if (isAdmin) {
      const reply = req.method === 'OPTIONS' ? { status: 204 } : await dispatch(adminRoutes, req, url);
      send(res, reply, adminCors);
      return;
    }

    const entry = createLogEntry(req, url, now());
    requests.push(entry);
    // Preflights are logged but never faulted or limited: a browser sends them on its own.
    const paced = faults.isOn('slow-upload') ? pacedRequest(req, Number(faults.detail('slow-upload') ?? 512)) : req;
    const reply = req.method === 'OPTIONS' ? { status: 204 } : await answerApi(paced, url);
    if (reply === undefined) return; // hang: the socket stays open until the client gives up or close()
    if (reply === null) return void res.destroy(); // drop-connection: no answer at all
    if (req.method !== 'OPTIONS' && faults.isOn('slow'))
      await new Promise((resolve) => setTimeout(resolve, Number(faults.detail('slow') ?? 1000)));
    entry.status = reply.status;
    // A refusal before the body was read (a made-up token on an upload) still waits for all of it,
    // as a server that parses its parameters first would (Puma, then Rails): see drainBody.
    await drainBody(req, DRAIN_LIMIT);
    send(res, reply, apiCors());
  }

  /**
   * @param {import('node:http').IncomingMessage} req
   * @param {URL} url
   * @returns {Promise<Reply | undefined | null>} undefined when the request must never be answered, null when its connection is dropped
   */
  async function answerApi(req, url) {
    if (faults.isOn('hang')) return undefined;
    if (faults.isOn('drop-connection')) return null;
    if (faults.isOn('service-unavailable')) {
      const retryAfter = faults.detail('service-unavailable');
      return errorReply(503, 'Service unavailable', undefined, retryAfter ? { 'retry-after': retryAfter } : undefined);
    }
    if (faults.isOn('server-error')) return errorReply(500, 'Internal server error');
    if (faults.isOn('rate-limited'))
      return errorReply(429, 'Too many requests: retry later', undefined, { 'retry-after': '1' });
    if (faults.isOn('rate-limited-no-retry-after')) return errorReply(429, 'Too many requests: retry later');
    const token = bearerToken(req);
    const decision = limiter.hit(token ? `token:${token}` : `ip:${req.socket.remoteAddress ?? 'unknown'}`);
    if (!decision.allowed) {
      return errorReply(429, 'Too many requests: retry later', undefined, {
        'retry-after': String(decision.retryAfterSeconds),
      });
    }
    return dispatch(apiRoutes, req, url);
  }

  const server = createServer((req, res) => {
    // dispatch() already turns handler failures into 500s; what is left is a socket gone mid-reply.
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

  /** @type {Promise<void> | undefined} */
  let closing;
  const close = () => {
    closing ??= new Promise((resolve) => {
      server.close(() => resolve());
      // server.close() alone waits for open connections, and a hung request would keep it waiting forever.
      server.closeAllConnections();
    });
    return closing;
  };

  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    requests,
    setFault,
    faults: () => faults.list(),
    reset,
    close,
  };
}

/**
 * @param {RouteTable} routes
 * @param {import('node:http').IncomingMessage} req
 * @param {URL} url
 * @returns {Promise<Reply>}
 */
async function dispatch(routes, req, url) {
  const method = req.method ?? 'GET';
  const route = routes[url.pathname];
  if (!route) return errorReply(404, `Not found: ${method} ${url.pathname}`);
  const handler = route[method];
  if (!handler) {
    const allow = [...Object.keys(route), 'OPTIONS'].join(', ');
    return errorReply(405, `Method not allowed: ${method} ${url.pathname}`, undefined, { allow });
  }
  try {
    return await handler(req, url);
  } catch (error) {
    if (error instanceof HttpError) return error.toReply();
    // Only the message: a stack or request dump could carry a token.
    console.error('[reference-backend] unexpected error:', error instanceof Error ? error.message : error);
    return errorReply(500, 'Internal server error');
  }
}
