import { describe, expect, it } from 'vitest';
import { cancelMessage } from '../../../../../bridge/backend/outbox/cancel.js';
import type { InboxLock } from '../../../../../bridge/backend/outbox/inbox-lock.js';
import type { Orphans } from '../../../../../bridge/backend/outbox/orphans.js';
import type { Entry, Finish } from '../../../../../bridge/backend/outbox/queue.js';
import { recordKey } from '../../../../../bridge/backend/outbox-record.js';
import type { MessageState, Outcome } from '../../../../../bridge/protocol/messages.js';

const key = (page: string, n = 0) => recordKey('p:', 1, page, n);

/** A lock this test opens by hand: `run`'s work waits until `grant()`. */
function setup({ holding = false, stored = true } = {}) {
  const entries = new Map<string, Entry>();
  const finished: Array<[string, Outcome]> = [];
  const steps: string[] = [];
  let grant = () => {};
  const granted = new Promise<void>((resolve) => (grant = resolve));
  const lock = {
    holding: () => holding,
    run: async <T>(work: () => Promise<T>) => {
      steps.push('lock asked');
      await granted;
      steps.push('lock held');
      return work();
    },
  } as InboxLock;
  const orphans: Orphans = {
    adopt: async () => (steps.push('adopted'), 0),
    isStored: async (k) => (steps.push(`asked ${k}`), stored),
    stop: () => undefined,
  };
  const finish: Finish = async (entry, outcome) => {
    entries.delete(entry.key);
    finished.push([entry.record.messageId, outcome]);
  };
  const add = (k: string, messageId: string, state: MessageState = 'queued') =>
    entries.set(k, { key: k, record: { v: 1, messageId }, attempt: 0, state });
  const cancel = (messageId: string) => cancelMessage(messageId, 'me', entries, lock, orphans, finish);
  return { entries, finished, steps, grant, add, cancel };
}

describe('cancelMessage', () => {
  it("takes this page's own waiting message out at once, without the lock, as failed with `cancelled`", async () => {
    const t = setup();
    t.add(key('me'), 'm-1');
    await expect(t.cancel('m-1')).resolves.toBe(true);
    expect(t.steps).toEqual([]);
    expect(t.finished).toEqual([
      [
        'm-1',
        {
          ok: false,
          error: expect.objectContaining({ code: 'cancelled', message: '[cancelMessage] m-1 cancelled' }),
        },
      ],
    ]);
    expect(t.entries.size).toBe(0);
  });

  it('leaves a message whose request is under way (`sending`), and says so with false', async () => {
    const t = setup();
    t.add(key('me'), 'm-1', 'sending');
    await expect(t.cancel('m-1')).resolves.toBe(false);
    expect(t.finished).toEqual([]);
  });

  it('says false for a message it does not know', async () => {
    const t = setup();
    t.grant();
    await expect(t.cancel('nope')).resolves.toBe(false);
    expect(t.steps).toEqual(['lock asked', 'lock held', 'adopted']);
  });

  it("waits for the inbox lock for a gone page's message, takes in what is stored first, and takes it out if still stored", async () => {
    const t = setup();
    t.add(key('gone'), 'm-2');
    const cancelled = t.cancel('m-2');
    await Promise.resolve();
    expect(t.steps).toEqual(['lock asked']);
    expect(t.finished).toEqual([]);
    t.grant();
    await expect(cancelled).resolves.toBe(true);
    expect(t.steps).toEqual(['lock asked', 'lock held', 'adopted', `asked ${key('gone')}`]);
    expect(t.finished.map(([messageId]) => messageId)).toEqual(['m-2']);
  });

  it("leaves a gone page's message that another page already took off the disk", async () => {
    const t = setup({ stored: false });
    t.add(key('gone'), 'm-2');
    t.grant();
    await expect(t.cancel('m-2')).resolves.toBe(false);
    expect(t.finished).toEqual([]);
  });

  it("takes a gone page's message out at once while this page holds the lock (no other page sends)", async () => {
    const t = setup({ holding: true });
    t.add(key('gone'), 'm-2');
    await expect(t.cancel('m-2')).resolves.toBe(true);
    expect(t.steps).toEqual([]);
  });
});
