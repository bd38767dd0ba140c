/**
 * The outbox's waits, for either engine (a Chromium tab or a WebKit view): a far-off Retry-After
 * ends the automatic retries without spinning, and a wait holds as long as asked whatever the
 * device's clock does meanwhile. WAIT_PROBE_JS runs before the bridge: it counts the page's timer
 * callbacks (wake-ups) and storage writes, and lets the test set the device's clock.
 */
import { expect, it } from 'vitest';
import type { ReferenceBackend } from './browser-harness.js';
import { messageState as state, sendMessage as send, type DeliveryPage } from './delivery-steps.js';

/**
 * Before any script of the page. `__probe`: timer callbacks run, localStorage writes (set or
 * remove), IndexedDB read-write transactions, and the device clock's offset (`Date.now` reads it
 * at each call, so the bridge's `now`, taken as `Date.now` itself, moves with it).
 */
export const WAIT_PROBE_JS = `(function () {
  var probe = (window.__probe = { wakeups: 0, writes: 0, clock: 0 });
  var now = Date.now.bind(Date);
  Date.now = function () { return now() + probe.clock; };
  ['setTimeout', 'setInterval'].forEach(function (name) {
    var original = window[name];
    window[name] = function (callback, ms) {
      if (typeof callback !== 'function') return original.apply(window, arguments);
      var rest = Array.prototype.slice.call(arguments, 2);
      return original.call(window, function () { probe.wakeups++; return callback.apply(this, rest); }, ms);
    };
  });
  var proto = Storage.prototype;
  ['setItem', 'removeItem'].forEach(function (name) {
    var original = proto[name];
    proto[name] = function () { probe.writes++; return original.apply(this, arguments); };
  });
  if (window.IDBDatabase) {
    var transaction = IDBDatabase.prototype.transaction;
    IDBDatabase.prototype.transaction = function (stores, mode) {
      if (mode === 'readwrite') probe.writes++;
      return transaction.apply(this, arguments);
    };
  }
})();`;

export interface Probe {
  wakeups: number;
  writes: number;
}

export interface WaitPage extends DeliveryPage {
  call(method: string, params?: Record<string, unknown>, timeoutMs?: number): Promise<{ ok: boolean }>;
  mark(): Promise<number>;
  /** Runs an async function body in the page. */
  inPage(body: string): Promise<unknown>;
}

export const probe = (page: WaitPage) => page.inPage('return Object.assign({}, window.__probe);') as Promise<Probe>;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const DAY_S = 86_400;

/** The far-off Retry-After values: an HTTP date 30 days ahead, 3,000,000 s (34.7 days), a 400-digit number (Infinity). */
export const FAR_OFF: ReadonlyArray<[string, () => string]> = [
  ['an HTTP date 30 days ahead', () => new Date(Date.now() + 30 * DAY_S * 1000).toUTCString()],
  ['3000000 seconds', () => '3000000'],
  ['a 400-digit number', () => '9'.repeat(400)],
];

/**
 * A 503 asking for `retryAfter`: the message's command is answered with the server's failure
 * (retryable, saying until when) within seconds, the page's timers stay quiet, and the message
 * queued after it goes.
 */
export async function farOffRetryAfter(page: WaitPage, backend: ReferenceBackend, retryAfter: string) {
  expect(await page.call('getConversation')).toMatchObject({ ok: true });
  backend.setFault('service-unavailable', true, retryAfter);
  try {
    const since = await page.mark();
    const id = await page.send('sendMessage', { content: 'far', messageId: 'far' });
    const answer = await page.waitFor({ type: 'response', id }, { since, timeoutMs: 10_000 });
    expect(answer).toMatchObject({ ok: false, error: { code: 'server_error', status: 503 } });
    expect((answer as { error: { message: string } }).error.message).toMatch(
      /Retry-After over a day: not retried automatically/,
    );
    // Nothing spins: today's bug asked for thousands of timers in 3 s.
    const before = await probe(page);
    await sleep(3_000);
    const after = await probe(page);
    expect(after.wakeups - before.wakeups).toBeLessThan(20);
  } finally {
    backend.setFault('service-unavailable', false);
  }
  await send(page, 'next');
  await state(page, 'next', 'sent', 10_000);
  expect(await page.messages()).not.toContainEqual(expect.objectContaining({ messageId: 'far', state: 'sent' }));
}

