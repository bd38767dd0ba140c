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
 * Over 250 lines because one call's life (checks, hold, send, deadline, response or message
 * state, page loss, close) reads best in one place.
 */
import { ErrorCode, type ErrorEvent } from '../bridge/protocol/errors.js';
import type { ChatMessage, MessageStateMessage, UploadProgress } from '../bridge/protocol/messages.js';
import type { CommandName, CommandResults, Conversation } from '../bridge/protocol/command-results.js';
import type { Contact, SendMessageParams } from '../bridge/protocol/schemas.js';
import { NAME_MAX } from '../bridge/protocol/limits.js';
import { DEFAULTS } from '../bridge/protocol/bridge-options.js';
import { chunkedBase64, chunksOf } from './attachment-chunks.js';

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

/** One host command as the bridge receives it. */
export interface ClientCommand {
  id: string;
  method: string;
  params?: object;
}

export interface ClientTransport {
  /**
   * Hands a command to the bridge: `ChatBridge.receive`, `injectJavaScript`, `postMessage`...
   * `json` is the command as JSON text, already checked to serialise. Return `false` when the
   * bridge cannot take it now (the WebView is not mounted): the client keeps it, and every later
   * call, until `release()`. A throw rejects the call with `network_error`.
   */
  send(command: ClientCommand, json: string): boolean | void;
}

/** Codes of failures the client sees itself; the bridge's codes are in `ErrorCode`. */
export const ClientErrorCode = {
  /** `close()` was called: the call is dropped, and was never sent if it was still waiting to be. */
  Closed: 'closed',
  /** The page that took the command went away (a new page loaded) before answering. */
  PageGone: 'page_gone',
  /** No answer within the client's `timeout`. */
  Timeout: 'timeout',
} as const;
export type ClientErrorCode = (typeof ClientErrorCode)[keyof typeof ClientErrorCode];

/** Every code a call can reject with: the bridge's and the client's own. */
export type ChatBridgeErrorCode = ErrorCode | ClientErrorCode;

/** The error event of a failure the client saw itself. */
export interface ClientErrorEvent {
  type: 'error';
  code: ClientErrorCode;
  message: string;
  status?: undefined;
  errors?: undefined;
}

/** A rejected call: `catch (e) { if (e instanceof ChatBridgeError) e.code }` (across realms, check `e.name`). */
export class ChatBridgeError extends Error {
  override readonly name = 'ChatBridgeError';
  readonly code: ChatBridgeErrorCode;
  readonly status: number | undefined;
  readonly errors: Record<string, string[]> | undefined;
  constructor(readonly event: ErrorEvent | ClientErrorEvent) {
    super(event.message);
    this.code = event.code;
    this.status = event.status;
    this.errors = event.errors;
  }
}

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
  /** The messages waiting in the bridge's outbox for this inbox, in the order they go out. */
  listOutbox(): Promise<CommandResults['listOutbox']>;
  /** Cancels a message still waiting in the outbox (its own `sendMessage` then settles as the bridge says). */
  cancelMessage(params: { messageId: string }): Promise<CommandResults['cancelMessage']>;
  /** Any command by name: a known one resolves with its result type, another with `unknown`. */
  call<Name extends CommandName>(method: Name, params?: object): Promise<CommandResults[Name]>;
  call(method: string, params?: object): Promise<unknown>;
  /**
   * Feeds one message from the bridge; never throws. Returns true when it was the response to
   * a call of this client (and settled it), false for anything else, events for the app's
   * `onEvent` (message-state events too, after settling the `sendMessage` they report on).
   */
  handle(message: unknown): boolean;
  /** Calls still waiting: sent and unanswered, or held. */
  readonly pending: number;
  /** The bridge cannot take commands now (a page is loading): calls wait, in order, for `release()`. */
  hold(): void;
  /** Sends the calls `hold()` kept, in order, and the later ones straight away. */
  release(): void;
  /**
   * The page that took the calls sent so far is gone: they reject with `page_gone`, except
   * `sendMessage` calls, which keep following their message (see `sendMessage`). Held calls stay.
   */
  pageGone(): void;
  /** Rejects every waiting call with `closed`, drops the held ones unsent; later calls reject at once. */
  close(): void;
}

