import { describe, expect, it } from 'vitest';
import { lostAnswers } from '../../../../bridge/backend/lost-answers.js';
import { CHATWOOT } from '../../../../bridge/backend/chatwoot-profile.js';
import { bridgeError } from '../../../../bridge/protocol/errors.js';

const NO_ANSWER = () => Promise.reject(bridgeError('network_error', '[POST /messages] no answer within 15000 ms'));
const REFUSED = () => Promise.reject(bridgeError('validation_error', '[POST /messages] 422: validation failed'));
const record = (messageId: string, content = 'hi') => ({ v: 1 as const, messageId, content });
/** A message of Chatwoot's list, as findSent reads it: no echo_id, made at `time` (seconds). */
const listed = (id: number, content: string, time: number) => ({
  id,
  content,
  message_type: 0,
  created_at: time,
  attachments: [],
});

/** Lost answers on Chatwoot's `findSent`, with the list the test sets, a device clock it moves and a skew. */
function setUp(skew = 0) {
  let time = 1_700_000_000_000;
  let list: unknown[] = [];
  let lists = 0;
  const lost = lostAnswers(
    CHATWOOT.findSent,
    async () => {
      lists++;
      return list;
    },
    () => time,
    (deviceTime) => deviceTime + skew,
  );
  return {
    lost,
    lists: () => lists,
    setList: (messages: unknown[]) => void (list = messages),
    tick: (ms: number) => void (time += ms),
    now: () => time,
  };
}

/** An attempt that is answered, and how often it was called. */
function answered() {
  let calls = 0;
  return Object.assign(async () => (calls++, 'sent'), { calls: () => calls });
}

describe('lostAnswers', () => {
  it("calls a first attempt at once, in the caller's task: its request starts without a wait", () => {
    const { lost } = setUp();
    let called = false;
    void lost.sendOnce(record('m-1'), async () => {
      called = true;
      return 'sent';
    });
    expect(called).toBe(true);
  });

  it('looks nothing up for a message whose attempts were answered or refused', async () => {
    const { lost, lists } = setUp();
    await expect(lost.sendOnce(record('m-1'), REFUSED)).rejects.toMatchObject({ event: { code: 'validation_error' } });
    expect(await lost.sendOnce(record('m-1'), async () => 'sent')).toBe('sent');
    expect(await lost.sendOnce(record('m-1'), async () => 'sent again')).toBe('sent again');
    expect(lists()).toBe(0);
  });

  it('after an attempt got no answer, finds the copy made since it began instead of sending again, once', async () => {
    const { lost, setList, now, lists } = setUp();
    const began = Math.floor(now() / 1000);
    await expect(lost.sendOnce(record('m-1'), NO_ANSWER)).rejects.toMatchObject({ event: { code: 'network_error' } });
    setList([listed(7, 'hi', began - 60), listed(8, 'hi', began)]);
    const send = answered();
    expect(await lost.sendOnce(record('m-1'), send)).toMatchObject({ id: 8 });
    expect(send.calls()).toBe(0);
    // Settled: no look-up for it again, and copy 8 settles no other message.
    expect(await lost.sendOnce(record('m-1'), send)).toBe('sent');
    await expect(lost.sendOnce(record('m-2'), NO_ANSWER)).rejects.toBeDefined();
    expect(await lost.sendOnce(record('m-2'), send)).toBe('sent');
    expect(send.calls()).toBe(2);
    expect(lists()).toBe(2);
  });

  it('looks from the first lost attempt, not the last, and forgets it once an attempt is answered', async () => {
    const { lost, setList, now, tick, lists } = setUp();
    const first = Math.floor(now() / 1000);
    await expect(lost.sendOnce(record('m-1'), NO_ANSWER)).rejects.toBeDefined();
    tick(120_000);
    // Looked for (nothing listed yet), sent again, and again no answer.
    await expect(lost.sendOnce(record('m-1'), NO_ANSWER)).rejects.toBeDefined();
    setList([listed(9, 'hi', first)]);
    expect(await lost.sendOnce(record('m-1'), answered())).toMatchObject({ id: 9 });

    await expect(lost.sendOnce(record('m-3'), NO_ANSWER)).rejects.toBeDefined();
    setList([]);
    expect(await lost.sendOnce(record('m-3'), async () => 'sent')).toBe('sent');
    setList([listed(10, 'hi', Math.floor(now() / 1000))]);
    const listedBefore = lists();
    expect(await lost.sendOnce(record('m-3'), async () => 'sent again')).toBe('sent again');
    expect(lists()).toBe(listedBefore);
  });

  it("puts the attempt's start on the server's clock", async () => {
    // The server's clock is an hour ahead: a copy made before the start on the device's clock,
    // but after it on the server's, is the message's.
    const { lost, setList, now } = setUp(3_600_000);
    const began = Math.floor(now() / 1000);
    await expect(lost.sendOnce(record('m-1'), NO_ANSWER)).rejects.toBeDefined();
    setList([listed(5, 'hi', began + 60)]);
    // Not the message's copy: it is sent again (and again gets no answer).
    await expect(lost.sendOnce(record('m-1'), NO_ANSWER)).rejects.toBeDefined();
    setList([listed(6, 'hi', began + 3_600)]);
    expect(await lost.sendOnce(record('m-1'), answered())).toMatchObject({ id: 6 });
  });

  it('looks nothing up where the backend drops repeats itself (no findSent)', async () => {
    let lists = 0;
    const lost = lostAnswers(
      undefined,
      async () => void lists++,
      Date.now,
      (time) => time,
    );
    await expect(lost.sendOnce(record('m-1'), NO_ANSWER)).rejects.toBeDefined();
    expect(await lost.sendOnce(record('m-1'), async () => 'sent')).toBe('sent');
    expect(lists).toBe(0);
  });
});