/**
 * A 503 asking for 3 s, then the device's clock set `offset` ms off and the backend back: the
 * message goes when its 3 s are up (not an hour later, with the clock set back), and not before
 * (with the clock set forward, a new message's retry "at once" must not cut the server's wait
 * short); the message queued behind it follows.
 */
export async function clockMoved(
  page: WaitPage,
  backend: ReferenceBackend,
  stored: () => Promise<string[]>,
  offset: number,
) {
  expect(await page.call('getConversation')).toMatchObject({ ok: true });
  backend.setFault('service-unavailable', true, '3');
  let queuedAt: number;
  try {
    await send(page, 'held');
    const queued = await page.waitFor({ type: 'message', messageId: 'held', state: 'queued', attempt: 1 });
    queuedAt = Date.now();
    expect(queued).toMatchObject({ nextAttemptAt: expect.any(Number) });
    await page.inPage(`window.__probe.clock = ${offset};`);
  } finally {
    backend.setFault('service-unavailable', false);
  }
  await send(page, 'behind');
  await sleep(Math.max(0, queuedAt + 1_500 - Date.now()));
  expect(await stored()).toEqual([]);
  await state(page, 'held', 'sent', 8_000);
  await state(page, 'behind', 'sent', 8_000);
  expect(await stored()).toEqual(['held', 'behind']);
}

/** How long the idle pages are watched: before the fix, the lease wakes each page every second. */
const IDLE_MS = 5_000;

/**
 * `pages` WebViews of one app (shared storage), each having sent a message, then idle: in
 * IDLE_MS no page's timer fires and nothing is written (before the fix, the lease renewed each
 * page's lock every second, and with several pages each looked for gone pages every 2 s).
 */
export async function idleCostsNothing(pages: WaitPage[]) {
  for (const [index, page] of pages.entries()) {
    expect(await page.call('getConversation')).toMatchObject({ ok: true });
    await send(page, `idle-${index}`);
    await state(page, `idle-${index}`, 'sent', 10_000);
  }
  // The inbox lock lingers a second after a pass that sent everything; the removal follows it,
  // and a look for gone pages (ORPHAN_CHECK, 2 s) after the last lock that went.
  await sleep(3_500);
  for (const page of pages) await page.inPage('window.__probe.wakeups = 0; window.__probe.writes = 0;');
  await sleep(IDLE_MS);
  const counts = await Promise.all(pages.map(probe));
  expect(counts).toEqual(pages.map(() => ({ wakeups: 0, writes: 0, clock: 0 })));
}

/**
 * The wait cases above as tests, in the calling `describe`, for one engine and lock path.
 * `open(beside)`: a new WebView, of the same app as `beside` when given (its data store);
 * `harness`: the engine's, read when the tests run.
 */
export function waitTests<Page extends WaitPage>(
  open: (beside?: Page) => Promise<Page>,
  harness: { backend: ReferenceBackend; storedMessages(): Promise<Array<{ content?: unknown }>> },
): void {
  const contents = async () => (await harness.storedMessages()).map((message) => message.content as string);

  it.each(FAR_OFF)(
    'ends the automatic retries of a message whose 503 asks for %s, without spinning, and sends the next',
    async (_, header) => farOffRetryAfter(await open(), harness.backend, header()),
  );

  it.each([
    ['back an hour', -3_600_000],
    ['forward an hour', 3_600_000],
  ])('holds a message for the Retry-After asked, no more and no less, with the clock set %s', async (_, offset) =>
    clockMoved(await open(), harness.backend, contents, offset),
  );

  it.each([1, 3])('costs nothing idle: %i WebViews wake up 0 times and write nothing', async (count) => {
    const first = await open();
    const pages = [first];
    while (pages.length < count) pages.push(await open(first));
    await idleCostsNothing(pages);
  });
}