interface Call {
  command: ClientCommand;
  json: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** Handed to the transport (else held). */
  sent: boolean;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** A `sendMessage`'s message id, by which message-state events settle it. */
  messageId?: string;
  onProgress?: SendMessageOptions['onProgress'];
  /** The message-state events say the message waits in an outbox: no deadline. */
  queued?: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

const clientError = (code: ClientErrorCode, message: string) => new ChatBridgeError({ type: 'error', code, message });
const bridgeError = (code: ErrorCode, message: string) => new ChatBridgeError({ type: 'error', code, message });

/**
 * @param options the client's options, or its `idPrefix` alone.
 */
export function createClient(transport: ClientTransport, options: ClientOptions | string = {}): ChatClient {
  const {
    idPrefix = 'c',
    timeout = DEFAULT_CLIENT_TIMEOUT,
    random = Math.random,
  } = typeof options === 'string' ? { idPrefix: options } : options;
  const waiting = new Map<string, Call>();
  // Ids stay unique across reloads (as Capacitor's random callback start does): a response the
  // bridge sends for a command of an earlier page can never match a call of this one.
  const session = Math.floor(random() * 36 ** 6).toString(36);
  let counter = 0;
  let held = false;
  let closed = false;

  const settle = (call: Call, outcome: { ok: true; result: unknown } | { ok: false; error: Error }) => {
    if (waiting.get(call.command.id) !== call) return;
    waiting.delete(call.command.id);
    if (call.timer !== undefined) clearTimeout(call.timer);
    if (outcome.ok) call.resolve(outcome.result);
    else call.reject(outcome.error);
  };
  const fail = (call: Call, error: Error) => settle(call, { ok: false, error });

  const startDeadline = (call: Call) => {
    if (call.timer !== undefined) clearTimeout(call.timer);
    call.timer = undefined;
    if (!Number.isFinite(timeout)) return;
    call.timer = setTimeout(
      () => fail(call, clientError('timeout', `[${call.command.method}] no answer within ${timeout} ms`)),
      timeout,
    );
  };

  /** Hands one call to the transport; false when the transport could not take it now. */
  const transmit = (call: Call): boolean => {
    // Marked first: a transport may deliver the answer before `send` returns (a browser page's
    // `ChatBridge.receive` answers an unknown method at once, through a synchronous event).
    call.sent = true;
    let taken: boolean | void;
    try {
      taken = transport.send(call.command, call.json);
    } catch (thrown) {
      const detail = thrown instanceof Error ? thrown.message : String(thrown);
      fail(call, bridgeError('network_error', `[${call.command.method}] could not be handed to the bridge: ${detail}`));
      return true;
    }
    if (taken !== false) return true;
    call.sent = false;
    return false;
  };

  const release = () => {
    held = false;
    for (const call of [...waiting.values()]) {
      if (call.sent || waiting.get(call.command.id) !== call) continue;
      if (!transmit(call)) {
        held = true;
        return;
      }
    }
  };

  const call = (
    method: string,
    params?: object,
    messageId?: string,
    onProgress?: Call['onProgress'],
  ): Promise<unknown> =>
    new Promise((resolve, reject) => {
      if (closed) return reject(clientError('closed', `[${method}] the chat-bridge client is closed`));
      const id = `${idPrefix}${++counter}.${session}`;
      // Refused here, since the bridge could not answer them under their id.
      if (id.length > NAME_MAX) {
        return reject(
          bridgeError(
            'parse_error',
            `[${method}] command id is ${id.length} characters, over the bridge's ${NAME_MAX}: use a shorter idPrefix`,
          ),
        );
      }
      const command: ClientCommand = params === undefined ? { id, method } : { id, method, params };
      let json: string;
      try {
        json = JSON.stringify(command);
      } catch (thrown) {
        const detail = thrown instanceof Error ? thrown.message : String(thrown);
        return reject(bridgeError('parse_error', `[${method}] params cannot be serialised as JSON: ${detail}`));
      }
      const entry: Call = { command, json, resolve, reject, sent: false, timer: undefined };
      if (messageId !== undefined) entry.messageId = messageId;
      if (onProgress) entry.onProgress = onProgress;
      waiting.set(id, entry);
      startDeadline(entry);
      if (!held && !transmit(entry)) held = true;
    });

  /** Messages with chunked attachments, in order: each later message waits for the one before to be handed over. */
  let uploads: Promise<unknown> = Promise.resolve();
  let uploading = 0;
  let uploadCounter = 0;
  const uploaded = () => void uploading--;

  /** Sends the message's large attachments as chunks, one awaited at a time; resolves with the message naming its uploads. */
  const upload = async (message: SendMessageParams): Promise<SendMessageParams> => {
    const attachments = [];
    for (const file of message.attachments ?? []) {
      const text = chunkedBase64(file.data);
      if (text === undefined) {
        attachments.push(file);
        continue;
      }
      const uploadId = `${idPrefix}u${++uploadCounter}.${session}`;
      const chunks = chunksOf(text);
      for (let index = 0; index < chunks.length; index++) {
        // Answered within this task (microtasks only): the bridge runs on this thread, as in a
        // browser page. Then a timer before the next chunk gives the page its turn, so the upload is
        // many short tasks, not one long one. A native channel answers in a later task: no wait.
        let sameTask = true;
        setTimeout(() => (sameTask = false), 0);
        await call('appendAttachment', { uploadId, index, data: chunks[index] });
        if (sameTask) await new Promise<void>((resolve) => setTimeout(() => resolve(), 0));
      }
      const { data: _, ...named } = file;
      attachments.push({ ...named, uploadId });
    }
    return { ...message, attachments };
  };

  let messageCounter = 0;
  const newMessageId = () =>
    `m-${Date.now().toString(36)}-${Math.floor(random() * 36 ** 6).toString(36)}-${(messageCounter++).toString(36)}`;

  /**
   * Ids of live calls settled by their message's final state: the bridge still answers each with a
   * response, which is theirs to consume, not an event for the app. Bounded; forgotten with the page.
   */
  const settledByState = new Set<string>();
  const rememberSettledByState = (id: string) => {
    settledByState.add(id);
    if (settledByState.size > 1000) settledByState.delete(settledByState.values().next().value as string);
  };

  /**
   * An app callback that throws is reported as an uncaught error in a task of its own (as
   * EventTarget does), and `handle` goes on: the message still settles.
   */
  const report = (onProgress: (progress: UploadProgress) => void, progress: UploadProgress) => {
    try {
      onProgress(progress);
    } catch (error) {
      setTimeout(() => {
        throw error;
      }, 0);
    }
  };

  /** Settles the `sendMessage` calls following `messageId` from a message-state event. */
  const follow = (event: MessageStateMessage) => {
    for (const entry of [...waiting.values()]) {
      if (entry.messageId !== event.messageId) continue;
      if (event.progress && entry.onProgress) report(entry.onProgress, event.progress);
      const final = event.state === 'sent' || event.state === 'failed';
      if (final && entry.sent) rememberSettledByState(entry.command.id);
      if (event.state === 'sent') settle(entry, { ok: true, result: event.result });
      else if (event.state === 'failed') fail(entry, new ChatBridgeError(errorOf(event.error, 'sendMessage')));
      else if (!entry.queued) {
        // In an outbox, which retries on its own and reports every change: no deadline.
        entry.queued = true;
        if (entry.timer !== undefined) clearTimeout(entry.timer);
        entry.timer = undefined;
      }
    }
  };

  /** After a page loss, asks the next page which followed messages its outbox still holds. */
  const checkOutbox = () => {
    const followed = [...waiting.values()].filter((entry) => entry.sent && entry.messageId !== undefined);
    if (followed.length === 0) return;
    call('listOutbox').then(
      (result) => {
        const listed = new Set(outboxIds(result));
        for (const entry of followed) {
          if (listed.has(entry.messageId as string))
            follow({ type: 'message', messageId: entry.messageId as string, state: 'queued', attempt: 0 });
          else
            fail(
              entry,
              clientError(
                'page_gone',
                `[sendMessage] the page that took message ${entry.messageId} went away and its outbox does not hold it: it may have been sent; resend with the same messageId to be sure (the backend drops duplicates)`,
              ),
            );
        }
      },
      // An older bridge without listOutbox: the deadline decides, as for any call.
      () => undefined,
    );
  };

  /** A command whose answer is that command's result (the bridge's command table says so). */
  const command = <Name extends CommandName>(method: Name, params?: object) =>
    call(method, params) as Promise<CommandResults[Name]>;

  return {
    init: () => command('init'),
    getConversation: (contact) => command('getConversation', contact),
    createConversation: (contact) => command('createConversation', contact),
    sendMessage(params, options = {}) {
      const message = { ...params, messageId: params.messageId ?? newMessageId() };
      const send = (ready: SendMessageParams) =>
        call('sendMessage', ready, message.messageId, options.onProgress) as Promise<ChatMessage | null>;
      // The common case stays synchronous: nothing to upload, and no earlier message still uploading.
      if (uploading === 0 && !params.attachments?.some((file) => chunkedBase64(file.data))) return send(message);
      uploading++;
      // Wrapped, so that the next message waits for this one to be handed over, not answered.
      const handedOver = uploads.then(() => upload(message)).then((ready) => [send(ready)] as const);
      uploads = handedOver.then(uploaded, uploaded);
      return handedOver.then(([sent]) => sent);
    },
    listOutbox: () => command('listOutbox'),
    cancelMessage: (params) => command('cancelMessage', params),
    call: (method: string, params?: object) => call(method, params),
    handle(message) {
      if (!isObject(message)) return false;
      if (message['type'] === 'message') {
        if (typeof message['messageId'] === 'string') follow(message as unknown as MessageStateMessage);
        return false;
      }
      if (message['type'] !== 'response' || typeof message['id'] !== 'string') return false;
      if (settledByState.delete(message['id'])) return true;
      const entry = waiting.get(message['id']);
      if (entry === undefined || !entry.sent) return false;
      if (message['ok'] === true) settle(entry, { ok: true, result: message['result'] });
      else if (message['ok'] === false)
        fail(entry, new ChatBridgeError(errorOf(message['error'], entry.command.method)));
      else fail(entry, bridgeError('parse_error', `[${entry.command.method}] the bridge's response has no "ok" field`));
      return true;
    },
    get pending() {
      return waiting.size;
    },
    hold() {
      held = true;
    },
    release,
    pageGone() {
      settledByState.clear();
      for (const entry of [...waiting.values()]) {
        if (!entry.sent) continue;
        if (entry.messageId === undefined) {
          fail(
            entry,
            clientError('page_gone', `[${entry.command.method}] the page that took it went away before answering`),
          );
        } else {
          // Followed: the next page reports its message. Until it says the message is queued, the deadline runs again.
          entry.queued = false;
          startDeadline(entry);
        }
      }
      checkOutbox();
    },
    close() {
      closed = true;
      for (const entry of [...waiting.values()]) {
        fail(entry, clientError('closed', `[${entry.command.method}] the chat-bridge client was closed`));
      }
    },
  };
}

/** The bridge's error event, or a `parse_error` saying it was missing or malformed. */
function errorOf(value: unknown, method: string): ErrorEvent {
  if (isObject(value) && typeof value['code'] === 'string' && typeof value['message'] === 'string') {
    return { ...(value as unknown as ErrorEvent), type: 'error' };
  }
  return {
    type: 'error',
    code: 'parse_error',
    message: `[${method}] the bridge's answer carries no valid error event`,
  };
}

/** The message ids in a `listOutbox` result: an array of `{messageId}` or `{messages: [...]}`. */
function outboxIds(result: unknown): string[] {
  const list = Array.isArray(result)
    ? result
    : isObject(result) && Array.isArray(result['messages'])
      ? result['messages']
      : [];
  return list.flatMap((item: unknown) =>
    isObject(item) && typeof item['messageId'] === 'string' ? [item['messageId']] : [],
  );
}
