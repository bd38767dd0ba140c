/**
 * The backend calls: config and auth, conversations, messages and uploads, on the backend's
 * profile (profile.ts: the contract's by default, or Chatwoot's widget API, chatwoot-profile.ts).
 *
 * Token transport (the contract leaves it open): the website token travels as the
 * `website_token` query parameter of the config call (on Chatwoot, of every call), which keeps
 * that request free of custom headers (no preflight) and matches the widget API the contract
 * describes; it is a public identifier printed in every page's widget snippet. The auth token
 * travels in a header (the profile's `sign`: the contract's `Authorization: Bearer <token>`,
 * Chatwoot's `X-Auth-Token`), never in a URL.
 *
 * createApi runs past 80 lines on purpose: one closure over the auth token, whether the
 * conversation is known and which messages' last attempt got no answer, which every call
 * (config, conversations, messages, uploads) reads and may renew; each call is short.
 */
import { bridgeError, isBridgeError } from '../protocol/errors.js';
import type { ApiRequest, Http } from './http.js';
import type { ProgressListener } from '../environment.js';
import { route } from './http-errors.js';
import type { Contact } from '../protocol/schemas.js';
import type { OutboxRecord } from './outbox-record.js';
import { CONTRACT, type Profile } from './profile.js';

export interface Api {
  /** Fetches the config (one fetch shared by concurrent callers) and keeps its auth token. */
  init(): Promise<Record<string, unknown>>;
  /** `signal`: the command was answered; its requests stop and none is made after. */
  getConversation(contact: Contact, signal?: AbortSignal): Promise<unknown>;
  createConversation(contact: Contact, signal?: AbortSignal): Promise<unknown>;
  /** `onProgress`: told the upload's progress, when the message has attachments. */
  sendMessage(message: OutboxRecord, onProgress?: ProgressListener): Promise<unknown>;
  /** Whether the API origin answers (any answer the page can read): a config fetch, which also renews the token. */
  reachable(): Promise<boolean>;
}

/** The API as the bridge holds it, with what the host commands do not call. */
export interface BridgeApi extends Api {
  /**
   * The token of the contact the widget page shows (Chatwoot: its `loaded` event, the page's
   * `cw_conversation`): used from now on, where the profile has the widget's contact.
   */
  useContactToken(token: string): void;
}

/**
 * @param onToken told every token the bridge learns, so outbound redaction knows what to scrub
 * @param now the device's clock, for when a message's attempt began
 */
