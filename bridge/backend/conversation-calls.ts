/**
 * The conversation and message calls, and what their answers tell of the contact: whether it has a
 * conversation, which fields were last set. Each is made with the session's auth token (api.ts).
 *
 * conversationCalls runs a few lines past 80: its calls share one `call` and what the answers told
 * of the contact, which each reads and may change; each call is short.
 */
import type { ApiRequest, ApiResponse } from './http.js';
import type { ProgressListener } from '../environment.js';
import { lostAnswers } from './lost-answers.js';
import { oneAtATime } from './one-at-a-time.js';
import type { Contact } from '../protocol/schemas.js';
import type { OutboxRecord } from './outbox-record.js';
import type { Profile } from './profile.js';

/** The calls the host commands make of a contact's conversation. */
export interface ConversationCalls {
  /** `signal`: the command was answered; its requests stop and none is made after. */
  getConversation(contact: Contact, signal?: AbortSignal): Promise<unknown>;
  createConversation(contact: Contact, signal?: AbortSignal): Promise<unknown>;
  /** `onProgress`: told the upload's progress, when the message has attachments. */
  sendMessage(message: OutboxRecord, onProgress?: ProgressListener): Promise<unknown>;
}

/**
 * @param authorized the request with the auth token, renewed once where it was stale (api.ts)
 * @param now the device's clock, for when a message's attempt began
 * @param serverTime a device time on the server's clock
 */
export function conversationCalls(
  authorized: (request: ApiRequest) => Promise<ApiResponse>,
  profile: Profile,
  now: () => number,
  serverTime: (deviceTime: number) => number,
): ConversationCalls {
  // Whether the contact is known to have a conversation, learnt from the backend's answers.
  let conversationKnown = false;
  /** The contact's fields last set on a backend with a `contactPath`, as JSON. */
  let contactSet = '';
  const listMessages = () => call({ method: 'GET', path: profile.messagesPath });
  const lost = lostAnswers(profile.findSent, listMessages, now, serverTime);

  /**
   * A conversation or message request, whose 2xx body is the answer. A contract 404 goes to
   * `recover` when the caller has a recovery (Chatwoot's 404 is a stale token, the session's).
   */
  async function call(request: ApiRequest, recover?: () => Promise<unknown>): Promise<unknown> {
    const response = await authorized(request);
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

  // Before a photo: looked up once a page (created on 404), then known from every answer; one lookup shared.
  const lookUpConversation = oneAtATime(getConversation);

  async function sendMessage(message: OutboxRecord, onProgress?: ProgressListener): Promise<unknown> {
    // Every attempt of one message carries the same echo_id, so the backend can drop a repeat
    // and a retry never duplicates a chat message. A 404 means the contact has no conversation
    // yet: create one and retry once. That costs a text message nothing when the conversation
    // exists, but would send a photo's bytes twice to a new contact, so attachments wait for
    // the conversation to be known first.
    const request = messageRequest(message, profile, onProgress);
    const contact = message.contact || {};
    // Chatwoot makes the conversation with the first message (no 404 for a missing one); the
    // contact's fields go before it, as the contract's go with the conversation it creates. A
    // refusal of them (a 422 on a malformed e-mail) fails the message, as on the contract.
    if (profile.contactPath) await setContact(contact);
    else if (request.form && !conversationKnown) await lookUpConversation(contact);
    return lost.sendOnce(message, () =>
      call(request, async () => {
        await createConversation(contact);
        return call(request);
      }),
    );
  }

  return { getConversation, createConversation, sendMessage };
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
