import { describe, expect, it } from 'vitest';
import { breather, readAll, readEvery, readKeys } from '../../../../../bridge/backend/outbox/stored.js';
import type { RecordStore } from '../../../../../bridge/environment.js';
import { mapRecords } from '../../../../../tools/testing/in-memory-environment.js';

/** A store that counts its key reads and bulk reads. */
function counted(map: Map<string, unknown>) {
  const inner = mapRecords(map);
  const calls = { keys: 0, all: 0 };
  const store: RecordStore = {
    ...inner,
    keys: (prefix) => (calls.keys++, inner.keys(prefix)),
    all: (prefix) => (calls.all++, inner.all(prefix)),
  };
  return { store, calls };
}

describe('reading the stored records', () => {
  it("reads the inbox's keys in order, and nothing stored where the store fails or there is none", async () => {
    const map = new Map<string, unknown>([
      ['p:2', 2],
      ['p:1', 1],
      ['q:1', 0],
    ]);
    expect(await readKeys(mapRecords(map), 'p:')).toEqual(['p:1', 'p:2']);
    expect(await readKeys(undefined, 'p:')).toEqual([]);
    const failing = { ...mapRecords(map), keys: () => Promise.reject(new Error('SecurityError')) };
    expect(await readKeys(failing, 'p:')).toEqual([]);
  });

  it('reads every value at once, only where one of the keys is foreign', async () => {
    const { store, calls } = counted(
      new Map<string, unknown>([
        ['p:1', { n: 1 }],
        ['p:2', { n: 2 }],
      ]),
    );
    expect(await readAll(store, 'p:', ['p:1', 'p:2'], () => false)).toEqual(new Map());
    expect(calls.all).toBe(0);
    const read = await readAll(store, 'p:', ['p:1', 'p:2'], (key) => key === 'p:2');
    expect(calls.all).toBe(1);
    expect([...read]).toEqual([
      ['p:1', { n: 1 }],
      ['p:2', { n: 2 }],
    ]);
  });

  it('answers key reads made while a read of everything is under way from it, and their values with them', async () => {
    const map = new Map<string, unknown>([
      ['p:1', { n: 1 }],
      ['p:2', { n: 2 }],
    ]);
    const { store, calls } = counted(map);
    const early = readEvery(store, 'p:');
    // Written after that read began: a value never changes under its key, so the read stays good.
    map.set('p:3', { n: 3 });
    const keys = await readKeys(store, 'p:');
    expect(keys).toEqual(['p:1', 'p:2']);
    expect(await readAll(store, 'p:', keys, () => true)).toBe(await early);
    expect(calls).toEqual({ keys: 0, all: 1 });
    // Once it is over, keys and values are read again.
    const next = await readKeys(store, 'p:');
    expect(next).toEqual(['p:1', 'p:2', 'p:3']);
    expect([...(await readAll(store, 'p:', next, () => true)).keys()]).toEqual(['p:1', 'p:2', 'p:3']);
    expect(calls).toEqual({ keys: 1, all: 2 });
  });

  it('shares a read under way only with calls for its own prefix: two inboxes on one store each read theirs', async () => {
    const { store, calls } = counted(
      new Map<string, unknown>([
        ['p:1', { n: 1 }],
        ['q:1', { n: 2 }],
      ]),
    );
    const first = readEvery(store, 'p:');
    // Made while the read of p: is under way.
    const other = readEvery(store, 'q:');
    const otherKeys = readKeys(store, 'q:');
    expect([...(await other)]).toEqual([['q:1', { n: 2 }]]);
    expect(await otherKeys).toEqual(['q:1']);
    expect([...(await first)]).toEqual([['p:1', { n: 1 }]]);
    expect(calls).toEqual({ keys: 0, all: 2 });
  });

  it('reads a failed bulk read as nothing stored', async () => {
    const failing = { ...mapRecords(new Map()), all: () => Promise.reject(new Error('timeout')) };
    expect(await readAll(failing, 'p:', ['p:1'], () => true)).toEqual(new Map());
  });
});

describe('the breather of a long loop', () => {
  it('waits for a new task only once the loop has run its time, then counts that time afresh', async () => {
    let now = 0;
    const waits: number[] = [];
    const breathe = breather({
      now: () => now,
      setTimeout: (callback, ms) => (waits.push(ms), setTimeout(callback, 0)),
      clearTimeout: () => undefined,
    });
    expect(breathe()).toBe(false);
    now = 10;
    expect(breathe()).toBe(false);
    now = 11;
    await breathe();
    expect(waits).toEqual([0]);
    expect(breathe()).toBe(false);
  });
});