export function createApi(
  http: Http,
  websiteToken: string | undefined,
  onToken: (token: string) => void,
  profile = CONTRACT,
  now = Date.now,
): BridgeApi {
  const CONFIG = profile.config;
  let authToken: string | undefined;
  // Whether the contact is known to have a conversation, learnt from the backend's answers.
  let conversationKnown = false;
  /** Messages whose last attempt got no answer, with when it began; and the server's ids of those found stored. */
  const unanswered = new Map<string, number>();
  const claimed = new Set<unknown>();
  /** The contact's fields last set on a backend with a `contactPath`, as JSON. */
  let contactSet = '';
  /** The server's clock less the device's, from the last answer's `Date` (0 where it cannot be read). */
  let skew = 0;
  /** The website token on the config call, or on every call (the profile says). */
  const withToken = (request: ApiRequest): ApiRequest =>
    Object.assign({ query: { website_token: websiteToken as string } }, request);

  async function fetchConfig(): Promise<Record<string, unknown>> {
    if (!websiteToken) {
      throw bridgeError('auth_failed', `[${route(CONFIG)}] no websiteToken option`, 401);
    }
    // Chatwoot's config call keeps the contact whose token it is given
    // (app/controllers/api/v1/widget/configs_controller.rb); the contract's takes none.
    const response = await http(withToken(CONFIG), profile.widgetContact ? authToken : undefined);
    if (response.status < 200 || response.status > 299) throw profile.error(CONFIG, response);
    const { token, config, secrets } = profile.session(response);
    secrets.forEach(onToken);
    if (!token) {
      const what =
        response.text.trim() === ''
          ? 'empty body'
          : response.body === undefined
            ? 'body not JSON'
            : `no ${profile.tokenName}`;
      throw bridgeError('config_error', `[${route(CONFIG)}] ${response.status}: ${what}`, response.status);
    }
    onToken(token);
    authToken = token;
    return config;
  }

  const init = shared(fetchConfig);

  /**
   * A conversation or message request with the auth token, whose 2xx body is the answer. The
   * profile's `stale` status (the contract's 401: the token expired or was rotated; Chatwoot's
   * 404: the contact is unknown) renews the token once and retries once; a second one is final
   * (never a loop). A contract 404 goes to `recover` when the caller has a recovery.
   */
  async function call(request: ApiRequest, recover?: () => Promise<unknown>): Promise<unknown> {
    if (profile.tokenEverywhere) request = withToken(request);
    // Without an await when the token is known: the request starts in this very task.
    if (!authToken) await init();
    const token = authToken;
    let response = await http(request, token);
    // Only where repeats are looked for: a cross-origin XHR's Date is not exposed, and reading it logs an error.
    const date = profile.findSent && Date.parse(response.headers.get('Date') as string);
    if (date) skew = date - now();
    if (response.status === profile.stale) {
      // A concurrent request may have renewed the token already; then its token is the new one.
      // The config call is made without the old token: on Chatwoot that is what the widget does
      // when its token is unknown, a new contact (app/controllers/widgets_controller.rb `build_contact`).
      if (authToken === token) authToken = undefined;
      if (!authToken) await init();
      response = await http(request, authToken);
    }
    const { status } = response;
    const ok = status >= 200 && status <= 299;
    // Any 2xx of these endpoints proves the contact has a conversation; a 404, that it may have none.
    if (ok || status === 404) conversationKnown = ok;
    if (status === 404 && recover && profile.stale !== 404) return recover();
    if (ok) return response.body ?? null;
    throw profile.error(request, response);
  }

  // The contact was checked against the service's rules by the host command (protocol/service-rules.ts),
  // once: a 404 recovery that creates the conversation does not check it again.
  async function createConversation(contact: Contact, signal?: AbortSignal): Promise<unknown> {
    // Chatwoot makes a conversation only with its first message (conversations_controller.rb
    // `create` fails without one): the fields are set, and the contact's latest conversation is
    // the answer (`{}` while it has none; the first message makes it).
    if (profile.contactPath) {
      await setContact(contact, signal);
      return call({ method: 'GET', path: profile.conversationsPath, signal });
    }
    // Absent fields are undefined and JSON leaves them out.
    return call({ method: 'POST', path: profile.conversationsPath, json: { contact }, signal });
  }

  /**
   * The contact's fields, on a backend that keeps them apart (`contactPath`), when some are given
   * and they differ from those last set: a message without any leaves the contact as it is.
   */
  async function setContact(contact: Contact, signal?: AbortSignal): Promise<void> {
    const fields = JSON.stringify(contact);
    if (fields === contactSet || fields === '{}') return;
    await call({ method: 'PATCH', path: profile.contactPath as string, json: contact, signal });
    contactSet = fields;
  }

  async function getConversation(contact: Contact, signal?: AbortSignal): Promise<unknown> {
    // The contract's own recovery: a contact without a conversation gets one, silently (and not
    // at all once the command was answered: http refuses a request whose signal was aborted).
    return call({ method: 'GET', path: profile.conversationsPath, signal }, () => createConversation(contact, signal));
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
    const request = messageRequest(message, profile, onProgress);
    const contact = message.contact || {};
    const stored = await storedAlready(message);
    if (stored) return stored;
    // Chatwoot makes the conversation with the first message (no 404 for a missing one); the
    // contact's fields go before it, as the contract's go with the conversation it creates. A
    // refusal of them (a 422 on a malformed e-mail) fails the message, as on the contract.
    if (profile.contactPath) await setContact(contact);
    else if (request.form && !conversationKnown) await lookUpConversation(contact);
    const id = message.messageId;
    const started = now();
    let lost = false;
    try {
      return await call(request, async () => {
        await createConversation(contact);
        return call(request);
      });
    } catch (thrown) {
      lost = isBridgeError(thrown) && thrown.event.code === 'network_error';
      throw thrown;
    } finally {
      // The first lost attempt's start is kept: the message may have been stored by any since.
      if (!lost) unanswered.delete(id);
      else if (!unanswered.has(id)) unanswered.set(id, started);
    }
  }

  /**
   * Where the backend would store a repeat (the profile's `findSent`): before a message whose last
   * attempt got no answer goes again, the conversation's latest messages are looked through for
   * it, and it is settled as sent when it is there. The server's `Date` puts the attempt's start
   * on the server's clock where it can be read (same origin), else the two clocks are taken to agree.
   */
  async function storedAlready(message: OutboxRecord): Promise<unknown> {
    const since = unanswered.get(message.messageId);
    if (since === undefined || !profile.findSent) return undefined;
    const list = await call({ method: 'GET', path: profile.messagesPath });
    const storedCopy = profile.findSent(list, message, since + skew, claimed);
    if (storedCopy) {
      unanswered.delete(message.messageId);
      claimed.add((storedCopy as { id?: unknown }).id);
    }
    return storedCopy;
  }

  const reachable = () =>
    init().then(
      () => true,
      (thrown: unknown) => !isBridgeError(thrown) || thrown.event.code !== 'network_error',
    );

  return {
    init,
    getConversation,
    createConversation,
    sendMessage,
    reachable,
    useContactToken(token) {
      if (profile.widgetContact) authToken = token;
    },
  };
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

function messageRequest(message: OutboxRecord, profile: Profile, onProgress?: ProgressListener): ApiRequest {
  const content = message.content || '';
  const attachments = message.files || [];
  const path = profile.messagesPath;
  if (attachments.length === 0) {
    return { method: 'POST', path, json: { message: { content, echo_id: message.messageId } } };
  }
  const form = new FormData();
  form.append('message[content]', content);
  form.append('message[echo_id]', message.messageId);
  for (const file of attachments)
    form.append(
      profile.fileField,
      new Blob([file.data || new ArrayBuffer(file.size || 0)], { type: file.type }),
      file.name,
    );
  return { method: 'POST', path, form, onProgress };
}
