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
   * The backend's copy of the message, where its last attempt got no answer and the conversation's
   * latest messages hold it; else undefined (without a request when no attempt was lost).
   */
  storedCopy(message: OutboxRecord): Promise<unknown>;
  /** `attempt`'s outcome; one that ends in `network_error` (no answer) leaves the message to be looked for. */
  attempted(id: string, attempt: () => Promise<unknown>): Promise<unknown>;
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
    async storedCopy(message) {
      const since = unanswered.get(message.messageId);
      if (since === undefined || !findSent) return undefined;
      // The attempt's start on the server's clock as the list's answer tells it.
      const copy = findSent(await list(), message, serverTime(since), claimed);
      if (copy) {
        unanswered.delete(message.messageId);
        claimed.add((copy as { id?: unknown }).id);
      }
      return copy;
    },
    async attempted(id, attempt) {
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
