/**
 * The WebView's side of the outbox's storage, for `browserEnvironment` (its locks: browser-locks.ts):
 * - records: IndexedDB (one object store; values are structured clones, so attachment bytes stay
 *   ArrayBuffers; reopened after a wipe or a delete: indexeddb-records.ts), or one localStorage key per record where IndexedDB cannot be opened (private
 *   modes, old WebViews), with ArrayBuffers written as base64. Attachments sent in chunks are Blobs,
 *   stored as they are where the store keeps Blobs, else read into ArrayBuffers first.
 * Our own few lines instead of `idb`/`idb-keyval`: we need four calls, and a wrapper would cost
 * more bytes of the injected bundle than they do.
 */
import type { RecordStore } from './environment.js';
import { base64, unbase64 } from './bytes.js';
import { indexedDbRecords } from './indexeddb-records.js';

type Op = (store: IDBObjectStore) => IDBRequest | IDBRequest[];

/** The keys an inbox's prefix starts. */
const under = (prefix: string) => IDBKeyRange.bound(prefix, `${prefix}\uffff`);

/**
 * Nothing is opened before the first call: at install (document start, before the page's own
 * scripts) a first touch of indexedDB or localStorage costs milliseconds. Where IndexedDB
 * cannot open, records go to localStorage; with neither, every call rejects (the outbox then
 * sends from memory and says so).
 */
export function browserRecords(win: Window, storage: () => Storage | undefined): RecordStore {
  let local: RecordStore | undefined;
  const database = indexedDbRecords(win, storage);
  const run = (writes: boolean, op: Op, fallback: (store: RecordStore) => Promise<any>) =>
    database.run(writes, op, () => fallback((local ||= localRecords(storage() as Storage))));
  const put = (key: string, value: unknown) =>
    run(
      true,
      (store) => store.put(value, key),
      (l) => l.put(key, value),
    );
  return {
    keys: (prefix) =>
      run(
        false,
        (store) => store.getAllKeys(under(prefix)),
        (l) => l.keys(prefix),
      ),
    all: (prefix) =>
      run(
        false,
        // Both in one transaction: the values are those of the keys, in their order.
        (store) => [store.getAllKeys(under(prefix)), store.getAll(under(prefix))],
        (l) => l.all(prefix),
      ),
    put: (key, value) =>
      put(key, value).catch(async (error) => {
        // Some WebKits refuse Blobs in IndexedDB (WebKitGTK, ephemeral data stores): their bytes go instead.
        const plain = await withoutBlobs(value);
        if (plain === value) throw error;
        return put(key, plain);
      }),
    remove: (key) =>
      run(
        true,
        (store) => store.delete(key),
        (l) => l.remove(key),
      ),
    onWiped: database.onWiped,
  };
}

/**
 * A record with each Blob (an attachment sent in chunks) read into an ArrayBuffer, for stores that
 * cannot keep Blobs; the record itself when it has none.
 */
async function withoutBlobs(value: any): Promise<unknown> {
  const files: Array<{ data?: unknown }> | undefined = value && value.files;
  // Object.assign, not spreads: esbuild would bring its spread helpers into the bundle (ES2017 target).
  return files && files.some((file) => file.data instanceof Blob)
    ? Object.assign({}, value, {
        files: await Promise.all(
          files.map(async (file) =>
            file.data instanceof Blob
              ? Object.assign({}, file, { data: await new Response(file.data).arrayBuffer() })
              : file,
          ),
        ),
      })
    : value;
}

/** One localStorage key per record; a write over quota throws and leaves nothing behind. */
const localRecords = (storage: Storage): RecordStore => ({
  keys: async (prefix) =>
    Object.keys(storage)
      .filter((key) => key.startsWith(prefix))
      .sort(),
  async all(prefix) {
    const keys = await this.keys(prefix);
    return [
      keys,
      keys.map((key) => {
        try {
          return JSON.parse(storage.getItem(key) as string, (_, value) =>
            value && value.$b ? unbase64(value.$b) : value,
          );
        } catch {
          // Not JSON: not a record, so the outbox drops it and says so.
          return null;
        }
      }),
    ];
  },
  put: async (key, value) =>
    storage.setItem(
      key,
      JSON.stringify(await withoutBlobs(value), (_, v) => (v instanceof ArrayBuffer ? { $b: base64(v) } : v)),
    ),
  remove: async (key) => storage.removeItem(key),
});
