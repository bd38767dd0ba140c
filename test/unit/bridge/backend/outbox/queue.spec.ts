import { describe, expect, it } from 'vitest';
import { stateSetter, storageError, waitClock, type Entry } from '../../../../../bridge/backend/outbox/queue.js';
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
