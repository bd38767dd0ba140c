/**
 * The in-memory Environment the replay and the Node tests run the bridge in
 * (tools/testing/in-memory-environment.ts).
 */
import { describe, expect, it } from 'vitest';
import type { HttpRequest } from '../../../../bridge/index.js';
import { createInMemoryEnvironment, mapRecords, memoryLocks } from '../../../../tools/testing/in-memory-environment.js';

const answered = async () => ({ status: 200, headers: { get: () => null }, text: async () => '' });
const request: HttpRequest = { method: 'GET', headers: { Authorization: 'Bearer x' } };

describe('createInMemoryEnvironment', () => {
  it('records every request; offline, fails it as a WebView would before fetch sees it, unless told it models the network', async () => {
    const seen: string[] = [];
    const memory = createInMemoryEnvironment({ fetch: async (url) => (seen.push(url), answered()) });
    const changes: boolean[] = [];
    memory.env.onConnectivityChange((online) => changes.push(online));

    await memory.env.fetch('https://chat.example/a', request);
    memory.setOnline(false);
    expect(memory.env.isOnline()).toBe(false);
    await expect(memory.env.fetch('https://chat.example/b', request)).rejects.toThrow(TypeError);
    expect(seen).toEqual(['https://chat.example/a']);
    expect(memory.requests.map((entry) => entry.url)).toEqual(['https://chat.example/a', 'https://chat.example/b']);
    expect(changes).toEqual([false]);

    const modelled = createInMemoryEnvironment({
      fetch: async (url) => (seen.push(url), answered()),
      failOffline: false,
    });
    modelled.setOnline(false);
    await modelled.env.fetch('https://chat.example/c', request);
    expect(seen).toContain('https://chat.example/c');
  });

  it('posts messages to the listeners, from the page origin unless told another', () => {
    const memory = createInMemoryEnvironment({ pageOrigin: 'https://page.example' });
    const got: unknown[] = [];
    const stop = memory.env.onMessage((event) => got.push(event));
    memory.post({ a: 1 });
    memory.post('x', 'https://other.example');
    stop();
    memory.post('after');
    expect(got).toEqual([
      { data: { a: 1 }, origin: 'https://page.example' },
      { data: 'x', origin: 'https://other.example' },
    ]);
  });

  it("keeps each channel's deliveries in order, as its native side gets them", () => {
    const seen: string[] = [];
    const memory = createInMemoryEnvironment({
      channels: ['android', 'ios'],
      onDelivery: ({ host }) => seen.push(host),
    });
    const scope = memory.env.scope as Record<string, any>;
    scope['ChatBridgeAndroid'].postMessage('{"type":"ready"}');
    scope['webkit'].messageHandlers.chatBridge.postMessage({ type: 'ready' });
    expect(scope['ChatBridgeFlutter']).toBeUndefined();
    expect(seen).toEqual(['android', 'ios']);
    expect(memory.messages()).toEqual([{ type: 'ready' }, { type: 'ready' }]);
  });

  it('shares its records with another environment given the same Map: a reload', async () => {
    const first = createInMemoryEnvironment();
    await first.env.records?.put('outbox:1', { text: 'kept' });
    const reloaded = createInMemoryEnvironment({ storage: first.storage });
    expect(await reloaded.env.records?.all('outbox:')).toEqual([['outbox:1'], [{ text: 'kept' }]]);
  });
});

describe('mapRecords', () => {
  it('keeps structured clones, binary included, and lists keys (and all values) by prefix in order', async () => {
    const map = new Map<string, unknown>();
    const records = mapRecords(map);
    const value = { bytes: new Uint8Array([1, 2, 3]).buffer, list: [1] };
    await records.put('b:2', value);
    await records.put('b:1', { n: 1 });
    await records.put('a:1', {});
    value.list.push(2);
    const [keys, values] = await records.all('b:');
    expect(keys).toEqual(['b:1', 'b:2']);
    expect(values[0]).toEqual({ n: 1 });
    const stored = values[1] as typeof value;
    expect(stored.list).toEqual([1]);
    expect(stored.bytes).toBeInstanceOf(ArrayBuffer);
    expect(new Uint8Array(stored.bytes)).toEqual(new Uint8Array([1, 2, 3]));
    expect(await records.keys('b:')).toEqual(['b:1', 'b:2']);
    await records.remove('b:1');
    expect(await records.keys('b:')).toEqual(['b:2']);
  });
});

describe('memoryLocks', () => {
  it('runs the work under one name one at a time, in order, shared by every holder of the scope', async () => {
    const scope = {};
    const order: string[] = [];
    let release: () => void = () => undefined;
    const first = memoryLocks(scope).request('outbox', async () => {
      order.push('first in');
      await new Promise<void>((resolve) => (release = resolve));
      order.push('first out');
    });
    const second = memoryLocks(scope).request('outbox', async () => void order.push('second'));
    const other = memoryLocks({}).request('outbox', async () => void order.push('other scope'));
    await other;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await memoryLocks(scope).held()).toEqual(['outbox']);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first in', 'other scope', 'first out', 'second']);
    expect(await memoryLocks(scope).held()).toEqual([]);
  });

  it('passes on the lock after a work that throws', async () => {
    const locks = memoryLocks({});
    await expect(locks.request('x', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(locks.request('x', async () => 'next')).resolves.toBe('next');
  });
});
