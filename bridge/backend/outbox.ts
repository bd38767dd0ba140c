/**
 * The outbox: every chat message goes through it, as one durable record, until the backend
 * has answered it for good. Here, its public calls (enqueue, list, cancel) over the one map of
 * entries; in outbox/, its parts, each holding one invariant: the inbox lock (inbox-lock.ts: one
 * sender at a time across WebViews), orphan recovery (orphans.ts: what a gone page left is sent
 * by a live one), this page's lock (page-lock.ts), the sender (sender.ts: one at a time, in queue
 * order, none overtaking) and its one attempt (attempt.ts), the one way out (`finisher`,
 * queue.ts: told first, removed after), the listing (listing.ts), the cancel (cancel.ts) and the
 * reads of what is stored (stored.ts).
 *
 * - `enqueue` writes the message's own record and returns the promise of its outcome: a live
 *   command awaits exactly that. A message that cannot be stored is still sent, from memory,
 *   and the host is told (`storage_error`).
 * - Every attempt carries the message's one `echo_id`, so a backend that drops repeated echo_ids
 *   shows each message once (delivery is at least once).
 * - What the outbox decides (the order, the waits, when a failure is final, turns, orphans,
 *   cancels, the clocks) is in outbox/decisions.ts, as functions of plain state.
 *
 * createOutbox runs past 80 lines on purpose: it ties the parts together over the one map of
 * entries, and stamps and stores each new message (`add`) after the first look at what is stored.
 */
import type { RecordStore } from '../environment.js';
import { BridgeError } from '../protocol/errors.js';
import type { OutboxListing, Outcome } from '../protocol/messages.js';
import { recordKey, type OutboxRecord } from './outbox-record.js';
import { inboxLock } from './outbox/inbox-lock.js';
import { keptRecords } from './kept-records.js';
import { othersKey } from './outbox/decisions.js';
import { finisher, stateSetter, storageError, type Entries, type Entry } from './outbox/queue.js';
import type { OutboxSettings } from './outbox/settings.js';
import { orphanRecovery } from './outbox/orphans.js';
import { pageLock } from './outbox/page-lock.js';
import { createSender } from './outbox/sender.js';
import { cancelMessage } from './outbox/cancel.js';
import { readKeys } from './outbox/stored.js';
import { listing } from './outbox/listing.js';

export type { OutboxSettings };
export { ORPHAN_CHECK } from './outbox/orphans.js';
export { LINGER } from './outbox/inbox-lock.js';

export interface Outbox {
  /** Queues a message; resolves with the backend's answer once sent, rejects with its final failure. */
  enqueue(record: Omit<OutboxRecord, 'v'>): Promise<unknown>;
  /** Sends what waits; `atOnce` skips the backoff wait (online, visible again, a new message). */
  drain(atOnce?: boolean): void;
  list(): Promise<OutboxListing[]>;
  /** Removes a waiting message that is not being sent this moment; false when there is none. */
  cancel(messageId: string): Promise<boolean>;
  /** Messages this page knows are waiting. */
  readonly size: number;
  destroy(): void;
}

/** How long the first message waits for the first look at the stored records (storage may be blocked). */
const LOOK_DEADLINE = 1_000;

export function createOutbox(s: OutboxSettings): Outbox {
  const { prefix } = s;
  // Written again when storage comes back; the outbox reports each failed write itself.
  const records = s.records && keptRecords(s.records, s, s.emit);
  const entries: Entries = new Map();
  /** Answered here and not (yet) off the disk: neither taken in again nor listed. */
  const answered = new Set<string>();
  /** Stored, and neither this page's nor in memory here: another page's record, to be read. */
  const foreign = (key: string) => othersKey(key, s.page) && !entries.has(key) && !answered.has(key);
  const setState = stateSetter(s.emit);
  const lock = inboxLock(s.locks, s, prefix);
  const page = pageLock(s);
  const orphans = orphanRecovery(s, records, entries, foreign, () => drain(false, false));
  const finish = finisher(s, records, entries, answered, setState, page);
  const sender = createSender(s, entries, lock, orphans, finish);
  const { drain } = sender;
  let counter = 0;
  let last = 0;
  /**
   * The first look at what is stored, which a message queued meanwhile waits for (at most
   * LOOK_DEADLINE): this page's messages are stamped after every record stored as it starts. A
   * clock set back across one reload and forward across the next would otherwise put the middle
   * page's messages first. (Records other pages write later are of pages that lived beside this
   * one: the order between WebViews is not kept, each one's own order is.)
   */
  const looking = new Promise<void>((done) => {
    const deadline = s.setTimeout(done, LOOK_DEADLINE);
    void readKeys(records, prefix).then((keys) => {
      keys.forEach((key) => (last = Math.max(last, parseInt(key.slice(prefix.length), 36) + 1)));
      s.clearTimeout(deadline);
      done();
    });
  });
  /** Queues a message, stamped after what is stored; `settle` is told its outcome. */
  function add(message: Omit<OutboxRecord, 'v'>, settle: (outcome: Outcome) => void): void {
    last = Math.max(last, s.now());
    const key = recordKey(prefix, last, s.page, counter++);
    const record: OutboxRecord = { v: 1 as const, ...message };
    const entry: Entry = { key, record, attempt: 0, state: 'queued', settle };
    entries.set(key, entry);
    setState(entry, 'queued');
    drain(true, false);
    // Chained after the drain, so a text message's request starts before this write's
    // IndexedDB transaction is opened (a cost to Chromium's main thread; the bench shows it):
    // both are under way at once either way.
    // A message with files is written a task later, after the texts queued in the same task:
    // where its bytes are over the quota, its transaction aborts, and Chromium counts the files
    // it had written for a while after, so a text written after it would fail too. Its upload
    // starts once its record is written: WebKit's main thread stalls on a put of Blobs issued
    // while their upload runs.
    let held = page.hold();
    if (record.files) held = held.then(() => new Promise<void>((done) => s.setTimeout(done, 0)));
    entry.written = held
      .then(() => (records as RecordStore).put(key, record))
      .then(
        () => true,
        () => {
          s.emit(storageError(`${record.messageId} not stored; sent from memory`));
          return false;
        },
      );
    if (record.files) entry.issued = entry.written;
  }

  return {
    enqueue: (message) =>
      // One promise, settled by the sender itself: an async function returning it would put two
      // more microtasks between the outcome and the command's answer, and the removal of the
      // record would start first.
      new Promise((resolve, reject) => {
        looking
          .then(() =>
            add(message, (outcome) => (outcome.ok ? resolve(outcome.result) : reject(new BridgeError(outcome.error)))),
          )
          .catch(reject);
      }),
    drain,
    list: () => listing(s, records, entries, foreign),
    cancel: (messageId) => cancelMessage(messageId, s.page, entries, lock, orphans, finish),
    get size() {
      return entries.size;
    },
    destroy() {
      sender.stop();
      lock.destroy();
      orphans.stop();
      page.stop();
    },
  };
}
