/**
 * Orphan recovery: what a page that is gone left (a reload, a closed or crashed WebView) is taken
 * in by a live page within a few seconds and sent once, in its order. Each page holds a lock of
 * its own while it has records stored (page-lock.ts; a lease is renewed while held: an idle page
 * holds none); other pages leave its records to it. Which stored keys are orphans, and which
 * keep this page watching, is decided in decisions.ts (`isOrphan`, `isWatched`).
 *
 * orphanRecovery runs a few lines past 80: the watch's timer, the first read kept for the first
 * look, and the look itself share the one stop.
 */
import { noop, type RecordStore } from '../../environment.js';
import { isOutboxRecord } from '../outbox-record.js';
import { isOrphan, isWatched } from './decisions.js';
import { storageError, type Entries } from './queue.js';
import type { OutboxSettings } from './settings.js';
import { breather, readAll, readEvery, readKeys } from './stored.js';

/** How often a live page looks for what pages that are gone left (a closed WebView sends no event). */
export const ORPHAN_CHECK = 2_000;

export interface Orphans {
  /**
   * Takes in the valid records of pages that are gone and drops invalid ones; resolves with how
   * many it took in.
   */
  adopt(): Promise<number>;
  /**
   * Whether a record of a page that is gone is still to be sent. Two live pages may both have
   * taken it in (during a failure burst neither could send it); whichever sends it first removes
   * its record, and the other must let it go rather than send it again. A failed read keeps it.
   */
  isStored(key: string): Promise<boolean>;
  /** No more looks. */
  stop(): void;
}

/**
 * `foreign`: a key of another page's record not in memory here; `onAdopted`: told when a look on
 * a timer took something in.
 */
export function orphanRecovery(
  s: OutboxSettings,
  records: RecordStore | undefined,
  entries: Entries,
  foreign: (key: string) => boolean,
  onAdopted: () => void,
): Orphans {
  const { locks } = s;
  let stopped = false;
  let watching: unknown;
  /**
   * A closed page sends no event: while another live page has records stored, and this one is
   * online, it looks again every few seconds, so what a closed page left goes within a few
   * seconds. A page taking its lock tells the others (`onChange`), which look then. What pages
   * that were gone already left is taken in at the look that finds them; offline, alone, or
   * beside pages with nothing stored, no timer runs.
   */
  const watch = () =>
    s.isOnline() &&
    (watching ||= s.setTimeout(() => {
      watching = undefined;
      if (s.isOnline()) adopt().then((adopted) => adopted && onAdopted(), noop);
    }, ORPHAN_CHECK));
  const unwatch = locks && locks.onChange ? locks.onChange(watch) : noop;
  // A bridge that ran in this window before (installed again, or destroyed) may write a message
  // it was queuing as it went after this one's first look, and a window hears no `storage` event
  // of its own: one more look, a moment after start.
  if (s.replaces) watch();
  /**
   * The records as this page found them, read as it starts: its first look takes in what the page
   * before left without reading it again behind the page's and the inbox's locks (thousands of
   * records would keep a listing meanwhile waiting for those reads).
   */
  let early: Promise<Map<string, unknown>> | undefined = readEvery(records, s.prefix);

  async function adopt(): Promise<number> {
    // The keys first: a page holds its lock before it writes a record and until its last is
    // removed, so a page found gone here left every key read.
    const keys = await readKeys(records, s.prefix);
    const held = new Set(locks && (await locks.held()));
    let adopted = 0;
    const gone = (key: string) => isOrphan(key, foreign(key), held);
    const earlyRecords = early && (await early);
    early = undefined;
    // Read again only where a record that is to be taken in was written after that first read.
    const read =
      earlyRecords && keys.every((key) => earlyRecords.has(key) || !gone(key))
        ? earlyRecords
        : await readAll(records, s.prefix, keys, gone);
    const breathe = breather(s);
    for (const key of keys) {
      await breathe();
      const record = read.get(key);
      if (!gone(key)) continue;
      if (isOutboxRecord(record, s.maxFileSize, s.fileTypes)) {
        entries.set(key, { key, record, attempt: 0, state: 'queued' });
        adopted++;
      } else if (record !== undefined) {
        s.emit(storageError('invalid record dropped'));
        await (records as RecordStore).remove(key).catch(noop);
      }
    }
    // Where the locks cannot tell live pages from gone ones, only this page's drains look.
    if (!stopped && keys.some((key) => isWatched(key, foreign(key), held))) watch();
    if (adopted && s.restored) s.restored(adopted);
    return adopted;
  }

  return {
    adopt,
    async isStored(key) {
      // Its key alone is read: an attachment's bytes are not.
      const stillStored = await (records as RecordStore).keys(key).then(
        (keys) => keys.includes(key),
        () => true,
      );
      if (!stillStored) entries.delete(key);
      return stillStored;
    },
    stop() {
      stopped = true;
      s.clearTimeout(watching);
      unwatch();
    },
  };
}
