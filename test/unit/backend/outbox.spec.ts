import { describe, expect, it } from 'vitest';
import type { KeyValueStorage } from '../../../bridge/environment.js';
import { bridgeError, type ErrorEvent } from '../../../bridge/outbound/errors.js';
import type { Outcome } from '../../../bridge/outbound/messages.js';
import { createOutbox, type OutboxEntry, type OutboxHooks } from '../../../bridge/backend/outbox.js';

const KEY = 'chat-bridge:outbox:https://chat.example.test/api/v1';

function memoryStorage(initial: Record<string, string> = {}): KeyValueStorage & { map: Map<string, string> } {
  const map = new Map(Object.entries(initial));
  return {
    map,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  };
}

const entry = (n: number): OutboxEntry => ({ commandId: `cmd-${n}`, messageId: `msg-${n}`, content: `message ${n}` });

const stored = (storage: { map: Map<string, string> }): OutboxEntry[] =>
  JSON.parse(storage.map.get(KEY) ?? '[]') as OutboxEntry[];

/** Hooks that record every call; `send` answers with whatever `answer` decides. */
function recordingHooks(answer: (entry: OutboxEntry) => Promise<unknown> = async (e) => ({ id: e.messageId })) {
  const sent: string[] = [];
  const settled: Array<{ messageId: string; outcome: Outcome }> = [];
  const stalled: Array<{ error: ErrorEvent; waiting: number }> = [];
  const hooks: OutboxHooks = {
    send: (e) => {
      sent.push(e.messageId);
      return answer(e);
    },
    settled: (e, outcome) => void settled.push({ messageId: e.messageId, outcome }),
    stalled: (error, waiting) => void stalled.push({ error, waiting }),
  };
  return { hooks, sent, settled, stalled };
}

const offline = () => Promise.reject(bridgeError('network_error', '[POST /messages] network error'));

describe('order and settling', () => {
  it('sends entries one at a time in the order they were enqueued', async () => {
    const { hooks, sent, settled } = recordingHooks();
    const outbox = createOutbox(memoryStorage(), KEY, hooks);
    [1, 2, 3].forEach((n) => outbox.enqueue(entry(n)));
    await outbox.drain();
    expect(sent).toEqual(['msg-1', 'msg-2', 'msg-3']);
    expect(settled.map((s) => s.messageId)).toEqual(['msg-1', 'msg-2', 'msg-3']);
    expect(settled[0]?.outcome).toEqual({ ok: true, result: { id: 'msg-1' } });
    expect(outbox.size).toBe(0);
  });

  it('settles an entry the backend refused with its error and goes on with the next', async () => {
    const refused = bridgeError('validation_error', '[POST /messages] 422: invalid', { status: 422 });
    const { hooks, sent, settled, stalled } = recordingHooks(async (e) => {
      if (e.messageId === 'msg-1') throw refused;
      return 'sent';
    });
    const outbox = createOutbox(memoryStorage(), KEY, hooks);
    outbox.enqueue(entry(1));
    outbox.enqueue(entry(2));
    await outbox.drain();
    expect(sent).toEqual(['msg-1', 'msg-2']);
    expect(settled).toEqual([
      { messageId: 'msg-1', outcome: { ok: false, error: refused.event } },
      { messageId: 'msg-2', outcome: { ok: true, result: 'sent' } },
    ]);
    expect(stalled).toEqual([]);
  });

  it('settles an entry whose send threw a non-bridge error, instead of stalling on it forever', async () => {
    const { hooks, settled, stalled } = recordingHooks(async () => {
      throw new TypeError('cannot read x of undefined');
    });
    const outbox = createOutbox(memoryStorage(), KEY, hooks);
    outbox.enqueue(entry(1));
    await outbox.drain();
    expect(stalled).toEqual([]);
    expect(settled).toHaveLength(1);
    expect(settled[0]?.outcome.ok).toBe(false);
    expect(outbox.size).toBe(0);
  });
});

describe('network failures', () => {
  it('stalls on a network failure, keeping the entry and everything behind it', async () => {
    const storage = memoryStorage();
    const { hooks, sent, settled, stalled } = recordingHooks(offline);
    const outbox = createOutbox(storage, KEY, hooks);
    outbox.enqueue(entry(1));
    outbox.enqueue(entry(2));
    await outbox.drain();
    expect(sent).toEqual(['msg-1']);
    expect(settled).toEqual([]);
    expect(stalled).toHaveLength(1);
    expect(stalled[0]?.error.code).toBe('network_error');
    expect(stalled[0]?.waiting).toBe(2);
    expect(outbox.size).toBe(2);
    expect(stored(storage).map((e) => e.messageId)).toEqual(['msg-1', 'msg-2']);
  });

  it('resends the stalled head first on the next drain, with the same messageId', async () => {
    let online = false;
    const { hooks, sent, settled } = recordingHooks(async (e) => (online ? e.messageId : offline()));
    const outbox = createOutbox(memoryStorage(), KEY, hooks);
    outbox.enqueue(entry(1));
    await outbox.drain();
    outbox.enqueue(entry(2));
    online = true;
    await outbox.drain();
    expect(sent).toEqual(['msg-1', 'msg-1', 'msg-2']);
    expect(settled.map((s) => s.messageId)).toEqual(['msg-1', 'msg-2']);
  });
});

