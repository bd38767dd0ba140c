// @ts-check
/**
 * Chatwoot's widget API (config/routes.rb, namespace api/v1/widget), as the bridge calls it.
 * Every call names its inbox by the `website_token` query parameter and, but for POST config,
 * its contact by the `X-Auth-Token` header (app/controllers/concerns/website_token_helper.rb:
 * `set_web_widget`, `set_contact`, both before_actions of
 * app/controllers/api/v1/widget/base_controller.rb). An unknown website token or contact token is
 * RecordNotFound, so 404 (never 401); a suspended account is 401 before anything else.
 * The JSON each route returns is its jbuilder view's (app/views/api/v1/widget/...), trimmed of
 * fields the bridge never reads where noted.
 */
import { parseJsonObject, readBody } from '../http-io.mjs';
import { readMessageBody } from './attachments.mjs';
import { INTERNAL_ERROR, NOT_FOUND, PARAM_MISSING, RecordInvalid, SUSPENDED } from './errors.mjs';

/** @typedef {import('../http-io.mjs').Reply} Reply */
/** @typedef {import('node:http').IncomingMessage} IncomingMessage */
/** @typedef {import('./store.mjs').StoredMessage} StoredMessage */
/** @typedef {import('./store.mjs').ContactInbox} ContactInbox */
/** @typedef {(req: IncomingMessage, url: URL) => Promise<Reply | null>} Handler null: the answer is lost */
/** @typedef {Record<string, Partial<Record<string, Handler>>>} ChatwootRouteTable */

export const API = '/api/v1/widget';

/**
 * @param {{
 *   store: import('./store.mjs').ChatwootStore,
 *   tokens: ReturnType<typeof import('./tokens.mjs').createTokenService>,
 *   faults: {isOn: (name: import('./faults.mjs').ChatwootFaultName) => boolean},
 *   maxFileSize: number,
 *   origin: () => string,
 * }} deps
 * @returns {ChatwootRouteTable}
 */
