/**
 * How a typed client's call fails: `ChatBridgeError`, carrying the bridge's error event or one the
 * client made itself (`closed`, `page_gone`, `timeout`, `not_kept`), and the reading of the bridge's error events.
 */
import { errorEvent, type BridgeCode, type ErrorCode, type ErrorEvent } from '../bridge/protocol/errors.js';

/** Codes of failures the client sees itself; the bridge's codes are in `ErrorCode`. */
export const ClientErrorCode = {
  /** `close()` was called: the call is dropped, and was never sent if it was still waiting to be. */
  Closed: 'closed',
  /** The page that took the command went away (a new page loaded) before answering. */
  PageGone: 'page_gone',
  /** No answer within the client's `timeout`. */
  Timeout: 'timeout',
  /**
   * `resendMessage` named a message whose params the client does not hold: it did not fail under
   * this client, it was resent already, or it was forgotten (the bounds, `close()`). Send it with
   * `sendMessage` and the same `messageId`.
   */
  NotKept: 'not_kept',
} as const;
export type ClientErrorCode = (typeof ClientErrorCode)[keyof typeof ClientErrorCode];

/**
 * Whether the same call can succeed later with nothing changed, as the bridge's `RETRYABLE` says
 * for its codes (bridge/protocol/errors.ts): a call that met a gone page or no answer may be made
 * again; a closed client takes none.
 */
export const CLIENT_RETRYABLE: Record<ClientErrorCode, boolean> = {
  closed: false,
  page_gone: true,
  timeout: true,
  not_kept: false,
};

/** Every code a call can reject with: the bridge's and the client's own. */
export type ChatBridgeErrorCode = ErrorCode | ClientErrorCode;

/** The error event of a failure the client saw itself. */
export interface ClientErrorEvent {
  type: 'error';
  code: ClientErrorCode;
  message: string;
  status?: undefined;
  errors?: undefined;
  retryable: boolean;
  retryAt?: undefined;
}

/** A rejected call: `catch (e) { if (e instanceof ChatBridgeError) e.code }` (across realms, check `e.name`). */
export class ChatBridgeError extends Error {
  override readonly name = 'ChatBridgeError';
  readonly code: ChatBridgeErrorCode;
  readonly status: number | undefined;
  readonly errors: Record<string, string[]> | undefined;
  /** The same call (a message: `resendMessage(messageId)`) can succeed later with nothing changed. */
  readonly retryable: boolean;
  /** When a retry is due (ms since the epoch), where the bridge knew. */
  readonly retryAt: number | undefined;
  constructor(readonly event: ErrorEvent | ClientErrorEvent) {
    super(event.message);
    this.code = event.code;
    this.status = event.status;
    this.errors = event.errors;
    this.retryable = event.retryable;
    this.retryAt = event.retryAt;
  }
}

/** Anything with properties to read: an object or an array, not null (unlike the bridge's `isObject`, a JSON object). */
export const isObjectLike = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** A failure the client saw itself, under one of its own codes. */
export const clientError = (code: ClientErrorCode, message: string) =>
  new ChatBridgeError({ type: 'error', code, message, retryable: CLIENT_RETRYABLE[code] });
/**
 * A failure the client saw itself under one of the bridge's codes (a command it cannot send, an
 * answer it cannot read). Not the bridge's own `bridgeError`, which makes a `BridgeError` inside the bridge.
 */
export const bridgeCodeError = (code: BridgeCode, message: string) => new ChatBridgeError(errorEvent(code, message));

/**
 * The bridge's error event, or a `parse_error` saying it was missing or malformed. An event without
 * a boolean `retryable` (a bridge older than the field) is read as not retryable.
 */
export function errorOf(value: unknown, method: string): ErrorEvent {
  if (isObjectLike(value) && typeof value['code'] === 'string' && typeof value['message'] === 'string') {
    return { ...(value as unknown as ErrorEvent), type: 'error', retryable: value['retryable'] === true };
  }
  return errorEvent('parse_error', `[${method}] the bridge's answer carries no valid error event`);
}
