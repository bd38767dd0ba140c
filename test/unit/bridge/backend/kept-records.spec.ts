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

describe('a record that cannot be stored, beside records that can (a photo over the quota)', () => {
  it('writes again every record it can, texts before the photo, keeps trying the photo alone, and says restored only once all are stored', async () => {
    const clock = createVirtualClock(0);
    const events: ErrorEvent[] = [];
    const map = new Map<string, unknown>();
    const inner = mapRecords(map);
    const order: string[] = [];
    let down = true;
    let photoFits = false;
    const store: RecordStore = {
      ...inner,
      put(key, value) {
        order.push(key);
        const photo = !!(value as { files?: unknown }).files;
        return down || (photo && !photoFits) ? Promise.reject(new Error('quota')) : inner.put(key, value);
      },
    };
    const records = keptRecords(store, clock, (event) => void events.push(event));
    // Stored as one task's writes would fail together: the photo first, its texts after it.
    const photo = { v: 1, files: [{ name: 'p.jpg', type: 'image/jpeg', size: 3_000_000 }] };
    await Promise.allSettled([
      records.put('p:1', photo),
      records.put('p:2', { v: 1, content: 'one' }),
      records.put('p:3', { v: 1, content: 'two' }),
    ]);
    expect(map.size).toBe(0);
    down = false;
    order.length = 0;
    clock.advance(2_000);
    await flush();
    // The photo failing again keeps neither text from the disk, and it is tried after them.
    expect(order).toEqual(['p:2', 'p:3', 'p:1']);
    expect([...map.keys()]).toEqual(['p:2', 'p:3']);
    expect(events.map((event) => event.code)).toEqual([]);
    order.length = 0;
    clock.advance(2_000);
    await flush();
    expect(order).toEqual(['p:1']);
    photoFits = true;
    clock.advance(2_000);
    await flush();
    expect([...map.keys()].sort()).toEqual(['p:1', 'p:2', 'p:3']);
    expect(events.map((event) => event.code)).toEqual(['storage_restored']);
  });
});
