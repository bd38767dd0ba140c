/**
 * Following a message after its command: a `sendMessage` call settles from the message-state
 * events as well as from its response, so it still settles when the page that took it goes away
 * (the next page's outbox reports the message). A call settled by its final state has its late
 * response consumed here, so the app never sees it as an event.
 */
import type { MessageStateMessage, UploadProgress } from '../bridge/protocol/messages.js';
import type { Calls } from './client-calls.js';
import { bridgeCodeError, ChatBridgeError, clientError, errorOf, isObjectLike } from './client-errors.js';

/** How many settled calls' ids are remembered for their late responses. */
const REMEMBERED = 1000;

export interface MessageFollowing {
  /** Settles the `sendMessage` calls following the event's message, and reports its upload progress. */
  follow(event: MessageStateMessage): void;
  /** True when `id` is a call settled by its message's final state: its response is consumed. */
  consumeResponse(id: string): boolean;
  /**
   * After a page loss: forgets the remembered responses, and asks the next page which followed
   * messages its outbox holds. `inboxSwitched`: the next page is another inbox's, whose outbox
   * cannot hold them; they stay queued for their own, and their calls reject with `inbox_switched`.
   */
  pageGone(inboxSwitched?: boolean): void;
}

export function createMessageFollowing(calls: Calls): MessageFollowing {
  const { waiting } = calls;
  /**
   * Ids of live calls settled by their message's final state: the bridge still answers each with a
   * response, which is theirs to consume, not an event for the app. Bounded; forgotten with the page.
   */
  const settledByState = new Set<string>();
  const rememberSettledByState = (id: string) => {
    settledByState.add(id);
    if (settledByState.size > REMEMBERED) settledByState.delete(settledByState.values().next().value as string);
  };

  const follow = (event: MessageStateMessage) => {
    for (const entry of [...waiting.values()]) {
      if (entry.messageId !== event.messageId) continue;
      if (event.progress && entry.onProgress) report(entry.onProgress, event.progress);
      const final = event.state === 'sent' || event.state === 'failed';
      if (final && entry.sent) rememberSettledByState(entry.command.id);
      if (event.state === 'sent') calls.settle(entry, { ok: true, result: event.result });
      else if (event.state === 'failed') calls.fail(entry, new ChatBridgeError(errorOf(event.error, 'sendMessage')));
      else if (!entry.queued) {
        // In an outbox, which retries on its own and reports every change: no deadline.
        entry.queued = true;
        calls.stopDeadline(entry);
      }
    }
  };

  /** Asks the next page which followed messages its outbox still holds. */
  const checkOutbox = () => {
    const followed = [...waiting.values()].filter((entry) => entry.sent && entry.messageId !== undefined);
    if (followed.length === 0) return;
    calls.call('listOutbox').then(
      (result) => {
        const listed = new Set(outboxIds(result));
        for (const entry of followed) {
          if (listed.has(entry.messageId as string))
            follow({ type: 'message', messageId: entry.messageId as string, state: 'queued', attempt: 0 });
          else
            calls.fail(
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

  return {
    follow,
    consumeResponse: (id) => settledByState.delete(id),
    pageGone(inboxSwitched) {
      settledByState.clear();
      for (const entry of [...waiting.values()]) {
        if (!entry.sent) continue;
        if (inboxSwitched && entry.messageId !== undefined) {
          calls.fail(entry, inboxSwitchedError(entry.messageId));
        } else if (entry.messageId === undefined) {
          calls.fail(
            entry,
            clientError('page_gone', `[${entry.command.method}] the page that took it went away before answering`),
          );
        } else {
          // Followed: the next page reports its message. Until it says the message is queued, the deadline runs again.
          entry.queued = false;
          calls.startDeadline(entry);
        }
      }
      checkOutbox();
    },
  };
}

/** A followed message whose new page is another inbox's: it stays queued for its own. */
const inboxSwitchedError = (messageId: string) =>
  bridgeCodeError(
    'inbox_switched',
    `[sendMessage] the page was loaded for another inbox: message ${messageId} stays queued for its own inbox and is sent when that inbox is loaded again; do not resend it here`,
  );

/**
 * An app callback that throws is reported as an uncaught error in a task of its own (as
 * EventTarget does), and `handle` goes on: the message still settles.
 */
function report(onProgress: (progress: UploadProgress) => void, progress: UploadProgress) {
  try {
    onProgress(progress);
  } catch (error) {
    setTimeout(() => {
      throw error;
    }, 0);
  }
}

/** The message ids in a `listOutbox` result: an array of `{messageId}` or `{messages: [...]}`. */
function outboxIds(result: unknown): string[] {
  const list = Array.isArray(result)
    ? result
    : isObjectLike(result) && Array.isArray(result['messages'])
      ? result['messages']
      : [];
  return list.flatMap((item: unknown) =>
    isObjectLike(item) && typeof item['messageId'] === 'string' ? [item['messageId']] : [],
  );
}
