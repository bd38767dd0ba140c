// @ts-check
/**
 * Chatwoot's records, in memory and cut to what the widget API touches: one inbox per website
 * token, contact inboxes (a contact's session in an inbox, found by `source_id`), conversations
 * and messages. The rules on a message are its model's (app/models/message.rb): content at most
 * 150,000 characters, and at most `messagesPerMinute` messages a minute in one conversation
 * (`prevent_message_flooding`, Limits.conversation_message_per_minute_limit, default 200 from
 * CONVERSATION_MESSAGE_PER_MINUTE_LIMIT in lib/limits.rb). `echo_id` is not a column of messages
 * (app/models/message.rb schema): nothing here remembers it, so a repeated POST is a second message.
 */
import { randomUUID } from 'node:crypto';
import { RecordInvalid } from './errors.mjs';

/** app/models/message.rb: `validates :content, length: { maximum: 150_000 }` */
export const MAX_CONTENT_LENGTH = 150_000;
const MINUTE = 60_000;

/**
 * @typedef {{id: number, file_type: string, extension: string, file_size: number, name: string, contentType: string, sha256: string}} StoredAttachment
 * @typedef {{id: number, content: string | null, createdAt: number, conversation: Conversation, sender: Contact, attachments: StoredAttachment[]}} StoredMessage
 * @typedef {{displayId: number, inboxId: number, status: 'open', contactLastSeenAt: number, messages: StoredMessage[], contactInbox: ContactInbox}} Conversation
 * @typedef {{id: number, name: string, email: string | null, identifier: string | null}} Contact
 * @typedef {{sourceId: string, inboxId: number, contact: Contact, pubsubToken: string, conversations: Conversation[]}} ContactInbox
 * @typedef {{id: number, websiteToken: string, name: string}} Inbox
 * @typedef {{content: string | null, attachments: Omit<StoredAttachment, 'id'>[]}} MessageInput
 */

/**
 * @param {{websiteTokens: Iterable<string>, messagesPerMinute: number, now: () => number}} options
 */
export function createChatwootStore({ websiteTokens, messagesPerMinute, now }) {
  /** @type {Map<string, Inbox>} */
  const inboxes = new Map(
    [...websiteTokens].map((token, index) => [
      token,
      { id: index + 1, websiteToken: token, name: `Inbox ${index + 1}` },
    ]),
  );
  /** @type {Map<string, ContactInbox>} source_id -> session */
  let sessions = new Map();
  /** Sessions hidden by the expired-contact-token fault, brought back when it goes off. */
  /** @type {Map<string, ContactInbox>} */
  let hidden = new Map();
  let ids = { contact: 0, conversation: 0, message: 0, attachment: 0 };

  /** @param {Conversation} conversation @param {MessageInput} input */
  function validate(conversation, input) {
    /** @type {Array<[string, string]>} attribute, full message */
    const errors = [];
    if (input.content !== null && input.content.length > MAX_CONTENT_LENGTH)
      errors.push(['content', `Content is too long (maximum is ${MAX_CONTENT_LENGTH} characters)`]);
    const recent = conversation.messages.filter((message) => message.createdAt >= now() - MINUTE).length;
    if (recent >= messagesPerMinute) errors.push(['base', 'Too many messages']);
    if (errors.length > 0) throw new RecordInvalid(errors);
  }

  return {
    /** @param {string | null} websiteToken */
    inbox: (websiteToken) => (websiteToken === null ? undefined : inboxes.get(websiteToken)),
    /**
     * A new contact and its session, as Channel::WebWidget#create_contact_inbox makes them.
     * @param {Inbox} inbox
     */
    createContactInbox(inbox) {
      const id = ++ids.contact;
      /** @type {ContactInbox} */
      const session = {
        sourceId: randomUUID(),
        inboxId: inbox.id,
        contact: { id, name: `visitor-${id}`, email: null, identifier: null },
        pubsubToken: randomUUID().replaceAll('-', ''),
        conversations: [],
      };
      sessions.set(session.sourceId, session);
      return session;
    },
    /** @param {Inbox} inbox @param {string | undefined} sourceId */
    findContactInbox(inbox, sourceId) {
      const session = sourceId === undefined ? undefined : sessions.get(sourceId);
      return session && session.inboxId === inbox.id ? session : undefined;
    },
    /**
     * Conversation.create! for the contact (base_controller.rb `create_conversation`), with its
     * first message when one is given: in one transaction, as conversations_controller.rb
     * `create` does, so a refused message leaves no conversation behind.
     * @param {ContactInbox} contactInbox
     * @param {MessageInput} [first]
     */
    createConversation(contactInbox, first) {
      /** @type {Conversation} */
      const conversation = {
        displayId: ids.conversation + 1,
        inboxId: contactInbox.inboxId,
        status: 'open',
        contactLastSeenAt: 0,
        messages: [],
        contactInbox,
      };
      if (first) validate(conversation, first);
      ids.conversation += 1;
      contactInbox.conversations.push(conversation);
      if (first) this.addMessage(conversation, first);
      return conversation;
    },
    /**
     * `conversation.messages.new(message_params)` + `save!`: validated, then stored.
     * @param {Conversation} conversation
     * @param {MessageInput} input
     */
    addMessage(conversation, input) {
      validate(conversation, input);
      /** @type {StoredMessage} */
      const message = {
        id: ++ids.message,
        content: input.content,
        createdAt: now(),
        conversation,
        sender: conversation.contactInbox.contact,
        attachments: input.attachments.map((file) => ({ ...file, id: ++ids.attachment })),
      };
      conversation.messages.push(message);
      return message;
    },
    /** The expired-contact-token fault: every session so far is gone (404), until it goes off. */
    expireSessions() {
      hidden = new Map([...hidden, ...sessions]);
      sessions = new Map();
    },
    restoreSessions() {
      sessions = new Map([...hidden, ...sessions]);
      hidden = new Map();
    },
    /** Every conversation with its messages, for tests: no token, no source_id. */
    snapshot() {
      return [...sessions.values(), ...hidden.values()].flatMap((session) =>
        session.conversations.map((conversation) => ({
          id: conversation.displayId,
          contactId: session.contact.id,
          contact: { name: session.contact.name, email: session.contact.email, identifier: session.contact.identifier },
          messages: conversation.messages.map((message) => ({
            id: message.id,
            content: message.content,
            attachments: message.attachments.map(({ name, contentType, file_size, sha256 }) => ({
              name,
              contentType,
              size: file_size,
              sha256,
            })),
          })),
        })),
      );
    },
    reset() {
      sessions = new Map();
      hidden = new Map();
      ids = { contact: 0, conversation: 0, message: 0, attachment: 0 };
    },
  };
}

/** @typedef {ReturnType<typeof createChatwootStore>} ChatwootStore */
