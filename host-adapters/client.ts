/**
 * A typed client for TypeScript hosts (the React Native side, browser pages): each method
 * sends one host command and settles exactly once, with its result or a `ChatBridgeError`
 * carrying a stable `code`, whatever happens to the page, the bridge or the channel.
 *
 * Why not comlink: comlink's wire protocol needs a structured-clone `postMessage` endpoint in
 * both directions and transfers proxies; three of the four native channels carry strings
 * only, and the bridge's responses already carry ids. This is the part of comlink the bridge
 * needs, without the ~1.6 KB it would add to the injected bundle (it lives only host-side).
 *
 * The calls in flight are client-calls.ts (over the host's transport, client-transport.ts), the chunked upload attachment-chunks.ts, the following
 * of a sent message message-following.ts, what a failed message is resent from failed-sends.ts, the
 * errors client-errors.ts; this file is the public surface and puts them together.
 */
import { ErrorCode } from '../bridge/protocol/errors.js';
import type { ChatMessage, MessageStateMessage, UploadProgress } from '../bridge/protocol/messages.js';
import type { CommandName, CommandResults, Conversation } from '../bridge/protocol/command-results.js';
import type { Contact, SendMessageParams } from '../bridge/protocol/schemas.js';
import { DEFAULTS } from '../bridge/protocol/bridge-options.js';
import { messageIds, sourceId } from '../bridge/protocol/message-ids.js';
import { createChunkedUploads } from './attachment-chunks.js';
import { createCalls } from './client-calls.js';
import { bridgeCodeError, ChatBridgeError, errorOf, isObjectLike } from './client-errors.js';
import type { ClientTransport } from './client-transport.js';
import { createResending, type SentParams } from './failed-sends.js';
import { createMessageFollowing } from './message-following.js';

// What a host handles, from this entry alone: the events (`OutboundMessage`, a union on `type`),
// the error codes (a union, and the object naming them), each command's params and result.
export { ErrorCode };
export type { ErrorEvent, FieldErrors } from '../bridge/protocol/errors.js';
export type {
  BackendObject,
  ChatMessage,
  ConversationTokenMessage,
  MessageState,
  MessageStateMessage,
  OutboundMessage,
  ReadyMessage,
  ResponseMessage,
  UploadProgress,
  WidgetMessage,
} from '../bridge/protocol/messages.js';
export type { CommandName, CommandResults, Conversation, OutboxListing } from '../bridge/protocol/command-results.js';
export type { Attachment, Contact, SendMessageParams } from '../bridge/protocol/schemas.js';

export type { ClientCommand, ClientTransport } from './client-transport.js';
export { FAILED_KEPT, FAILED_KEPT_CHARS } from './failed-sends.js';
export { ChatBridgeError, ClientErrorCode } from './client-errors.js';
export type { ChatBridgeErrorCode, ClientErrorEvent } from './client-errors.js';

export interface ClientOptions {
  /** Starts every command id, so two clients on one bridge never collide. @default "c" */
  idPrefix?: string;
  /**
   * Milliseconds a call may wait for its answer (held ones included) before it rejects with
   * `timeout`; `Infinity` for none. A message the bridge has reported queued in its outbox has
   * no deadline: it is followed by its message-state events.
   * @default 55000 (the bridge's `commandTimeout`, 50 s, plus 5 s for the channel)
   */
  timeout?: number;
  /** The source of the random part of ids. @default Math.random */
  random?: () => number;
}

export interface SendMessageOptions {
  /**
   * Told each upload progress report of this message (its `sending` events' `progress`), for an
   * upload bar next to the message; the same reports also reach `onEvent`.
   */
  onProgress?(progress: UploadProgress): void;
}

/**
 * What `handle` returns for what it was given: a flag per message for an array, one flag for one
 * message, either when the type does not say (`unknown`, `any`, a union of both: check with
 * `Array.isArray`).
 */
export type Handled<Delivered> = 0 extends 1 & Delivered
  ? boolean | boolean[]
  : Delivered extends readonly unknown[]
    ? boolean[]
    : unknown extends Delivered
      ? boolean | boolean[]
      : boolean;

/** The bridge's `commandTimeout` and a margin for the trip through the channel. */
export const DEFAULT_CLIENT_TIMEOUT = DEFAULTS.commandTimeout + 5_000;

