/**
 * Outbox records in IndexedDB (bridge/indexeddb-records.ts), in headless Chromium: what the module
 * is about is a real engine's IndexedDB (its transactions, `versionchange`, a delete that an open
 * connection blocks), which no stand-in in Node has. The module alone is loaded into a page served
 * from 127.0.0.1 (built from its source); each test has a browser context of its own, so a fresh
 * origin's storage, and a second page of that context stands for another WebView of the app.
 * (test/browser/storage-comes-back.spec.ts checks the same through the whole bridge, end to end.)
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { IndexedDbRecords } from '../../../bridge/indexeddb-records.js';
import { launchChromium, requireChromium, type LaunchedBrowser } from '../../helpers/chromium.js';

/**
 * indexeddb-records.ts alone, and a page-side `make()` that creates a store over the page's
 * IndexedDB and localStorage (or over a window without `indexedDB`), counting its `onWiped` calls;
 * `liveTimers()`: how many of the stores' timers are set and neither run out nor cleared.
 */
function pageScript(): string {
  const built = buildSync({
    entryPoints: [fileURLToPath(new URL('../../../bridge/indexeddb-records.ts', import.meta.url))],
    bundle: true,
    format: 'iife',
    globalName: 'indexedDbRecordsModule',
    target: 'es2017',
    write: false,
  });
  return `${built.outputFiles[0]?.text ?? ''}
window.made = [];
var live = new Set();
var timers = {
  setTimeout: function (callback, ms) {
    var handle = window.setTimeout(function () { live.delete(handle); callback(); }, ms);
    live.add(handle);
    return handle;
  },
  clearTimeout: function (handle) { live.delete(handle); window.clearTimeout(handle); },
};
window.liveTimers = function () { return live.size; };
window.make = function (withoutIndexedDb) {
  var win = Object.assign(withoutIndexedDb ? {} : { indexedDB: window.indexedDB }, { localStorage: localStorage }, timers);
  var entry = { records: indexedDbRecordsModule.indexedDbRecords(win), wiped: 0 };
  entry.records.onWiped(function () { entry.wiped++; });
  return window.made.push(entry) - 1;
};`;
}

/** What the page script puts on window. */
type Made = Window & {
  made: Array<{ records: IndexedDbRecords; wiped: number }>;
  make(withoutIndexedDb?: boolean): number;
  liveTimers(): number;
};

/** A page's call, as the outbox's record store makes them: its result, or the rejection's name and message. */
type Outcome = { ok: true; value: unknown } | { ok: false; error: string };

