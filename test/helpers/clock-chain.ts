/**
 * The two-reload clock chain, for either engine: a WebView queues two messages the backend
 * refuses (503), the device's clock is set back ten minutes across a reload and two more are
 * queued, then it is set right again across a second reload and one more is queued. The third
 * page finds the first two pages' records, the second page's stamped ten minutes before the
 * first's: the backend must still get the five in the order the WebView queued them.
 */
import { expect } from 'vitest';
import type { ReferenceBackend } from './browser-harness.js';
import { messageState as state, sendMessage as send, type DeliveryPage } from './delivery-steps.js';

/**
 * Before the page's scripts (Chromium's init script, WebKit's document-start script): `Date.now`
 * runs `harness:clock` ms off (kept in sessionStorage, so it is set for the next load).
 */
export const CLOCK_OFFSET_JS = `(function () {
  var offset = Number(sessionStorage.getItem('harness:clock') || 0);
  if (!offset) return;
  var now = Date.now.bind(Date);
  Date.now = function () { return now() + offset; };
})();`;

export interface ClockPage extends DeliveryPage {
  call(method: string): Promise<{ ok: boolean }>;
  reload(): Promise<void>;
  /** The device clock's offset from the next load on (CLOCK_OFFSET_JS reads it). */
  setClock(offsetMs: number): Promise<unknown>;
  /** The message ids of the outbox records in IndexedDB now. */
  recordIds(): Promise<string[]>;
}

const TEN_MINUTES = 600_000;

/** Runs the chain; `stored` reads the contents the backend holds, in its order. */
export async function clockChain(page: ClockPage, backend: ReferenceBackend, stored: () => Promise<string[]>) {
  /** A reload once these are on disk: what the host was told is queued survives it. */
  const reloadWith = async (ids: string[], offset: number) => {
    await expect
      .poll(async () => (await page.recordIds()).sort(), { timeout: 15_000, interval: 50 })
      .toEqual(ids.sort());
    await page.setClock(offset);
    await page.reload();
  };
  expect(await page.call('getConversation')).toMatchObject({ ok: true });
  backend.setFault('service-unavailable', true);
  try {
    await send(page, 'early1');
    await send(page, 'early2');
    await state(page, 'early1', 'sending');
    await reloadWith(['early1', 'early2'], -TEN_MINUTES);
    await send(page, 'back1');
    await send(page, 'back2');
    await reloadWith(['early1', 'early2', 'back1', 'back2'], 0);
    await send(page, 'forward');
    await state(page, 'forward', 'queued');
  } finally {
    backend.setFault('service-unavailable', false);
  }
  await state(page, 'forward', 'sent', 30_000);
  expect(await stored()).toEqual(['early1', 'early2', 'back1', 'back2', 'forward']);
}
