// @vitest-environment happy-dom
/**
 * The WebView storage fallbacks, in happy-dom's window: records in localStorage (one key each,
 * bytes as base64) where IndexedDB cannot be used (the lease that stands in for the Web Locks API
 * is browser-locks.spec.ts's). IndexedDB and navigator.locks themselves run in the Chromium tests.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { browserRecords } from '../../../bridge/browser-storage.js';
import { fullStorage, oldWebView as oldWebViewWith } from '../../helpers/old-webview.js';

const oldWebView = () => oldWebViewWith().win;

afterEach(() => localStorage.clear());

describe('records in localStorage', () => {
  it('keeps one key per record, lists keys and values by prefix in order, and gives ArrayBuffers back binary', async () => {
    const records = browserRecords(oldWebView(), () => localStorage);
    const bytes = new Uint8Array([0, 1, 254, 255]).buffer;
    await records.put('p:2', { v: 1, files: [{ name: 'a', data: bytes }] });
    await records.put('p:1', { v: 1 });
    await records.put('other:1', { v: 1 });
    expect(await records.keys('p:')).toEqual(['p:1', 'p:2']);
    const [keys, values] = await records.all('p:');
    expect(keys).toEqual(['p:1', 'p:2']);
    expect(values[0]).toEqual({ v: 1 });
    const back = values[1] as { files: Array<{ data: ArrayBuffer }> };
    expect(back.files[0]?.data).toBeInstanceOf(ArrayBuffer);
    expect([...new Uint8Array(back.files[0]?.data as ArrayBuffer)]).toEqual([0, 1, 254, 255]);
    await records.remove('p:2');
    expect(await records.all('p:')).toEqual([['p:1'], [{ v: 1 }]]);
  });

  it('reads a value that is not JSON as null (not a record), and the others still', async () => {
    const records = browserRecords(oldWebView(), () => localStorage);
    await records.put('p:1', { v: 1 });
    localStorage.setItem('p:2', '{"v":1,');
    expect(await records.all('p:')).toEqual([
      ['p:1', 'p:2'],
      [{ v: 1 }, null],
    ]);
  });

  it('writes a Blob (an attachment sent in chunks) as its bytes, read back as an ArrayBuffer', async () => {
    const records = browserRecords(oldWebView(), () => localStorage);
    const blob = new Blob([new Uint8Array([9, 8]), new Uint8Array([7, 0, 255])]);
    await records?.put('p:1', {
      v: 1,
      files: [
        { name: 'a', data: blob },
        { name: 'b', data: new Uint8Array([5]).buffer },
      ],
    });
    const back = (await records.all('p:'))[1][0] as { files: Array<{ data: ArrayBuffer }> };
    expect(back.files.map((file) => [...new Uint8Array(file.data)])).toEqual([[9, 8, 7, 0, 255], [5]]);
  });

  it('gives each write asked for in one task its own outcome in localStorage (one over quota fails alone)', async () => {
    // Its items are its own keys, as localStorage's; one of them is refused.
    const items: Record<string, string> = {};
    const refusing = Object.defineProperties(items, {
      getItem: { value: (key: string) => items[key] ?? null },
      setItem: {
        value: (key: string, value: string) => {
          if (key === 'p:2') throw new DOMException('full', 'QuotaExceededError');
          items[key] = value;
        },
      },
      removeItem: { value: (key: string) => delete items[key] },
    }) as unknown as Storage;
    const records = browserRecords(oldWebView(), () => refusing);
    const outcomes = await Promise.all(
      ['p:1', 'p:2', 'p:3'].map((key) =>
        records.put(key, { v: 1 }).then(
          () => 'stored',
          (error: Error) => error.name,
        ),
      ),
    );
    expect(outcomes).toEqual(['stored', 'QuotaExceededError', 'stored']);
    expect(await records.keys('p:')).toEqual(['p:1', 'p:3']);
  });

  it('rejects a write over quota and leaves nothing behind', async () => {
    const records = browserRecords(oldWebView(), fullStorage);
    await expect(records?.put('p:1', { v: 1 })).rejects.toThrow('full');
    expect(await records?.keys('p:')).toEqual([]);
  });

  it('rejects every call without IndexedDB and localStorage, so the outbox sends from memory', async () => {
    const records = browserRecords(oldWebView(), () => undefined);
    await expect(records.put('p:1', { v: 1 })).rejects.toThrow();
    await expect(records.keys('p:')).rejects.toThrow();
  });

  it('touches neither IndexedDB nor localStorage before the first call (install stays cheap)', async () => {
    const touched: string[] = [];
    const win = new Proxy(oldWebView(), {
      get(target, name) {
        if (name === 'indexedDB') touched.push('indexedDB');
        return Reflect.get(target, name) as unknown;
      },
    });
    const records = browserRecords(win, () => {
      touched.push('localStorage');
      return localStorage;
    });
    expect(touched).toEqual([]);
    await records.keys('p:');
    expect(touched).toEqual(['indexedDB', 'localStorage']);
  });
});
