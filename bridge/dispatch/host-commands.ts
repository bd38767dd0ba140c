/**
 * The host commands the bridge understands, each with its params schema.
 */
import type { Api } from '../backend/api.js';
import type { CommandSpec, CommandTable } from './command-runner.js';
import { BridgeError } from '../outbound/errors.js';
import type { Outcome } from '../outbound/messages.js';
import type { Outbox, OutboxEntry } from '../backend/outbox.js';
import {
  ContactSchema,
  EmptyParamsSchema,
  SendMessageSchema,
  type Contact,
  type SendMessageParams,
} from '../inbound/schemas.js';
import { validateContact, validateMessage } from './service-rules.js';

interface HostCommandDeps {
  api: Api;
  outbox: Outbox;
  maxFileSize: number;
  /** A fresh client-side message id (`echo_id`). */
  newMessageId(): string;
  /** Where `sendMessage` waits for its outbox entry (this very object) to be settled. */
  awaitSettled(entry: OutboxEntry): Promise<unknown>;
}

export function createHostCommands(deps: HostCommandDeps): CommandTable {
  const init: CommandSpec<Record<string, never>> = {
    params: EmptyParamsSchema,
    run: async () => ({ config: await deps.api.init() }),
  };
  const getConversation: CommandSpec<Contact> = {
    params: ContactSchema,
    async run(contact) {
      validateContact(contact, '[getConversation]');
      return deps.api.getConversation(contact);
    },
  };
  const createConversation: CommandSpec<Contact> = {
    params: ContactSchema,
    async run(contact) {
      validateContact(contact, '[POST /conversations]');
      return deps.api.createConversation(contact);
    },
  };
  const sendMessage: CommandSpec<SendMessageParams> = {
    params: SendMessageSchema,
    async run(params, context) {
      validateMessage(params, deps.maxFileSize);
      const { content, attachments, messageId = deps.newMessageId(), ...contact } = params;
      validateContact(contact, '[sendMessage]');
      // JSON (storage, the wire) leaves out the fields that are undefined.
      const entry = { commandId: context.id, messageId, content, attachments, contact } as OutboxEntry;
      const settled = deps.awaitSettled(entry);
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
