/**
 * Outbox records in IndexedDB, kept usable through what happens to a WebView's storage:
 * - a connection asked to let go (another page deletes the database: `versionchange`) closes at
 *   once, so that the delete can proceed, and opens the database again;
 * - a connection the browser closed (site data cleared, storage evicted: `close`) opens it again;
 *   a call that failed (on a connection that was going away) opens it again and is made once more;
 * - every call has a deadline: an open queued behind a blocked delete, or a transaction that never
 *   settles, rejects instead of holding the outbox's lock. The open goes on, and a later call uses it;
 * - a database that had to be created where this page opened it before, or where localStorage
 *   remembers one (an app's logout that deletes the database alone), was wiped: `onWiped` says so.
 * A record's write is `strict`: `complete` waits until it is on disk (Chromium 121+ defaults to
 * relaxed, which may lose the last writes when the app's process is killed). A strict transaction
 * costs a flush to disk, so the writes asked for before one is created share it: thousands
 * of messages queued at once are one transaction, not thousands one behind the other, which a
 * listing or a read would wait behind. A batch that aborts is made again one write a transaction,
 * so one record over the quota does not keep the others from the disk. A removal is `relaxed`, in a transaction of its own: lost
 * to a killed process, its record is sent once more under its one echo_id, which delivery allows
 * (at least once); strict, its flush would hold up the next message's write.
 *
 * indexedDbRecords runs past 80 lines on purpose: one closure over the one connection, its open
 * under way and the wiped mark, which the open, the reopen and each call read and reset. The
 * batch of strict writes being gathered is withBatchedWrites' own, over it.
 */
import { noop } from './environment.js';

const STORE = 'outbox';
/** Where localStorage remembers that the database existed (it outlives an app's deleting the database alone). */
const WITNESS = 'chat-bridge:kept';
/** How long a call may wait for the database to open (a delete that another connection blocks queues an open). */
export const OPEN_DEADLINE = 3_000;
/** How long a call may wait for its transaction, a large attachment's write included. */
export const CALL_DEADLINE = 10_000;
/** How long after losing its connection the store opens again. */
const REOPEN = 300;

/** One request, or several made in the same transaction (a bulk read's keys and values). */
type Op = (store: IDBObjectStore) => IDBRequest | IDBRequest[];
/** A write's durability; none for a read. */
export type Writes = IDBTransactionDurability | undefined;

/**
 * A call's deadline passed: one Error, made the first time, not as the script is evaluated. An
 * Error made during that evaluation costs Chromium milliseconds at document start (its stack's
 * source positions are worked out by parsing the whole script again).
 */
let timedOut: Error | undefined;
const timeout = () => (timedOut ||= new Error('IndexedDB timeout'));

export interface IndexedDbRecords {
  /**
   * Runs one operation in one transaction: its request's result, or its requests' results in
   * order; rejects where IndexedDB cannot open at all. A strict write, unless `alone`, shares its
   * transaction with the strict writes asked for until it is created (in the same task, or while
   * the database opens) and resolves once it is complete (with the batch's results); it fails
   * with every write in it (a request that throws fails them all, those before it may be stored
   * all the same). Where such a batch fails, each of its writes is made once more in a
   * transaction of its own, and fails (or not) alone.
   */
  run(writes: Writes, op: Op, alone?: boolean): Promise<any>;
  /** The one listener told when the database is found wiped. */
  onWiped(listener: () => void): void;
}

/**
 * The wiped database's witness is kept in `win.localStorage` (none, or unreadable: no witness).
 * Until the first open succeeds, a failed open means IndexedDB is unusable here (some private
 * modes, a locked-down WebView) and every call rejects from then on; after one has succeeded, a
 * failed open is a passing state.
 */
