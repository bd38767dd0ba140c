/**
 * The typed client's calls in flight (host-adapters/client-calls.ts): ids, holding, deadlines,
 * settling exactly once. The client's surface over it is client.spec.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCalls } from '../../../host-adapters/client-calls.js';
import type { ClientCommand } from '../../../host-adapters/client-transport.js';
import { ChatBridgeError } from '../../../host-adapters/client-errors.js';

/** A transport that takes commands while `open` is true, recording each. */
function transport() {
  const sent: ClientCommand[] = [];
  const state = { open: true };
  return {
    sent,
    state,
    send: (command: ClientCommand) => (state.open ? void sent.push(command) : false),
  };
}

const ids = () => {
  let n = 0;
  return () => `c${++n}`;
};

describe('createCalls', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends each call at once under a fresh id and keeps it waiting until settled', async () => {
    const channel = transport();
    const calls = createCalls(channel, ids(), 1_000);
    const first = calls.call('init');
    void calls.call('listOutbox', { all: true });

    expect(channel.sent).toEqual([
      { id: 'c1', method: 'init' },
      { id: 'c2', method: 'listOutbox', params: { all: true } },
    ]);
    const call = calls.waiting.get('c1');
    expect(call?.sent).toBe(true);
    calls.settle(call!, { ok: true, result: 'one' });
    // A second outcome for the same call changes nothing.
    calls.settle(call!, { ok: true, result: 'two' });
    await expect(first).resolves.toBe('one');
    expect([...calls.waiting.keys()]).toEqual(['c2']);
  });

  it('holds calls until release, then sends them in order; a transport refusing one keeps it and the later ones', () => {
    const channel = transport();
    const calls = createCalls(channel, ids(), Infinity);
    calls.hold();
    void calls.call('a');
    void calls.call('b');
    expect(channel.sent).toEqual([]);

    channel.state.open = false;
    calls.release();
    void calls.call('c');
    expect(channel.sent).toEqual([]);

    channel.state.open = true;
    calls.release();
    expect(channel.sent.map((command) => command.method)).toEqual(['a', 'b', 'c']);
  });

  it('rejects a call with timeout when its deadline passes, unless the deadline was stopped', async () => {
    const calls = createCalls(transport(), ids(), 1_000);
    const late = calls.call('init').catch((error: ChatBridgeError) => error);
    const kept = calls.call('sendMessage', { content: 'Hi' }, 'm-1').catch((error: ChatBridgeError) => error);
    calls.stopDeadline(calls.waiting.get('c2')!);

    await vi.advanceTimersByTimeAsync(1_000);
    const error = await late;
    expect(error).toBeInstanceOf(ChatBridgeError);
    expect(error).toMatchObject({ code: 'timeout', message: '[init] no answer within 1000 ms' });
    expect([...calls.waiting.keys()]).toEqual(['c2']);

    calls.startDeadline(calls.waiting.get('c2')!);
    await vi.advanceTimersByTimeAsync(999);
    expect(calls.waiting.has('c2')).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(await kept).toMatchObject({ code: 'timeout' });
  });

  it('sets no timer at all when the timeout is Infinity', () => {
    const calls = createCalls(transport(), ids(), Infinity);
    void calls.call('init');
    expect(calls.waiting.get('c1')?.timer).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects with network_error when the transport throws, and forgets the call', async () => {
    const calls = createCalls(
      {
        send: () => {
          throw 'channel torn down';
        },
      },
      ids(),
      1_000,
    );
    await expect(calls.call('init')).rejects.toMatchObject({
      code: 'network_error',
      message: '[init] could not be handed to the bridge: channel torn down',
    });
    expect(calls.waiting.size).toBe(0);
  });

  it('close() rejects every waiting call, held ones too, with closed, and every later call at once', async () => {
    const channel = transport();
    const calls = createCalls(channel, ids(), 1_000);
    const sent = calls.call('init');
    calls.hold();
    const held = calls.call('getConversation');
    calls.close();

    await expect(sent).rejects.toMatchObject({ code: 'closed' });
    await expect(held).rejects.toMatchObject({ code: 'closed' });
    await expect(calls.call('init')).rejects.toMatchObject({
      code: 'closed',
      message: '[init] the chat-bridge client is closed',
    });
    calls.release();
    expect(channel.sent.map((command) => command.method)).toEqual(['init']);
    expect(vi.getTimerCount()).toBe(0);
  });
});
