/**
 * The sender: one message at a time, under the inbox lock, in queue order (what pages that are
 * gone left first, then this page's own). A message never overtakes one queued before it: a
 * transient failure keeps it, and nothing behind it goes, until its next attempt (a timer while
 * online; at once on `online`, when the page is visible again and on the next message). One error
 * event tells the host a failure burst began. One attempt is attempt.ts's; a message leaves
 * through `finish` (queue.ts), told first, its record removed after; passes run one at a time
 * (`rerunning`, one-at-a-time.ts). What to do at each step is decided in decisions.ts, as
 * functions of plain state; here it is done.
 *
 * createSender runs past 80 lines on purpose: the pass, the answer to one attempt, the retry
 * timer and `drain` read and set the sender's own state (the skipped wait, the adoption due, the
 * burst, the removal under way, stopped); apart, each would need that state handed around.
 */
import { toErrorEvent } from '../../protocol/errors.js';
import { rerunning } from '../one-at-a-time.js';
import { TIMER_MAX } from '../retry-timing.js';
import { uploadBudget } from '../upload-budget.js';
import { attemptSend } from './attempt.js';
import type { InboxLock } from './inbox-lock.js';
import type { Orphans } from './orphans.js';
import { burstError, inQueueOrder, mustWait, othersKey, waitLeft, waitsForNetwork, yieldsTurn } from './decisions.js';
import { waitClock, type Entries, type Entry, type Finish } from './queue.js';
import type { OutboxSettings } from './settings.js';

export interface Sender {
  /**
   * Sends what waits; `atOnce` skips the backoff wait (online, visible again, a new message),
   * `adoptFirst` takes in what pages that are gone left first (`adopt`, orphans.ts).
   */
  drain(atOnce?: boolean, adoptFirst?: boolean): void;
  /** No more passes or timers. */
  stop(): void;
}

/** `finish`: the one way out of the queue (queue.ts). */
export function createSender(
  s: OutboxSettings,
  entries: Entries,
  lock: InboxLock,
  { adopt, isStored }: Orphans,
  finish: Finish,
): Sender {
  let timer: unknown;
  let skipWait = false;
  /** Other pages' records are looked for on install, online, visible and retries, not for each new message. */
  let adoptDue = true;
  /** A failure burst is under way: its first failure was reported, the next ones are not. */
  let burst = false;
  let stopped = false;
  /** The removal of the record of the message this pass sent last. */
  let removing: Promise<unknown> | undefined;
  const spent = uploadBudget(s.isOnline, s.reachable);
  /** One pass at a time, under the inbox lock; asked for during a pass (or its turn given up), one more after it. */
  const passes = rerunning(
    () => lock.run(pass),
    (thrown) => s.emit(toErrorEvent(thrown, 'storage_error', '[outbox]')),
    () => stopped,
  );

  async function pass(): Promise<void> {
    let skip = skipWait;
    skipWait = false;
    if (waitsForNetwork(burst, s.isOnline())) return;
    if (adoptDue) {
      adoptDue = false;
      await adopt();
    }
    /** The key of the message this pass sent last ('' until one is sent). */
    let lastSent = '';
    for (const key of inQueueOrder(entries.keys(), s.page)) {
      // The message before, sent in this pass, is off the disk before the next one goes.
      if (lastSent) await removing;
      if (stopped) return;
      if (othersKey(key, s.page) && !(await isStored(key))) continue;
      // Read after the await: a cancel may have taken it out meanwhile.
      const entry = entries.get(key);
      if (!entry) continue;
      const wait = waitLeft(entry.next, waitClock(s));
      if (mustWait(wait, entry.firm, skip)) return schedule(wait);
      skip = false;
      if (!(await makeAttempt(entry))) return;
      lastSent = key;
      // Another WebView waiting gets its turn after this one send. Asked (a browser call) only
      // where a message is left to send: a pass that ends leaves the asking to the linger
      // (inbox-lock.ts), and a message sent alone pays for no call.
      if (entries.size > 0 && yieldsTurn(await lock.wanted())) {
        passes();
        return void (await removing);
      }
    }
    if (!lastSent) return;
    // Everything went: the conversation is likely to go on, so the lock is kept a moment. Another
    // page may have taken in the record sent last; it is off the disk before the lock can go.
    lock.keep();
    if (othersKey(lastSent, s.page)) await removing;
  }

  /** One attempt; false when the message stays (a transient failure), so nothing behind it may go. */
  async function makeAttempt(entry: Entry): Promise<boolean> {
    const tried = await attemptSend(entry, s, spent, () => stopped);
    if (!tried) return false;
    if ('ok' in tried) {
      if (tried.ok) burst = false;
      removing = finish(entry, tried);
      return true;
    }
    const online = s.isOnline();
    // One error event a burst, at its first failure.
    if (!burst) s.emit(burstError(tried, entries.size, entry.told as number, online));
    burst = true;
    if (online) schedule(waitLeft(entry.next, waitClock(s)));
    return false;
  }

  function schedule(ms: number): void {
    s.clearTimeout(timer);
    // A longer wait (none is, MAX_WAIT) would fire at once: the pass then finds it still ahead.
    timer = s.setTimeout(() => drain(), Math.min(ms, TIMER_MAX));
  }

  function drain(atOnce = false, adoptFirst = true): void {
    skipWait ||= atOnce;
    adoptDue ||= adoptFirst;
    passes();
  }

  return {
    drain,
    stop() {
      stopped = true;
      s.clearTimeout(timer);
    },
  };
}
