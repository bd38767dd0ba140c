/**
 * The sender: one message at a time, under the inbox lock, in queue order (what pages that are
 * gone left first, then this page's own). A message never overtakes one queued before it: a
 * transient failure keeps it, and nothing behind it goes, until its next attempt (a timer while
 * online; at once on `online`, when the page is visible again and on the next message). One error
 * event tells the host a failure burst began. A message leaves (`finish`: sent, failed for good,
 * cancelled) told first, its record removed after. What to do at each step is decided in
 * decisions.ts, as functions of plain state; here it is done.
 *
 * createSender runs past 80 lines on purpose: the pass, the attempt, the retry timer and the drain
 * loop all read and set the one sender's state (running, again, the burst, the removal under way);
 * split apart, each would need that state handed around and its invariants restated.
 */
import type { RecordStore } from '../../environment.js';
import { toErrorEvent } from '../../protocol/errors.js';
import type { Outcome } from '../../protocol/messages.js';
import { askedWait } from '../retry-policy.js';
import { TIMER_MAX } from '../retry-timing.js';
import { uploadBudget } from '../upload-budget.js';
import { throttledProgress } from '../upload-progress.js';
import type { InboxLock } from './inbox-lock.js';
import type { Orphans } from './orphans.js';
import type { PageLock } from './page-lock.js';
import {
  burstError,
  finalFailure,
  inQueueOrder,
  mustWait,
  othersKey,
  queuedFields,
  retryWait,
  waitLeft,
  waitsForNetwork,
  yieldsTurn,
} from './decisions.js';
import { storageError, waitClock, type Entries, type Entry, type stateSetter } from './queue.js';
import type { OutboxSettings } from './settings.js';

export interface Sender {
  /**
   * Sends what waits; `atOnce` skips the backoff wait (online, visible again, a new message),
   * `adoptFirst` takes in what pages that are gone left first (`adopt`, orphans.ts).
   */
  drain(atOnce?: boolean, adoptFirst?: boolean): void;
  /** Takes a message out with its outcome; resolves once its record is removed (or stays). */
  finish(entry: Entry, outcome: Outcome): Promise<unknown>;
  /** No more passes or timers. */
  stop(): void;
}

/**
 * `answered`: messages answered here whose records are not (yet) removed; `setState`: the outbox's
 * one state setter (its message-state events).
 */
