/**
 * The WebView's side of the outbox's locks, for `browserEnvironment`: the Web Locks API where
 * present, otherwise a lease in localStorage (iOS 12.2–15.3 has no Web Locks).
 *
 * The lease must give what the Web Locks API gives the outbox: one holder at a time, and a lock
 * that goes when its WebView goes. A holder renews its lease every second while it holds it (the
 * outbox holds its locks only while it has something to send: an idle WebView renews nothing), and it lapses a few
 * seconds after the last renewal (a crashed or killed WebView); a WebView that is closed or
 * reloaded lets its leases go at `pagehide`, so another takes over at once. Two WebViews that
 * claim at the same moment both write, wait, and read back: the later write wins. A lease that
 * ends further ahead than its length was written before the clock was set back: it has lapsed.
 */
import { listen, type Locks } from './environment.js';

const LEASE = 'chat-bridge:lease:';
/** A WebView waiting for a lock says so here. */
const WANT = 'chat-bridge:want:';
/** A lease lapses this long after its holder last renewed it. */
const TTL = 4_000;
const RENEW = 1_000;

/**
 * Chosen at the first call (which tells the other WebViews of this one): the Web Locks API, else a
 * lease in localStorage, else none (the work runs unlocked, nothing is held, and `waiting` rejects:
 * no one waits). localStorage is read then, once.
 */
export function browserLocks(win: Window, random: () => number): Locks {
  let chosen: Locks | undefined;
  let local: Storage | undefined;
  /**
   * Other WebViews hear (a `storage` event) of this one at its first call and as it takes its page
   * lock (at its first record): they watch for it to go while it has records. Reading localStorage
   * throws in some sandboxed WebViews (then there is none).
   */
  const tell = () => {
    try {
      (local = win.localStorage).setItem(LEASE, `${random()}`);
    } catch {
      // No localStorage, or full: the others look when an event of their own comes.
    }
  };
  const locks = () => {
    if (!chosen) {
      tell();
      chosen = nativeLocks(win, tell) ||
        leaseLocks(win, local, random) || { request: (_name, work) => work(), held: async () => [] };
    }
    return chosen;
  };
  return {
    request: (name, work, only) => locks().request(name, work, only),
    onChange: (listener) =>
      listen([win], ['storage'], (event) => ((event as StorageEvent).key || '').startsWith(LEASE) && listener()),
    held: () => locks().held(),
    waiting: async (name) => locks().waiting!(name),
  };
}

/** `tell`: called as a page lock is asked for (a lease tells by being written). */
function nativeLocks(win: Window, tell: () => void): Locks | undefined {
  // Every supported engine has `navigator`; iOS before 15.4 has no `locks` on it.
  const native = win.navigator.locks;
  // The field's name passed as a string, never written `.held`/`.pending`: the bundle renames
  // those properties for the locks' own methods (INTERNAL_PROPERTIES, scripts/shared-settings.mjs).
  const names = async (which: 'held' | 'pending') => (await native.query())[which]!.map((lock) => lock.name);
  return native
    ? {
        request: (name, work, only) => (only && tell(), native.request(name, work) as never),
        held: () => names('held') as Promise<string[]>,
        waiting: async (name) => (await names('pending')).includes(name),
      }
    : undefined;
}

function leaseLocks(win: Window, storage: Storage | undefined, random: () => number): Locks | undefined {
  if (!storage) return;
  const me = random().toString(36).slice(2);
  /** What `key` holds: its owner and when its lease ends. */
  const leaseOf = (key: string) => (storage.getItem(key) || '').split(' ');
  /** `key`'s owner while its time has not run out (and is no further ahead than a lease). */
  const valid = (key: string) => {
    const [owner, until] = leaseOf(key);
    const left = Number(until) - Date.now();
    return left > 0 && left <= TTL ? owner : undefined;
  };
  const claim = (key: string) => storage.setItem(key, `${me} ${Date.now() + TTL}`);
  /** Removes `key` if it is this WebView's lease. */
  const drop = (key: string) => leaseOf(key)[0] === me && storage.removeItem(key);
  win.addEventListener('pagehide', () => Object.keys(storage).forEach(drop));
  return {
    async request(name, work, only) {
      const lease = LEASE + name;
      const want = WANT + name;
      for (let owner; (owner = valid(lease)) !== me;) {
        const wants = valid(want);
        try {
          // Wanted: the holder lets go after its current send. A free lock goes to the WebView that
          // waited for it, not to its last holder asking again.
          if (owner || !wants || wants === me) claim(owner ? want : lease);
        } catch {
          // A full localStorage holds no lease: the work runs unlocked rather than never.
          return work();
        }
        // A page's own lock is held as soon as it is written, so its records can be written at once.
        if (only) break;
        // Read back after a pause: of two WebViews that wrote at once, the later write wins.
        await new Promise((resolve) => win.setTimeout(resolve, 50 + random() * 50));
      }
      storage.removeItem(want);
      // Renewed while the work runs; a lease another WebView took meanwhile is not written over.
      const renew = win.setInterval(() => (valid(lease) || me) === me && claim(lease), RENEW);
      try {
        return await work();
      } finally {
        win.clearInterval(renew);
        drop(lease);
      }
    },
    held: async () =>
      Object.keys(storage)
        .filter((key) => key.startsWith(LEASE) && valid(key))
        .map((key) => key.slice(LEASE.length)),
    waiting: async (name) => !!valid(WANT + name),
  };
}
