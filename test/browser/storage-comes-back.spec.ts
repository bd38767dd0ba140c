/**
 * The outbox's storage going away under a live page, in Chromium (the bundle against the reference
 * backend): "Clear site data" (CDP `Storage.clearDataForOrigin`, what the browser's own button
 * does), an app's logout deleting the database from another WebView, and a delete that a
 * connection which never lets go keeps blocked. Messages are durable again afterwards, the
 * host is told once, and nothing waits on storage without a deadline.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { requireChromium } from '../helpers/chromium.js';
import { closingAfterEach } from '../helpers/opened-pages.js';
import { RECORD_COUNT_JS, waitForRecordCount } from '../helpers/stored-records.js';
import { logLines, useBrowserHarness, type BridgePage, type OpenOptions } from '../helpers/browser-harness.js';
import { sendMessage as send, messageState as state, errorCodes as codes } from '../helpers/delivery-steps.js';

const recordCount = (page: Page) => page.evaluate(RECORD_COUNT_JS) as Promise<number>;

describe.skipIf(!requireChromium())('storage that comes back (real bundle in Chromium)', () => {
  const harness = useBrowserHarness();
  const open = closingAfterEach(
    (options: OpenOptions) => harness.open(options),
    () => harness.backend.reset(),
  );
  const waitRecords = (tab: BridgePage, count: number) => waitForRecordCount(() => recordCount(tab.page), count);
  const posted = () => logLines(harness.backend).filter((line) => line.startsWith('POST /messages'));

  it('after "Clear site data" mid-run, stores again what waits and what comes after (through a reload), and says so once', async () => {
    const tab = await open({ host: 'react-native' });
    expect(await tab.call('getConversation')).toMatchObject({ ok: true });
    await tab.setOffline(true);
    await send(tab, 'before');
    await state(tab, 'before', 'queued');
    await waitRecords(tab, 1);

    const cdp = await tab.context.newCDPSession(tab.page);
    await cdp.send('Storage.clearDataForOrigin', { origin: harness.pageOrigin, storageTypes: 'all' });
    // The clear may take the offline flag (sessionStorage) with it.
    await tab.setOffline(true, false);
    await tab.waitFor({ type: 'error', code: 'storage_wiped' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    await send(tab, 'after');
    await state(tab, 'after', 'queued');
    // The message still in memory is written again, and the new one is written as usual.
    await waitRecords(tab, 2);
    await tab.waitFor({ type: 'error', code: 'storage_restored' });
    expect(await codes(tab)).not.toContain('storage_error');

    await tab.reload();
    await tab.setOffline(false);
    await state(tab, 'before', 'sent');
    await state(tab, 'after', 'sent');
    expect((await harness.storedMessages()).map((message) => message.content)).toEqual(['before', 'after']);
    await tab.reload();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(posted()).toHaveLength(2);
  });

  it('after another WebView deletes the database (an app logout), this one sends its waiting message and stores later ones', async () => {
    const tab = await open({ host: 'android' });
    const other = await open({ host: 'android', settings: false, context: tab.context });
    expect(await tab.call('getConversation')).toMatchObject({ ok: true });
    await tab.setOffline(true);
    await send(tab, 'waiting');
    await state(tab, 'waiting', 'queued');
    await waitRecords(tab, 1);

    const deleted = await other.page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const request = indexedDB.deleteDatabase('chat-bridge');
          request.onsuccess = () => resolve('deleted');
          request.onerror = () => resolve('error');
          request.onblocked = () => resolve('blocked');
        }),
    );
    // The bridge lets go of its connection at once: the delete is never blocked by it.
    expect(deleted).toBe('deleted');
    await tab.waitFor({ type: 'error', code: 'storage_wiped' });
    await waitRecords(tab, 1);
    await tab.setOffline(false, true);
    await state(tab, 'waiting', 'sent');
    await waitRecords(tab, 0);

    await tab.setOffline(true);
    await send(tab, 'later');
    await state(tab, 'later', 'queued');
    await waitRecords(tab, 1);
    await tab.reload();
    await tab.setOffline(false);
    await state(tab, 'later', 'sent');
    expect((await harness.storedMessages()).map((message) => message.content)).toEqual(['waiting', 'later']);
  });

  it('while a delete is blocked by a connection that never lets go, a new WebView sends its messages and says they are not stored', async () => {
    const holder = await open({ host: 'browser', settings: false });
    // An app's own code (or an older bridge) holding the database open, deaf to `versionchange`.
    await holder.page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const request = indexedDB.open('chat-bridge', 1);
          request.onupgradeneeded = () => request.result.createObjectStore('outbox');
          request.onsuccess = () => {
            (window as unknown as { held: IDBDatabase }).held = request.result;
            resolve();
          };
        }),
    );
    const blocked = await holder.page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const request = indexedDB.deleteDatabase('chat-bridge');
          (window as unknown as { deleted: Promise<void> }).deleted = new Promise<void>((done) => {
            request.onsuccess = () => {
              resolve('deleted');
              done();
            };
          });
          request.onblocked = () => resolve('blocked');
        }),
    );
    expect(blocked).toBe('blocked');

    const tab = await open({ host: 'ios', context: holder.context });
    await send(tab, 'one');
    await send(tab, 'two');
    await state(tab, 'one', 'sent', 15_000);
    await state(tab, 'two', 'sent', 15_000);
    expect(await codes(tab)).toContain('storage_error');

    // The holder lets go: the delete proceeds, the bridge's open after it, and messages are durable again.
    await holder.page.evaluate(async () => {
      (window as unknown as { held: IDBDatabase }).held.close();
      await (window as unknown as { deleted: Promise<void> }).deleted;
    });
    // The bridge's open, queued behind the delete, goes through next (until it has, calls fail at
    // once rather than wait on it): the database is there again once it has.
    await vi.waitFor(
      async () =>
        expect(
          await tab.page.evaluate(async () => (await indexedDB.databases()).some((db) => db.name === 'chat-bridge')),
        ).toBe(true),
      { timeout: 10_000, interval: 100 },
    );
    await tab.setOffline(true);
    const since = await tab.mark();
    await send(tab, 'three');
    await state(tab, 'three', 'queued');
    await waitRecords(tab, 1);
    const after = (await tab.messages()).slice(since);
    expect(after.filter((message) => message.type === 'error' && message.code === 'storage_error')).toEqual([]);
    await tab.reload();
    await tab.setOffline(false);
    await state(tab, 'three', 'sent');
    expect((await harness.storedMessages()).map((message) => message.content)).toEqual(['one', 'two', 'three']);
  });
});
