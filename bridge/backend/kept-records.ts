/**
 * The outbox's records, written again when storage comes back. This page's records stay in
 * memory until they are removed; one whose write failed (storage unusable for now: a delete that
 * another connection blocks, a deadline passed) is written again on a timer and after any call
 * that works, and every one is written again when the store finds it was wiped. The host is told
 * once a wipe is found (`storage_wiped`: what was waiting may be gone; an app re-sends what it
 * still shows as pending), and once each time every record is stored again after a failure
 * (`storage_restored`). The outbox goes on reporting each failed write itself (`storage_error`).
 *
 * keptRecords runs past 80 lines on purpose: one closure over the records in memory, the unstored
 * keys, the writes under way and the one timer, which every call of the store reads and sets.
 */
import { noop, type RecordStore, type Timers } from '../environment.js';
import { errorEvent, type ErrorEvent } from '../protocol/errors.js';

/** How long after a failed write it is tried again (a failure is quick: a deadline passed, or a refusal). */
const RETRY = 2_000;

export function keptRecords(store: RecordStore, timers: Timers, emit: (event: ErrorEvent) => void): RecordStore {
  /** This page's records that are not removed. */
  const live = new Map<string, unknown>();
  /** The keys of those whose last write failed: in memory only (each of them in `live`). */
  const unstored = new Set<string>();
  let timer: unknown;
  let retrying = false;

  /** Writes under way: storage that works is written again once none is (see `worked`). */
  let writing = 0;

  const write = (key: string): Promise<void> =>
    store.put(key, (writing++, live.get(key))).then(
      () => {
        writing--;
        unstored.delete(key);
        // Removed while it was written again: its removal may have landed first.
        if (!live.has(key)) return store.remove(key);
      },
      (error) => {
        writing--;
        // Not a record removed meanwhile: nothing of it is to be written again.
        if (live.has(key)) unstored.add(key);
        if (!timer)
          timer = timers.setTimeout(() => {
            timer = undefined;
            void writeAgain();
          }, RETRY);
        throw error;
      },
    );

  /**
   * Writes what is in memory only, every record of it: one that still cannot be stored (a photo
   * over the quota) keeps none of the others from the disk. Records with files go after those
   * without, so the texts are on the disk before a photo's clone is made. Says so once all of it
   * is stored; the timer tries again what is not.
   */
  async function writeAgain(): Promise<void> {
    if (retrying || !unstored.size) return;
    retrying = true;
    const tried = new Set<string>();
    // Rounds: one whose write fails meanwhile is written too; one removed meanwhile is skipped.
    for (let round; (round = [...unstored].filter((key) => !tried.has(key))).length;)
      for (const key of round.sort((a, b) => withFiles(a) - withFiles(b)))
        if (unstored.has(key)) {
          tried.add(key);
          await write(key).catch(noop);
        }
    if (!unstored.size) emit(errorEvent('storage_restored', '[outbox] stored again'));
    retrying = false;
  }

  /** 1 for a record with files (a photo), else 0. */
  const withFiles = (key: string) => Number(!!(live.get(key) as { files?: unknown }).files);

  /**
   * A call that worked is a sign storage is back (a listing: the outbox lists at each pass). Not
   * while a write is under way: a photo over the quota written again beside it would fail it too
   * (Chromium counts the space of every transaction under way against the quota).
   */
  const worked = <T>(result: T) => {
    if (!writing) void writeAgain();
    return result;
  };

  if (store.onWiped)
    store.onWiped(() => {
      emit(errorEvent('storage_wiped', '[outbox] storage wiped'));
      live.forEach((_, key) => unstored.add(key));
      void writeAgain();
    });

  return {
    keys: (prefix) => store.keys(prefix).then(worked),
    all: (prefix) => store.all(prefix).then(worked),
    put(key, value) {
      live.set(key, value);
      return write(key).then(worked);
    },
    remove(key) {
      live.delete(key);
      const stored = !unstored.delete(key);
      // Removed all the same where its write failed (one past its deadline may land later), but a
      // failure then is no news: as far as the outbox knows, it was never stored.
      return store.remove(key).catch((error) => {
        if (stored) throw error;
      });
    },
  };
}
