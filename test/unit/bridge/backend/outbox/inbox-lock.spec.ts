/**
 * The inbox lock (bridge/backend/outbox/inbox-lock.ts): one sender at a time for an inbox across
 * WebViews, kept LINGER ms after a pass that asks to keep it, given up early for a WebView that
 * waits. Two pages are two inboxLocks over tools/testing's memory locks (shared by scope, as by
 * the WebViews of one app), on the virtual clock; `tellingLocks` adds what the Web Locks API
 * tells of a waiting request. test/unit/bridge/backend/outbox.spec.ts checks the outbox's use of it.
 */
import { describe, expect, it } from 'vitest';
import { hold, inboxLock, LINGER } from '../../../../../bridge/backend/outbox/inbox-lock.js';
import type { Locks } from '../../../../../bridge/environment.js';
import { memoryLocks } from '../../../../../tools/testing/in-memory-environment.js';
import { createVirtualClock } from '../../../../../tools/testing/virtual-clock.js';
import { tellingLocks } from '../../../../helpers/telling-locks.js';

const NAME = 'chat-bridge:outbox:abc:';

/** Lets every promise that can settle now settle, without moving the clock. */
const flush = async () => {
  for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

/** A work that runs until `finish` is called, noting when it starts and ends. */
function slowWork(log: string[], label: string) {
  let finish = () => {};
  const work = () =>
    new Promise<string>((resolve) => {
      log.push(`${label} start`);
      finish = () => {
        log.push(`${label} end`);
        resolve(label);
      };
    });
  return { work, finish: () => finish() };
}

/** Two pages' locks for the same inbox, over the same locks and clock. */
function twoPages(locks: Locks = memoryLocks({})) {
  const clock = createVirtualClock(0);
  return { clock, locks, a: inboxLock(locks, clock, NAME), b: inboxLock(locks, clock, NAME) };
}
const heldNames = async (locks: Locks) => locks.held();

describe('one holder at a time', () => {
  it("runs another page's work only once this page's has ended", async () => {
    const { a, b } = twoPages();
    const log: string[] = [];
    const first = slowWork(log, 'a');
    const second = slowWork(log, 'b');
    const ran = [a.run(first.work), b.run(second.work)];
    await flush();
    expect(log).toEqual(['a start']);
    expect(a.holding()).toBe(true);
    expect(b.holding()).toBe(false);
    first.finish();
    await flush();
    expect(log).toEqual(['a start', 'a end', 'b start']);
    expect(a.holding()).toBe(false);
    expect(b.holding()).toBe(true);
    second.finish();
    expect(await Promise.all(ran)).toEqual(['a', 'b']);
    expect(b.holding()).toBe(false);
  });

  it("runs one page's works in turn, in the order asked", async () => {
    const { a, locks } = twoPages();
    const log: string[] = [];
    const works = ['1', '2', '3'].map((label) => slowWork(log, label));
    const ran = works.map((each) => a.run(each.work));
    await flush();
    expect(log).toEqual(['1 start']);
    expect(await heldNames(locks)).toEqual([NAME]);
    for (const each of works) {
      each.finish();
      await flush();
    }
    expect(await Promise.all(ran)).toEqual(['1', '2', '3']);
    expect(log).toEqual(['1 start', '1 end', '2 start', '2 end', '3 start', '3 end']);
    expect(await heldNames(locks)).toEqual([]);
  });

  it('rejects with the error of a work that failed, lets the lock go at once, and runs the next', async () => {
    const { a, b, locks } = twoPages();
    const failed = a.run(async () => Promise.reject(new Error('send failed')));
    await expect(failed).rejects.toThrow('send failed');
    expect(a.holding()).toBe(false);
    expect(await heldNames(locks)).toEqual([]);
    await expect(a.run(async () => 'next')).resolves.toBe('next');
    await expect(b.run(async () => 'other page')).resolves.toBe('other page');
  });

  it('holds a lock asked with hold until its release is called', async () => {
    const locks = memoryLocks({});
    const release = await hold(locks, 'page:me');
    expect(await heldNames(locks)).toEqual(['page:me']);
    let second = false;
    void hold(locks, 'page:me').then((again) => {
      second = true;
      again();
    });
    await flush();
    expect(second).toBe(false);
    release();
    await flush();
    expect(second).toBe(true);
    expect(await heldNames(locks)).toEqual([]);
  });
});

describe('the linger', () => {
  it('keeps the lock LINGER ms after a pass that called keep(), for the next pass to run without asking, then lets it go', async () => {
    const { a, b, clock, locks } = twoPages();
    await a.run(async () => a.keep());
    expect(a.holding()).toBe(true);
    expect(await heldNames(locks)).toEqual([NAME]);
    let other = false;
    void b.run(async () => (other = true));
    await flush();
    // This page's next pass goes before the page that asked meanwhile: the lock was never let go.
    await a.run(async () => a.keep());
    expect(other).toBe(false);
    clock.advance(LINGER - 1);
    await flush();
    expect(other).toBe(false);
    clock.advance(1);
    await flush();
    expect(other).toBe(true);
    expect(a.holding()).toBe(false);
  });

  it('lets the lock go at once after a pass that did not call keep()', async () => {
    const { a, clock, locks } = twoPages();
    await a.run(async () => a.keep());
    await a.run(async () => 'no keep');
    expect(a.holding()).toBe(false);
    expect(await heldNames(locks)).toEqual([]);
    expect(clock.pending).toBe(0);
  });

  it('is not restarted by the passes it covers', async () => {
    const { a, clock, locks } = twoPages();
    await a.run(async () => a.keep());
    clock.advance(LINGER - 100);
    await a.run(async () => a.keep());
    clock.advance(100);
    await flush();
    expect(a.holding()).toBe(false);
    expect(await heldNames(locks)).toEqual([]);
    expect(clock.pending).toBe(0);
  });

  it('ends as the pass under way ends when it runs out during that pass, keep() or not', async () => {
    const { a, clock, locks } = twoPages();
    await a.run(async () => a.keep());
    const log: string[] = [];
    const pass = slowWork(log, 'pass');
    const ran = a.run(async () => {
      a.keep();
      return pass.work();
    });
    await flush();
    clock.advance(LINGER);
    await flush();
    // Never taken from a pass under way.
    expect(a.holding()).toBe(true);
    pass.finish();
    await ran;
    expect(a.holding()).toBe(false);
    expect(await heldNames(locks)).toEqual([]);
  });

  it('ends as a pass ends when another page waits for the lock, where the locks can tell', async () => {
    const { a, b, clock } = twoPages(tellingLocks({}));
    const log: string[] = [];
    const pass = slowWork(log, 'a');
    const ran = a.run(async () => {
      a.keep();
      return pass.work();
    });
    await flush();
    let other = false;
    void b.run(async () => (other = true));
    await flush();
    pass.finish();
    await ran;
    await flush();
    expect(other).toBe(true);
    expect(a.holding()).toBe(false);
    expect(clock.pending).toBe(0);
  });
});

describe('wanted', () => {
  it('says whether another page waits for the lock', async () => {
    const { a, b } = twoPages(tellingLocks({}));
    const log: string[] = [];
    const pass = slowWork(log, 'a');
    const ran = a.run(async () => pass.work());
    await flush();
    expect(await a.wanted()).toBe(false);
    void b.run(async () => 'b');
    await flush();
    expect(await a.wanted()).toBe(true);
    pass.finish();
    await ran;
    await flush();
    expect(await a.wanted()).toBe(false);
  });

  it('cannot tell, and says so with a falsy answer, where the locks do not say who waits', async () => {
    const { a, b } = twoPages(memoryLocks({}));
    const log: string[] = [];
    const pass = slowWork(log, 'a');
    const ran = a.run(async () => pass.work());
    void b.run(async () => 'b');
    await flush();
    expect(await a.wanted()).toBeFalsy();
    const refusing: Locks = { ...memoryLocks({}), waiting: async () => Promise.reject(new Error('no query')) };
    expect(await inboxLock(refusing, createVirtualClock(), NAME).wanted()).toBeFalsy();
    pass.finish();
    await ran;
  });
});

describe('destroy', () => {
  it('lets a lingering lock go at once and clears its timer, and may be called twice', async () => {
    const { a, b, clock, locks } = twoPages();
    await a.run(async () => a.keep());
    expect(clock.pending).toBe(1);
    a.destroy();
    a.destroy();
    expect(a.holding()).toBe(false);
    expect(clock.pending).toBe(0);
    await flush();
    expect(await heldNames(locks)).toEqual([]);
    await expect(b.run(async () => 'b')).resolves.toBe('b');
  });

  it('lets the lock go as the pass under way ends, even one that called keep()', async () => {
    const { a, clock, locks } = twoPages();
    const log: string[] = [];
    const pass = slowWork(log, 'a');
    const ran = a.run(async () => {
      a.keep();
      return pass.work();
    });
    await flush();
    a.destroy();
    pass.finish();
    await expect(ran).resolves.toBe('a');
    expect(a.holding()).toBe(false);
    expect(clock.pending).toBe(0);
    expect(await heldNames(locks)).toEqual([]);
  });
});

describe('without locks (nothing to share them with)', () => {
  it('runs each work at once, holds nothing, and cannot tell who waits', async () => {
    const clock = createVirtualClock();
    const lock = inboxLock(undefined, clock, NAME);
    const log: string[] = [];
    const one = slowWork(log, '1');
    const two = slowWork(log, '2');
    const ran = [lock.run(one.work), lock.run(two.work)];
    await flush();
    // No other WebView to keep out, so nothing to wait for: both are under way.
    expect(log).toEqual(['1 start', '2 start']);
    expect(lock.holding()).toBe(false);
    lock.keep();
    expect(await lock.wanted()).toBeFalsy();
    one.finish();
    two.finish();
    expect(await Promise.all(ran)).toEqual(['1', '2']);
    lock.destroy();
    expect(clock.pending).toBe(0);
  });
});
