/**
 * Following a sent message by its message-state events (host-adapters/message-following.ts).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCalls } from '../../../host-adapters/client-calls.js';
import type { ClientCommand } from '../../../host-adapters/client-transport.js';
import type { ChatBridgeError } from '../../../host-adapters/client-errors.js';
import { createMessageFollowing } from '../../../host-adapters/message-following.js';

function setup(timeout = 1_000) {
  const sent: ClientCommand[] = [];
  let n = 0;
  const calls = createCalls({ send: (command) => void sent.push(command) }, () => `c${++n}`, timeout);
  return { sent, calls, following: createMessageFollowing(calls) };
}

const caught = (promise: Promise<unknown>) => promise.catch((error: ChatBridgeError) => error);

describe('createMessageFollowing', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("settles a message's call from its sent event, and consumes that call's late response once", async () => {
    const { calls, following } = setup();
    const message = calls.call('sendMessage', { content: 'Hi' }, 'm-1');
    const other = calls.call('sendMessage', { content: 'Yo' }, 'm-2');

    following.follow({ type: 'message', messageId: 'm-1', state: 'sent', attempt: 1, result: { id: 9 } });
    await expect(message).resolves.toEqual({ id: 9 });
    expect([...calls.waiting.keys()]).toEqual(['c2']);
    expect(following.consumeResponse('c1')).toBe(true);
    expect(following.consumeResponse('c1')).toBe(false);
    expect(following.consumeResponse('c2')).toBe(false);
    void other;
  });

  it("rejects from a failed event with the event's error, or parse_error when it carries none", async () => {
    const { calls, following } = setup();
    const withError = caught(calls.call('sendMessage', {}, 'm-1'));
    const without = caught(calls.call('sendMessage', {}, 'm-2'));
    following.follow({
      type: 'message',
      messageId: 'm-1',
      state: 'failed',
      attempt: 3,
      error: { type: 'error', code: 'server_error', retryable: true, message: '[sendMessage] 500', status: 500 },
    });
    following.follow({ type: 'message', messageId: 'm-2', state: 'failed', attempt: 1 });
    expect(await withError).toMatchObject({ code: 'server_error', status: 500 });
    expect(await without).toMatchObject({ code: 'parse_error' });
  });

  it('takes the deadline off a message reported waiting in the outbox', async () => {
    const { calls, following } = setup();
    const message = caught(calls.call('sendMessage', {}, 'm-1'));
    following.follow({ type: 'message', messageId: 'm-1', state: 'queued', attempt: 0 });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls.waiting.size).toBe(1);
    following.follow({ type: 'message', messageId: 'm-1', state: 'sent', attempt: 1, result: { id: 1 } });
    expect(await message).toEqual({ id: 1 });
  });

  it("reports upload progress to the message's own callback; a throwing callback does not stop the settling", async () => {
    const { calls, following } = setup(Infinity);
    const seen: number[] = [];
    const mine = calls.call('sendMessage', {}, 'm-1', (progress) => {
      seen.push(progress.sentBytes);
      throw new Error('app bug');
    });
    void calls.call('sendMessage', {}, 'm-2', () => seen.push(-1));
    following.follow({
      type: 'message',
      messageId: 'm-1',
      state: 'sent',
      attempt: 1,
      result: { id: 2 },
      progress: { sentBytes: 10, totalBytes: 10 },
    });
    await expect(mine).resolves.toEqual({ id: 2 });
    expect(seen).toEqual([10]);
    // The callback's error is thrown in a task of its own.
    expect(() => vi.runOnlyPendingTimers()).toThrow('app bug');
  });

  it("after a page loss: rejects plain calls with page_gone, and settles followed ones by the next page's outbox", async () => {
    const { sent, calls, following } = setup();
    const plain = caught(calls.call('init'));
    const kept = calls.call('sendMessage', {}, 'm-kept');
    const lost = caught(calls.call('sendMessage', {}, 'm-lost'));
    following.follow({ type: 'message', messageId: 'm-kept', state: 'sent', attempt: 1, result: { id: 3 } });
    await kept;
    const keptAgain = calls.call('sendMessage', {}, 'm-kept');

    following.pageGone();
    expect(await plain).toMatchObject({ code: 'page_gone' });
    // The remembered response of the settled call is forgotten with the page.
    expect(following.consumeResponse('c2')).toBe(false);
    const ask = sent.at(-1);
    expect(ask?.method).toBe('listOutbox');
    // The bare array form of listOutbox's result is read too.
    calls.settle(calls.waiting.get(ask!.id)!, { ok: true, result: [{ messageId: 'm-kept' }] });
    expect(await lost).toMatchObject({ code: 'page_gone', message: expect.stringContaining('m-lost') });
    await vi.advanceTimersByTimeAsync(60_000);
    expect([...calls.waiting.values()].map((call) => call.messageId)).toEqual(['m-kept']);
    void keptAgain;
  });

  it('remembers a bounded number of settled calls for their late responses, forgetting the oldest', async () => {
    const { calls, following } = setup(Infinity);
    for (let i = 0; i < 1001; i++) {
      void calls.call('sendMessage', {}, `m-${i}`);
      following.follow({ type: 'message', messageId: `m-${i}`, state: 'sent', attempt: 1, result: { id: i } });
    }
    expect(following.consumeResponse('c1')).toBe(false);
    expect(following.consumeResponse('c2')).toBe(true);
    expect(following.consumeResponse('c1001')).toBe(true);
  });
});
