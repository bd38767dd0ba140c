/**
 * What each host command answers with (README "Messages"): the typed client resolves each call
 * with its own, and the commands the bridge answers itself are typed against these.
 */
import type { BackendObject, ChatMessage, OutboxListing } from './messages.js';

export type { OutboxListing };

/** The backend's conversation, as it answered. */
export type Conversation = BackendObject;

export interface CommandResults {
  /** The widget config without its `authToken`, which stays in the bridge. */
  init: { config: Record<string, unknown> };
  /** The contact's conversation, created when there is none; `null` for a 2xx without a JSON body. */
  getConversation: Conversation | null;
  /** The new conversation; `null` for a 2xx without a JSON body. */
  createConversation: Conversation | null;
  /** The created message, once it is actually sent. */
  sendMessage: ChatMessage | null;
  /** The upload's bytes so far. */
  appendAttachment: { size: number };
  /** The messages waiting for this inbox, in the order they go out, without attachment bytes. */
  listOutbox: { messages: OutboxListing[] };
  /** `true` when a waiting message was taken out of the outbox. */
  cancelMessage: { cancelled: boolean };
}

/** The host commands' names: a command's `method`. */
export type CommandName = keyof CommandResults;
