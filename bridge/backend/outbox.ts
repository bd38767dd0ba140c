/**
 * The outbox: every chat message goes through it, as one durable record, until the backend
 * has answered it for good.
 *
 * - `enqueue` writes the message's own record and returns the promise of its outcome: a live
 *   command awaits exactly that. A message that cannot be stored is still sent, from memory,
 *   and the host is told (`storage_error`).
 * - One sender at a time for each inbox, across every WebView of the app (a lock): it sends its
 *   own records in the order they were queued, and the records of pages that are gone (those
 *   are reported by message state events only; their commands died with their page).
 * - Transient failures keep the message and retry on a timer while online (capped, jittered
 *   exponential backoff), at once on `online`, when the page is visible again and on the next
 *   message. Final failures leave the outbox as `failed`. A message never overtakes one queued
 *   before it, and every attempt carries its one `echo_id`, so a backend that drops repeated
 *   echo_ids shows each message once (delivery is at least once).
 *
 * Over ~250 lines on purpose: enqueue, the sender, cancel and the listing all reason about the
 * same entries and lock; split apart, each would need the others' invariants restated.
 */
import type { Locks, ProgressListener, RecordStore, Timers } from '../environment.js';
import { BridgeError, errorEvent, toErrorEvent, type ErrorEvent } from '../protocol/errors.js';
import type { MessageState, MessageStateMessage, OutboxListing, Outcome } from '../protocol/messages.js';
import { askedWait, backoff, isTransient } from './retry-policy.js';
import { byteSize, isRecord, pageOf, inQueueOrder, recordKey, type OutboxRecord } from './outbox-record.js';
import { hold, inboxLock, noop } from './outbox/inbox-lock.js';
import { throttledProgress } from './upload-progress.js';
import { keptRecords } from './kept-records.js';

export interface OutboxSettings extends Timers {
  records?: RecordStore | undefined;
  locks?: Locks | undefined;
  /** This inbox's key prefix (`inboxPrefix`). */
  prefix: string;
  /** This page's id: in its record keys and its liveness lock. */
  page: string;
  maxFileSize: number;
  now(): number;
  random(): number;
  isOnline(): boolean;
  /** `onProgress`: an upload's progress, reported as `sending` events with `progress`. */
  send(record: OutboxRecord, onProgress: ProgressListener): Promise<unknown>;
  emit(message: MessageStateMessage | ErrorEvent): void;
  /** Told how many records of pages that are gone this page took in (for the recording's note). */
  restored?(count: number): void;
}

export interface Outbox {
  /** Queues a message; resolves with the backend's answer once sent, rejects with its final failure. */
  enqueue(record: Omit<OutboxRecord, 'v'>): Promise<unknown>;
  /** Sends what waits; `now` skips the backoff wait (online, visible again, a new message). */
  drain(now?: boolean): void;
  list(): Promise<OutboxListing[]>;
  /** Removes a waiting message that is not being sent this moment; false when there is none. */
  cancel(messageId: string): Promise<boolean>;
  /** Messages this page knows are waiting. */
  readonly size: number;
  destroy(): void;
}

interface Entry {
  key: string;
  record: OutboxRecord;
  attempt: number;
  state: MessageState;
  next?: number | undefined;
  /** `next` is the server's (Retry-After), not to be cut short. */
  firm?: boolean;
  /** The write of its record (false: failed): a removal waits for it, so a late write cannot bring a sent message back. */
  written?: Promise<boolean>;
  /** This page's command waiting for it. */
  settle?: (outcome: Outcome) => void;
}

const PAGE_LOCK = 'chat-bridge:page:';
/** How often a live page looks for what pages that are gone left (a closed WebView sends no event). */
export const ORPHAN_CHECK = 2_000;
/** How long the first message waits for the first look at the stored records (storage may be blocked). */
const LOOK_DEADLINE = 1_000;
/** How long a loop over stored records runs before other tasks get their turn (a long task is 50 ms). */
const SLICE = 10;
export { LINGER } from './outbox/inbox-lock.js';

