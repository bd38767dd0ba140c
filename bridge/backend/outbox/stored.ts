/**
 * Reading the inbox's stored records, for taking in what pages that are gone left and for the
 * listing. Keys are read alone; values all at once (one read: a read per key takes seconds for
 * thousands of records), and only where some record is not in memory here. A failed read is
 * read as nothing stored.
 */
import type { RecordStore, Timers } from '../../environment.js';

/** How long a loop over stored records runs before other tasks get their turn (a long task is 50 ms). */
const SLICE = 10;

/** The keys of the inbox's records, in order. */
export const readKeys = async (records: RecordStore | undefined, prefix: string) =>
  records ? records.keys(prefix).catch(() => []) : [];

/** The inbox's records by key, in one read. */
export async function readEvery(records: RecordStore | undefined, prefix: string): Promise<Map<string, unknown>> {
  const read = new Map<string, unknown>();
  const [found, values] = records ? await records.all(prefix).catch((): [string[], unknown[]] => [[], []]) : [[], []];
  found.forEach((key, i) => read.set(key, values[i]));
  return read;
}

/**
 * The inbox's records by key, read only where one of `keys` is `foreign` (another page's record,
 * not in memory here).
 */
export const readAll = async (
  records: RecordStore | undefined,
  prefix: string,
  keys: string[],
  foreign: (key: string) => boolean,
) => (keys.some(foreign) ? readEvery(records, prefix) : new Map<string, unknown>());

/**
 * A loop over thousands of records lets other tasks run (the host's commands, the page's input)
 * every SLICE ms: `breathe()` in each round waits for a new task once it is time.
 */
export function slices(timers: Timers & { now(): number }) {
  let start = timers.now();
  return () =>
    timers.now() - start > SLICE &&
    new Promise<void>((next) =>
      timers.setTimeout(() => {
        start = timers.now();
        next();
      }, 0),
    );
}
