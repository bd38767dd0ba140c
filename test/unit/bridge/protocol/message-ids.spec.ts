/**
 * Message ids, made in one place for the bridge and the typed client (bridge/protocol/message-ids.ts).
 */
import { describe, expect, it, vi } from 'vitest';
import { messageIds, sourceId, withMessageId } from '../../../../bridge/protocol/message-ids.js';
import type { HostCommand } from '../../../../bridge/protocol/schemas.js';
import { createBridge } from '../../../../bridge/bridge.js';
import { normalizeOptions } from '../../../../bridge/options.js';
import { createInMemoryEnvironment } from '../../../../tools/testing/in-memory-environment.js';

describe('sourceId', () => {
  it('is the time then 32 random bits, both in base 36: the replay goldens show 018mieue-0', () => {
    expect(sourceId(0, 0)).toBe('00');
    expect(sourceId(1_763_000_000_000, 0.5)).toBe(`${(1_763_000_000_000).toString(36)}${(2 ** 31).toString(36)}`);
    expect(sourceId(2 ** 40, 0.999999999)).toBe(`${(2 ** 40).toString(36)}${(2 ** 32 - 5).toString(36)}`);
  });

  it('differs for two makers started in the same millisecond with different random numbers', () => {
    expect(sourceId(1000, 0.25)).not.toBe(sourceId(1000, 0.75));
  });
});

describe('messageIds', () => {
  it('counts in base 36 after the source, from 0', () => {
    const next = messageIds('src');
    const ids = Array.from({ length: 37 }, next);
    expect(ids.slice(0, 3)).toEqual(['src-0', 'src-1', 'src-2']);
    expect(ids[10]).toBe('src-a');
    expect(ids[36]).toBe('src-10');
    expect(new Set(ids).size).toBe(37);
  });

  it('keeps one counter per maker', () => {
    const a = messageIds('a');
    const b = messageIds('b');
    expect([a(), a(), b()]).toEqual(['a-0', 'a-1', 'b-0']);
  });
});

describe('withMessageId', () => {
  const verdict = (command: HostCommand) => ({ kind: 'command', command });

  it('gives a sendMessage without a messageId the next id, keeping its params', () => {
    const mint = messageIds('p');
    const command: HostCommand = { id: 'c1', method: 'sendMessage', params: { content: 'hi' } };
    withMessageId(verdict(command), mint);
    expect(command.params).toEqual({ messageId: 'p-0', content: 'hi' });

    const bare: HostCommand = { id: 'c2', method: 'sendMessage' };
    withMessageId(verdict(bare), mint);
    expect(bare.params).toEqual({ messageId: 'p-1' });
  });

  it('keeps a messageId the host gave; the next minted id is the same as without it', () => {
    const mint = messageIds('q');
    const command: HostCommand = { id: 'c', method: 'sendMessage', params: { content: 'hi', messageId: 'mine' } };
    withMessageId(verdict(command), mint);
    expect(command.params).toEqual({ content: 'hi', messageId: 'mine' });
    expect(mint()).toBe('q-1');
  });

  it('leaves every other command and verdict alone', () => {
    const mint = messageIds('r');
    const command: HostCommand = { id: 'c', method: 'cancelMessage', params: { content: 'x' } };
    withMessageId(verdict(command), mint);
    withMessageId({ kind: 'ignored' }, mint);
    expect(command).toEqual({ id: 'c', method: 'cancelMessage', params: { content: 'x' } });
    expect(mint()).toBe('r-0');
  });
});

describe('in a running bridge', () => {
  it('a sendMessage handed to receive and one posted to the window draw on the same series, from the page id', async () => {
    const clock = { now: () => 1_763_000_000_000, setTimeout: () => 0, clearTimeout: () => undefined };
    // The backend never answers: the messages stay in the outbox, announced by their message events.
    const t = createInMemoryEnvironment({ clock, random: () => 0.5, fetch: () => new Promise(() => undefined) });
    const options = normalizeOptions(
      { baseUrl: 'https://chat.example.test/api/v1', websiteToken: 'wt_ids_0123', host: 'browser' },
      t.env.pageOrigin,
    );
    const bridge = createBridge(options, t.env);
    try {
      bridge.receive({ id: 'r', method: 'sendMessage', params: { content: 'received' } });
      t.post({ id: 'p', method: 'sendMessage', params: { content: 'posted' } }, '');
      bridge.receive({ id: 'g', method: 'sendMessage', params: { content: 'given', messageId: 'mine' } });
      await vi.waitFor(() => expect(ids(t.messages())).toHaveLength(3));
      const source = sourceId(1_763_000_000_000, 0.5);
      expect(ids(t.messages())).toEqual([`${source}-0`, `${source}-1`, 'mine']);
    } finally {
      bridge.destroy();
    }
  });
});

const ids = (messages: Array<Record<string, unknown>>) => [
  ...new Set(messages.filter((message) => message['type'] === 'message').map((message) => message['messageId'])),
];