export function createWidgetRoutes({ store, tokens, faults, maxFileSize, origin }) {
  /**
   * website_token_helper.rb `set_web_widget`: find_by! (404), then the account's state (401).
   * @returns {{inbox: import('./store.mjs').Inbox, reply?: undefined} | {inbox?: undefined, reply: Reply}}
   */
  function webWidget(/** @type {URL} */ url) {
    const inbox = store.inbox(url.searchParams.get('website_token'));
    if (!inbox) return { reply: NOT_FOUND() };
    if (faults.isOn('account-suspended')) return { reply: SUSPENDED() };
    return { inbox };
  }

  /**
   * website_token_helper.rb `set_contact`: the X-Auth-Token's source_id in this inbox, or 404.
   * @returns {{session: ContactInbox, reply?: undefined} | {session?: undefined, reply: Reply}}
   */
  function contactOf(/** @type {IncomingMessage} */ req, /** @type {URL} */ url) {
    const found = webWidget(url);
    if (!found.inbox) return { reply: found.reply };
    const header = req.headers['x-auth-token'];
    const payload = tokens.decode(typeof header === 'string' ? header : undefined);
    const session =
      payload.inbox_id === found.inbox.id ? store.findContactInbox(found.inbox, payload.source_id) : undefined;
    return session ? { session } : { reply: NOT_FOUND() };
  }

  /** base_controller.rb `conversation`: the contact's latest conversation in this inbox. */
  const latest = (/** @type {ContactInbox} */ session) => session.conversations.at(-1);

  /** @param {StoredMessage} message app/views/api/v1/widget/messages/index.json.jbuilder */
  const listed = (message) => ({
    id: message.id,
    content: message.content,
    message_type: 0, // incoming: the contact's own (enum message_type in app/models/message.rb)
    content_type: 'text',
    content_attributes: {},
    created_at: Math.floor(message.createdAt / 1000),
    conversation_id: message.conversation.displayId,
    ...attachmentsOf(message),
    sender: senderOf(message),
  });
  /** @param {StoredMessage} message app/views/api/v1/widget/messages/create.json.jbuilder: no echo_id in it */
  const created = (message) => ({
    id: message.id,
    content: message.content,
    inbox_id: message.conversation.inboxId,
    conversation_id: message.conversation.displayId,
    message_type: 0,
    created_at: Math.floor(message.createdAt / 1000),
    private: false,
    source_id: null,
    ...attachmentsOf(message),
    sender: senderOf(message),
  });
  /** `attachments` only when there are some (`if @message.attachments.present?`); Attachment#push_event_data. */
  const attachmentsOf = (/** @type {StoredMessage} */ message) =>
    message.attachments.length === 0
      ? {}
      : {
          attachments: message.attachments.map((file) => ({
            id: file.id,
            message_id: message.id,
            file_type: file.file_type,
            account_id: 1,
            extension: file.extension,
            data_url: `${origin()}/rails/active_storage/blobs/${file.id}/${encodeURIComponent(file.name)}`,
            thumb_url: '',
            file_size: file.file_size,
          })),
        };
  /** Contact#push_event_data, trimmed to what identifies the sender. */
  const senderOf = (/** @type {StoredMessage} */ message) => ({
    id: message.sender.id,
    name: message.sender.name,
    type: 'contact',
  });

  /**
   * Stores, then answers; with the lost-answer fault on, the connection drops after the store,
   * as a request whose answer never arrives.
   * @param {() => Reply} answer
   */
  const answerOrLose = (answer) => {
    const reply = answer();
    return faults.isOn('lost-answer') ? null : reply;
  };

  /** @type {Handler} configs_controller.rb `create` + configs/create.json.jbuilder */
  async function postConfig(req, url) {
    const found = webWidget(url);
    if (!found.inbox) return found.reply;
    const inbox = found.inbox;
    // ConfigsController overrides set_contact without the raise: a token it does not know makes a new contact.
    const header = req.headers['x-auth-token'];
    const payload = tokens.decode(typeof header === 'string' ? header : undefined);
    const session =
      (payload.inbox_id === inbox.id && store.findContactInbox(inbox, payload.source_id)) ||
      store.createContactInbox(inbox);
    return {
      status: 200,
      body: {
        chatwoot_website_channel: { website_name: inbox.name, website_token: inbox.websiteToken, locale: 'en' },
        chatwoot_widget_defaults: { use_inbox_avatar_for_bot: false },
        contact: { pubsub_token: session.pubsubToken },
        auth_token: tokens.generate({ source_id: session.sourceId, inbox_id: inbox.id }),
        global_config: {},
      },
    };
  }

  /**
   * @type {Handler} contacts_controller.rb `update` (PATCH /api/v1/widget/contact, the widget SDK's
   * setUser): ContactIdentifyAction (app/actions/contact_identify_action.rb) with the top-level
   * `identifier`, `email` and `name` of `permitted_params`; a blank value changes nothing
   * (`update_contact` rejects blanks), and `update!` validates the e-mail against Devise's
   * email_regexp with the message "Invalid email" (app/models/contact.rb): a RecordInvalid 422.
   * Rendered as the contact (`render json:`), here its fields the bridge could read. Ours: no
   * merge with another contact that has the identifier or e-mail (ContactMergeAction), and no
   * identifier_hash (process_hmac).
   */
  async function patchContact(req, url) {
    const found = contactOf(req, url);
    if (!found.session) return found.reply;
    const body = parseJsonObject(await readBody(req, 1024 * 1024, 'Request body exceeds 1 MB')) ?? {};
    const contact = found.session.contact;
    /** @type {(name: string) => string | undefined} */
    const given = (name) => (typeof body[name] === 'string' && body[name].trim() !== '' ? body[name] : undefined);
    const email = given('email');
    // Devise.email_regexp, the default of config/initializers/devise.rb.
    if (email !== undefined && !/^[^@\s]+@[^@\s]+$/.test(email))
      throw new RecordInvalid([['email', 'Email Invalid email']]);
    contact.name = given('name') ?? contact.name;
    contact.email = email?.toLowerCase() ?? contact.email; // contact.rb before_validation :downcase_email
    contact.identifier = given('identifier') ?? contact.identifier;
    return {
      status: 200,
      body: { id: contact.id, name: contact.name, email: contact.email, identifier: contact.identifier },
    };
  }

  /** @type {Handler} conversations_controller.rb `index` + conversations/index.json.jbuilder (`{}` when none) */
  async function getConversation(req, url) {
    const found = contactOf(req, url);
    if (!found.session) return found.reply;
    const conversation = latest(found.session);
    if (!conversation) return { status: 200, body: {} };
    return { status: 200, body: conversationJson(conversation) };
  }

  /** @param {import('./store.mjs').Conversation} conversation */
  const conversationJson = (conversation) => ({
    id: conversation.displayId,
    inbox_id: conversation.inboxId,
    contact_last_seen_at: conversation.contactLastSeenAt,
    status: conversation.status,
  });

  /**
   * @type {Handler} conversations_controller.rb `create`: a new conversation with its first message,
   * in one transaction. Without a `message` there is no conversation: `conversation_params`
   * (app/controllers/api/v1/widget/base_controller.rb) reads `permitted_params[:message][:referer_url]`
   * and `[:timestamp]` on nil, a NoMethodError that `handle_with_exception`
   * (app/controllers/concerns/request_exception_handler.rb) does not rescue (it takes RecordNotFound,
   * Pundit's and ParameterMissing, and nothing here calls `params.require`): Rails' 500, the
   * contact's update rolled back with the transaction.
   */
  async function postConversation(req, url) {
    const found = contactOf(req, url);
    if (!found.session) return found.reply;
    const body = parseJsonObject(await readBody(req, 1024 * 1024, 'Request body exceeds 1 MB'));
    const message = body?.['message'];
    if (typeof message !== 'object' || message === null || Array.isArray(message)) return INTERNAL_ERROR();
    const content = contentOf(/** @type {Record<string, unknown>} */ (message));
    // ContactIdentifyAction with discard_invalid_attrs: a bad e-mail is dropped, never a 422.
    const contact = body?.['contact'];
    if (typeof contact === 'object' && contact !== null && 'name' in contact && typeof contact.name === 'string')
      found.session.contact.name = contact.name;
    const session = found.session;
    return answerOrLose(() => {
      const conversation = store.createConversation(session, { content, attachments: [] });
      return {
        status: 200,
        body: {
          ...conversationJson(conversation),
          messages: conversation.messages.map(listed),
          custom_attributes: {},
          contact: { id: session.contact.id, name: session.contact.name },
        },
      };
    });
  }

  /** @type {Handler} messages_controller.rb `index`: MessageFinder's latest 20, or those before `before` */
  async function getMessages(req, url) {
    const found = contactOf(req, url);
    if (!found.session) return found.reply;
    const conversation = latest(found.session);
    if (!conversation) return { status: 200, body: [] };
    const before = Number(url.searchParams.get('before'));
    const pool = before > 0 ? conversation.messages.filter((message) => message.id < before) : conversation.messages;
    return { status: 200, body: pool.slice(-20).map(listed) };
  }

  /** @type {Handler} messages_controller.rb `create`: into the latest conversation, made if there is none */
  async function postMessage(req, url) {
    // The whole body is read before any answer: Puma reads it before Rails sees the request, and
    // Rails parses it into `params` for set_web_widget's `permitted_params` (website_token_helper.rb),
    // before set_contact can refuse the contact. So a proxy in front that streams bodies (Caddy)
    // meets its body limit whatever the answer. The attachments are validated when the message is
    // saved (attachment.rb `acceptable_file`), after set_contact: that 422 waits for the contact.
    const read = await readMessageBody(req, maxFileSize).catch((error) => {
      if (error instanceof RecordInvalid) return error;
      throw error;
    });
    const found = contactOf(req, url);
    if (!found.session) return found.reply;
    if (read instanceof RecordInvalid) throw read;
    const { message, attachments } = read;
    // Ours: the controller we read would meet `params[:message][:attachments]` on nil (a 500);
    // we answer as Rails' ParameterMissing, the 422 {"error"} a missing parameter gets elsewhere.
    if (!message) return PARAM_MISSING('message');
    if (faults.isOn('message-flood')) return new RecordInvalid([['base', 'Too many messages']]).toReply();
    const session = found.session;
    return answerOrLose(() => {
      const conversation = latest(session) ?? store.createConversation(session);
      return {
        status: 200,
        body: created(store.addMessage(conversation, { content: contentOf(message), attachments })),
      };
    });
  }

  return {
    [`${API}/config`]: { POST: postConfig },
    [`${API}/contact`]: { PATCH: patchContact },
    [`${API}/conversations`]: { GET: getConversation, POST: postConversation },
    [`${API}/messages`]: { GET: getMessages, POST: postMessage },
  };
}

/** `permitted_params[:message][:content]`: a string, or nothing. */
const contentOf = (/** @type {Record<string, unknown>} */ message) =>
  typeof message['content'] === 'string' ? message['content'] : null;
