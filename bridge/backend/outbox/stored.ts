/**
 * Reading the inbox's stored records, for taking in what pages that are gone left and for the
 * listing. Keys are read alone; values all at once (one read: a read per key takes seconds for
 * thousands of records), and only where some record is not in memory here. A failed read is
 * read as nothing stored.
 *
 * A read of everything under way is shared: the calls made meanwhile, keys or values, take what
 * it reads rather than queue their own reads behind it (at start-up, thousands of records left by
 * the page before are read once, and a listing answers from that read). Values read with keys
 * stay with those keys' array, so the listing's values come from the read its keys came from. A
 * record's value never changes under its key, so a read begun a moment earlier is as good.
 */
import type { RecordStore, Timers } from '../../environment.js';

/** How long a loop over stored records runs before other tasks get their turn (a long task is 50 ms). */
const BREATHE_AFTER = 10;

/** The read of everything under way, by store and prefix (a store may hold several inboxes). */
const reading = new WeakMap<RecordStore, Map<string, Promise<Map<string, unknown>>>>();
const readsOf = (records: RecordStore) => reading.get(records) || reading.set(records, new Map()).get(records)!;
/** The values read in the same read as these keys. */
const valuesOf = new WeakMap<string[], Map<string, unknown>>();

/** The keys of the inbox's records, in order. */
export async function readKeys(records: RecordStore | undefined, prefix: string): Promise<string[]> {
  const underWay = records && readsOf(records).get(prefix);
  if (!underWay) return records ? records.keys(prefix).catch(() => []) : [];
  const read = await underWay;
  const keys = [...read.keys()];
  valuesOf.set(keys, read);
  return keys;
}

/** The inbox's records by key, in one read (or the one under way). */
export async function readEvery(records: RecordStore | undefined, prefix: string): Promise<Map<string, unknown>> {
  if (!records) return new Map();
  const reads = readsOf(records);
  let underWay = reads.get(prefix);
  if (!underWay) {
    reads.set(
      prefix,
      (underWay = records.all(prefix).then(
        ([keys, values]) => new Map(keys.map((key, i) => [key, values[i]])),
        () => new Map(),
      )),
    );
    void underWay.then(() => reads.delete(prefix));
  }
  return underWay;
}

/**
 * The inbox's records by key, read only where one of `keys` is `foreign` (another page's record,
 * not in memory here): those read with `keys`, where they were.
 */
export const readAll = async (
  records: RecordStore | undefined,
  prefix: string,
  keys: string[],
  foreign: (key: string) => boolean,
) => (keys.some(foreign) ? valuesOf.get(keys) || readEvery(records, prefix) : new Map<string, unknown>());

/**
 * A loop over thousands of records lets other tasks run (the host's commands, the page's input)
 * every BREATHE_AFTER ms: the `breathe()` this returns, called in each round, waits for a new task
 * once it is time.
 */
export function breather(timers: Timers & { now(): number }) {
  let start = timers.now();
  return () =>
    timers.now() - start > BREATHE_AFTER &&
    new Promise<void>((resume) =>
      timers.setTimeout(() => {
        start = timers.now();
        resume();
      }, 0),
    );
}
