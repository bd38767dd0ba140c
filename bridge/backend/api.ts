/**
 * The backend calls: config and auth, conversations, messages and uploads.
 *
 * Token transport (the contract leaves it open): the website token travels as the
 * `website_token` query parameter of `GET /config`, which keeps that request free of custom
 * headers (no preflight) and matches the widget API the contract describes; it is a public
 * identifier printed in every page's widget snippet. The auth token travels as
 * `Authorization: Bearer <token>`, a header the contract's CORS list admits, and never in a URL.
 *
 * createApi runs past 80 lines on purpose: one closure over the auth token and whether the
 * conversation is known, which every call (config, conversations, messages, uploads) reads and may
 * renew; each call is short.
 */
import { bridgeError } from '../protocol/errors.js';
import type { ApiRequest, Http } from './http.js';
import type { ProgressListener } from '../environment.js';
import { httpError, route } from './http-errors.js';
import { authTokenOf } from './backend-bodies.js';
import type { Contact } from '../protocol/schemas.js';
import type { OutboxRecord } from './outbox-record.js';

export interface Api {
  /** Fetches the config (one fetch shared by concurrent callers) and keeps its auth token. */
  init(): Promise<Record<string, unknown>>;
  /** `signal`: the command was answered; its requests stop and none is made after. */
  getConversation(contact: Contact, signal?: AbortSignal): Promise<unknown>;
  createConversation(contact: Contact, signal?: AbortSignal): Promise<unknown>;
  /** `onProgress`: told the upload's progress, when the message has attachments. */
  sendMessage(message: OutboxRecord, onProgress?: ProgressListener): Promise<unknown>;
}

const CONFIG: Pick<ApiRequest, 'method' | 'path'> = { method: 'GET', path: '/config' };

/** @param onToken told every token the bridge learns, so outbound redaction knows what to scrub */
export function createApi(http: Http, websiteToken: string | undefined, onToken: (token: string) => void): Api {
  let authToken: string | undefined;
  // Whether the contact is known to have a conversation, learnt from the backend's answers.
  let conversationKnown = false;

  async function fetchConfig(): Promise<Record<string, unknown>> {
    if (!websiteToken) {
      throw bridgeError('auth_failed', `[${route(CONFIG)}] no websiteToken option`, 401);
    }
    const response = await http(Object.assign({ query: { website_token: websiteToken } }, CONFIG));
    if (response.status < 200 || response.status > 299) throw httpError(CONFIG, response);
    const token = authTokenOf(response.body);
    if (!token) {
      const what =
        response.text.trim() === '' ? 'empty body' : response.body === undefined ? 'body not JSON' : 'no authToken';
      throw bridgeError('config_error', `[${route(CONFIG)}] ${response.status}: ${what}`, response.status);
    }
    onToken(token);
    authToken = token;
    // The host gets the rest of the config; the auth token stays inside the bridge.
    const config: Record<string, unknown> = Object.assign({}, response.body);
    delete config['authToken'];
    return config;
  }

  const init = shared(fetchConfig);

  /**
   * A conversation or message request with the auth token, whose 2xx body is the answer. A 401
   * means the token expired or was rotated: fetch the config once and retry once; a second 401 is
   * final (never a loop). A 404 goes to `recover` when the caller has a recovery.
   */
  async function call(request: ApiRequest, recover?: () => Promise<unknown>): Promise<unknown> {
    // Without an await when the token is known: the request starts in this very task.
    if (!authToken) await init();
    const token = authToken;
    let response = await http(request, token);
    if (response.status === 401) {
      // A concurrent request may have refreshed the token already; then its token is the new one.
      if (authToken === token) await init();
      response = await http(request, authToken);
    }
    const { status } = response;
    const ok = status >= 200 && status <= 299;
    // Any 2xx of these endpoints proves the contact has a conversation; a 404, that it may have none.
    if (ok || status === 404) conversationKnown = ok;
    if (status === 404 && recover) return recover();
    if (ok) return response.body ?? null;
    throw httpError(request, response);
  }

  // The contact was checked against the service's rules by the host command (protocol/service-rules.ts),
  // once: a 404 recovery that creates the conversation does not check it again.
  async function createConversation(contact: Contact, signal?: AbortSignal): Promise<unknown> {
    // Absent fields are undefined and JSON leaves them out.
    return call({ method: 'POST', path: '/conversations', json: { contact }, signal });
  }

  async function getConversation(contact: Contact, signal?: AbortSignal): Promise<unknown> {
    // The contract's own recovery: a contact without a conversation gets one, silently (and not
    // at all once the command was answered: http refuses a request whose signal was aborted).
    return call({ method: 'GET', path: '/conversations', signal }, () => createConversation(contact, signal));
  }

  /**
   * Makes sure the contact has a conversation before a body too large to send twice goes out:
   * looked up once a page (the contract's `GET /conversations`, created on 404), then known from
   * every answer. Concurrent senders share one lookup.
   */
  const lookUpConversation = shared(getConversation);

  async function sendMessage(message: OutboxRecord, onProgress?: ProgressListener): Promise<unknown> {
    // Every attempt of one message carries the same echo_id, so the backend can drop a repeat
    // and a retry never duplicates a chat message. A 404 means the contact has no conversation
    // yet: create one and retry once. That costs a text message nothing when the conversation
    // exists, but would send a photo's bytes twice to a new contact, so attachments wait for
    // the conversation to be known first.
    const request = messageRequest(message, onProgress);
    const contact = message.contact || {};
    if (request.form && !conversationKnown) await lookUpConversation(contact);
    return call(request, async () => {
      await createConversation(contact);
      return call(request);
    });
  }

  return { init, getConversation, createConversation, sendMessage };
}

/**
 * `run` one call at a time: callers while one is under way share its promise (and its first
 * caller's arguments); a call after it settled runs again.
 */
function shared<Args extends unknown[], Result>(
  run: (...args: Args) => Promise<Result>,
): (...args: Args) => Promise<Result> {
  let inFlight: Promise<Result> | undefined;
  // try/finally, not Promise.prototype.finally (ES2018): the bundle stays within ES2017 built-ins.
  return (...args) =>
    (inFlight ||= (async () => {
      try {
        return await run(...args);
      } finally {
        inFlight = undefined;
      }
    })());
}

function messageRequest(message: OutboxRecord, onProgress?: ProgressListener): ApiRequest {
  const content = message.content || '';
  const attachments = message.files || [];
  if (attachments.length === 0) {
    return { method: 'POST', path: '/messages', json: { message: { content, echo_id: message.messageId } } };
  }
  const form = new FormData();
  form.append('message[content]', content);
  form.append('message[echo_id]', message.messageId);
  for (const file of attachments)
    form.append(
      'attachments[]',
      new Blob([file.data || new ArrayBuffer(file.size || 0)], { type: file.type }),
      file.name,
    );
  return { method: 'POST', path: '/messages', form, onProgress };
}
