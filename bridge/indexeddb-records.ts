/**
 * Outbox records in IndexedDB, kept usable through what happens to a WebView's storage:
 * - a connection asked to let go (another page deletes the database: `versionchange`) closes at
 *   once, so that the delete can proceed, and opens the database again;
 * - a connection the browser closed (site data cleared, storage evicted: `close`) opens it again;
 *   a call that failed (on a connection that was going away) opens it again and is made once more;
 * - every call has a deadline: an open queued behind a blocked delete, or a transaction that never
 *   settles, rejects instead of holding the outbox's lock. The open goes on, and a later call uses it;
 * - a marker record, written at the first open, tells a wiped store from a new one: missing where
 *   this page saw it before, or where localStorage remembers it (an app's logout that deletes the
 *   database alone), the store was wiped, and `onWiped` says so.
 * Writes are `strict`: `complete` waits until the record is on disk (Chromium 121+ defaults to
 * relaxed, which may lose the last writes when the app's process is killed).
 */

const STORE = 'outbox';
/**
 * The marker's key, outside every inbox's key prefix (so `keys(prefix)` never lists it), and the
 * localStorage key that remembers the store had one.
 */
const MARKER = 'chat-bridge:marker';
/** How long a call may wait for the database to open (a delete that another connection blocks queues an open). */
export const OPEN_DEADLINE = 3_000;
/** How long a call may wait for its transaction, a large attachment's write included. */
export const CALL_DEADLINE = 10_000;
/** How long after losing its connection the store opens again. */
const REOPEN = 300;

const noop = () => {};

type Op = (store: IDBObjectStore) => IDBRequest;

/** A call's deadline passed: another attempt would wait for the same open or transaction. */
const TIMEOUT = new Error('IndexedDB timeout');

export interface IndexedDbRecords {
  /** Runs one operation in one transaction; `fallback` where IndexedDB cannot open at all. */
  run<T>(writes: boolean, op: Op, fallback: () => Promise<T>): Promise<T>;
  /** The one listener told when the marker is found missing. */
  onWiped(listener: () => void): void;
}

/**
 * `storage` is localStorage (or undefined), where the marker's witness is kept. Until the first
 * open succeeds, a failed open means IndexedDB is unusable here (private modes, old WebViews) and
 * `fallback` is used from then on; after one has succeeded, a failed open is a passing state.
 */
export function indexedDbRecords(win: Window, storage: () => Storage | undefined): IndexedDbRecords {
  let connection: Promise<IDBDatabase | void> | undefined;
  /** Opened once here, and so saw (or wrote) the marker. */
  let opened = false;
  /** The pending open missed a deadline (queued behind a blocked delete). */
  let stalled = false;
  let wiped = noop;

  /** Rejects after `ms` unless `promise` settled (its timer left to run out: a race settles once). */
  const deadline = <T>(promise: Promise<T>, ms: number) =>
    Promise.race([promise, new Promise<never>((_, reject) => win.setTimeout(() => reject(TIMEOUT), ms))]);

  const transact = <T>(database: IDBDatabase, writes: boolean, op: Op) =>
    new Promise<T>((resolve, reject) => {
      // Engines without `durability` ignore the option.
      const transaction = database.transaction(STORE, writes ? 'readwrite' : 'readonly', { durability: 'strict' });
      const request = op(transaction.objectStore(STORE));
      transaction.oncomplete = () => resolve(request.result as T);
      // A failed request aborts its transaction; so does a connection closed under it.
      transaction.onabort = () => reject(transaction.error);
    });

  function open(): Promise<IDBDatabase | void> {
    const opening: Promise<IDBDatabase | void> = new Promise<IDBDatabase>((resolve, reject) => {
      const request = win.indexedDB.open('chat-bridge', 1);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE);
      request.onsuccess = () => resolve(request.result);
      request.onerror = reject;
    }).then(
      async (database) => {
        stalled = false;
        // Opened again without waiting for the next call, so that a wipe is found (and what is in
        // memory written again) at once. An open queued behind a delete waits for it.
        // Let go at once: a delete or an upgrade by another page waits for every open connection.
        database.onversionchange = database.onclose = () => {
          database.close();
          if (connection === opening) {
            connection = undefined;
            // After a pause: an open at once fails while the browser is still clearing.
            win.setTimeout(() => (connection ||= open()).catch(noop), REOPEN);
          }
        };
        // The marker: `add` fails where it is. Missing where this page saw it or localStorage
        // remembers it, the store was wiped.
        if (await transact(database, true, (store) => store.add(1, MARKER)).then(() => 1, noop)) {
          let remembered = opened;
          try {
            const witness = storage() as Storage;
            remembered ||= !!witness.getItem(MARKER);
            witness.setItem(MARKER, '1');
          } catch {}
          if (remembered) wiped();
        }
        opened = true;
        return database;
      },
      (error) => {
        stalled = false;
        // Never opened here: IndexedDB is unusable in this WebView, records go to the fallback.
        if (!opened) return;
        if (connection === opening) connection = undefined;
        throw error;
      },
    );
    return opening;
  }

  const attempt = async <T>(writes: boolean, op: Op, fallback: () => Promise<T>) => {
    // A missing `indexedDB` throws in `open`: the fallback's case too.
    const opening = (connection ||= open());
    // Once an open has missed its deadline, the calls after it fail at once until it settles.
    if (stalled) throw TIMEOUT;
    const database = await deadline(opening, OPEN_DEADLINE).catch((error) => {
      stalled = error === TIMEOUT;
      throw error;
    });
    if (!database) return fallback();
    return deadline(transact<T>(database, writes, op), CALL_DEADLINE).catch((error) => {
      // The connection may be going away (closed by the browser, deleted): the next attempt opens
      // again. Any failure (a refused Blob, quota) costs a new connection, a millisecond or so.
      if (connection === opening) connection = undefined;
      throw error;
    });
  };

  return {
    run: (writes, op, fallback) =>
      attempt(writes, op, fallback).catch((error) => {
        if (error === TIMEOUT) throw error;
        return attempt(writes, op, fallback);
      }),
    onWiped: (listener) => (wiped = listener),
  };
}
