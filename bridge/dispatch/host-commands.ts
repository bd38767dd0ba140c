/**
 * The host commands the bridge understands, each with its params schema.
 */
import type { Api } from '../backend/api.js';
import type { CommandSpec, CommandTable } from './command-runner.js';
import type { CommandResults } from '../protocol/command-results.js';
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
} from '../protocol/schemas.js';
import { validateContact, validateMessage } from '../protocol/service-rules.js';
import { unbase64 } from '../bytes.js';
import { createUploads } from './uploads.js';
import type { Timers } from '../environment.js';

/**
 * A command whose result the bridge builds, typed against what the client promises for it. The
 * backend's bodies (conversations, messages) pass through as they came, so those stay untyped here.
 */
type Answering<Params, Name extends keyof CommandResults> = CommandSpec<Params, CommandResults[Name]>;

/**
 * @param timers for dropping uploads left unused
 * @param fileTypes the MIME types the backend accepts (the service's by default)
 */
export function createHostCommands(
  api: Api,
  outbox: Outbox,
  maxFileSize: number,
  timers: Timers,
  fileTypes?: RegExp,
): CommandTable {
  const uploads = createUploads(maxFileSize, timers);
  return {
    init: {
      schema: EmptyParamsSchema,
      run: async () => ({ config: await api.init() }),
    } satisfies Answering<Record<string, never>, 'init'>,
    getConversation: {
      schema: ContactSchema,
      async run(contact, { signal }) {
        validateContact(contact, '[getConversation]');
        return api.getConversation(contact, signal);
      },
    } satisfies CommandSpec<Contact>,
    createConversation: {
      schema: ContactSchema,
      async run(contact, { signal }) {
        validateContact(contact, '[createConversation]');
        return api.createConversation(contact, signal);
      },
    } satisfies CommandSpec<Contact>,
    sendMessage: {
      schema: SendMessageSchema,
      untimed: true,
      // Not async: the answer then follows the message's outcome in one microtask, before the
      // sender's removal of its record starts (an async function would add two).
      run(params) {
        validateMessage(params, maxFileSize, fileTypes);
        const { content, attachments } = params;
        // Given by the host, or minted as the command came in (bridge.ts, protocol/message-ids.ts).
        const messageId = params.messageId as string;
        const contact: Contact = { name: params.name, email: params.email, identifier: params.identifier };
        validateContact(contact, '[sendMessage]');
        // Attachments are stored and uploaded as bytes; base64 is only how commands carry them.
        const uploaded = uploads.take(attachments ? attachments.map((file) => file.uploadId) : []);
        const files =
          attachments &&
          attachments.map(({ name, type, data, size }, i) => {
            const bytes = uploaded[i] || (data !== undefined && unbase64(data));
            return bytes ? { name, type, data: bytes } : { name, type, size: size || 0 };
          });
        return outbox.enqueue({ messageId, content, contact, files });
      },
    } satisfies CommandSpec<SendMessageParams>,
    appendAttachment: {
      schema: AppendAttachmentSchema,
      run: async ({ uploadId, index, data }) => ({ size: uploads.append(uploadId, index, data) }),
    } satisfies Answering<AppendAttachmentParams, 'appendAttachment'>,
    listOutbox: {
      schema: EmptyParamsSchema,
      run: async () => ({ messages: await outbox.list() }),
    } satisfies Answering<Record<string, never>, 'listOutbox'>,
    cancelMessage: {
      schema: CancelMessageSchema,
      run: async ({ messageId }) => ({ cancelled: await outbox.cancel(messageId) }),
    } satisfies Answering<{ messageId: string }, 'cancelMessage'>,
  };
}
