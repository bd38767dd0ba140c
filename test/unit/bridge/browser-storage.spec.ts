// @vitest-environment happy-dom
/**
 * The record store where IndexedDB cannot be used, in happy-dom's window (which has none): every
 * call rejects, so the outbox sends from memory and says so, and no record goes to localStorage
 * (the lease that stands in for the Web Locks API is browser-locks.spec.ts's). IndexedDB itself
 * runs in the Chromium tests (indexeddb-records.spec.ts, test/browser/).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { browserRecords } from '../../../bridge/browser-storage.js';
import { oldWebView as oldWebViewWith } from '../../helpers/old-webview.js';

/** That window, with `storage` as its localStorage (happy-dom's) or none. */
const oldWebView = (storage?: Storage) => Object.assign(oldWebViewWith().win, { localStorage: storage }) as Window;

afterEach(() => localStorage.clear());

/** Whether the call rejected. */
const rejected = (call: Promise<unknown>) =>
  call.then(
    () => false,
    () => true,
  );

describe('records without IndexedDB', () => {
  it('rejects every call, with a usable localStorage too, and writes no record to localStorage', async () => {
    const records = browserRecords(oldWebView(localStorage));
    const bytes = new Uint8Array([0, 1, 254, 255]).buffer;
    expect(
      await Promise.all([
        rejected(records.put('p:1', { v: 1 })),
        rejected(records.put('p:2', { v: 1, files: [{ name: 'a', data: bytes }] })),
        rejected(records.put('p:3', { v: 1, files: [{ name: 'b', data: new Blob([bytes]) }] })),
        rejected(records.keys('p:')),
        rejected(records.all('p:')),
        rejected(records.remove('p:1')),
      ]),
    ).toEqual([true, true, true, true, true, true]);
    // Later calls reject as well: unusable for good, not tried again.
    expect(await rejected(records.put('p:4', { v: 1 }))).toBe(true);
    expect(Object.keys(localStorage)).toEqual([]);
  });

  it('rejects every call without localStorage either', async () => {
    const records = browserRecords(oldWebView());
    await expect(records.put('p:1', { v: 1 })).rejects.toThrow();
    await expect(records.keys('p:')).rejects.toThrow();
  });

  it('touches neither IndexedDB nor localStorage before the first call (install stays cheap)', async () => {
    const touched: string[] = [];
    const win = new Proxy(oldWebView(localStorage), {
      get(target, name) {
        if (name === 'indexedDB' || name === 'localStorage') touched.push(name);
        return Reflect.get(target, name) as unknown;
      },
    });
    const records = browserRecords(win);
    expect(touched).toEqual([]);
    expect(await rejected(records.keys('p:'))).toBe(true);
    // localStorage only keeps the witness of a database that opened: none here.
    expect(touched).toEqual(['indexedDB']);
  });
});
