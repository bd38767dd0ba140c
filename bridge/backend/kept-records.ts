/**
 * The outbox's records, written again when storage comes back. This page's records stay in
 * memory until they are removed; one whose write failed (storage unusable for now: a delete that
 * another connection blocks, a deadline passed) is written again on a timer and after any call
 * that works, and every one is written again when the store finds it was wiped. The host is told
 * once a wipe is found (`storage_wiped`: what was waiting may be gone; an app re-sends what it
 * still shows as pending), and once each time every record is stored again after a failure
 * (`storage_restored`). The outbox goes on reporting each failed write itself (`storage_error`).
 */
import type { RecordStore, Timers } from '../environment.js';
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

  const write = (key: string): Promise<void> =>
    store.put(key, live.get(key)).then(
      () => {
        unstored.delete(key);
        // Removed while it was written again: its removal may have landed first.
        if (!live.has(key)) return store.remove(key);
      },
      (error) => {
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

  /** Writes what is in memory only; says so once all of it is stored. */
  async function writeAgain(): Promise<void> {
    if (retrying || !unstored.size) return;
    retrying = true;
    try {
      // Live: a record removed meanwhile is skipped, one whose write fails meanwhile written too.
      for (const key of unstored) await write(key);
      emit(errorEvent('storage_restored', '[outbox] stored again'));
    } catch {
      // Still unusable: the timer tries again.
    }
    retrying = false;
  }

  /** A call that worked is a sign storage is back (a listing: the outbox lists at each pass). */
  const worked = <T>(result: T) => {
    void writeAgain();
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
