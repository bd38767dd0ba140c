/**
 * The host commands the bridge understands, each with its params schema.
 */
import type { Api } from '../backend/api.js';
import type { CommandSpec, CommandTable } from './command-runner.js';
import type { Outbox } from '../backend/outbox.js';
import {
  AppendAttachmentSchema,
  CancelMessageSchema,
  ContactSchema,
  EmptyParamsSchema,
  SendMessageSchema,
  type AppendAttachmentParams,
  type Contact,
  type SendMessageParams,
} from '../inbound/schemas.js';
import { validateContact, validateMessage } from './service-rules.js';
import { unbase64 } from '../bytes.js';
import { createUploads } from './uploads.js';
import type { Timers } from '../environment.js';

const CONTACT_FIELDS = ['name', 'email', 'identifier'] as const;

interface HostCommandDeps {
  api: Api;
  outbox: Outbox;
  maxFileSize: number;
  /** For dropping uploads left unused. */
  timers: Timers;
  /** A fresh client-side message id (`echo_id`). */
  newMessageId(): string;
}

export function createHostCommands(deps: HostCommandDeps): CommandTable {
  const uploads = createUploads(deps.maxFileSize, deps.timers);
  const init: CommandSpec<Record<string, never>> = {
    params: EmptyParamsSchema,
    run: async () => ({ config: await deps.api.init() }),
  };
  const getConversation: CommandSpec<Contact> = {
    params: ContactSchema,
    async run(contact, { signal }) {
      validateContact(contact, '[getConversation]');
      return deps.api.getConversation(contact, signal);
    },
  };
  const createConversation: CommandSpec<Contact> = {
    params: ContactSchema,
    async run(contact, { signal }) {
      validateContact(contact, '[POST /conversations]');
      return deps.api.createConversation(contact, signal);
    },
  };
  const sendMessage: CommandSpec<SendMessageParams> = {
    params: SendMessageSchema,
    untimed: true,
    async run(params) {
      validateMessage(params, deps.maxFileSize);
      const { content, attachments, messageId = deps.newMessageId() } = params;
      // The contact fields that are present (a rest pattern would pull in esbuild's helper).
      const contact: Contact = {};
      for (const field of CONTACT_FIELDS) if (params[field] !== undefined) contact[field] = params[field];
      validateContact(contact, '[sendMessage]');
      // Attachments are stored and uploaded as bytes; base64 is only how commands carry them.
      const uploaded = uploads.take(attachments ? attachments.map((file) => file.uploadId) : []);
      const files =
        attachments &&
        attachments.map(({ name, type, data, size }, i) => {
          const bytes = uploaded[i] || (data !== undefined && unbase64(data));
          return bytes ? { name, type, data: bytes } : { name, type, size: size || 0 };
        });
      return deps.outbox.enqueue({ messageId, content, contact, files });
    },
  };
  const appendAttachment: CommandSpec<AppendAttachmentParams> = {
    params: AppendAttachmentSchema,
    run: async ({ uploadId, index, data }) => ({ size: uploads.append(uploadId, index, data) }),
  };
  const listOutbox: CommandSpec<Record<string, never>> = {
    params: EmptyParamsSchema,
    run: async () => ({ messages: await deps.outbox.list() }),
  };
  const cancelMessage: CommandSpec<{ messageId: string }> = {
    params: CancelMessageSchema,
    run: async ({ messageId }) => ({ cancelled: await deps.outbox.cancel(messageId) }),
  };
  return { init, getConversation, createConversation, sendMessage, appendAttachment, listOutbox, cancelMessage };
}