export interface ChatClient {
  init(): Promise<CommandResults['init']>;
  getConversation(contact?: Contact): Promise<Conversation | null>;
  createConversation(contact?: Contact): Promise<Conversation | null>;
  /**
   * Sends a message under its own `messageId` (one is made when not given). Settles with the
   * command's response or, when the page that took it went away, with the message-state event
   * (`sent` resolves with its result, `failed` rejects) a later page sends for it. An attachment
   * whose base64 is over 512 KiB goes first as `appendAttachment` chunks, each awaited, and the
   * message names the upload; messages still go in the order they were called. A chunk's failure
   * rejects the call with that chunk's error, and the message is not sent.
   */
  sendMessage(params: SendMessageParams, options?: SendMessageOptions): Promise<ChatMessage | null>;
  /**
   * Sends a failed message again, under its `messageId` (the same `echo_id`), from the params its
   * `sendMessage` was given, which the client keeps for the latest `FAILED_KEPT` failed messages
   * (attachment data up to `FAILED_KEPT_CHARS` characters in all). Settles as `sendMessage`.
   * Rejects with `not_kept` when the client holds none for it (never failed here, resent already,
   * forgotten): send it with `sendMessage` and the same `messageId`. Never kept: a message that
   * failed with `inbox_switched` (it stays queued for its own inbox) or `closed`.
   */
  resendMessage(messageId: string, options?: SendMessageOptions): Promise<ChatMessage | null>;
  /** The messages waiting in the bridge's outbox for this inbox, in the order they go out. */
  listOutbox(): Promise<CommandResults['listOutbox']>;
  /** Cancels a message still waiting in the outbox (its own `sendMessage` then settles as the bridge says). */
  cancelMessage(params: { messageId: string }): Promise<CommandResults['cancelMessage']>;
  /** Any command by name: a known one resolves with its result type, another with `unknown`. */
  call<Name extends CommandName>(method: Name, params?: object): Promise<CommandResults[Name]>;
  call(method: string, params?: object): Promise<unknown>;
  /**
   * Feeds what the bridge's channel delivered, decoded from JSON: one message, or the array of
   * several a native channel sends in one call (each taken in order); never throws. For one
   * message, true when it was the response to a call of this client (and settled it), false for
   * anything else, events for the app's `onEvent` (message-state events too, after settling the
   * `sendMessage` they report on). For an array, one such flag per message, in the same order:
   * the messages whose flag is false are the app's.
   */
  handle<Delivered>(delivered: Delivered): Handled<Delivered>;
  /** Calls still waiting: sent and unanswered, or held. */
  readonly pending: number;
  /** The bridge cannot take commands now (a page is loading): calls wait, in order, for `release()`. */
  hold(): void;
  /** Sends the calls `hold()` kept, in order, and the later ones straight away. */
  release(): void;
  /**
   * The page that took the calls sent so far is gone: they reject with `page_gone`, except
   * `sendMessage` calls, which keep following their message (see `sendMessage`). Held calls stay.
   * `inboxSwitched`: the new page is another inbox's; `sendMessage` calls reject with
   * `inbox_switched` (their messages stay queued for their own inbox: never resend them there).
   */
  pageGone(inboxSwitched?: boolean): void;
  /** Rejects every waiting call with `closed`, drops the held ones unsent, forgets the failed messages kept; later calls reject at once. */
  close(): void;
}

/**
 * @param options the client's options, or its `idPrefix` alone.
 */
export function createClient(transport: ClientTransport, options: ClientOptions | string = {}): ChatClient {
  const {
    idPrefix = 'c',
    timeout = DEFAULT_CLIENT_TIMEOUT,
    random = Math.random,
  } = typeof options === 'string' ? { idPrefix: options } : options;
  // Ids stay unique across reloads (as Capacitor's random callback start does): a response the
  // bridge sends for a command of an earlier page can never match a call of this one.
  const session = Math.floor(random() * 36 ** 6).toString(36);
  let counter = 0;
  let uploadCounter = 0;
  const calls = createCalls(transport, () => `${idPrefix}${++counter}.${session}`, timeout);
  const { waiting, call, settle, fail } = calls;
  const uploads = createChunkedUploads(call, () => `${idPrefix}u${++uploadCounter}.${session}`);
  const following = createMessageFollowing(calls);

  // In the bridge's format, from the one place that makes them (bridge/protocol/message-ids.ts).
  const newMessageId = messageIds(sourceId(Date.now(), random()));

  /** A command whose answer is that command's result (the bridge's command table says so). */
  const command = <Name extends CommandName>(method: Name, params?: object) =>
    call(method, params) as Promise<CommandResults[Name]>;

  /** Sends a message, its messageId given; a failed one's params are kept for resendMessage (failed-sends.ts). */
  const resending = createResending((message: SentParams, options: SendMessageOptions = {}) =>
    uploads.send(
      message,
      (ready) => call('sendMessage', ready, message.messageId, options.onProgress) as Promise<ChatMessage | null>,
    ),
  );

  /** One message from the bridge: true when it was the response to one of this client's calls. */
  function handleOne(message: unknown): boolean {
    if (!isObjectLike(message)) return false;
    if (message['type'] === 'message') {
      if (typeof message['messageId'] === 'string') following.follow(message as unknown as MessageStateMessage);
      return false;
    }
    if (message['type'] !== 'response' || typeof message['id'] !== 'string') return false;
    if (following.consumeResponse(message['id'])) return true;
    const entry = waiting.get(message['id']);
    if (entry === undefined || !entry.sent) return false;
    if (message['ok'] === true) settle(entry, { ok: true, result: message['result'] });
    else if (message['ok'] === false) fail(entry, new ChatBridgeError(errorOf(message['error'], entry.command.method)));
    else
      fail(entry, bridgeCodeError('parse_error', `[${entry.command.method}] the bridge's response has no "ok" field`));
    return true;
  }

  return {
    init: () => command('init'),
    getConversation: (contact) => command('getConversation', contact),
    createConversation: (contact) => command('createConversation', contact),
    sendMessage: (params, options) =>
      resending.sendMessage({ ...params, messageId: params.messageId ?? newMessageId() }, options),
    resendMessage: resending.resendMessage,
    listOutbox: () => command('listOutbox'),
    cancelMessage: (params) => command('cancelMessage', params),
    call: (method: string, params?: object) => call(method, params),
    // What a channel delivers: an array is each of its messages in turn (a native channel's
    // one call per frame), so every call in it settles as if they had come one by one.
    handle: <Delivered>(delivered: Delivered) =>
      (Array.isArray(delivered) ? delivered.map(handleOne) : handleOne(delivered)) as Handled<Delivered>,
    get pending() {
      return waiting.size;
    },
    hold: calls.hold,
    release: calls.release,
    pageGone: following.pageGone,
    close() {
      resending.forget();
      calls.close();
    },
  };
}
