/**
 * Messages whose last attempt got no answer, where the backend would store a repeat (the profile's
 * `findSent`, chatwoot-profile.ts: no echo_id check): before such a message goes again, the
 * conversation's latest messages are looked through for it, and it is settled as sent when it is there.
 */
import { gotNoAnswer } from '../protocol/errors.js';
import type { OutboxRecord } from './outbox-record.js';
import type { Profile } from './profile.js';

export interface LostAnswers {
  /**
   * Sends the message by `attempt`; where its last attempt got no answer, the conversation's latest
   * messages are looked through first, and the backend's copy found there is the outcome instead.
   * An attempt that ends in `network_error` (no answer) leaves the message to be looked for.
   * A first attempt looks for nothing: `attempt` is called at once, so its request starts in the
   * caller's task.
   */
  sendOnce(message: OutboxRecord, attempt: () => Promise<unknown>): Promise<unknown>;
}

/**
 * @param list the conversation's latest messages
 * @param now the device's clock, for when an attempt began
 * @param serverTime a device time on the server's clock
 */
export function lostAnswers(
  findSent: Profile['findSent'],
  list: () => Promise<unknown>,
  now: () => number,
  serverTime: (deviceTime: number) => number,
): LostAnswers {
  /** The messages whose last attempt got no answer, with when the first such attempt began. */
  const unanswered = new Map<string, number>();
  /** The server's ids of the copies found: one copy settles one message. */
  const claimed = new Set<unknown>();
  return {
    async sendOnce(message, attempt) {
      const id = message.messageId;
      const since = unanswered.get(id);
      if (since !== undefined && findSent) {
        // The attempt's start on the server's clock as the list's answer tells it.
        const copy = findSent(await list(), message, serverTime(since), claimed);
        if (copy) {
          unanswered.delete(id);
          claimed.add((copy as { id?: unknown }).id);
          return copy;
        }
      }
      const started = now();
      let lost = false;
      try {
        return await attempt();
      } catch (thrown) {
        lost = gotNoAnswer(thrown);
        throw thrown;
      } finally {
        // The first lost attempt's start is kept: the message may have been stored by any since.
        if (!lost) unanswered.delete(id);
        else if (!unanswered.has(id)) unanswered.set(id, started);
      }
    },
  };
}
