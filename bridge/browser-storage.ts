/**
 * The WebView's side of the outbox's storage and locks, for `browserEnvironment`:
 * - records: IndexedDB (one object store; values are structured clones, so attachment bytes stay
 *   ArrayBuffers; reopened after a wipe or a delete: indexeddb-records.ts), or one localStorage key per record where IndexedDB cannot be opened (private
 *   modes, old WebViews), with ArrayBuffers written as base64. Attachments sent in chunks are Blobs,
 *   stored as they are where the store keeps Blobs, else read into ArrayBuffers first.
 * - locks: the Web Locks API where present; otherwise a lease in localStorage (an owner and an
 *   expiry, renewed while held), which keeps two WebViews from sending at once as long as their
 *   clocks agree to within the lease.
 * Our own few lines instead of `idb`/`idb-keyval`: we need four calls, and a wrapper would cost
 * more bytes of the injected bundle than they do.
 */
import type { Locks, RecordStore } from './environment.js';
import { base64, unbase64 } from './bytes.js';
import { indexedDbRecords } from './indexeddb-records.js';

const LEASE = 'chat-bridge:lease:';

type Op = (store: IDBObjectStore) => IDBRequest;

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
        (store) => store.getAllKeys(IDBKeyRange.bound(prefix, `${prefix}\uffff`)),
        (l) => l.keys(prefix),
      ),
    get: (key) =>
      run(
        false,
        (store) => store.get(key),
        (l) => l.get(key),
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
  get: async (key) =>
    JSON.parse(storage.getItem(key) || 'null', (_, value) => (value && value.$b ? unbase64(value.$b) : value)) ||
    undefined,
  put: async (key, value) =>
    storage.setItem(
      key,
      JSON.stringify(await withoutBlobs(value), (_, v) => (v instanceof ArrayBuffer ? { $b: base64(v) } : v)),
    ),
  remove: async (key) => storage.removeItem(key),
});

/** Chosen at the first call, like the records: the Web Locks API, else a lease in localStorage, else none. */
export function browserLocks(win: Window, storage: () => Storage | undefined): Locks {
  let chosen: Locks | undefined | null = null;
  const locks = () => (chosen === null ? (chosen = nativeLocks(win) || leaseLocks(win, storage())) : chosen);
  return {
    request: (name, work) => (locks() ? (locks() as Locks).request(name, work) : work()),
    held: async () => (locks() ? (locks() as Locks).held() : []),
  };
}

function nativeLocks(win: Window): Locks | undefined {
  const native = win.navigator && win.navigator.locks;
  return native
    ? {
        request: (name, work) => native.request(name, work) as never,
        held: async () => ((await native.query()).held || []).map((lock) => lock.name as string),
      }
    : undefined;
}

function leaseLocks(win: Window, storage: Storage | undefined): Locks | undefined {
  if (!storage) return;
  const me = Math.random().toString(36);
  const holder = (name: string) => {
    const [owner, until] = (storage.getItem(LEASE + name) || '').split(' ');
    return Number(until) > Date.now() ? owner : undefined;
  };
  const claim = (name: string) => storage.setItem(LEASE + name, `${me} ${Date.now() + 10_000}`);
  return {
    async request(name, work) {
      while (holder(name) !== me) {
        if (!holder(name)) claim(name);
        // Read back after a pause: of two WebViews that wrote at once, the later write wins.
        await new Promise((resolve) => win.setTimeout(resolve, 99));
      }
      const renew = win.setInterval(() => claim(name), 3_000);
      try {
        return await work();
      } finally {
        win.clearInterval(renew);
        storage.removeItem(LEASE + name);
      }
    },
    held: async () =>
      Object.keys(storage)
        .filter((key) => key.startsWith(LEASE) && holder(key.slice(LEASE.length)))
        .map((key) => key.slice(LEASE.length)),
  };
}
