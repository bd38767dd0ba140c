// @ts-check
/**
 * The chat service's API as the bridge calls it: GET /config,
 * GET|POST /conversations, POST /messages. Route-specific faults are applied
 * here, where the status they replace would have been decided.
 */
import { HttpError, errorReply, isObject, parseJsonObject, readBody } from './http-io.mjs';
import { readMessageInput } from './uploads.mjs';

/** @typedef {import('./http-io.mjs').Reply} Reply */
/** @typedef {import('node:http').IncomingMessage} IncomingMessage */
/** @typedef {(req: IncomingMessage, url: URL) => Promise<Reply>} Handler */
/** @typedef {Record<string, Partial<Record<string, Handler>>>} RouteTable path -> method -> handler */

const WIDGET = { name: 'Reference inbox', locale: 'en' };
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const INVALID_AUTH = 'Invalid or expired auth token';
const VALIDATION_FAULT_BODY = { email: ['is not a valid e-mail address'] };

/**
 * The bearer token of a request, or undefined when there is none.
 * @param {IncomingMessage} req
 */
export function bearerToken(req) {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

/**
 * @param {{
 *   store: import('./store.mjs').Store,
 *   faults: import('./faults.mjs').Faults,
 *   websiteTokens: ReadonlySet<string>,
 *   maxFileSize: number,
 * }} deps
 * @returns {RouteTable}
 */
export function createApiRoutes({ store, faults, websiteTokens, maxFileSize }) {
  /** @param {IncomingMessage} req */
  function authenticate(req) {
    const token = bearerToken(req);
    if (token === undefined) throw new HttpError(401, 'Missing auth token');
    if (faults.isOn('always-401') || faults.detail('expired-auth-token') === 'always-401') {
      throw new HttpError(401, INVALID_AUTH);
    }
    const contact = store.authenticate(token);
    if (!contact) throw new HttpError(401, INVALID_AUTH);
    if (faults.isOn('not-found')) throw new HttpError(404, 'Not found');
    return contact;
  }

  function throwIfValidationFault() {
    if (faults.isOn('bad-request')) throw new HttpError(400, 'Malformed request body');
    if (faults.isOn('validation-422')) {
      throw new HttpError(422, 'Validation failed', { errors: VALIDATION_FAULT_BODY });
    }
  }

  /** @type {Handler} */
  async function getConfig(_req, url) {
    if (faults.isOn('rotated-website-token')) {
      return errorReply(401, 'Invalid website token: the token has been rotated');
    }
    // A misconfigured deployment answers like this whatever the token, so these come before validation.
    if (faults.isOn('config-empty')) return { status: 200, raw: { contentType: 'application/json', text: '' } };
    if (faults.isOn('config-malformed')) {
      return { status: 200, raw: { contentType: 'text/html; charset=utf-8', text: '<html>not json</html>' } };
    }
    if (faults.isOn('config-no-token')) return { status: 200, body: { widget: {} } };

    const websiteToken = url.searchParams.get('website_token');
    if (!websiteToken) return errorReply(401, 'Missing website token');
    if (!websiteTokens.has(websiteToken)) {
      return errorReply(401, 'Invalid website token: the token is unknown, disabled or has been rotated');
    }
    return { status: 200, body: { authToken: store.issueAuthToken(websiteToken), widget: { ...WIDGET } } };
  }

  /** @type {Handler} */
  async function getConversation(req) {
    const contact = authenticate(req);
    if (!contact.conversation) return errorReply(404, 'Conversation not found: the contact has none');
    return { status: 200, body: contact.conversation };
  }

  /** @type {Handler} */
  async function postConversation(req) {
    const contact = authenticate(req);
    throwIfValidationFault();
    const body = parseJsonObject(await readBody(req, 64 * 1024, 'Request body exceeds 64 KB'));
    const attributes = readContactAttributes(body?.['contact']);
    return { status: 200, body: store.createConversation(contact, attributes) };
  }

  /** @type {Handler} */
  async function postMessage(req) {
    const contact = authenticate(req);
    const conversation = contact.conversation;
    if (!conversation) return errorReply(404, 'Conversation not found');
    throwIfValidationFault();
    if (faults.isOn('payload-too-large')) {
      return errorReply(413, 'File exceeds the maximum upload size of 5 MB');
    }
    const input = await readMessageInput(req, maxFileSize);
    // A repeated echo_id answers with the stored message: the client's retry of a POST must not duplicate it.
    return { status: 200, body: store.addMessage(conversation, input).message };
  }

  return {
    '/config': { GET: getConfig },
    '/conversations': { GET: getConversation, POST: postConversation },
    '/messages': { POST: postMessage },
  };
}

/**
 * Validates the contact fields; only the offending fields appear in `errors`.
 * @param {unknown} contact
 * @returns {import('./store.mjs').ContactAttributes}
 */
function readContactAttributes(contact) {
  if (contact === undefined || contact === null) return {};
  if (!isObject(contact)) throw new HttpError(400, 'Malformed request body: "contact" must be an object');
  const { name, email, identifier } = contact;
  /** @type {Record<string, string[]>} */
  const errors = {};
  /** @type {import('./store.mjs').ContactAttributes} */
  const attributes = {};

  if (name !== undefined && name !== null) {
    if (typeof name === 'string') attributes.name = name;
    else errors['name'] = ['must be a string'];
  }
  if (email !== undefined && email !== null) {
    if (typeof email === 'string' && EMAIL.test(email)) attributes.email = email;
    else errors['email'] = ['is not a valid e-mail address'];
  }
  if (identifier !== undefined && identifier !== null) {
    if (typeof identifier === 'string' && identifier.trim() !== '') attributes.identifier = identifier;
    else errors['identifier'] = ["can't be blank"];
  }
  if (Object.keys(errors).length > 0) throw new HttpError(422, 'Validation failed', { errors });
  return attributes;
}
