/**
 * What the bridge sends to the host: a discriminated union on `type`.
 */
import type { ErrorEvent } from './errors.js';

/** Sent once at install: the bridge is listening. (Its version is `ChatBridge.version`.) */
export interface ReadyMessage {
  type: 'ready';
}

export type ResponseMessage =
  | { type: 'response'; id: string; ok: true; result: unknown }
  | { type: 'response'; id: string; ok: false; error: ErrorEvent };

/**
 * A widget event forwarded as it came, minus its `event` name which becomes a field, and minus
 * every field whose name says it holds a credential (`token`, `secret`, `password`).
 */
export interface WidgetMessage {
  type: 'widget';
  event: string;
  data: Record<string, unknown>;
}

/**
 * Where one outgoing chat message stands, for the host's UI: `queued` (a clock), `sending`,
 * `sent` (a tick; `result` is the backend's message), `failed` (final; `error` says why: a
 * retry button). Sent on every change, for messages of this page and of earlier pages alike.
 */
export type MessageState = 'queued' | 'sending' | 'sent' | 'failed';

export interface MessageStateMessage {
  type: 'message';
  messageId: string;
  state: MessageState;
  /** Attempts made so far (0 while it waits for its first). */
  attempt: number;
  /** When the next automatic attempt is due (ms since the epoch), while one is scheduled. */
  nextAttemptAt?: number;
  /** The backend's message, when `sent`. */
  result?: ChatMessage | null;
  error?: ErrorEvent;
  /** Upload progress of a message with attachments, while it is `sending`. */
  progress?: UploadProgress;
}

/**
 * A JSON object from the backend, handed to the host as it came: the service specifies no success
 * body beyond a message's `content`, and deployments add fields of their own.
 */
export interface BackendObject {
  readonly [field: string]: unknown;
}

/**
 * The backend's message: what `sendMessage` resolves with and a `sent` state's `result`; `null`
 * when the backend answered 2xx with an empty body or one that is not JSON.
 */
export interface ChatMessage extends BackendObject {
  readonly content?: string;
}

/** A message waiting in the outbox, as `listOutbox` shows it: no attachment bytes. */
export interface OutboxListing {
  messageId: string;
  state: MessageState;
  attempt: number;
  nextAttemptAt: number | undefined;
  content: string | undefined;
  files: Array<{ name: string; type: string; size: number | undefined }> | undefined;
}

/**
 * How far the upload of a message with attachments is: bytes of the multipart request body sent
 * so far, and in all (a little more than the files: the text and the form's boundaries too).
 */
export interface UploadProgress {
  sentBytes: number;
  totalBytes: number;
}

/**
 * The widget's conversation token, for a host that resumes the conversation with it (as
 * `cw_conversation` in the widget URL). Sent only with `forwardConversationToken: true`, once per
 * new token, and only to the host's channel: the one message that carries a token unredacted.
 */
export interface ConversationTokenMessage {
  type: 'conversationToken';
  token: string;
}

export type OutboundMessage =
  ErrorEvent | ResponseMessage | WidgetMessage | ReadyMessage | MessageStateMessage | ConversationTokenMessage;

/** How a command ended: what its response carries. */
export type Outcome = { ok: true; result: unknown } | { ok: false; error: ErrorEvent };