describe('persistence', () => {
  it('persists the queue to storage as JSON and removes the key once empty', async () => {
    const storage = memoryStorage();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { hooks } = recordingHooks(async () => gate);
    const outbox = createOutbox(storage, KEY, hooks);
    outbox.enqueue(entry(1));
    outbox.enqueue({ ...entry(2), attachments: [{ name: 'a.txt', type: 'text/plain', data: 'AAAA' }] });
    expect(stored(storage)).toEqual([
      entry(1),
      { ...entry(2), attachments: [{ name: 'a.txt', type: 'text/plain', data: 'AAAA' }] },
    ]);
    const draining = outbox.drain();
    release();
    await draining;
    expect(storage.map.has(KEY)).toBe(false);
  });

  it('restores the queue from storage in a new outbox (a reload), in order', async () => {
    const storage = memoryStorage();
    const first = createOutbox(storage, KEY, recordingHooks(offline).hooks);
    [1, 2, 3].forEach((n) => first.enqueue(entry(n)));
    await first.drain();
    first.destroy();

    const { hooks, sent, settled } = recordingHooks();
    const second = createOutbox(storage, KEY, hooks);
    expect(second.size).toBe(3);
    await second.drain();
    expect(sent).toEqual(['msg-1', 'msg-2', 'msg-3']);
    expect(settled.map((s) => s.messageId)).toEqual(['msg-1', 'msg-2', 'msg-3']);
    expect(storage.map.has(KEY)).toBe(false);
  });

  it('keeps working in memory when storage refuses to write (quota exceeded)', async () => {
    const storage = memoryStorage();
    storage.setItem = () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    const { hooks, sent, settled } = recordingHooks();
    const outbox = createOutbox(storage, KEY, hooks);
    expect(() => outbox.enqueue(entry(1))).not.toThrow();
    outbox.enqueue(entry(2));
    expect(outbox.size).toBe(2);
    await outbox.drain();
    expect(sent).toEqual(['msg-1', 'msg-2']);
    expect(settled).toHaveLength(2);
  });

  it('works without storage at all', async () => {
    const { hooks, sent } = recordingHooks();
    const outbox = createOutbox(undefined, KEY, hooks);
    outbox.enqueue(entry(1));
    await outbox.drain();
    expect(sent).toEqual(['msg-1']);
  });

  it.each([
    ['not JSON', '{oops'],
    ['JSON that is not an array', '{"commandId":"c","messageId":"m"}'],
    ['null', 'null'],
  ])('ignores stored data that is %s', async (_name, text) => {
    const outbox = createOutbox(memoryStorage({ [KEY]: text }), KEY, recordingHooks().hooks);
    expect(outbox.size).toBe(0);
  });

  it('keeps only well-formed stored entries', () => {
    const text = JSON.stringify([entry(1), { commandId: 'c' }, null, 'x', { messageId: 'm', commandId: 7 }, entry(2)]);
    const { hooks } = recordingHooks();
    const outbox = createOutbox(memoryStorage({ [KEY]: text }), KEY, hooks);
    expect(outbox.size).toBe(2);
  });

  it('ignores storage whose read throws (a sandboxed WebView)', () => {
    const storage = memoryStorage();
    storage.getItem = () => {
      throw new DOMException('denied', 'SecurityError');
    };
    expect(createOutbox(storage, KEY, recordingHooks().hooks).size).toBe(0);
  });
});

describe('drains', () => {
  it('shares one pass between concurrent drains, sending each entry once', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { hooks, sent } = recordingHooks(async (e) => {
      await gate;
      return e.messageId;
    });
    const outbox = createOutbox(memoryStorage(), KEY, hooks);
    outbox.enqueue(entry(1));
    outbox.enqueue(entry(2));
    const a = outbox.drain();
    const b = outbox.drain();
    expect(b).toBe(a);
    release();
    await Promise.all([a, b]);
    expect(sent).toEqual(['msg-1', 'msg-2']);
  });

  it('sends an entry enqueued during a pass in that same pass', async () => {
    const { hooks, sent } = recordingHooks();
    const outbox = createOutbox(memoryStorage(), KEY, {
      ...hooks,
      settled(e, outcome) {
        hooks.settled(e, outcome);
        if (e.messageId === 'msg-1') outbox.enqueue(entry(2));
      },
    });
    outbox.enqueue(entry(1));
    await outbox.drain();
    expect(sent).toEqual(['msg-1', 'msg-2']);
  });

  it('stops after destroy: the in-flight entry is neither settled nor removed', async () => {
    const storage = memoryStorage();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { hooks, sent, settled } = recordingHooks(async () => gate);
    const outbox = createOutbox(storage, KEY, hooks);
    outbox.enqueue(entry(1));
    outbox.enqueue(entry(2));
    const draining = outbox.drain();
    outbox.destroy();
    release();
    await draining;
    expect(sent).toEqual(['msg-1']);
    expect(settled).toEqual([]);
    expect(stored(storage)).toHaveLength(2);
  });
});
