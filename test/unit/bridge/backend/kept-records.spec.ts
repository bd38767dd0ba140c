import { describe, expect, it } from 'vitest';
import { keptRecords } from '../../../../bridge/backend/kept-records.js';
import type { RecordStore } from '../../../../bridge/environment.js';
import type { ErrorEvent } from '../../../../bridge/protocol/errors.js';
import { mapRecords } from '../../../../tools/testing/in-memory-environment.js';
import { createVirtualClock } from '../../../../tools/testing/virtual-clock.js';

const flush = async () => {
  for (let i = 0; i < 10; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

/** A Map's store whose writes fail while `down`, and which can say it was wiped. */
function flaky() {
  const map = new Map<string, unknown>();
  const inner = mapRecords(map);
  const state = { down: false, wiped: () => {} };
  const store: RecordStore = {
    ...inner,
    put: (key, value) => (state.down ? Promise.reject(new Error('quota')) : inner.put(key, value)),
    onWiped: (listener) => void (state.wiped = listener),
  };
  return { map, store, state };
}

function setup() {
  const clock = createVirtualClock(0);
  const events: ErrorEvent[] = [];
  const f = flaky();
  const records = keptRecords(f.store, clock, (event) => void events.push(event));
  return { ...f, clock, events, records };
}

describe('records written again when storage comes back', () => {
  it('rejects a failed write, writes it again on a timer, and says storage_restored once all is stored', async () => {
    const t = setup();
    t.state.down = true;
    await expect(t.records.put('p:1', { v: 1 })).rejects.toThrow('quota');
    t.clock.advance(2_000);
    await flush();
    expect(t.map.has('p:1')).toBe(false);
    t.state.down = false;
    t.clock.advance(2_000);
    await flush();
    expect(t.map.get('p:1')).toEqual({ v: 1 });
    expect(t.events.map((event) => event.code)).toEqual(['storage_restored']);
  });

  it('where every call fails for good (no IndexedDB), tries again only until the record is removed, and says nothing', async () => {
    const clock = createVirtualClock(0);
    const events: ErrorEvent[] = [];
    let puts = 0;
    const refused = () => Promise.reject(new Error('IndexedDB unusable'));
    const store: RecordStore = {
      keys: refused,
      all: refused,
      put: () => (puts++, refused()),
      remove: refused,
    };
    const records = keptRecords(store, clock, (event) => void events.push(event));
    await expect(records.keys('p:')).rejects.toThrow('unusable');
    await expect(records.put('p:1', { v: 1 })).rejects.toThrow('unusable');
    for (let i = 0; i < 3; i++) {
      clock.advance(2_000);
      await flush();
    }
    // Once each RETRY, not in a loop.
    expect(puts).toBe(4);
    // Sent from memory, then removed: its removal's failure is no news, and the retries stop.
    await records.remove('p:1');
    for (let i = 0; i < 5; i++) {
      clock.advance(2_000);
      await flush();
    }
    expect(puts).toBe(4);
    expect(events).toEqual([]);
  });

  it('writes again after any read that works (a listing or a look at all records)', async () => {
    const t = setup();
    t.state.down = true;
    await t.records.put('p:1', { v: 1 }).catch(() => undefined);
    t.state.down = false;
    expect(await t.records.all('p:')).toEqual([[], []]);
    await flush();
    expect(t.map.get('p:1')).toEqual({ v: 1 });
  });

  it('does not bring back a record removed while its write was failing', async () => {
    const t = setup();
    t.state.down = true;
    await t.records.put('p:1', { v: 1 }).catch(() => undefined);
    await t.records.remove('p:1');
    t.state.down = false;
    t.clock.advance(2_000);
    await flush();
    expect(t.map.has('p:1')).toBe(false);
  });

  it('says nothing once a record removed while its write was under way is gone, however many calls work after', async () => {
    const t = setup();
    t.state.down = true;
    const put = t.records.put('p:1', { v: 1 }).catch(() => undefined);
    // Removed before its write has failed.
    await t.records.remove('p:1');
    await put;
    t.state.down = false;
    await t.records.keys('p:');
    await t.records.keys('p:');
    t.clock.advance(2_000);
    await flush();
    expect(t.events).toEqual([]);
    expect(t.map.has('p:1')).toBe(false);
  });

  it('after a wipe, says storage_wiped and writes every record not yet removed again', async () => {
    const t = setup();
    await t.records.put('p:1', { v: 1 });
    await t.records.put('p:2', { v: 2 });
    await t.records.remove('p:2');
    t.map.clear();
    t.state.wiped();
    await flush();
    expect(t.events.map((event) => event.code)).toEqual(['storage_wiped', 'storage_restored']);
    expect([...t.map.keys()]).toEqual(['p:1']);
  });
});
