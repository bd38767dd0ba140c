/** The outbox's records as a test sees them from inside a page, in Chromium and in WebKit. */

/**
 * How many outbox records the page's IndexedDB holds (-1: no database). Opened without a version
 * and closed at once, so it neither creates the database nor holds up a delete.
 */
export const RECORD_COUNT_JS = `new Promise((resolve) => {
  const open = indexedDB.open('chat-bridge');
  open.onupgradeneeded = () => open.transaction.abort();
  open.onerror = () => resolve(-1);
  open.onsuccess = () => {
    const db = open.result;
    const keys = db.transaction('outbox').objectStore('outbox').getAllKeys();
    keys.onsuccess = () => { db.close(); resolve(keys.result.filter((key) => key.includes(':outbox:')).length); };
    keys.onerror = () => { db.close(); resolve(-1); };
  };
})`;

/** The message ids of the outbox records the page's IndexedDB holds now (none: no database). */
export const RECORD_IDS_JS = `new Promise((resolve) => {
  const open = indexedDB.open('chat-bridge');
  open.onupgradeneeded = () => open.transaction.abort();
  open.onerror = () => resolve([]);
  open.onsuccess = () => {
    const db = open.result;
    const all = db.transaction('outbox').objectStore('outbox').getAll();
    all.onsuccess = () => { db.close(); resolve(all.result.map((record) => record.messageId)); };
    all.onerror = () => { db.close(); resolve([]); };
  };
})`;

/** Waits until `read` (RECORD_COUNT_JS evaluated in a page) gives `count`; throws after `timeoutMs`. */
export async function waitForRecordCount(
  read: () => Promise<number>,
  count: number,
  timeoutMs = 10_000,
): Promise<void> {
  const started = Date.now();
  while ((await read()) !== count) {
    if (Date.now() - started > timeoutMs) throw new Error(`never ${count} stored records: ${await read()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
