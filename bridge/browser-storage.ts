/**
 * The WebView's side of the outbox's storage, for `browserEnvironment` (its locks: browser-locks.ts):
 * - records: IndexedDB (one object store; values are structured clones, so attachment bytes stay
 *   ArrayBuffers; reopened after a wipe or a delete: indexeddb-records.ts). Where IndexedDB cannot
 *   be opened (some private modes, a locked-down WebView), every call rejects: the outbox sends
 *   from memory and tells the host (`storage_error`). There is no localStorage fallback: every
 *   supported WebView has IndexedDB, where it cannot open localStorage is mostly unusable or
 *   session-only too, and the fallback cost the injected bundle bytes it has no room for.
 *   Attachments sent in chunks are Blobs, stored as they are where the store keeps Blobs. Where
 *   it refuses them (WebKit's ephemeral data stores: WKWebView's non-persistent one, WebKitGTK's),
 *   each file's bytes go in slices of SLICE_BYTES, each under its own key `[record key, file,
 *   slice]` (array keys sort after every string key, so `keys` never lists them), written in one
 *   transaction one slice a task: a structured clone of a photo in one `put` held WebKit's main
 *   thread in proportion to its bytes (bench/README.md). Once a store has refused a Blob, later
 *   records go there at once.
 *   Records without Blobs share a transaction with those written with them; a removal has one
 *   of its own, `relaxed` (indexeddb-records.ts).
 * Our own few lines instead of `idb`/`idb-keyval`: we need four calls, and a wrapper would cost
 * more bytes of the injected bundle than they do.
 */
import type { RecordStore } from './environment.js';
import { indexedDbRecords } from './indexeddb-records.js';

/** The keys an inbox's prefix starts. */
const under = (prefix: string) => IDBKeyRange.bound(prefix, `${prefix}\uffff`);

/** A file's bytes are stored in slices of this many bytes where the store refuses Blobs. */
export const SLICE_BYTES = 1 << 20;

/** The keys of a record's slices. */
const slicesOf = (key: string) => IDBKeyRange.bound([key], [key, Infinity]);

/** The keys of the slices of every record under a prefix. */
const slicesUnder = (prefix: string) => IDBKeyRange.bound([prefix], [`${prefix}\uffff`]);

/**
 * Nothing is opened before the first call: at install (document start, before the page's own
 * scripts) a first touch of indexedDB or localStorage costs milliseconds. Where IndexedDB
 * cannot open, every call rejects (the outbox then sends from memory and says so). localStorage
 * keeps only the wiped database's witness (indexeddb-records.ts), never a record.
 */
export function browserRecords(win: Window): RecordStore {
  const database = indexedDbRecords(win);
  const run = database.run;
  /** This store refused a Blob: records with bytes are written in slices from then on. */
  let refused = false;
  /**
   * The record with its files' bytes in slices, read from a Blob a slice at a time (one read of a
   * whole photo would be one copy of it in a single task) and written in one transaction, a slice a
   * task; its files' bytes are `{slices: count}`.
   */
  const sliced = async (key: string, value: unknown) => {
    const slices: Array<[IDBValidKey, ArrayBuffer]> = [];
    const record = await withFiles(value, async (blob, f) => {
      let n = 0;
      for (let at = 0; at < blob.size; at += SLICE_BYTES)
        slices.push([[key, f, n++], await new Response(blob.slice(at, at + SLICE_BYTES)).arrayBuffer()]);
      return { slices: n };
    });
    return run('strict', (store) => {
      store.delete(slicesOf(key));
      let n = 0;
      // Each next slice once the one before is written: its structured clone in a task of its own.
      const next = () => {
        const slice = slices[n++];
        if (slice) store.put(slice[1], slice[0]).onsuccess = next;
      };
      next();
      return store.put(record, key);
    });
  };
  return {
    keys: (prefix) => run(undefined, (store) => store.getAllKeys(under(prefix))),
    all: (prefix) =>
      run(
        undefined,
        // In one transaction: the values are those of the keys, in their order, and the slices
        // (none where the store keeps Blobs) are those of these records.
        (store) => [
          store.getAllKeys(under(prefix)),
          store.getAll(under(prefix)),
          store.getAllKeys(slicesUnder(prefix)),
          store.getAll(slicesUnder(prefix)),
        ],
      ).then(([keys, values, sliceKeys, slices]: [string[], unknown[], Array<[string]>, ArrayBuffer[]]) => [
        keys,
        values.map((record, i) =>
          joined(
            record,
            slices.filter((_, j) => sliceKeys[j]![0] === keys[i]),
          ),
        ),
      ]),
    // A record with Blobs has a transaction of its own: a store that refuses them fails it alone.
    put: (key, value) =>
      refused
        ? sliced(key, value)
        : run('strict', (store) => store.put(value, key), hasBlobs(value)).catch(async (error) => {
            if (!hasBlobs(value)) throw error;
            await sliced(key, value);
            refused = true;
          }),
    remove: (key) => run('relaxed', (store) => (store.delete(slicesOf(key)), store.delete(key))),
    onWiped: database.onWiped,
  };
}

/** Records are objects; `files` is their attachments, when they have any. */
const hasBlobs = (value: any) => (value.files || []).some((file: any) => file.data instanceof Blob);

/**
 * A copy of the record whose files' bytes are what `write` makes of them (as a Blob: a Blob of a
 * Blob holds it by reference, of an ArrayBuffer a copy); files without bytes stay as they are.
 */
const withFiles = async (value: any, write: (blob: Blob, file: number) => Promise<unknown>): Promise<unknown> => ({
  ...value,
  ...(value.files && {
    files: await Promise.all(
      value.files.map(async (file: { data?: BlobPart }, f: number) =>
        file.data ? { ...file, data: await write(new Blob([file.data]), f) } : file,
      ),
    ),
  }),
});

/** The record read back (undefined: none) with its files' slices joined into one Blob each. */
function joined(record: any, slices: ArrayBuffer[]): unknown {
  for (const file of (record && record.files) || [])
    if (file.data && file.data.slices >= 0) file.data = new Blob(slices.splice(0, file.data.slices));
  return record;
}
