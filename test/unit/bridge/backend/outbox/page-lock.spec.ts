import { describe, expect, it } from 'vitest';
import { PAGE_LOCK } from '../../../../../bridge/backend/outbox/decisions.js';
import { pageLock } from '../../../../../bridge/backend/outbox/page-lock.js';
import { memoryLocks } from '../../../../../tools/testing/in-memory-environment.js';

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

function setup() {
  const locks = memoryLocks(new Map());
  /** How many times this page's lock is held, a task from now (a lock let go is gone by then). */
  const holds = async () => {
    await nextTask();
    return (await locks.held()).filter((name) => name === `${PAGE_LOCK}me`).length;
  };
  return { holds, page: pageLock({ locks, page: 'me' }) };
}

describe("this page's lock", () => {
  it('is held from a message until letGo, and again at the next', async () => {
    const { holds, page } = setup();
    await page.hold();
    expect(await holds()).toBe(1);
    page.letGo();
    expect(await holds()).toBe(0);
    await page.hold();
    expect(await holds()).toBe(1);
    page.stop();
  });

  it('is asked for once while held, however many messages ask', async () => {
    const { holds, page } = setup();
    const first = page.hold();
    expect(page.hold()).toBe(first);
    await first;
    expect(await holds()).toBe(1);
    page.stop();
  });

  it('is held until stopped, so other pages leave its records to it', async () => {
    const { holds, page } = setup();
    await page.hold();
    expect(await holds()).toBe(1);
    page.stop();
    expect(await holds()).toBe(0);
  });

  it('goes at once when granted after stop (a message queued as the bridge is replaced)', async () => {
    const { holds, page } = setup();
    const held = page.hold();
    page.stop();
    await held;
    expect(await holds()).toBe(0);
  });

  it('is kept by a letGo before it is granted: a lock granted later would have no one to let it go', async () => {
    const { holds, page } = setup();
    const held = page.hold();
    page.letGo();
    await held;
    expect(await holds()).toBe(1);
    page.letGo();
    expect(await holds()).toBe(0);
  });

  it('resolves at once where there are no locks', async () => {
    const page = pageLock({ locks: undefined, page: 'me' });
    await expect(page.hold()).resolves.toBeUndefined();
    page.letGo();
    page.stop();
  });
});
