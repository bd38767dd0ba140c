import { describe, expect, it } from 'vitest';
import { orphanRecovery } from '../../../../../bridge/backend/outbox/orphans.js';
import type { Entries } from '../../../../../bridge/backend/outbox/queue.js';
import type { OutboxSettings } from '../../../../../bridge/backend/outbox/settings.js';
import { recordKey, pageOf } from '../../../../../bridge/backend/outbox-record.js';
import type { ErrorEvent } from '../../../../../bridge/protocol/errors.js';
import { mapRecords, memoryLocks } from '../../../../../tools/testing/in-memory-environment.js';
import { createVirtualClock } from '../../../../../tools/testing/virtual-clock.js';

const PREFIX = 'chat-bridge:outbox:test:';

function setup(map: Map<string, unknown>) {
  const clock = createVirtualClock(1_700_000_000_000);
  const locks = memoryLocks(map);
  const events: unknown[] = [];
  const entries: Entries = new Map();
  const s: OutboxSettings = {
    records: mapRecords(map),
    locks,
    prefix: PREFIX,
    page: 'me',
    maxFileSize: 1024,
    now: clock.now,
    setTimeout: clock.setTimeout,
    clearTimeout: clock.clearTimeout,
    random: () => 0.5,
    isOnline: () => true,
    send: async () => undefined,
    emit: (event) => void events.push(event),
  };
  const foreign = (key: string) => pageOf(key) !== 'me' && !entries.has(key);
  const { adopt, isStored, stop } = orphanRecovery(s, s.records, entries, foreign, () => undefined);
  return { clock, entries, events, locks, adopt, isStored, stop };
}

describe('orphan recovery', () => {
  it("takes in a gone page's valid records, and leaves a live page's and its own", async () => {
    const map = new Map<string, unknown>();
    const gone = recordKey(PREFIX, 1, 'gone', 0);
    const live = recordKey(PREFIX, 2, 'live', 0);
    const own = recordKey(PREFIX, 3, 'me', 0);
    map.set(gone, { v: 1, messageId: 'theirs' });
    map.set(live, { v: 1, messageId: 'alive' });
    map.set(own, { v: 1, messageId: 'mine' });
    const o = setup(map);
    let releaseLive = () => {};
    void o.locks.request('chat-bridge:page:live', () => new Promise<void>((resolve) => (releaseLive = resolve)));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await o.adopt()).toBe(1);
    expect([...o.entries.keys()]).toEqual([gone]);
    releaseLive();
    o.stop();
  });

  it('looks again on a timer only while another live page has records, and not once it took in all that gone pages left', async () => {
    const map = new Map<string, unknown>([[recordKey(PREFIX, 1, 'gone', 0), { v: 1, messageId: 'theirs' }]]);
    const o = setup(map);
    expect(await o.adopt()).toBe(1);
    expect(o.clock.pending).toBe(0);
    let releaseLive = () => {};
    void o.locks.request('chat-bridge:page:live', () => new Promise<void>((resolve) => (releaseLive = resolve)));
    await new Promise((resolve) => setTimeout(resolve, 0));
    // A live page with nothing stored: nothing to watch for.
    expect(await o.adopt()).toBe(0);
    expect(o.clock.pending).toBe(0);
    map.set(recordKey(PREFIX, 2, 'live', 0), { v: 1, messageId: 'alive' });
    expect(await o.adopt()).toBe(0);
    expect(o.clock.pending).toBe(1);
    releaseLive();
    o.stop();
    expect(o.clock.pending).toBe(0);
  });

  it('drops a stored value that is not a record, and says so', async () => {
    const map = new Map<string, unknown>([[recordKey(PREFIX, 1, 'gone', 0), { v: 2, messageId: 'x' }]]);
    const o = setup(map);
    expect(await o.adopt()).toBe(0);
    expect(map.size).toBe(0);
    expect(o.events).toEqual([expect.objectContaining({ code: 'storage_error' }) as ErrorEvent]);
  });

  it('lets go of a record another page sent and removed meanwhile', async () => {
    const key = recordKey(PREFIX, 1, 'gone', 0);
    const map = new Map<string, unknown>([[key, { v: 1, messageId: 'theirs' }]]);
    const o = setup(map);
    await o.adopt();
    expect(await o.isStored(key)).toBe(true);
    map.delete(key);
    expect(await o.isStored(key)).toBe(false);
    expect(o.entries.has(key)).toBe(false);
  });
});
