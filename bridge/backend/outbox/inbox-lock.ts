/**
 * The inbox lock: one sender at a time for an inbox, across every WebView of the app. This
 * page's works under it run in turn.
 *
 * Kept LINGER ms after a pass that sent everything: asking the Web Locks API costs about a
 * millisecond (a round trip to the browser process), which each message of a conversation would
 * otherwise pay before its request starts. The linger is not restarted by the passes it covers,
 * and ends when another WebView asks for the lock (where the locks can tell), as a pass does
 * after its current send (`wanted`): a busy WebView never keeps another waiting for more than one
 * send or one linger. After a failed pass the lock goes at once.
 */
import { noop, type Locks, type Timers } from '../../environment.js';

/** How long the inbox lock is kept after a pass that sent everything. */
export const LINGER = 1_000;

/** Asks for a lock and keeps it until the release it resolves with is called. */
export const hold = (locks: Locks, name: string, only?: boolean) =>
  new Promise<() => void>((granted, failed) => {
    locks.request(name, () => new Promise<void>(granted), only).catch(failed);
  });

export interface InboxLock {
  /** Runs `work` under the lock; `keep()` from inside asks to keep it a moment after. */
  run<T>(work: () => Promise<T>): Promise<T>;
  keep(): void;
  /** Whether another WebView waits for the lock (false where that cannot be known). */
  wanted(): Promise<unknown>;
  /** Whether this page holds the lock now (then no other page is sending); `Locks.held()` is the names of every lock held. */
  holding(): boolean;
  destroy(): void;
}

export function inboxLock(locks: Locks | undefined, timers: Timers, name: string): InboxLock {
  let busy = false;
  /** `keep()` was called during this pass. */
  let keepAsked = false;
  /** The linger ran out, another page asked, or destroy was called, during a pass: the lock goes as it ends. */
  let expired = false;
  /** Lets the lock go: set while this page holds it. */
  let release: (() => void) | undefined;
  /** The linger's timer, while it runs. */
  let timer: unknown;
  let turn: Promise<unknown> = Promise.resolve();
  const letGo = () => {
    timers.clearTimeout(timer);
    timer = expired = false;
    if (release) release();
    release = undefined;
  };
  const end = () => (busy ? (expired = true) : letGo());
  const wanted = async () => locks && locks.waiting && locks.waiting(name).catch(noop);
  const run = <T>(work: () => Promise<T>): Promise<T> => {
    if (!locks) return work();
    const result = turn.then(async () => {
      release ||= await hold(locks, name);
      busy = true;
      keepAsked = false;
      try {
        return await work();
      } finally {
        busy = false;
        if (!keepAsked || expired) letGo();
        else {
          timer ||= timers.setTimeout(end, LINGER);
          void wanted().then((otherWaits) => otherWaits && end());
        }
      }
    });
    turn = result.catch(noop);
    return result;
  };
  return {
    run,
    keep: () => void (keepAsked = true),
    wanted,
    holding: () => !!release,
    destroy() {
      letGo();
      // A pass under way lets it go again as it ends, rather than keep it.
      expired = true;
    },
  };
}
