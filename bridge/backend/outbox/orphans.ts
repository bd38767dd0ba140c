/**
 * Orphan recovery: what a page that is gone left (a reload, a closed or crashed WebView) is taken
 * in by a live page within a few seconds and sent once, in its order. Each page holds a lock of
 * its own while it lives; other pages leave its records to it.
 *
 * orphanRecovery runs a few lines past 80: the page's own lock, the periodic look and the adoption
 * share the one timer and the one lock release.
 */
import { noop, type RecordStore } from '../../environment.js';
import { isOutboxRecord, pageOf } from '../outbox-record.js';
import { hold } from './inbox-lock.js';
import { storageError, type Entries } from './queue.js';
import type { OutboxSettings } from './settings.js';
import { readAll, readEvery, readKeys, slices } from './stored.js';

const PAGE_LOCK = 'chat-bridge:page:';
/** How often a live page looks for what pages that are gone left (a closed WebView sends no event). */
export const ORPHAN_CHECK = 2_000;

/**
 * - `holdPage`: holds this page's lock, for as long as it lives. Asked for at this page's first
 *   drain or message rather than at install, and granted before any record of it is written.
 * - `adopt`: takes in the valid records of pages that are gone and drops invalid ones; resolves
 *   with how many it took in.
 * - `isStored`: whether a record of a page that is gone is still to be sent. Two live pages may
 *   both have taken it in (during a failure burst neither could send it); whichever sends it first
 *   removes its record, and the other must let it go rather than send it again. A failed read keeps it.
 * - `stop`: no more looks; this page's lock goes.
 */
export type Orphans = [
  holdPage: () => Promise<unknown>,
  adopt: () => Promise<number>,
  isStored: (key: string) => Promise<boolean>,
  stop: () => void,
];

/**
 * `foreign`: a key of another page's record not in memory here; `found`: told when a look on a
 * timer took something in.
 */
export function orphanRecovery(
  s: OutboxSettings,
  records: RecordStore | undefined,
  entries: Entries,
  foreign: (key: string) => boolean,
  found: () => void,
): Orphans {
  const { locks } = s;
  let stopped = false;
  let release = noop;
  let pageHeld: Promise<unknown> | undefined;
  let watching: unknown;
  /**
   * A closed page sends no event: while another page lives, and this one is online, it looks
   * again every few seconds, so what a closed page left goes within a few seconds. What pages
   * that were gone already left is taken in at the look that finds them; offline, or alone, no
   * timer runs.
   */
  const watch = () =>
    s.isOnline() &&
    (watching ||= s.setTimeout(() => {
      watching = undefined;
      if (s.isOnline()) adopt().then((adopted) => adopted && found(), noop);
    }, ORPHAN_CHECK));
  const unwatch = locks && locks.onChange ? locks.onChange(watch) : noop;
  /**
   * The records as this page found them, read as it starts: its first look takes in what the page
   * before left without reading it again behind the page's and the inbox's locks (thousands of
   * records would keep a listing meanwhile waiting for those reads).
   */
  let early: Promise<Map<string, unknown>> | undefined = readEvery(records, s.prefix);

  async function adopt(): Promise<number> {
    const alive = new Set(locks && (await locks.held()));
    let adopted = 0;
    const keys = await readKeys(records, s.prefix);
    const gone = (key: string) => foreign(key) && !alive.has(PAGE_LOCK + pageOf(key));
    const found = early && (await early);
    early = undefined;
    // Read again only where a record that is to be taken in was written after that first read.
    const read =
      found && keys.every((key) => found.has(key) || !gone(key)) ? found : await readAll(records, s.prefix, keys, gone);
    const breathe = slices(s);
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
    if (!stopped && [...alive].some((name) => name.startsWith(PAGE_LOCK) && name !== PAGE_LOCK + s.page)) watch();
    if (adopted && s.restored) s.restored(adopted);
    return adopted;
  }

  return [
    () =>
      (pageHeld ||= Promise.resolve(
        locks && hold(locks, PAGE_LOCK + s.page, true).then((resolve) => (release = resolve), noop),
      )),
    adopt,
    async (key) => {
      // Its key alone is read: an attachment's bytes are not.
      const kept = await (records as RecordStore).keys(key).then(
        (keys) => keys.includes(key),
        () => true,
      );
      if (!kept) entries.delete(key);
      return kept;
    },
    () => {
      stopped = true;
      s.clearTimeout(watching);
      unwatch();
      release();
    },
  ];
}