export function createSender(
  s: OutboxSettings,
  records: RecordStore | undefined,
  entries: Entries,
  answered: Set<string>,
  lock: InboxLock,
  { adopt, isStored }: Orphans,
  page: PageLock,
  setState: ReturnType<typeof stateSetter>,
): Sender {
  let timer: unknown;
  let running = false;
  let again = false;
  let skipWait = false;
  /** Other pages' records are looked for on install, online, visible and retries, not for each new message. */
  let adoptDue = true;
  /** A failure burst is under way: its first failure was reported, the next ones are not. */
  let burst = false;
  let stopped = false;
  /** The removal of the record of the message this pass sent last. */
  let removing: Promise<unknown> | undefined;
  const spent = uploadBudget(s.isOnline, s.reachable);

  function finish(entry: Entry, outcome: Outcome): Promise<unknown> {
    entries.delete(entry.key);
    // Kept until its record is removed (a failed removal keeps it: the record stays behind); with
    // no store there is no record, and nothing to keep.
    if (records) answered.add(entry.key);
    setState(entry, outcome.ok ? 'sent' : 'failed', outcome.ok ? { result: outcome.result } : { error: outcome.error });
    if (entry.settle) entry.settle(outcome);
    else if (!outcome.ok) s.emit(outcome.error);
    // Told first, removed after: the answer does not wait for storage, nor does a pass that has
    // nothing more to send (a message queued right after would wait for that removal before its
    // request: milliseconds on a busy device, and its `queued` and `sending` would cross into the
    // app apart; other pages leave this page's records alone while it lives). A record whose
    // removal fails (or a page closed before it) stays behind and is sent once more under its
    // echo_id. Removed even where its write failed: the store may write it again later.
    return (removing = Promise.resolve(entry.written).then((): unknown =>
      records
        ? records.remove(entry.key).then(
            () => {
              answered.delete(entry.key);
              lastGone();
            },
            () => s.emit(storageError(`${entry.record.messageId} stays stored`)),
          )
        : lastGone(),
    ));
  }

  /** Its last record gone, this page has nothing for other pages to leave alone: its lock goes. */
  function lastGone(): void {
    if ([...entries.keys(), ...answered].every((key) => othersKey(key, s.page))) page.letGo();
  }

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
      // The message before, sent in this pass, is off the disk before the next one goes. Only
      // then awaited: a pass's first request starts in its first microtask.
      if (lastSent) await removing;
      if (stopped) return;
      if (othersKey(key, s.page) && !(await isStored(key))) continue;
      // Read after the await: a cancel may have taken it out meanwhile.
      const entry = entries.get(key);
      if (!entry) continue;
      const wait = waitLeft(entry.next, waitClock(s));
      if (mustWait(wait, entry.firm, skip)) return schedule(wait);
      skip = false;
      const sending = makeAttempt(entry);
      // Asked once the send started (asking costs the request's start a browser call): another
      // WebView waiting gets its turn after this one send.
      const wanted = lock.wanted();
      if (!(await sending)) return;
      lastSent = key;
      if (yieldsTurn(await wanted)) {
        again = true;
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
    entry.attempt++;
    entry.next = undefined;
    setState(entry, 'sending');
    // Told `sending` before the wait (the host hears it with `queued`, in one delivery); a request
    // that would start after `destroy` does not.
    if (entry.issued) {
      await entry.issued;
      if (stopped) return false;
    }
    let outcome: Outcome;
    try {
      const onProgress = throttledProgress(s.now, (progress) => setState(entry, 'sending', { progress }));
      outcome = { ok: true, result: await s.send(entry.record, onProgress) };
      burst = false;
    } catch (thrown) {
      const error = toErrorEvent(thrown, 'server_error', '[POST /messages]');
      const now = s.now();
      // The wait the server asked for: a 429 its request gave up on says when in `retryAt`
      // (http.ts); another answer, in its Retry-After. A `retryAt` of 0 (the epoch: a replay's
      // clock only) reads as none, so its backoff waits a little longer, never sooner.
      const asked = error.retryAt ? error.retryAt - now : askedWait(thrown, now);
      // Its upload budget (upload-budget.ts) is asked only where nothing else fails it for good.
      const final = finalFailure(error, asked, now, s.rateLimitPasses) || (await spent(entry.record, error));
      if (final) outcome = { ok: false, error: final };
      else {
        if (stopped) return false;
        entry.firm = asked !== undefined;
        const delay = retryWait(asked, entry, s.random);
        const online = s.isOnline();
        entry.next = waitClock(s) + delay;
        entry.told = now + delay;
        setState(entry, 'queued', queuedFields(entry.told, online));
        // One error event a burst, at its first failure.
        if (!burst) s.emit(burstError(error, entries.size, entry.told, online));
        burst = true;
        if (online) schedule(delay);
        return false;
      }
    }
    finish(entry, outcome);
    return true;
  }

  function schedule(ms: number): void {
    s.clearTimeout(timer);
    // A longer wait (none is, MAX_WAIT) would fire at once: the pass then finds it still ahead.
    timer = s.setTimeout(() => drain(), Math.min(ms, TIMER_MAX));
  }

  function drain(atOnce = false, adoptFirst = true): void {
    if (stopped) return;
    skipWait ||= atOnce;
    adoptDue ||= adoptFirst;
    if (running) {
      again = true;
      return;
    }
    running = true;
    void (async () => {
      try {
        do {
          again = false;
          await lock.run(pass);
        } while (again && !stopped);
      } catch (thrown) {
        s.emit(toErrorEvent(thrown, 'storage_error', '[outbox]'));
      } finally {
        running = false;
      }
    })();
  }

  return {
    drain,
    finish,
    stop() {
      stopped = true;
      s.clearTimeout(timer);
    },
  };
}
