import { describe, expect, it } from 'vitest';
import { pageLock } from '../../../../../bridge/backend/outbox/page-lock.js';
import { memoryLocks } from '../../../../../tools/testing/in-memory-environment.js';

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

function setup() {
  const locks = memoryLocks(new Map());
  return { locks, page: pageLock({ locks, page: 'me' }) };
}

describe("this page's lock", () => {
  it('is held from a message until letGo, and again at the next', async () => {
    const { locks, page } = setup();
    await page.hold();
    expect(await locks.held()).toContain('chat-bridge:page:me');
    page.letGo();
    await nextTask();
    expect(await locks.held()).not.toContain('chat-bridge:page:me');
    await page.hold();
    expect(await locks.held()).toContain('chat-bridge:page:me');
    page.stop();
  });

  it('is asked for once while held, however many messages ask', async () => {
    const { locks, page } = setup();
    const first = page.hold();
    expect(page.hold()).toBe(first);
    await first;
    expect((await locks.held()).filter((name) => name === 'chat-bridge:page:me')).toHaveLength(1);
    page.stop();
  });

  it('is held until stopped, so other pages leave its records to it', async () => {
    const { locks, page } = setup();
    await page.hold();
    expect(await locks.held()).toContain('chat-bridge:page:me');
    page.stop();
    await nextTask();
    expect(await locks.held()).not.toContain('chat-bridge:page:me');
  });

  it('goes at once when granted after stop (a message queued as the bridge is replaced)', async () => {
    const { locks, page } = setup();
    const held = page.hold();
    page.stop();
    await held;
    await nextTask();
    expect(await locks.held()).not.toContain('chat-bridge:page:me');
  });

  it('is kept by a letGo before it is granted: a lock granted later would have no one to let it go', async () => {
    const { locks, page } = setup();
    const held = page.hold();
    page.letGo();
    await held;
    expect(await locks.held()).toContain('chat-bridge:page:me');
    page.letGo();
    await nextTask();
    expect(await locks.held()).not.toContain('chat-bridge:page:me');
  });

  it('resolves at once where there are no locks', async () => {
    const page = pageLock({ locks: undefined, page: 'me' });
    await expect(page.hold()).resolves.toBeUndefined();
    page.letGo();
    page.stop();
  });
});
