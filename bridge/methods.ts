/**
 * The host commands the bridge understands, each with its params schema.
 */
import type { Api, OutgoingMessage } from './api.js';
import type { MethodSpec, MethodTable } from './commands.js';
import { BridgeError } from './errors.js';
import type { Outbox, OutboxEntry, Outcome } from './outbox.js';
import { ContactSchema, EmptyParamsSchema, SendMessageSchema, type Contact, type SendMessageParams } from './schemas.js';
import { validateContact, validateMessage } from './validate.js';

interface MethodDeps {
  api: Api;
  outbox: Outbox;
  maxFileSize: number;
  /** A fresh client-side message id (`echo_id`). */
  newMessageId(): string;
  /** Where `sendMessage` waits for its outbox entry to be settled. */
  awaitSettled(messageId: string): Promise<unknown>;
}

export function createMethods(deps: MethodDeps): MethodTable {
  const init: MethodSpec<Record<string, never>> = {
    params: EmptyParamsSchema,
    run: async () => ({ config: await deps.api.init() }),
  };
  const getConversation: MethodSpec<Contact> = {
    params: ContactSchema,
    run: (contact) => deps.api.getConversation(contact),
  };
  const createConversation: MethodSpec<Contact> = {
    params: ContactSchema,
    run: (contact) => deps.api.createConversation(contact),
  };
  const sendMessage: MethodSpec<SendMessageParams> = {
    params: SendMessageSchema,
    async run(params, context) {
      validateMessage(params, deps.maxFileSize);
      const contact = contactOf(params);
      validateContact(contact, '[POST /conversations]');
      const entry: OutboxEntry = { commandId: context.id, ...messageOf(params, deps.newMessageId()), contact };
      const settled = deps.awaitSettled(entry.messageId);
      deps.outbox.enqueue(entry);
      context.detach();
      void deps.outbox.drain();
      return settled;
    },
  };
  return { init, getConversation, createConversation, sendMessage };
}

/** Turns an outbox outcome into what `awaitSettled` resolves or rejects with. */
export function unwrapOutcome(outcome: Outcome): unknown {
  if (outcome.ok) return outcome.result;
  throw new BridgeError(outcome.error);
}

function messageOf(params: SendMessageParams, generatedId: string): OutgoingMessage {
  const message: OutgoingMessage = { messageId: params.messageId ?? generatedId };
  if (params.content !== undefined) message.content = params.content;
  if (params.attachments !== undefined) message.attachments = params.attachments;
  return message;
}

function contactOf(params: SendMessageParams): Contact {
  const contact: Contact = {};
  if (params.name !== undefined) contact.name = params.name;
  if (params.email !== undefined) contact.email = params.email;
  if (params.identifier !== undefined) contact.identifier = params.identifier;
  return contact;
}