describe.skipIf(!requireChromium())('indexedDbRecords (Chromium, a page on 127.0.0.1)', () => {
  let chromium: LaunchedBrowser;
  let server: Server;
  let origin = '';
  let context: BrowserContext;

  beforeAll(async () => {
    const script = pageScript();
    server = createServer((request, response) => {
      if (request.url === '/records.js') {
        response.writeHead(200, { 'Content-Type': 'text/javascript' }).end(script);
        return;
      }
      response.writeHead(200, { 'Content-Type': 'text/html' }).end('<script src="/records.js"></script>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    chromium = await launchChromium();
  });

  afterAll(async () => {
    await chromium?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  beforeEach(async () => {
    context = await chromium.browser.newContext();
  });
  afterEach(async () => {
    await context?.close();
  });

  /** A page of this test's origin (another page of the same context is another WebView of the app). */
  const openPage = async () => {
    const page = await context.newPage();
    await page.goto(`${origin}/`);
    return page;
  };
  /** Creates a store in the page (a page load's bridge), by its index. */
  const make = (page: Page, withoutIndexedDb = false) =>
    page.evaluate((without) => (window as unknown as Made).make(without), withoutIndexedDb);
  const wipes = (page: Page, store: number) =>
    page.evaluate((index) => (window as unknown as Made).made[index]?.wiped, store);

  /** `put` of value under key, or (value undefined) `get` of key, as one call. */
  const call = (page: Page, store: number, key: string, value?: string) =>
    page.evaluate(
      async ({ index, key, value }): Promise<Outcome> => {
        const { records } = (window as unknown as Made).made[index] as Made['made'][number];
        try {
          const result = await records.run(value !== undefined ? 'strict' : undefined, (objects) =>
            value !== undefined ? objects.put(value, key) : objects.get(key),
          );
          return { ok: true, value: result };
        } catch (error) {
          return { ok: false, error: `${(error as Error).name}: ${(error as Error).message}` };
        }
      },
      { index: store, key, value },
    );

  /** Deletes the database from `page`: 'success' or 'blocked' (then it waits for the connections to go). */
  const deleteDatabase = (page: Page) =>
    page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const request = indexedDB.deleteDatabase('chat-bridge');
          request.onsuccess = () => resolve('success');
          request.onblocked = () => resolve('blocked');
          request.onerror = () => resolve('error');
        }),
    );

  it('runs a call in one transaction and resolves with its result, or its results in order', async () => {
    const page = await openPage();
    const store = await make(page);
    // A write resolves with its batch's results once their transaction is complete.
    expect(await call(page, store, 'k1', 'one')).toEqual({ ok: true, value: ['k1'] });
    expect(await call(page, store, 'k1')).toEqual({ ok: true, value: 'one' });
    const bulk = await page.evaluate(async (index) => {
      const { records } = (window as unknown as Made).made[index] as Made['made'][number];
      await records.run('strict', (objects) => [objects.put('two', 'k2'), objects.put('three', 'k3')]);
      return records.run(undefined, (objects) => [objects.getAllKeys(), objects.getAll()]);
    }, store);
    expect(bulk).toEqual([
      ['k1', 'k2', 'k3'],
      ['one', 'two', 'three'],
    ]);
    // One transaction: a request that fails takes the writes before it in the same call with it.
    const failed = await page.evaluate(async (index) => {
      const { records } = (window as unknown as Made).made[index] as Made['made'][number];
      return records
        .run('strict', (objects) => [objects.put('four', 'k4'), objects.add('again', 'k1')])
        .then(
          () => 'resolved',
          (error: Error) => error.name,
        );
    }, store);
    expect(failed).toBe('ConstraintError');
    expect(await call(page, store, 'k4')).toEqual({ ok: true, value: undefined });
    expect(await call(page, store, 'k1')).toEqual({ ok: true, value: 'one' });
    expect(await wipes(page, store)).toBe(0);
  });

  it('clears the deadlines of a call once it has settled, so that nothing of it is held after', async () => {
    const page = await openPage();
    const store = await make(page);
    expect(await call(page, store, 'k1', 'one')).toEqual({ ok: true, value: ['k1'] });
    expect(await call(page, store, 'k1')).toEqual({ ok: true, value: 'one' });
    const failed = await page.evaluate(async (index) => {
      const { records } = (window as unknown as Made).made[index] as Made['made'][number];
      return records
        .run('strict', (objects) => objects.add('again', 'k1'))
        .then(
          () => 'resolved',
          (error: Error) => error.name,
        );
    }, store);
    expect(failed).toBe('ConstraintError');
    // Each call set two deadlines (the open's, the transaction's), seconds long: none is left.
    expect(await page.evaluate(() => (window as unknown as Made).liveTimers())).toBe(0);
  });

  it('lets go when another page deletes the database, opens it again, says it was wiped once, and the next call works', async () => {
    const page = await openPage();
    const store = await make(page);
    expect(await call(page, store, 'k1', 'one')).toEqual({ ok: true, value: ['k1'] });
    const other = await openPage();
    // Not blocked: the store closed its connection on `versionchange`.
    expect(await deleteDatabase(other)).toBe('success');
    // It opens the database again on its own, after a pause, and so finds it wiped.
    await expect.poll(() => wipes(page, store), { timeout: 5_000 }).toBe(1);
    expect(await call(page, store, 'k1')).toEqual({ ok: true, value: undefined });
    expect(await call(page, store, 'k2', 'two')).toEqual({ ok: true, value: ['k2'] });
    // Written to the database the other page sees.
    const there = await make(other);
    expect(await call(other, there, 'k2')).toEqual({ ok: true, value: 'two' });
    expect(await wipes(page, store)).toBe(1);
  });

  it('says nothing on the first open of an origin, and says once that a database it knew of was wiped after a reload', async () => {
    const page = await openPage();
    const first = await make(page);
    expect(await call(page, first, 'k1', 'one')).toEqual({ ok: true, value: ['k1'] });
    expect(await wipes(page, first)).toBe(0);
    // An app's logout deletes the database alone, and the page is loaded again: localStorage
    // remembers that the database existed.
    await page.close();
    const other = await openPage();
    expect(await deleteDatabase(other)).toBe('success');
    const reloaded = await openPage();
    const store = await make(reloaded);
    expect(await call(reloaded, store, 'k1')).toEqual({ ok: true, value: undefined });
    expect(await call(reloaded, store, 'k2', 'two')).toEqual({ ok: true, value: ['k2'] });
    expect(await wipes(reloaded, store)).toBe(1);
    // A second store of an origin whose database is there: nothing to say.
    const again = await make(reloaded);
    expect(await call(reloaded, again, 'k2')).toEqual({ ok: true, value: 'two' });
    expect(await wipes(reloaded, again)).toBe(0);
  });

  it('rejects a call whose open a blocked delete holds up by its deadline, then works once the delete is through', async () => {
    const page = await openPage();
    // A connection that never lets go (no versionchange handler): the delete waits for it.
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const request = indexedDB.open('chat-bridge', 1);
          request.onupgradeneeded = () => request.result.createObjectStore('outbox');
          request.onsuccess = () => {
            (window as unknown as { blocker: IDBDatabase }).blocker = request.result;
            resolve();
          };
        }),
    );
    const other = await openPage();
    expect(await deleteDatabase(other)).toBe('blocked');
    const store = await make(other);
    const started = Date.now();
    // Guarded: a call that hangs comes back as 'hung' rather than as a test timeout.
    const outcome = await other.evaluate(
      (index) =>
        Promise.race([
          (window as unknown as Made).made[index]?.records
            .run(undefined, (objects) => objects.count())
            .then(
              (count) => `resolved ${count}`,
              (error: Error) => `rejected: ${error.message}`,
            ),
          new Promise<string>((resolve) => setTimeout(resolve, 15_000, 'hung')),
        ]),
      store,
    );
    expect(outcome).toBe('rejected: IndexedDB timeout');
    // By the open's deadline (OPEN_DEADLINE), not the transaction's.
    expect(Date.now() - started).toBeLessThan(9_000);
    // Once the blocking connection goes, the delete and the queued open go through.
    await page.evaluate(() => (window as unknown as { blocker: IDBDatabase }).blocker.close());
    await expect
      .poll(async () => (await call(other, store, 'k1', 'one')).ok, { timeout: 10_000, interval: 200 })
      .toBe(true);
    expect(await call(other, store, 'k1')).toEqual({ ok: true, value: 'one' });
  });

  /**
   * Counts the page's readwrite transactions (with their durability) from now on, then makes
   * `writes` in one task: [key, value] puts, [key] deletes (relaxed, as removals are), [key,
   * value, 'add'] adds, a fourth item true for a write `alone`; each write's outcome, then the stored keys and values.
   */
  const inOneTask = (page: Page, store: number, writes: Array<[string, string?, string?, boolean?]>) =>
    page.evaluate(
      async ({ index, writes }) => {
        const { records } = (window as unknown as Made).made[index] as Made['made'][number];
        const transactions: string[] = [];
        const transaction = IDBDatabase.prototype.transaction;
        IDBDatabase.prototype.transaction = function (this: IDBDatabase, ...args: Parameters<typeof transaction>) {
          if (args[1] === 'readwrite') transactions.push(args[2]?.durability ?? 'default');
          return transaction.apply(this, args);
        };
        try {
          const outcomes = await Promise.all(
            writes.map(([key, value, how, alone]) =>
              records
                .run(
                  value === undefined ? 'relaxed' : 'strict',
                  (objects) =>
                    value === undefined
                      ? objects.delete(key)
                      : how === 'add'
                        ? objects.add(value, key)
                        : objects.put(value, key),
                  alone,
                )
                .then(
                  () => 'stored',
                  (error: Error) => error.name,
                ),
            ),
          );
          const stored = await records.run(undefined, (objects) => [objects.getAllKeys(), objects.getAll()]);
          return { outcomes, transactions, stored };
        } finally {
          IDBDatabase.prototype.transaction = transaction;
        }
      },
      { index: store, writes },
    );

  it('writes asked for in one task in one transaction of their durability, each resolved once it is complete', async () => {
    const page = await openPage();
    const store = await make(page);
    expect(await call(page, store, 'k0', 'zero')).toEqual({ ok: true, value: ['k0'] });
    const written = await inOneTask(page, store, [['k1', 'one'], ['k2', 'two'], ['k0'], ['k3', 'three']]);
    expect(written.outcomes).toEqual(['stored', 'stored', 'stored', 'stored']);
    // The puts share a strict transaction, the removal is in a relaxed one.
    expect(written.transactions).toEqual(['strict', 'relaxed']);
    expect(written.stored).toEqual([
      ['k1', 'k2', 'k3'],
      ['one', 'two', 'three'],
    ]);
    // The next task's writes go in a transaction of their own.
    expect((await inOneTask(page, store, [['k4', 'four']])).transactions).toEqual(['strict']);
  });

  it('writes again, one a transaction, the writes of a batch that one of them failed: that one fails alone', async () => {
    const page = await openPage();
    const store = await make(page);
    expect(await call(page, store, 'k1', 'one')).toEqual({ ok: true, value: ['k1'] });
    // Adding a key that is there fails its request, which aborts the batch's transaction (as a
    // photo over the quota does): each of its writes is made again in a transaction of its own.
    const failed = await inOneTask(page, store, [
      ['k2', 'two'],
      ['k1', 'again', 'add'],
      ['k3', 'three'],
    ]);
    expect(failed.outcomes).toEqual(['stored', 'ConstraintError', 'stored']);
    expect(failed.transactions).toEqual(['strict', 'strict', 'strict', 'strict']);
    expect(failed.stored).toEqual([
      ['k1', 'k2', 'k3'],
      ['one', 'two', 'three'],
    ]);
    expect((await inOneTask(page, store, [['k4', 'four']])).outcomes).toEqual(['stored']);
    expect(await call(page, store, 'k4')).toEqual({ ok: true, value: 'four' });
  });

  it('gives a write asked for alone a transaction of its own, which fails alone', async () => {
    const page = await openPage();
    const store = await make(page);
    expect(await call(page, store, 'k1', 'one')).toEqual({ ok: true, value: ['k1'] });
    const written = await inOneTask(page, store, [
      ['k2', 'two'],
      ['k1', 'again', 'add', true],
      ['k3', 'three'],
    ]);
    expect(written.outcomes).toEqual(['stored', 'ConstraintError', 'stored']);
    expect(written.transactions).toEqual(['strict', 'strict']);
    expect(written.stored).toEqual([
      ['k1', 'k2', 'k3'],
      ['one', 'two', 'three'],
    ]);
  });

  it('rejects every call, reads and writes of a batch alike, where the window has no IndexedDB, and keeps no timer', async () => {
    const page = await openPage();
    const store = await make(page, true);
    const outcomes = await page.evaluate(async (index) => {
      const { records } = (window as unknown as Made).made[index] as Made['made'][number];
      const write = () => records.run('strict', (objects) => objects.put('x', 'k'));
      const calls = [write(), write(), records.run(undefined, (objects) => objects.getAllKeys())];
      return Promise.all(
        calls.map((made) =>
          made.then(
            () => 'resolved',
            () => 'rejected',
          ),
        ),
      );
    }, store);
    expect(outcomes).toEqual(['rejected', 'rejected', 'rejected']);
    // Unusable for good: a later call rejects as well, and nothing tries to open again on a timer.
    expect(await call(page, store, 'k1', 'one')).toMatchObject({ ok: false });
    expect(await page.evaluate(() => (window as unknown as Made).liveTimers())).toBe(0);
  });
});
