/**
 * This page's own lock (`PAGE_LOCK` + its id), held while it has records stored: other pages
 * leave its records to it while it lives, and take them in once it is gone (orphans.ts). Asked
 * for at each message and granted before any record of it is written; let go when its last
 * record is removed (an idle page holds none); asked again at its next message.
 */
import { noop } from '../../environment.js';
import { PAGE_LOCK } from './decisions.js';
import type { OutboxSettings } from './settings.js';

export interface PageLock {
  /** Holds the lock until `letGo`; resolves once it is held (or where there are no locks). */
  hold(): Promise<unknown>;
  /** This page has no record stored: the lock goes. */
  letGo(): void;
  /** The outbox is destroyed: the lock goes, and one granted later goes at once. */
  stop(): void;
}

export function pageLock({ locks, page }: Pick<OutboxSettings, 'locks' | 'page'>): PageLock {
  let stopped = false;
  let release = noop;
  let held: Promise<unknown> | undefined;
  /** The last hold, settled once that lock is gone: the next waits for it. */
  let gone: Promise<unknown> = Promise.resolve();

  const request = () =>
    locks &&
    new Promise<void>((granted) => {
      gone = locks
        .request(
          PAGE_LOCK + page,
          // Granted after `stop` (a message queued as the bridge was replaced): no one would let it
          // go, and no later bridge would ever take this page's records in. It goes at once.
          () => new Promise<void>((resolve) => granted(void (stopped ? resolve() : (release = resolve)))),
          true,
        )
        .catch(granted);
    });

  return {
    hold: () => (held ||= gone.then(request)),
    letGo() {
      // Not yet granted: kept (a lock granted later would be held with no one to let it go).
      if (release === noop) return;
      release();
      release = noop;
      held = undefined;
    },
    stop() {
      stopped = true;
      release();
    },
  };
}