export function createOutbox(s: OutboxSettings): Outbox {
  const { locks, prefix } = s;
  // Written again when storage comes back; the outbox reports each failed write itself.
  const records = s.records && keptRecords(s.records, s, s.emit);
  const entries = new Map<string, Entry>();
  const lock = inboxLock(locks, s, prefix);
  let counter = 0;
  let last = 0;
  let timer: unknown;
  let running = false;
  let again = false;
  let skipWait = false;
  /** Other pages' records are looked for on install, online, visible and retries, not for each new message. */
  let adoptDue = true;
  /** A failure burst is under way: its first failure was reported, the next ones are not. */
  let burst = false;
  let destroyed = false;
  let release = noop;
  let pageHeld: Promise<unknown> | undefined;
  let watching: unknown;
  /** The removal of the record of the message this pass sent last. */
  let removing: Promise<unknown> | undefined;
  /** Answered here and not (yet) off the disk: neither taken in again nor listed. */
  const answered = new Set<string>();
  /**
   * Held while this page lives: other pages leave its records to it. Asked for at this page's
   * first drain or message rather than at install, and granted before any record of it is written.
   */
  const holdPage = () =>
    (pageHeld ||= locks
      ? hold(locks, PAGE_LOCK + s.page, true).then((resolve) => (release = resolve), noop)
      : Promise.resolve());
  /**
   * A closed page sends no event: while another page lives or left records, and this one is
   * online, it looks again every few seconds, so what a closed page left goes within a few
   * seconds. Offline, or alone with nothing left by others, no timer runs.
   */
  const watch = () => {
    watching ||= s.setTimeout(() => {
      watching = undefined;
      if (s.isOnline()) adoptOrphans().then((adopted) => adopted && drain(false, false), noop);
    }, ORPHAN_CHECK);
  };
  const unwatch = locks && locks.onChange ? locks.onChange(() => s.isOnline() && watch()) : noop;

  const setState = (entry: Entry, state: MessageState, extra?: object) => {
    entry.state = state;
    s.emit(
      Object.assign(
        { type: 'message' as const, messageId: entry.record.messageId, state, attempt: entry.attempt },
        extra,
      ),
    );
  };
  const storageError = (what: string) => s.emit(errorEvent('storage_error', `[outbox] ${what}`));
  const keys = async () => (records ? records.keys(prefix).catch(() => []) : []);
  /** Stored, and neither this page's nor in memory here: another page's record, to be read. */
  const foreign = (key: string) => pageOf(key) !== s.page && !entries.has(key) && !answered.has(key);
  /**
   * Every stored record of the inbox in one read (keys and values): a read per key takes seconds
   * for thousands of records. Read only where some record is not in memory.
   */
  const readAll = async (stored: string[]) => {
    const read = new Map<string, unknown>();
    if (records && stored.some(foreign)) {
      const [found, values] = await records.all(prefix).catch((): [string[], unknown[]] => [[], []]);
      found.forEach((key, i) => read.set(key, values[i]));
    }
    return read;
  };
  /**
   * A loop over thousands of records lets other tasks run (the host's commands, the page's input)
   * every SLICE ms: `breathe()` in each round waits for a new task once it is time.
   */
  const slices = () => {
    let start = s.now();
    return () =>
      s.now() - start > SLICE &&
      new Promise<void>((next) =>
        s.setTimeout(() => {
          start = s.now();
          next();
        }, 0),
      );
  };
  /**
   * This page's messages are stamped after every record already stored: a clock set back across
   * one reload and forward across the next would otherwise put the middle page's messages first.
   */
  const stampAfter = (key: string) => (last = Math.max(last, parseInt(key.slice(prefix.length), 36) + 1));
  /** The first look at what is stored, which a message queued meanwhile waits for (at most LOOK_DEADLINE). */
  let looking: Promise<unknown> | undefined = new Promise<void>((done) => {
    const deadline = s.setTimeout(done, LOOK_DEADLINE);
    void keys().then((stored) => {
      stored.forEach(stampAfter);
      s.clearTimeout(deadline);
      done();
    });
  }).then(() => (looking = undefined));

  function finish(entry: Entry, outcome: Outcome): Promise<unknown> {
    entries.delete(entry.key);
    answered.add(entry.key);
    setState(entry, outcome.ok ? 'sent' : 'failed', outcome.ok ? { result: outcome.result } : { error: outcome.error });
    if (entry.settle) entry.settle(outcome);
    else if (!outcome.ok) s.emit(outcome.error);
    // Told first, removed after: the answer does not wait for storage, nor does a pass that has
    // nothing more to send (a message sent right after another would wait for that removal,
    // milliseconds on a busy device; other pages leave this page's records alone while it lives).
    // A record whose removal fails (or a page closed before it) stays behind and is sent once more
    // under its echo_id. Removed even where its write failed: the store may write it again later.
    return (removing = Promise.resolve(entry.written).then(
      (): unknown =>
        records &&
        records.remove(entry.key).then(
          () => answered.delete(entry.key),
          () => storageError(`${entry.record.messageId} stays stored`),
        ),
    ));
  }

  /** Takes in the valid records of pages that are gone; drops invalid ones. */
  async function adoptOrphans(): Promise<number> {
    const alive = new Set(locks && (await locks.held()));
    let adopted = 0;
    // Where the locks cannot tell live pages from gone ones, only this page's drains look.
    let others = [...alive].some((name) => name.startsWith(PAGE_LOCK) && name !== PAGE_LOCK + s.page);
    const stored = await keys();
    for (const key of stored) {
      stampAfter(key);
      others ||= pageOf(key) !== s.page && !entries.has(key);
    }
    const read = await readAll(stored.filter((key) => !alive.has(PAGE_LOCK + pageOf(key))));
    const breathe = slices();
    for (const [key, record] of read) {
      await breathe();
      if (!foreign(key) || alive.has(PAGE_LOCK + pageOf(key))) continue;
      if (isRecord(record, s.maxFileSize)) {
        entries.set(key, { key, record, attempt: 0, state: 'queued' });
        adopted++;
      } else if (record !== undefined) {
        storageError('dropped an invalid stored message');
        await (records as RecordStore).remove(key).catch(noop);
      }
    }
    if (alive.size && others && s.isOnline() && !destroyed) watch();
    if (adopted > 0 && s.restored) s.restored(adopted);
    return adopted;
  }

  /**
   * Whether a record of a page that is gone is still to be sent. Two live pages may both have
   * taken it in (during a failure burst neither could send it); whichever sends it first removes
   * its record, and the other must let it go rather than send it again. A failed read keeps it.
   */
  async function stillStored(key: string): Promise<boolean> {
    // Its key alone is read: an attachment's bytes are not.
    const stored = await (records as RecordStore).keys(key).then(
      (found) => found.includes(key),
      () => true,
    );
    if (!stored) entries.delete(key);
    return stored;
  }

  async function pass(): Promise<void> {
    let skip = skipWait;
    skipWait = false;
    if (burst && !s.isOnline()) return;
    if (adoptDue) {
      adoptDue = false;
      await adoptOrphans();
    }
    let sent = '';
    removing = undefined;
    for (const key of inQueueOrder(entries.keys(), s.page)) {
      // The message before, sent in this pass, is off the disk before the next one goes.
      await removing;
      if (destroyed) return;
      if (pageOf(key) !== s.page && !(await stillStored(key))) continue;
      // Read after the await: a cancel may have taken it out meanwhile.
      const entry = entries.get(key);
      if (!entry) continue;
      const wait = (entry.next || 0) - s.now();
      // A wait the server asked for (Retry-After) is kept even by a retry "at once".
      if (wait > 0 && (!skip || entry.firm)) return schedule(wait);
      skip = false;
      // Asked as the send starts: another WebView waiting gets its turn after this one send.
      const wanted = lock.wanted();
      if (!(await attempt(entry))) return;
      sent = key;
      if (await wanted) {
        again = true;
        return void (await removing);
      }
    }
    if (!sent) return;
    // Everything went: the conversation is likely to go on, so the lock is kept a moment. Another
    // page may have taken in the record sent last; it is off the disk before the lock can go.
    lock.keep();
    if (pageOf(sent) !== s.page) await removing;
  }

  /** One attempt; false when the message stays (a transient failure), so nothing behind it may go. */
  async function attempt(entry: Entry): Promise<boolean> {
    entry.attempt++;
    entry.next = undefined;
    setState(entry, 'sending');
    let outcome: Outcome;
    try {
      const onProgress = throttledProgress(s.now, (progress) => setState(entry, 'sending', { progress }));
      outcome = { ok: true, result: await s.send(entry.record, onProgress) };
      burst = false;
    } catch (thrown) {
      const error = toErrorEvent(thrown, 'server_error', '[POST /messages]');
      if (!isTransient(thrown, error)) outcome = { ok: false, error };
      else {
        if (destroyed) return false;
        const asked = askedWait(thrown, s.now());
        entry.firm = asked !== undefined;
        const delay = entry.firm ? (asked as number) : backoff(entry.attempt, s.random());
        const online = s.isOnline();
        entry.next = s.now() + delay;
        setState(entry, 'queued', online ? { nextAttemptAt: entry.next } : {});
        if (!burst)
          s.emit(
            Object.assign({}, error, { message: `${error.message}; ${entries.size} message(s) wait in the outbox` }),
          );
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
    timer = s.setTimeout(() => drain(), ms);
  }

  function drain(now = false, adopt = true): void {
    if (destroyed) return;
    void holdPage();
    skipWait ||= now;
    adoptDue ||= adopt;
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
        } while (again && !destroyed);
      } catch (thrown) {
        s.emit(toErrorEvent(thrown, 'storage_error', '[outbox]'));
      } finally {
        running = false;
      }
    })();
  }

  return {
    enqueue(message) {
      if (looking) return looking.then(() => this.enqueue(message));
      last = Math.max(last, s.now());
      const key = recordKey(prefix, last, s.page, counter++);
      const record: OutboxRecord = Object.assign({ v: 1 as const }, message);
      return new Promise((resolve, reject) => {
        const entry: Entry = {
          key,
          record,
          attempt: 0,
          state: 'queued',
          settle: (outcome) => (outcome.ok ? resolve(outcome.result) : reject(new BridgeError(outcome.error))),
        };
        entries.set(key, entry);
        setState(entry, 'queued');
        drain(true, false);
        // Chained after the drain, so the first attempt's request starts before this write's
        // IndexedDB transaction is opened (about 0.3 ms): both are under way at once either way.
        entry.written = holdPage()
          .then(() => (records as RecordStore).put(key, record))
          .then(
            () => true,
            () => {
              storageError(`${record.messageId} could not be stored; it is sent from memory, lost if the page closes`);
              return false;
            },
          );
      });
    },
    drain,
    async list() {
      const stored = await keys();
      // From memory where it can: only other pages' records not taken in here are read, all at once.
      const read = await readAll(stored);
      const breathe = slices();
      const listing: OutboxListing[] = [];
      for (const key of inQueueOrder(new Set([...stored, ...entries.keys()]), s.page)) {
        await breathe();
        const entry = entries.get(key);
        // Without an entry, a key of this page is a message answered whose removal failed.
        const record = entry ? entry.record : foreign(key) && read.get(key);
        if (isRecord(record, s.maxFileSize))
          listing.push({
            messageId: record.messageId,
            state: entry ? entry.state : 'queued',
            attempt: entry ? entry.attempt : 0,
            nextAttemptAt: entry && entry.next,
            content: record.content,
            files:
              record.files &&
              record.files.map(({ name, type, data, size }) => ({ name, type, size: data ? byteSize(data) : size })),
          });
      }
      return listing;
    },
    cancel(messageId) {
      const find = () => [...entries.values()].find((candidate) => candidate.record.messageId === messageId);
      const take = async (entry: Entry | undefined) => {
        if (!entry || entry.state === 'sending') return false;
        await finish(entry, {
          ok: false,
          error: errorEvent('cancelled', `[cancelMessage] ${messageId} was cancelled`),
        });
        return true;
      };
      // This page's own messages are sent by this page alone, and so is every message while it
      // holds the inbox lock; one is marked `sending` before its request starts. Such a message is
      // taken out at once, without waiting for the lock, which a pass holds while it sends
      // everything queued before it (a cancel must not wait for those, nor lose the race).
      const own = find();
      if (own && (pageOf(own.key) === s.page || lock.held())) return take(own);
      return lock.run(async () => {
        await adoptOrphans();
        const entry = find();
        return take(entry && (await stillStored(entry.key)) ? entry : undefined);
      });
    },
    get size() {
      return entries.size;
    },
    destroy() {
      destroyed = true;
      s.clearTimeout(timer);
      s.clearTimeout(watching);
      unwatch();
      lock.destroy();
      release();
    },
  };
}