export function indexedDbRecords(win: Window): IndexedDbRecords {
  let connection: Promise<IDBDatabase> | undefined;
  /** Opened once here (or, once a database was created, one existed before). */
  let opened = false;
  /** The pending open missed a deadline (queued behind a blocked delete). */
  let stalled = false;
  /**
   * The browser or another page took the connection away (site data cleared, the database
   * deleted): another page may create the database again before this one reopens it, so this one
   * would not find it wiped by having to create it.
   */
  let lost = false;
  let wiped = noop;

  /**
   * Rejects after `ms` unless `promise` settled. Its timer is cleared as it settles: left to run
   * out, each call's timer would hold its closures and promises for seconds after the call.
   */
  const deadline = <T>(promise: Promise<T>, ms: number) =>
    new Promise<T>((resolve, reject) => {
      const timer = win.setTimeout(() => reject(timeout()), ms);
      promise.then(resolve, reject).then(() => win.clearTimeout(timer));
    });

  function open(): Promise<IDBDatabase> {
    /** The database did not exist: new, or wiped. */
    let created = false;
    const opening: Promise<IDBDatabase> = new Promise<IDBDatabase>((resolve, reject) => {
      const request = win.indexedDB.open('chat-bridge', 1);
      request.onupgradeneeded = () => {
        created = true;
        request.result.createObjectStore(STORE);
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = reject;
    }).then(
      (database) => {
        stalled = false;
        // Let go at once: a delete or an upgrade by another page waits for every open connection.
        // Opened again without waiting for the next call, so that a wipe is found (and what is in
        // memory written again) at once. An open queued behind a delete waits for it.
        database.onversionchange = database.onclose = () => {
          database.close();
          if (connection === opening) {
            connection = undefined;
            lost = true;
            // After a pause: an open at once fails while the browser is still clearing.
            win.setTimeout(() => (connection ||= open()).catch(noop), REOPEN);
          }
        };
        // Created where this page opened it before, or where localStorage remembers it: wiped.
        // (Reading localStorage throws in some sandboxed WebViews.)
        try {
          const witness = win.localStorage;
          opened ||= created && !!witness.getItem(WITNESS);
          witness.setItem(WITNESS, '1');
        } catch {}
        if ((created || lost) && opened) wiped();
        opened = true;
        lost = false;
        return database;
      },
      (error) => {
        stalled = false;
        // Never opened here: IndexedDB is unusable in this WebView (some private modes, a
        // locked-down WebView), and the failed open stays the connection, so every call rejects.
        if (opened) connection = undefined;
        throw error;
      },
    );
    return opening;
  }

  const attempt = async (writes: Writes, op: Op) => {
    // A missing `indexedDB` throws in `open`: unusable too.
    const opening = (connection ||= open());
    // Once an open has missed its deadline, the calls after it fail at once until it settles.
    if (stalled) throw timeout();
    const database = await deadline(opening, OPEN_DEADLINE).catch((error) => {
      stalled = error === timedOut;
      throw error;
    });
    return deadline(transact(database, writes, op), CALL_DEADLINE).catch((error) => {
      // How a connection going away (closed by the browser, deleted) fails its transactions: the
      // call is made once more on a new one. Other failures (a refused Blob, quota) leave it be.
      if (/^(Abort|InvalidState)Error$/.test(error.name) && connection === opening) connection = undefined;
      throw error;
    });
  };

  // Made once more where the connection went away under it (a passed deadline keeps it: the open
  // or transaction it waited for goes on).
  const twice = (writes: Writes, op: Op) =>
    attempt(writes, op).catch((error) => {
      if (connection) throw error;
      return attempt(writes, op);
    });

  return withBatchedWrites(twice, (listener) => (wiped = listener));
}

/**
 * The records over `call` (one operation in one transaction, on the one connection), with
 * `onWiped` as the connection has it: a strict write, unless `alone`, joins the strict writes
 * asked for until their transaction is created, and shares its flush to disk.
 */
function withBatchedWrites(
  call: (writes: Writes, op: Op) => Promise<unknown>,
  onWiped: IndexedDbRecords['onWiped'],
): IndexedDbRecords {
  /** The strict writes that join the next transaction, until it is created, and its outcome. */
  let batch: Op[] | undefined;
  let batched: Promise<unknown>;
  /** The last write of a failed batch made again alone: the next waits for it. */
  let oneByOne: Promise<unknown> = Promise.resolve();

  return {
    onWiped,
    run(writes, op, alone) {
      // A relaxed write (a removal) has no flush to share: it goes alone.
      if (writes != 'strict' || alone) return call(writes, op);
      if (!batch) {
        const ops: Op[] = (batch = []);
        // Writes asked for from then on go in the next transaction (a retry's closing a later
        // batch early does no harm: its writes are in it, the next ones start another).
        const close = () => void (batch = undefined);
        // Closed as it settles too (not with `finally`: ES2018).
        (batched = call(writes, (store) => (close(), ops.map((each) => each(store)) as IDBRequest[]))).then(
          close,
          close,
        );
      }
      const ops = batch;
      ops.push(op);
      // A batch that aborts fails every write in it (one photo over the quota, a refused clone):
      // each is written again in a transaction of its own, one after the other in the order asked
      // (at once, they could fail for the space the one over the quota held a moment), so a write
      // that cannot be stored fails alone. Not after a passed deadline: storage is away, and the
      // kept records write it again.
      return batched.catch((error) => {
        if (ops.length < 2 || error === timedOut) throw error;
        return (oneByOne = oneByOne.catch(noop).then(() => call(writes, op)));
      });
    },
  };
}

/** Runs `op` in a transaction of its own: its request's result, or its requests' results in order. */
function transact(database: IDBDatabase, writes: Writes, op: Op): Promise<unknown> {
  return new Promise((resolve, reject) => {
    // Engines without `durability` ignore the option; an undefined mode is `readonly`.
    const transaction = database.transaction(STORE, writes && 'readwrite', writes && { durability: writes });
    const request = op(transaction.objectStore(STORE));
    transaction.oncomplete = () =>
      resolve(Array.isArray(request) ? request.map((each) => each.result) : request.result);
    // A failed request aborts its transaction; so does a connection closed under it.
    transaction.onabort = () => reject(transaction.error);
  });
}
