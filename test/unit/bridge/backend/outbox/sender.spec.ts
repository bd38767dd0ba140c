import { describe, expect, it } from 'vitest';
import { createSender } from '../../../../../bridge/backend/outbox/sender.js';
import { inboxLock } from '../../../../../bridge/backend/outbox/inbox-lock.js';
import type { Orphans } from '../../../../../bridge/backend/outbox/orphans.js';
import { pageLock } from '../../../../../bridge/backend/outbox/page-lock.js';
import { finisher, stateSetter, type Entries } from '../../../../../bridge/backend/outbox/queue.js';
import type { OutboxSettings } from '../../../../../bridge/backend/outbox/settings.js';
import { recordKey, type OutboxRecord } from '../../../../../bridge/backend/outbox-record.js';
import { bridgeError } from '../../../../../bridge/protocol/errors.js';
import type { Outcome } from '../../../../../bridge/protocol/messages.js';
import type { RecordStore } from '../../../../../bridge/environment.js';
import { mapRecords } from '../../../../../tools/testing/in-memory-environment.js';
import { createVirtualClock } from '../../../../../tools/testing/virtual-clock.js';

const flush = async () => {
  for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

function setup(
  fail: (messageId: string) => boolean,
  stored = true,
  wrap = (records: RecordStore) => records,
  extra: Partial<OutboxSettings> = {},
) {
  const clock = createVirtualClock(1_700_000_000_000);
  const map = new Map<string, unknown>();
  const sent: string[] = [];
  const outcomes: Array<[string, Outcome]> = [];
  const s: OutboxSettings = {
    records: stored ? wrap(mapRecords(map)) : undefined,
    prefix: 'p:',
    page: 'me',
    maxFileSize: 1024,
    now: clock.now,
    setTimeout: clock.setTimeout,
    clearTimeout: clock.clearTimeout,
    random: () => 0.5,
    isOnline: () => true,
    async send(record) {
      sent.push(record.messageId);
      if (fail(record.messageId)) throw bridgeError('network_error', '[POST /messages] network error');
      return record.messageId;
    },
    emit: () => undefined,
    ...extra,
  };
  const entries: Entries = new Map();
  const answered = new Set<string>();
  const orphans: Orphans = { adopt: async () => 0, isStored: async () => true, stop: () => undefined };
  const finish = finisher(s, s.records, entries, answered, stateSetter(s.emit), pageLock(s));
  const { drain, stop } = createSender(s, entries, inboxLock(undefined, s, 'p:'), orphans, finish);
  const queue = (n: number, files?: OutboxRecord['files']) => {
    const key = recordKey('p:', 1, 'me', n);
    entries.set(key, {
      key,
      record: { v: 1 as const, messageId: `m-${n}`, ...(files && { files }) },
      attempt: 0,
      state: 'queued',
      settle: (outcome) => outcomes.push([`m-${n}`, outcome]),
    });
  };
  return { clock, sent, outcomes, entries, answered, drain, stop, queue };
}

describe('the sender', () => {
  it('sends one at a time in queue order and settles each with its answer', async () => {
    const t = setup(() => false);
    t.queue(2);
    t.queue(1);
    t.drain();
    await flush();
    expect(t.sent).toEqual(['m-1', 'm-2']);
    expect(t.outcomes).toEqual([
      ['m-1', { ok: true, result: 'm-1' }],
      ['m-2', { ok: true, result: 'm-2' }],
    ]);
    expect(t.entries.size).toBe(0);
  });

  it('lets nothing overtake a message kept after a transient failure, and retries it on a timer', async () => {
    let down = true;
    const t = setup((id) => down && id === 'm-1');
    t.queue(1);
    t.queue(2);
    t.drain();
    await flush();
    expect(t.sent).toEqual(['m-1']);
    down = false;
    t.clock.advance(2_000);
    await flush();
    expect(t.sent).toEqual(['m-1', 'm-1', 'm-2']);
    t.stop();
  });

  it("removes each sent message's record before the pass's next request, and does not hold up a later pass for the last one", async () => {
    const removed: string[] = [];
    /** Lets every removal asked for so far finish. */
    const held: Array<() => void> = [];
    const release = () => held.splice(0).forEach((resolve) => resolve());
    const t = setup(
      () => false,
      true,
      (records) => ({
        ...records,
        remove: async (key) => {
          await new Promise<void>((resolve) => held.push(resolve));
          removed.push(key);
          return records.remove(key);
        },
      }),
    );
    t.queue(1);
    t.queue(2);
    t.drain();
    await flush();
    expect(t.sent).toEqual(['m-1']);
    release();
    await flush();
    expect(t.sent).toEqual(['m-1', 'm-2']);
    expect(removed).toEqual([recordKey('p:', 1, 'me', 1)]);
    // The pass ended without waiting for the last removal: a message queued now goes at once, its
    // request not held up by that store call (nor its `queued` and `sending` apart).
    t.queue(3);
    t.drain();
    await flush();
    expect(t.sent).toEqual(['m-1', 'm-2', 'm-3']);
    expect(removed).toEqual([recordKey('p:', 1, 'me', 1)]);
    release();
    await flush();
    expect(removed).toHaveLength(3);
    t.stop();
  });

  it('sends nothing once stopped', async () => {
    const t = setup(() => false);
    t.queue(1);
    t.stop();
    t.drain();
    await flush();
    expect(t.sent).toEqual([]);
  });

  it('keeps no answered key once its record is removed, nor any where there is no store', async () => {
    for (const stored of [true, false]) {
      const t = setup(() => false, stored);
      t.queue(1);
      t.queue(2);
      t.drain();
      await flush();
      expect(t.sent).toEqual(['m-1', 'm-2']);
      expect(t.answered.size).toBe(0);
      t.stop();
    }
  });

  it('fails a photo refused with no readable answer while the origin answers after 3 uploads, then sends what waits behind it', async () => {
    let probes = 0;
    const t = setup((id) => id === 'm-1', true, undefined, {
      reachable: async () => (probes++, true),
    });
    t.queue(1, [{ name: 'a.jpg', type: 'image/jpeg', data: new ArrayBuffer(512) }]);
    t.queue(2);
    t.drain();
    for (let i = 0; i < 10 && t.outcomes.length < 2; i++) {
      await flush();
      t.clock.advance(60_000);
    }
    expect(t.sent).toEqual(['m-1', 'm-1', 'm-1', 'm-2']);
    expect(probes).toBe(3);
    expect(t.outcomes[0]).toMatchObject(['m-1', { ok: false, error: { code: 'upload_refused' } }]);
    expect(t.outcomes[1]).toEqual(['m-2', { ok: true, result: 'm-2' }]);
  });

  it('keeps a photo through failures while the origin does not answer either, as offline', async () => {
    const t = setup(() => true, true, undefined, { reachable: async () => false });
    t.queue(1, [{ name: 'a.jpg', type: 'image/jpeg', data: new ArrayBuffer(512) }]);
    t.drain();
    for (let i = 0; i < 12; i++) {
      await flush();
      t.clock.advance(60_000);
    }
    expect(t.sent.length).toBeGreaterThan(8);
    expect(t.outcomes).toEqual([]);
    t.stop();
  });
});
