/**
 * The params of messages whose `sendMessage` failed, kept so that `resendMessage(messageId)` sends
 * one again under its own `messageId` (one `echo_id`) without the app passing its content again,
 * as a chat SDK's "resend" does from the failed message. The bridge keeps nothing of a failed
 * message (its record leaves the outbox), so the client keeps it: in memory, for the client's life,
 * bounded as a phone's memory asks: the latest FAILED_KEPT messages and FAILED_KEPT_CHARS characters
 * of attachment data (base64) in all, the oldest forgotten first; a message whose data alone is over
 * that is not kept (the app sends it again itself: `sendMessage` with the same `messageId`). No
 * timer: an idle client costs nothing, and when a resend is still worth offering is the app's call.
 */
import type { SendMessageParams } from '../bridge/protocol/schemas.js';
import { ChatBridgeError, clientError } from './client-errors.js';

/** How many failed messages are kept. */
export const FAILED_KEPT = 20;
/** How many characters of attachment data (base64) the kept messages hold in all: 16 MiB, a 12 MB photo. */
export const FAILED_KEPT_CHARS = 16 * 1024 * 1024;

/** A message as `sendMessage` sent it: its params, its `messageId` given. */
export type SentParams = SendMessageParams & { messageId: string };

export interface FailedSends {
  /** Keeps a failed message's params (again: as the newest), forgetting the oldest over the bounds. */
  keep(message: SentParams): void;
  /** The kept params of `messageId`, forgotten here: a second resend of one failure finds none. */
  take(messageId: string): SentParams | undefined;
  /** Forgets every kept message. */
  clear(): void;
  /** How many messages are kept. */
  readonly size: number;
}

const charsOf = (message: SentParams) =>
  (message.attachments ?? []).reduce((sum, file) => sum + (file.data?.length ?? 0), 0);

export function createFailedSends(): FailedSends {
  /** By message id, oldest first (a Map keeps the order of insertion). */
  const kept = new Map<string, SentParams>();
  let chars = 0;

  const take = (messageId: string) => {
    const message = kept.get(messageId);
    if (message === undefined) return undefined;
    kept.delete(messageId);
    chars -= charsOf(message);
    return message;
  };

  return {
    keep(message) {
      take(message.messageId);
      if (charsOf(message) > FAILED_KEPT_CHARS) return;
      kept.set(message.messageId, message);
      chars += charsOf(message);
      for (const oldest of kept.keys()) {
        if (kept.size <= FAILED_KEPT && chars <= FAILED_KEPT_CHARS) break;
        take(oldest);
      }
    },
    take,
    clear() {
      kept.clear();
      chars = 0;
    },
    get size() {
      return kept.size;
    },
  };
}

/**
 * Failures after which the message may go again: not `inbox_switched` (it waits for its own inbox,
 * and would be a second message in this one) nor `closed` (the client takes no more calls).
 */
const resendable = (error: unknown) =>
  !(error instanceof ChatBridgeError && (error.code === 'inbox_switched' || error.code === 'closed'));

/**
 * The client's `sendMessage` and `resendMessage` over `send`, which sends one message (its
 * `messageId` given): a failed message's params are kept, and `resendMessage` sends them again.
 */
export function createResending<Options, Result>(send: (message: SentParams, options?: Options) => Promise<Result>) {
  const failed = createFailedSends();
  const sendMessage = (message: SentParams, options?: Options): Promise<Result> => {
    // The app sending it itself supersedes what was kept of an earlier failure.
    failed.take(message.messageId);
    return send(message, options).catch((error: unknown) => {
      if (resendable(error)) failed.keep(message);
      throw error;
    });
  };
  return {
    sendMessage,
    resendMessage(messageId: string, options?: Options): Promise<Result> {
      const kept = failed.take(messageId);
      if (kept !== undefined) return sendMessage(kept, options);
      return Promise.reject(
        clientError(
          'not_kept',
          `[resendMessage] the client holds no failed message ${messageId}: send it with sendMessage and the same messageId`,
        ),
      );
    },
    /** Forgets every failed message kept (the client is closed). */
    forget: failed.clear,
  };
}
