import { describe, expect, it } from 'vitest';
import {
  finisher,
  stateSetter,
  storageError,
  waitClock,
  type Entry,
} from '../../../../../bridge/backend/outbox/queue.js';
import type { PageLock } from '../../../../../bridge/backend/outbox/page-lock.js';
import { recordKey } from '../../../../../bridge/backend/outbox-record.js';
import type { RecordStore } from '../../../../../bridge/environment.js';
import { errorEvent } from '../../../../../bridge/protocol/errors.js';
import { mapRecords } from '../../../../../tools/testing/in-memory-environment.js';
import { toldTime } from '../../../../../bridge/backend/outbox/decisions.js';
import type { MessageStateMessage } from '../../../../../bridge/protocol/messages.js';

const entry = (): Entry => ({ key: 'k', record: { v: 1, messageId: 'm-1' }, attempt: 2, state: 'queued' });

describe('the events that tell the host about waiting messages', () => {
  it("sets an entry's state and tells it by messageId, with the attempts so far and the state's own fields", () => {
    const told: MessageStateMessage[] = [];
    const setState = stateSetter((message) => told.push(message));
    const waiting = entry();
    setState(waiting, 'sending', { progress: { sentBytes: 1, totalBytes: 2 } });
    expect(waiting.state).toBe('sending');
    expect(told).toEqual([
      { type: 'message', messageId: 'm-1', state: 'sending', attempt: 2, progress: { sentBytes: 1, totalBytes: 2 } },
    ]);
  });

  it('reports a storage failure as storage_error, labelled as the outbox', () => {
    expect(storageError('m-1 stays stored')).toMatchObject({
      type: 'error',
      code: 'storage_error',
      retryable: true,
      message: '[outbox] m-1 stays stored',
    });
  });
});

/** A wait on the wait clock, as the listing tells it on the wall clock (outbox.ts `list`). */
const wallTime = (clocks: { now(): number; elapsed?(): number }, at: number, told?: number) =>
  toldTime(clocks.now(), waitClock(clocks), at, told);

describe('the clock waits are measured on', () => {
  it('is the monotonic clock where there is one, and tells a wait on it as a wall-clock time', () => {
    let wall = 1_700_000_000_000;
    let elapsed = 5_000;
    const clocks = { now: () => wall, elapsed: () => elapsed };
    expect(waitClock(clocks)).toBe(5_000);
    const due = waitClock(clocks) + 2_000;
    expect(wallTime(clocks, due)).toBe(1_700_000_002_000);
    // The device's clock set back an hour: the wait is as long, and told as the clock reads now.
    wall -= 3_600_000;
    elapsed += 500;
    expect(due - waitClock(clocks)).toBe(1_500);
    expect(wallTime(clocks, due)).toBe(wall + 1_500);
  });

  it('is the wall clock where there is no other (a replay), and rounds what it tells to whole ms', () => {
    const clocks = { now: () => 1_000 };
    expect(waitClock(clocks)).toBe(1_000);
    expect(wallTime({ now: () => 1_000, elapsed: () => 0.4 }, 2_000.3)).toBe(3_000);
  });
});

describe('finisher: how a message leaves', () => {
  const key = (page: string, n = 0) => recordKey('p:', 1, page, n);

  function setup(records: RecordStore | undefined, map = new Map<string, unknown>()) {
    const events: unknown[] = [];
    let letGo = 0;
    const page: PageLock = { hold: async () => undefined, letGo: () => void letGo++, stop: () => undefined };
    const s = { emit: (event: unknown) => void events.push(event), page: 'me' };
    const entries = new Map<string, Entry>();
    const answered = new Set<string>();
    const queue = { entries, answered, finish: finisher(s, records, entries, answered, stateSetter(s.emit), page) };
    const add = (k: string, settle?: Entry['settle']) => {
      const entry: Entry = {
        key: k,
        record: { v: 1 as const, messageId: k },
        attempt: 1,
        state: 'sending' as const,
        ...(settle && { settle }),
      };
      map.set(k, entry.record);
      entries.set(k, entry);
      return entry;
    };
    return { queue, events, add, map, letGoes: () => letGo };
  }

  it('tells the outcome first, then removes the record, and lets the page lock go with its last record', async () => {
    const map = new Map<string, unknown>();
    const t = setup(mapRecords(map), map);
    const outcomes: unknown[] = [];
    const first = t.add(key('me', 0), (outcome) => outcomes.push(outcome));
    t.add(key('me', 1));
    const removed = t.queue.finish(first, { ok: true, result: 'r' });
    expect(outcomes).toEqual([{ ok: true, result: 'r' }]);
    expect(t.queue.answered.has(first.key)).toBe(true);
    expect(t.map.has(first.key)).toBe(true);
    await removed;
    expect(t.map.has(first.key)).toBe(false);
    expect(t.queue.answered.has(first.key)).toBe(false);
    expect(t.letGoes()).toBe(0);
    await t.queue.finish(t.queue.entries.get(key('me', 1)) as Entry, { ok: true, result: 'r' });
    expect(t.letGoes()).toBe(1);
  });

  it("tells a failure with no command waiting as an error event, and the message's state `failed`", async () => {
    const t = setup(undefined);
    const entry = t.add(key('me'));
    const error = errorEvent('validation_error', 'invalid', 422);
    await t.queue.finish(entry, { ok: false, error });
    expect(t.events).toEqual([
      { type: 'message', messageId: entry.record.messageId, state: 'failed', attempt: 1, error },
      error,
    ]);
  });

  it('keeps an answered key whose removal failed, and says its record stays stored', async () => {
    const failing: RecordStore = Object.assign(mapRecords(new Map()), { remove: () => Promise.reject(new Error('x')) });
    const t = setup(failing);
    const entry = t.add(key('me'));
    await t.queue.finish(entry, { ok: true, result: 'r' });
    expect(t.queue.answered.has(entry.key)).toBe(true);
    expect(t.events.at(-1)).toMatchObject({ code: 'storage_error' });
    expect(t.letGoes()).toBe(0);
  });

  it("waits for the record's write before removing it, so a late write cannot bring a sent message back", async () => {
    const map = new Map<string, unknown>();
    const t = setup(mapRecords(map), map);
    const entry = t.add(key('me'));
    t.map.delete(entry.key);
    let write = () => {};
    entry.written = new Promise<boolean>(
      (resolve) => (write = () => (t.map.set(entry.key, entry.record), resolve(true))),
    );
    const removed = t.queue.finish(entry, { ok: true, result: 'r' });
    write();
    await removed;
    expect(t.map.has(entry.key)).toBe(false);
  });
});
