// @ts-check
/**
 * Contacts, auth tokens, conversations and messages, all in memory.
 *
 * The model: the reference backend serves ONE contact per website token. The
 * first config fetch with a website token creates that contact; every later
 * fetch issues a new auth token for the same contact, so a client that
 * re-fetches the config after a 401 keeps its conversation. A real service
 * would tell contacts apart (by cookie or identifier); the bridge's behaviour
 * under test does not depend on that, so this backend does not pretend to.
 */
import { randomBytes } from 'node:crypto';

/** @typedef {{name?: string, email?: string, identifier?: string}} ContactAttributes */
/** @typedef {{name: string, type: string, size: number, sha256: string}} AttachmentInfo */
/**
 * @typedef {{
 *   id: number,
 *   content: string,
 *   echo_id: string | null,
 *   attachments: AttachmentInfo[],
 *   created_at: string,
 * }} StoredMessage
 */
/** @typedef {{id: number, status: 'open', contact: ContactAttributes, messages: StoredMessage[]}} Conversation */
/**
 * @typedef {{
 *   attributes: ContactAttributes,
 *   conversation: Conversation | null,
 *   hidden: Conversation | null,
 * }} Contact
 * `hidden` holds the conversation the no-conversation fault took away.
 */
/** @typedef {{contact: Contact, issuedAt: number, serial: number}} AuthTokenRecord */

/**
 * @param {{authTokenTtlMs: number, now: () => number}} options
 */
export function createStore({ authTokenTtlMs, now }) {
  /** @type {Map<string, Contact>} website token -> its one contact */
  const contacts = new Map();
  /** @type {Map<string, AuthTokenRecord>} */
  const authTokens = new Map();
  // Serials, not timestamps, decide "issued before the fault": two events in the same millisecond stay ordered.
  let nextSerial = 1;
  let revokedBelowSerial = 0;
  let nextConversationId = 1;
  let nextMessageId = 1;
  /**
   * Each conversation's messages by echo_id: a retry is found without a walk through every message,
   * which a long run (the bench's thousands of sends) would pay on each POST.
   * @type {WeakMap<Conversation, Map<string, StoredMessage>>}
   */
  const byEchoId = new WeakMap();

  /** @param {number} at */
  function sweepExpired(at) {
    for (const [token, record] of authTokens) {
      if (at - record.issuedAt >= authTokenTtlMs) authTokens.delete(token);
    }
  }

  return {
    /**
     * Issues a fresh auth token for the website token's contact, creating the contact on first use.
     * @param {string} websiteToken
     */
    issueAuthToken(websiteToken) {
      const at = now();
      sweepExpired(at);
      let contact = contacts.get(websiteToken);
      if (!contact) {
        contact = { attributes: {}, conversation: null, hidden: null };
        contacts.set(websiteToken, contact);
      }
      const token = randomBytes(24).toString('base64url');
      authTokens.set(token, { contact, issuedAt: at, serial: nextSerial++ });
      return token;
    },

    /**
     * @param {string} token
     * @returns {Contact | undefined} the token's contact, or undefined when unknown, expired or revoked
     */
    authenticate(token) {
      const record = authTokens.get(token);
      if (!record) return undefined;
      if (now() - record.issuedAt >= authTokenTtlMs) {
        authTokens.delete(token);
        return undefined;
      }
      if (record.serial < revokedBelowSerial) return undefined;
      return record.contact;
    },

    /** Every token issued so far stops working; tokens issued afterwards work. */
    revokeIssuedTokens() {
      revokedBelowSerial = nextSerial;
    },

    /** Undoes revokeIssuedTokens (tokens past their TTL stay expired). */
    restoreIssuedTokens() {
      revokedBelowSerial = 0;
    },

    /**
     * Creates the contact's conversation, replacing any old one.
     * @param {Contact} contact
     * @param {ContactAttributes} attributes merged over what the contact already had
     */
    createConversation(contact, attributes) {
      contact.attributes = { ...contact.attributes, ...attributes };
      /** @type {Conversation} */
      const conversation = {
        id: nextConversationId++,
        status: 'open',
        contact: { ...contact.attributes },
        messages: [],
      };
      contact.conversation = conversation;
      contact.hidden = null;
      return conversation;
    },

    /**
     * @param {Conversation} conversation
     * @param {{content: string, echoId: string | null, attachments: AttachmentInfo[]}} input
     * @returns {{message: StoredMessage, created: boolean}} the stored message; `created` is false for a repeated echo_id
     */
    addMessage(conversation, { content, echoId, attachments }) {
      let echoed = byEchoId.get(conversation);
      if (!echoed) byEchoId.set(conversation, (echoed = new Map()));
      const existing = echoId === null ? undefined : echoed.get(echoId);
      if (existing) return { message: existing, created: false };
      /** @type {StoredMessage} */
      const message = {
        id: nextMessageId++,
        content,
        echo_id: echoId,
        attachments,
        created_at: new Date(now()).toISOString(),
      };
      conversation.messages.push(message);
      if (echoId !== null) echoed.set(echoId, message);
      return { message, created: true };
    },

    /** Takes every conversation away, keeping it aside so the fault can be switched off again. */
    hideConversations() {
      for (const contact of contacts.values()) {
        if (contact.conversation) contact.hidden = contact.conversation;
        contact.conversation = null;
      }
    },

    /** Brings hidden conversations back, except where the contact has created a new one meanwhile. */
    restoreHiddenConversations() {
      for (const contact of contacts.values()) {
        if (!contact.conversation && contact.hidden) contact.conversation = contact.hidden;
        contact.hidden = null;
      }
    },

    reset() {
      contacts.clear();
      authTokens.clear();
      revokedBelowSerial = 0;
    },
  };
}

/** @typedef {ReturnType<typeof createStore>} Store */
