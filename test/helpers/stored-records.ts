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
