/**
 * The outbox's storage going away under a live page, in real WebKit (WebKitGTK, the engine of
 * WKWebView) with the iOS host's script message handler: the data store cleared as an app's
 * logout clears it (WKWebsiteDataStore.removeData; here WebKitWebsiteDataManager.clear), the
 * database deleted by another WebView of the app, and a delete that a connection which never lets
 * go keeps blocked. The same cases as test/browser/storage-comes-back.spec.ts in Chromium.
 */
import { describe, expect, it, vi } from 'vitest';
import { logLines } from '../helpers/browser-harness.js';
import { closingAfterEach } from '../helpers/opened-pages.js';
import { requireWebKit } from '../helpers/webkit.js';
import { useWebKitHarness, type WebKitOpenOptions, type WebKitPage } from '../helpers/webkit-harness.js';
import { RECORD_COUNT_JS, waitForRecordCount } from '../helpers/stored-records.js';
import { sendMessage as send, messageState as state, errorCodes as codes } from '../helpers/delivery-steps.js';

describe.skipIf(!requireWebKit())('storage that comes back (real bundle in WebKit)', () => {
  const harness = useWebKitHarness();
  const open = closingAfterEach(
    (options: WebKitOpenOptions) => harness.open(options),
    () => harness.backend.reset(),
  );
  const recordCount = async (tab: WebKitPage) => (await tab.evaluate(`return await ${RECORD_COUNT_JS};`)) as number;
  const waitRecords = (tab: WebKitPage, count: number) => waitForRecordCount(() => recordCount(tab), count);
  const storedContents = async () => (await harness.storedMessages()).map((message) => message.content);

  it('after the app clears the data store mid-run, stores again what waits and what comes after (through a reload)', async () => {
    const tab = await open({ host: 'ios' });
    expect(await tab.call('getConversation')).toMatchObject({ ok: true });
    await tab.setOffline(true);
    await send(tab, 'before');
    await state(tab, 'before', 'queued');
    await waitRecords(tab, 1);

    await tab.clearData();
    // The clear may take the offline flag (sessionStorage) with it.
    await tab.setOffline(true, false);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await send(tab, 'after');
    await state(tab, 'after', 'queued');
    await waitRecords(tab, 2);
    await tab.waitFor({ type: 'error', code: 'storage_wiped' });
    expect(await codes(tab)).not.toContain('storage_error');

    await tab.reload();
    await tab.setOffline(false);
    await state(tab, 'before', 'sent');
    await state(tab, 'after', 'sent');
    expect(await storedContents()).toEqual(['before', 'after']);
  });

  it('after another WebView deletes the database, the open one sends its waiting message and stores later ones', async () => {
    const tab = await open({ host: 'ios' });
    const other = await open({ host: 'ios', bare: true, shareWith: tab });
    expect(await tab.call('getConversation')).toMatchObject({ ok: true });
    await tab.setOffline(true);
    await send(tab, 'waiting');
    await state(tab, 'waiting', 'queued');
    await waitRecords(tab, 1);

    const deleted = await other.evaluate(`return await new Promise((resolve) => {
      const request = indexedDB.deleteDatabase('chat-bridge');
      request.onsuccess = () => resolve('deleted');
      request.onerror = () => resolve('error');
      request.onblocked = () => resolve('blocked');
    });`);
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
    expect(await storedContents()).toEqual(['waiting', 'later']);
  });

  it('while a delete is blocked by a connection that never lets go, a new WebView sends its messages and says they are not stored', async () => {
    const holder = await open({ host: 'ios', bare: true });
    // An app's own code (or an older bridge) holding the database open, deaf to `versionchange`.
    const blocked = await holder.evaluate(`await new Promise((resolve) => {
      const request = indexedDB.open('chat-bridge', 1);
      request.onupgradeneeded = () => request.result.createObjectStore('outbox');
      request.onsuccess = () => { window.held = request.result; resolve(); };
    });
    return await new Promise((resolve) => {
      const request = indexedDB.deleteDatabase('chat-bridge');
      window.deleted = new Promise((done) => { request.onsuccess = () => { resolve('deleted'); done(); }; });
      request.onblocked = () => resolve('blocked');
    });`);
    expect(blocked).toBe('blocked');

    const tab = await open({ host: 'ios', shareWith: holder });
    await send(tab, 'one');
    await send(tab, 'two');
    await state(tab, 'one', 'sent', 15_000);
    await state(tab, 'two', 'sent', 15_000);
    expect(await codes(tab)).toContain('storage_error');

    // The holder lets go: the delete proceeds, the bridge's open after it, and messages are durable again.
    await holder.evaluate('window.held.close(); await window.deleted; return null;');
    // The bridge's open, queued behind the delete, goes through next (until it has, calls fail at
    // once rather than wait on it): the database is there again once it has.
    await vi.waitFor(
      async () =>
        expect(
          await tab.evaluate(`return (await indexedDB.databases()).some((db) => db.name === 'chat-bridge');`),
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
    expect(await storedContents()).toEqual(['one', 'two', 'three']);
    // Each once (the first POST /messages is answered 404: no conversation yet).
    expect(logLines(harness.backend).filter((line) => line === 'POST /messages 200')).toHaveLength(3);
  });
});
