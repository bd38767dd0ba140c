import { describe, expect, it } from 'vitest';
import { bridgeError, type ErrorEvent } from '../../../../bridge/protocol/errors.js';
import type { MessageStateMessage } from '../../../../bridge/protocol/messages.js';
import { createOutbox, LINGER, ORPHAN_CHECK, type OutboxSettings } from '../../../../bridge/backend/outbox.js';
import { inboxPrefix, recordKey, type OutboxRecord } from '../../../../bridge/backend/outbox-record.js';
import { httpError } from '../../../../bridge/backend/http-errors.js';
import type { Locks, ProgressListener, RecordStore } from '../../../../bridge/environment.js';
import { mapRecords, memoryLocks } from '../../../../tools/testing/in-memory-environment.js';
import { createVirtualClock as createFakeClock } from '../../../../tools/testing/virtual-clock.js';
import { tellingLocks } from '../../../helpers/telling-locks.js';

const PREFIX = inboxPrefix('https://chat.example.test/api/v1', 'wt_outbox_secret_token');

/** Lets every promise that can settle now settle (store calls, sends), without moving the clock. */
const flush = async () => {
  for (let i = 0; i < 30; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

const networkError = () => bridgeError('network_error', '[POST /messages] network error');
const httpFailure = (status: number, code: 'server_error' | 'validation_error' = 'server_error') =>
  bridgeError(code, `[POST /messages] ${status}: failed`, status);

type Answer = (record: OutboxRecord, attempt: number, onProgress: ProgressListener) => Promise<unknown>;

/** One page's outbox over a shared Map (another page, or the page after a reload, passes the same Map). */
function page(
  options: {
    map?: Map<string, unknown>;
    answer?: Answer;
    records?: RecordStore | undefined;
    clock?: ReturnType<typeof createFakeClock>;
    id?: string;
    locks?: Locks;
    rateLimitPasses?: boolean;
    replaces?: boolean;
  } = {},
) {
  const map = options.map ?? new Map<string, unknown>();
  const clock = options.clock ?? createFakeClock(1_700_000_000_000);
  const sent: string[] = [];
  const events: Array<MessageStateMessage | ErrorEvent> = [];
  const attempts = new Map<string, number>();
  /** Every delay a timer was asked for. */
  const timerDelays: number[] = [];
  let wallOffset = 0;
  let online = true;
  const answer: Answer = options.answer ?? (async (record) => ({ id: record.messageId }));
  const settings: OutboxSettings = {
    records: 'records' in options ? options.records : mapRecords(map),
    locks: options.locks ?? memoryLocks(map),
    prefix: PREFIX,
    page: options.id ?? 'pageA',
    maxFileSize: 1024,
    rateLimitPasses: options.rateLimitPasses,
    replaces: options.replaces,
    // The device's clock, which the user may set (`setWallClock`); waits run on the virtual clock.
    now: () => clock.now() + wallOffset,
    elapsed: clock.now,
    setTimeout: (callback, ms) => {
      timerDelays.push(ms);
      return clock.setTimeout(callback, ms);
    },
    clearTimeout: clock.clearTimeout,
    random: () => 0.5,
    isOnline: () => online,
    send(record, onProgress) {
      sent.push(record.messageId);
      const n = (attempts.get(record.messageId) ?? 0) + 1;
      attempts.set(record.messageId, n);
      // As the real fetch does: offline, every request fails at the network level.
      return online ? answer(record, n, onProgress) : Promise.reject(networkError());
    },
    emit: (message) => void events.push(message),
  };
  const outbox = createOutbox(settings);
  return {
    outbox,
    map,
    clock,
    sent,
    events,
    states: (messageId?: string) =>
      events.flatMap((e) =>
        e.type === 'message' && (messageId === undefined || e.messageId === messageId) ? [e] : [],
      ),
    errors: () => events.filter((e): e is ErrorEvent => e.type === 'error'),
    setOnline(value: boolean) {
      online = value;
    },
    timerDelays,
    /** Sets the device's clock `offset` ms off (back where negative). */
    setWallClock(offset: number) {
      wallOffset = offset;
    },
    send: (n: number | string, extra: Partial<OutboxRecord> = {}) => {
      const messageId = typeof n === 'number' ? `msg-${n}` : n;
      const outcome = outbox.enqueue({ messageId, content: `message ${n}`, ...extra });
      outcome.catch(() => undefined);
      return outcome;
    },
  };
}

/** The records in `map`, with each call named in `logged` written down in `order` (a put by its messageId). */
function loggedRecords(map: Map<string, unknown>, order: string[], logged: Array<'put' | 'remove'>): RecordStore {
  const stored = mapRecords(map);
  return {
    ...stored,
    put: (key, value) => {
      if (logged.includes('put')) order.push(`put ${(value as OutboxRecord).messageId}`);
      return stored.put(key, value);
    },
    remove: (key) => {
      if (logged.includes('remove')) order.push('remove');
      return stored.remove(key);
    },
  };
}

/** Sends msg-1 and msg-2 where msg-1 fails for good: its error event, and msg-2's outcome. */
async function sendTwoFirstFailing(p: ReturnType<typeof page>) {
  const first = p.send(1);
  const second = p.send(2);
  await flush();
  const error = await first.then(
    () => undefined,
    (thrown: { event: ErrorEvent }) => thrown.event,
  );
  return { error, second };
}

describe('one way through a send', () => {
  it("resolves each message's own promise with the backend's answer, sending one at a time in queue order", async () => {
    const p = page();
    const outcomes = [p.send(1), p.send(2), p.send(3)];
    await flush();
    expect(await Promise.all(outcomes)).toEqual([{ id: 'msg-1' }, { id: 'msg-2' }, { id: 'msg-3' }]);
    expect(p.sent).toEqual(['msg-1', 'msg-2', 'msg-3']);
    expect(p.outbox.size).toBe(0);
    expect(p.map.size).toBe(0);
  });

  it('rejects a message the backend refused for good with its error, leaves it as failed, and goes on', async () => {
    const p = page({
      answer: async (r) => (r.messageId === 'msg-1' ? Promise.reject(httpFailure(422, 'validation_error')) : 'ok'),
    });
    const first = p.send(1);
    const second = p.send(2);
    await flush();
    await expect(first).rejects.toMatchObject({ event: { code: 'validation_error', status: 422 } });
    await expect(second).resolves.toBe('ok');
    expect(p.states('msg-1').map((s) => s.state)).toEqual(['queued', 'sending', 'failed']);
    expect(p.states('msg-1').at(-1)?.error).toMatchObject({ code: 'validation_error' });
    expect(p.map.size).toBe(0);
  });

  it.each([400, 413, 500])('treats %i as final: answered at once, never retried', async (status) => {
    const p = page({ answer: async () => Promise.reject(httpFailure(status)) });
    const outcome = p.send(1);
    await flush();
    await expect(outcome).rejects.toMatchObject({ event: { status } });
    p.clock.advance(120_000);
    await flush();
    expect(p.sent).toEqual(['msg-1']);
  });

  it("reports an upload's progress as sending events, thinned on the outbox's clock, before sent", async () => {
    const clock = createFakeClock(1_700_000_000_000);
    const p = page({
      clock,
      answer: async (record, _attempt, onProgress) => {
        for (const sentBytes of [0, 10, 20, 100, 400, 700, 1000]) {
          onProgress(sentBytes, 1000);
          clock.advance(100);
        }
        return { id: record.messageId };
      },
    });
    const outcome = p.send(1, { files: [{ name: 'a.png', type: 'image/png', data: new ArrayBuffer(900) }] });
    await flush();
    // A message with files starts its request a task after its write was asked for.
    clock.advance(0);
    await outcome;
    expect(p.states('msg-1').map(({ state, progress }) => [state, progress?.sentBytes])).toEqual([
      ['queued', undefined],
      ['sending', undefined],
      ['sending', 0],
      ['sending', 100],
      ['sending', 400],
      ['sending', 700],
      ['sending', 1000],
      ['sent', undefined],
    ]);
    expect(p.states('msg-1').every((event) => !event.progress || event.progress.totalBytes === 1000)).toBe(true);
  });

  it("writes a message with files a task later and before its request starts; a text message's request does not wait", async () => {
    const map = new Map<string, unknown>();
    const order: string[] = [];
    const records = loggedRecords(map, order, ['put']);
    const p = page({ map, records, answer: async (r) => (order.push(`send ${r.messageId}`), { id: r.messageId }) });
    const text = p.send(1);
    await flush();
    await expect(text).resolves.toEqual({ id: 'msg-1' });
    const photo = p.send(2, { files: [{ name: 'a.png', type: 'image/png', data: new ArrayBuffer(9) }] });
    await flush();
    // Told `sending` already (the host hears it with `queued`); its write waits for a task, its
    // request for its write.
    expect(order.filter((step) => step.endsWith('msg-2'))).toEqual([]);
    expect(p.states('msg-2').map(({ state }) => state)).toEqual(['queued', 'sending']);
    p.clock.advance(0);
    await flush();
    await expect(photo).resolves.toEqual({ id: 'msg-2' });
    expect(order.filter((step) => step.endsWith('msg-2'))).toEqual(['put msg-2', 'send msg-2']);
    expect(map.size).toBe(0);
  });

  it('writes the texts queued in the same task as a photo before the photo (a photo over the quota cannot take them down)', async () => {
    const map = new Map<string, unknown>();
    const order: string[] = [];
    const p = page({ map, records: loggedRecords(map, order, ['put']) });
    p.setOnline(false);
    p.send(1, { files: [{ name: 'a.png', type: 'image/png', data: new ArrayBuffer(9) }] });
    p.send(2);
    p.send(3);
    await flush();
    p.clock.advance(0);
    await flush();
    expect(order).toEqual(['put msg-2', 'put msg-3', 'put msg-1']);
  });

  it("settles a message's promise before its record's removal is asked for", async () => {
    // The command's answer follows the outcome at once; the store's work waits for it.
    const map = new Map<string, unknown>();
    const order: string[] = [];
    const p = page({ map, records: loggedRecords(map, order, ['remove']) });
    const outcome = p.send(1).then(() => order.push('settled'));
    await flush();
    await outcome;
    expect(order).toEqual(['settled', 'remove']);
    expect(map.size).toBe(0);
  });

  it('treats an error that is not a bridge error (a bug) as final rather than retrying it forever', async () => {
    const p = page({ answer: async () => Promise.reject(new TypeError('x is undefined')) });
    const outcome = p.send(1);
    await flush();
    await expect(outcome).rejects.toMatchObject({ event: { code: 'server_error' } });
  });
});

describe('durable records', () => {
  it('writes one record per message under a key that names the inbox by hash, never the token', async () => {
    const p = page();
    p.setOnline(false);
    const outcome = p.send(1);
    p.send(2);
    p.send(3);
    await flush();
    expect([...p.map.keys()]).toHaveLength(3);
    for (const key of p.map.keys()) {
      expect(key.startsWith(PREFIX)).toBe(true);
      expect(key).not.toContain('wt_outbox_secret_token');
    }
    expect([...p.map.values()].map((r) => (r as OutboxRecord).messageId)).toEqual(['msg-1', 'msg-2', 'msg-3']);
    p.setOnline(true);
    p.outbox.drain(true);
    await flush();
    await expect(outcome).resolves.toEqual({ id: 'msg-1' });
    expect(p.map.size).toBe(0);
  });

  it('keeps attachment bytes binary in the record', async () => {
    const p = page();
    p.setOnline(false);
    const bytes = new Uint8Array([1, 2, 3, 250]).buffer;
    p.send(1, { files: [{ name: 'a.png', type: 'image/png', data: bytes }] });
    await flush();
    p.clock.advance(0);
    await flush();
    const record = [...p.map.values()][0] as OutboxRecord;
    expect(record.files?.[0]?.data).toBeInstanceOf(ArrayBuffer);
    expect([...new Uint8Array(record.files?.[0]?.data as ArrayBuffer)]).toEqual([1, 2, 3, 250]);
  });

  it('sends, after a reload, what the previous page left, reporting it by state events only', async () => {
    const map = new Map<string, unknown>();
    const before = page({ map, id: 'old' });
    before.setOnline(false);
    before.send(1);
    before.send(2);
    await flush();
    before.outbox.destroy();

    const after = page({ map, id: 'new' });
    after.outbox.drain();
    await flush();
    expect(after.sent).toEqual(['msg-1', 'msg-2']);
    expect(after.states().map((s) => `${s.messageId} ${s.state}`)).toEqual([
      'msg-1 sending',
      'msg-1 sent',
      'msg-2 sending',
      'msg-2 sent',
    ]);
    expect(after.states('msg-1').at(-1)?.result).toEqual({ id: 'msg-1' });
    expect(map.size).toBe(0);
  });

  it('drops a corrupt or hostile stored record with a storage_error, and never uploads it', async () => {
    const map = new Map<string, unknown>();
    const key = (n: number) => recordKey(PREFIX, 1000 + n, 'gone', n);
    // Which shapes pass is isOutboxRecord's (outbox-record.spec.ts); here, what the outbox does with those that do not.
    map.set(key(1), { v: 1, messageId: 'good' });
    map.set(key(2), { v: 1, messageId: 'exe', files: [{ name: 'f', type: 'application/x-msdownload', size: 1 }] });
    map.set(key(3), 'not an object');
    // A Blob (an attachment sent in chunks) is kept to the outbox's maxFileSize too.
    map.set(key(4), { v: 1, messageId: 'blob', files: [{ name: 'f', type: 'image/png', data: new Blob(['ok']) }] });
    const huge = new Blob([new Uint8Array(6 * 1024 * 1024)]);
    map.set(key(5), { v: 1, messageId: 'hugeblob', files: [{ name: 'f', type: 'image/png', data: huge }] });
    const p = page({ map, id: 'new' });
    p.outbox.drain();
    await flush();
    expect(p.sent).toEqual(['good', 'blob']);
    expect(p.errors().map((e) => e.code)).toEqual(Array(3).fill('storage_error'));
    expect(map.size).toBe(0);
  });

  it('never reads records of another inbox', async () => {
    const map = new Map<string, unknown>();
    const other = inboxPrefix('https://chat.example.test/api/v1', 'another_inbox_token');
    map.set(recordKey(other, 1000, 'gone', 0), { v: 1, messageId: 'theirs' });
    const p = page({ map, id: 'new' });
    p.outbox.drain();
    await flush();
    expect(p.sent).toEqual([]);
    expect(map.size).toBe(1);
  });
});

describe('nothing lost silently', () => {
  const failing: RecordStore = {
    keys: async () => Promise.reject(new Error('SecurityError')),
    all: async () => Promise.reject(new Error('SecurityError')),
    put: async () => Promise.reject(new DOMException('quota', 'QuotaExceededError')),
    remove: async () => Promise.reject(new Error('SecurityError')),
  };

  it.each([
    ['a store that throws on every call', failing],
    ['no storage at all', undefined],
  ])('with %s, still sends the message from memory and tells the host once, at queue time', async (_, records) => {
    const p = page({
      records,
      answer: async (r) => (p.clock.now() > 1_700_000_000_000 ? { id: r.messageId } : Promise.reject(networkError())),
    });
    const outcome = p.send(1);
    await flush();
    expect(p.errors().filter((e) => e.code === 'storage_error')).toHaveLength(1);
    expect(p.errors()[0]?.message).toMatch(/msg-1 not stored/);
    p.clock.advance(2_000);
    await flush();
    await expect(outcome).resolves.toEqual({ id: 'msg-1' });
    expect(p.errors().filter((e) => e.code === 'storage_error')).toHaveLength(1);
  });

  it('waits for a slow write before removing the record, so a sent message never comes back', async () => {
    const map = new Map<string, unknown>();
    const inner = mapRecords(map);
    let releaseWrite = () => {};
    const slow: RecordStore = {
      ...inner,
      put: (key, value) =>
        new Promise<void>((resolve) => (releaseWrite = () => void inner.put(key, value).then(resolve))),
    };
    const p = page({ map, records: slow });
    const outcome = p.send(1);
    await flush();
    expect(p.sent).toEqual(['msg-1']);
    releaseWrite();
    await flush();
    await expect(outcome).resolves.toEqual({ id: 'msg-1' });
    expect(map.size).toBe(0);
  });
});

describe('retries on its own', () => {
  it.each([
    ['a network failure', networkError],
    ['a 503', () => httpFailure(503)],
    ['a 502', () => httpFailure(502)],
    ['a 504', () => httpFailure(504)],
    // As http-errors.ts reports it: a network_error with its status.
    [
      'a 408',
      () =>
        httpError(
          { method: 'POST', path: '/messages' },
          { status: 408, body: undefined, text: '', headers: { get: () => null } },
        ),
    ],
  ])(
    'keeps the message after %s and retries it within 2 s while online, under the same messageId',
    async (_, failure) => {
      const p = page({ answer: async (r, n) => (n < 3 ? Promise.reject(failure()) : { id: r.messageId }) });
      const outcome = p.send(1);
      await flush();
      expect(p.sent).toEqual(['msg-1']);
      const queued = p.states('msg-1').at(-1);
      expect(queued).toMatchObject({ state: 'queued', attempt: 1 });
      expect((queued?.nextAttemptAt ?? Infinity) - p.clock.now()).toBeLessThanOrEqual(2_000);
      p.clock.advance(2_000);
      await flush();
      p.clock.advance(4_000);
      await flush();
      await expect(outcome).resolves.toEqual({ id: 'msg-1' });
      expect(p.sent).toEqual(['msg-1', 'msg-1', 'msg-1']);
      // One error event for the burst, not one per attempt.
      expect(p.errors()).toHaveLength(1);
      expect(p.errors()[0]?.message).toMatch(/; 1 queued$/);
    },
  );

  it('backs off exponentially with jitter, never waiting more than 60 s', async () => {
    const p = page({ answer: async () => Promise.reject(networkError()) });
    p.send(1);
    await flush();
    const waits: number[] = [];
    for (let i = 0; i < 12; i++) {
      const last = p.states('msg-1').at(-1) as MessageStateMessage;
      waits.push((last.nextAttemptAt as number) - p.clock.now());
      p.clock.advance((last.nextAttemptAt as number) - p.clock.now());
      await flush();
    }
    expect(waits[0]).toBeLessThanOrEqual(2_000);
    expect(waits.every((w, i) => i === 0 || w >= (waits[i - 1] as number) || w >= 30_000)).toBe(true);
    expect(Math.max(...waits)).toBeLessThanOrEqual(60_000);
    expect(waits.at(-1)).toBeGreaterThanOrEqual(30_000);
    expect(p.sent).toHaveLength(13);
  });

  it('never lets a message overtake one queued before it, and retries at once on the next message', async () => {
    let down = true;
    const p = page({ answer: async (r) => (down ? Promise.reject(networkError()) : { id: r.messageId }) });
    const first = p.send(1);
    await flush();
    expect(p.sent).toEqual(['msg-1']);
    down = false;
    const second = p.send(2);
    await flush();
    expect(p.sent).toEqual(['msg-1', 'msg-1', 'msg-2']);
    await expect(first).resolves.toEqual({ id: 'msg-1' });
    await expect(second).resolves.toEqual({ id: 'msg-2' });
  });

  it('waits for the online event while offline (no timer spins), then sends at once', async () => {
    let down = true;
    const p = page({ answer: async (r) => (down ? Promise.reject(networkError()) : { id: r.messageId }) });
    p.setOnline(false);
    const outcome = p.send(1);
    p.send(2);
    await flush();
    expect(p.sent).toEqual(['msg-1']);
    expect(p.clock.pending).toBe(0);
    p.clock.advance(600_000);
    await flush();
    expect(p.sent).toEqual(['msg-1']);
    down = false;
    p.setOnline(true);
    p.outbox.drain(true);
    await flush();
    await expect(outcome).resolves.toEqual({ id: 'msg-1' });
    expect(p.sent).toEqual(['msg-1', 'msg-1', 'msg-2']);
  });

  it('reports a new burst with a new error event after a success', async () => {
    let fail = true;
    const p = page({ answer: async (r) => (fail ? Promise.reject(networkError()) : { id: r.messageId }) });
    p.send(1);
    await flush();
    fail = false;
    p.clock.advance(2_000);
    await flush();
    fail = true;
    p.send(2);
    await flush();
    expect(p.errors()).toHaveLength(2);
  });
});

describe('one sender for all WebViews', () => {
  it('delivers the messages two live pages queue offline, each once, each under its own echo_id, in each page order', async () => {
    const map = new Map<string, unknown>();
    const log: string[] = [];
    const answer: Answer = async (r) => {
      log.push(r.messageId);
      return { id: r.messageId };
    };
    const a = page({ map, id: 'pageA', answer });
    const b = page({ map, id: 'pageB', answer, clock: a.clock });
    a.setOnline(false);
    b.setOnline(false);
    const outcomes = [a.send('a1'), b.send('b1'), a.send('a2'), b.send('b2')];
    await flush();
    expect(map.size).toBe(4);
    a.setOnline(true);
    b.setOnline(true);
    a.outbox.drain(true);
    b.outbox.drain(true);
    await flush();
    // The first page to send keeps the inbox lock a moment after its last message.
    a.clock.advance(LINGER);
    await flush();
    expect(await Promise.all(outcomes)).toEqual([{ id: 'a1' }, { id: 'b1' }, { id: 'a2' }, { id: 'b2' }]);
    expect([...log].sort()).toEqual(['a1', 'a2', 'b1', 'b2']);
    expect(log.filter((id) => id.startsWith('a'))).toEqual(['a1', 'a2']);
    expect(log.filter((id) => id.startsWith('b'))).toEqual(['b1', 'b2']);
    expect(map.size).toBe(0);
  });

  it('leaves the records of another live page to that page, and sends them itself once that page is gone', async () => {
    const map = new Map<string, unknown>();
    const a = page({ map, id: 'pageA' });
    const b = page({ map, id: 'pageB', clock: a.clock });
    a.setOnline(false);
    a.send('a1');
    await flush();
    b.outbox.drain(true);
    await flush();
    expect(b.sent).toEqual([]);
    a.outbox.destroy();
    await flush();
    b.outbox.drain(true);
    await flush();
    expect(b.sent).toEqual(['a1']);
    expect(map.size).toBe(0);
  });

  it('sends a message of a page that is gone once, when two live pages both took it in during a failure burst', async () => {
    const map = new Map<string, unknown>();
    const old = page({ map, id: 'old' });
    old.setOnline(false);
    old.send('o1');
    await flush();
    old.outbox.destroy();
    let down = true;
    const delivered: string[] = [];
    const answer: Answer = async (r) => {
      if (down) throw networkError();
      delivered.push(r.messageId);
      return { id: r.messageId };
    };
    const a = page({ map, id: 'pageA', answer, clock: old.clock });
    const b = page({ map, id: 'pageB', answer, clock: old.clock });
    // Both fail to send it, so both hold it; then A sends it and removes its record.
    a.outbox.drain(true);
    await flush();
    b.outbox.drain(true);
    await flush();
    expect(a.sent).toEqual(['o1']);
    expect(b.sent).toEqual(['o1']);
    down = false;
    a.outbox.drain(true);
    await flush();
    // A keeps the inbox lock a moment after a pass that sent everything; B gets it after that.
    b.outbox.drain(true);
    old.clock.advance(LINGER);
    await flush();
    expect(delivered).toEqual(['o1']);
    expect([...a.states('o1'), ...b.states('o1')].filter((s) => s.state === 'sent')).toHaveLength(1);
    expect(b.outbox.size).toBe(0);
    expect(await b.outbox.cancel('o1')).toBe(false);
    expect(map.size).toBe(0);
  });

  it('never has two pages sending at once', async () => {
    const map = new Map<string, unknown>();
    let inFlight = 0;
    let most = 0;
    const answer: Answer = async (r) => {
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      return r.messageId;
    };
    const a = page({ map, id: 'pageA', answer });
    const b = page({ map, id: 'pageB', answer, clock: a.clock });
    const all = [1, 2, 3].flatMap((n) => [a.send(`a${n}`), b.send(`b${n}`)]);
    await flush();
    await Promise.all(all);
    expect(most).toBe(1);
  });
});

describe('the inbox lock between messages', () => {
  it('keeps the lock a moment after a pass that sent everything, so the next message does not ask again, then lets it go', async () => {
    const map = new Map<string, unknown>();
    const a = page({ map, id: 'pageA' });
    const b = page({ map, id: 'pageB', clock: a.clock });
    await a.send('a1');
    await flush();
    const held = async () => (await memoryLocks(map).held()).filter((name) => !name.includes(':page:'));
    expect(await held()).toEqual([PREFIX]);
    await a.send('a2');
    const later = b.send('b1');
    await flush();
    expect(b.sent).toEqual([]);
    a.clock.advance(LINGER);
    await flush();
    await expect(later).resolves.toEqual({ id: 'b1' });
    a.clock.advance(LINGER);
    await flush();
    expect(await held()).toEqual([]);
  });

  it('lets the lock go at once after a failed pass', async () => {
    const map = new Map<string, unknown>();
    const a = page({ map, answer: async () => Promise.reject(networkError()) });
    a.setOnline(false);
    void a.send('a1').catch(() => undefined);
    await flush();
    expect((await memoryLocks(map).held()).filter((name) => !name.includes(':page:'))).toEqual([]);
  });
});

describe('listOutbox and cancelMessage', () => {
  it('lists the waiting messages with their state and attachment sizes, no bytes', async () => {
    const p = page({ answer: async () => Promise.reject(networkError()) });
    p.send(1, { files: [{ name: 'a.png', type: 'image/png', data: new ArrayBuffer(7) }] });
    p.send(2);
    await flush();
    // msg-1's request starts a task after its write was asked for (it has files).
    p.clock.advance(0);
    await flush();
    const listing = await p.outbox.list();
    expect(listing).toEqual([
      expect.objectContaining({
        messageId: 'msg-1',
        state: 'queued',
        attempt: 1,
        nextAttemptAt: expect.any(Number),
        files: [{ name: 'a.png', type: 'image/png', size: 7 }],
      }),
      expect.objectContaining({ messageId: 'msg-2', state: 'queued', attempt: 0, content: 'message 2' }),
    ]);
    expect(JSON.stringify(listing)).not.toContain('ArrayBuffer');
  });

  it('lists a message waiting for the network with no nextAttemptAt, as its queued event, however long it waits', async () => {
    const p = page();
    p.setOnline(false);
    void p.send(1).catch(() => undefined);
    await flush();
    const event = p.states('msg-1').at(-1);
    expect(event).toMatchObject({ state: 'queued', attempt: 1 });
    expect(event).not.toHaveProperty('nextAttemptAt');
    p.clock.advance(120_000);
    await flush();
    expect(await p.outbox.list()).toEqual([
      expect.objectContaining({ messageId: 'msg-1', state: 'queued', attempt: 1, nextAttemptAt: undefined }),
    ]);
    // Online again (the bridge drains at the online event), it goes at once.
    p.setOnline(true);
    p.outbox.drain(true);
    await flush();
    expect(p.states('msg-1').at(-1)).toMatchObject({ state: 'sent', attempt: 2 });
  });

  it('cancels a message waiting behind one being sent at once, without waiting for that send to end', async () => {
    let finishFirst = (_: unknown) => {};
    const p = page({
      answer: (r) =>
        r.messageId === 'msg-1' ? new Promise((resolve) => (finishFirst = resolve)) : Promise.resolve('sent'),
    });
    p.setOnline(false);
    const first = p.send(1);
    const second = p.send(2);
    await flush();
    p.setOnline(true);
    p.outbox.drain(true);
    await flush();
    expect(p.states('msg-1').at(-1)?.state).toBe('sending');
    // msg-1 is being sent: it cannot be taken out under its request; msg-2 waits behind it and can.
    expect(await p.outbox.cancel('msg-1')).toBe(false);
    expect(await p.outbox.cancel('msg-2')).toBe(true);
    await expect(second).rejects.toMatchObject({ event: { code: 'cancelled' } });
    finishFirst({ id: 'msg-1' });
    await flush();
    await expect(first).resolves.toEqual({ id: 'msg-1' });
    expect(p.sent.filter((id) => id === 'msg-2')).toEqual([]);
    expect(p.map.size).toBe(0);
  });

  it('cancels a waiting message: its send is answered cancelled, its record goes, the next one is sent', async () => {
    let down = true;
    const p = page({ answer: async (r) => (down ? Promise.reject(networkError()) : { id: r.messageId }) });
    const first = p.send(1);
    const second = p.send(2);
    await flush();
    expect(await p.outbox.cancel('msg-1')).toBe(true);
    await expect(first).rejects.toMatchObject({ event: { code: 'cancelled' } });
    expect(p.states('msg-1').at(-1)).toMatchObject({ state: 'failed', error: { code: 'cancelled' } });
    expect(await p.outbox.cancel('msg-1')).toBe(false);
    expect(await p.outbox.cancel('unknown')).toBe(false);
    down = false;
    p.outbox.drain(true);
    await flush();
    await expect(second).resolves.toEqual({ id: 'msg-2' });
    expect(p.sent.filter((id) => id === 'msg-1')).toHaveLength(1);
    expect(p.map.size).toBe(0);
  });
});

describe('pages that come and go (issue 20)', () => {
  it("sends a closed page's messages within a few seconds, in its order, with no event, while another page lives", async () => {
    const map = new Map<string, unknown>();
    const a = page({ map, id: 'pageA' });
    const b = page({ map, id: 'pageB', clock: a.clock });
    a.setOnline(false);
    a.send('a1');
    a.send('a2');
    await flush();
    // B looks when it is installed and sees A alive; it looks again every few seconds.
    b.outbox.drain();
    await flush();
    a.outbox.destroy();
    await flush();
    expect(b.sent).toEqual([]);
    a.clock.advance(ORPHAN_CHECK);
    await flush();
    expect(b.sent).toEqual(['a1', 'a2']);
    expect(map.size).toBe(0);
  });

  it.each([
    [true, ['late']],
    [false, []],
  ])(
    'with replaces: %s, a moment after start looks again for what the bridge it replaced in its window wrote after its first look',
    async (replaces, sent) => {
      const map = new Map<string, unknown>();
      const clock = createFakeClock(1_700_000_000_000);
      // The replaced page's write lands only after the new page's first look.
      let letWrite = () => {};
      const writeHeld = new Promise<void>((resolve) => (letWrite = resolve));
      const stored = mapRecords(map);
      const records: RecordStore = { ...stored, put: async (key, value) => (await writeHeld, stored.put(key, value)) };
      const before = page({ map, id: 'old', records, clock });
      before.setOnline(false); // it queues the message, and is replaced before it could send it
      before.send('late');
      await flush();
      before.outbox.destroy();
      const after = page({ map, id: 'new', clock, replaces });
      after.outbox.drain();
      await flush();
      letWrite();
      await flush();
      expect(after.sent).toEqual([]);
      clock.advance(ORPHAN_CHECK);
      await flush();
      expect(after.sent).toEqual(sent);
    },
  );

  it('runs no timer when alone with nothing left by others', async () => {
    const p = page();
    p.outbox.drain();
    await flush();
    await p.send(1);
    await flush();
    p.clock.advance(LINGER);
    await flush();
    expect(p.clock.pending).toBe(0);
  });

  it('keeps the order of what a page left when the clock is set back for the page after it', async () => {
    const map = new Map<string, unknown>();
    const before = page({ map, id: 'old' });
    before.setOnline(false);
    before.send('early1');
    before.send('early2');
    await flush();
    before.outbox.destroy();
    const after = page({ map, id: 'new', clock: createFakeClock(1_700_000_000_000 - 600_000) });
    after.send('later');
    await flush();
    expect(after.sent).toEqual(['early1', 'early2', 'later']);
  });

  it("cancels an earlier page's message at once while this page sends a slow one, and never sends it", async () => {
    const map = new Map<string, unknown>();
    const before = page({ map, id: 'old' });
    before.setOnline(false);
    before.send('slow');
    before.send('cancel me');
    await flush();
    before.outbox.destroy();
    let finish = (_: unknown) => {};
    const after = page({
      map,
      id: 'new',
      answer: (r) => (r.messageId === 'slow' ? new Promise((resolve) => (finish = resolve)) : Promise.resolve('sent')),
    });
    after.outbox.drain();
    await flush();
    expect(after.sent).toEqual(['slow']);
    let answer: boolean | undefined;
    void after.outbox.cancel('cancel me').then((cancelled) => (answer = cancelled));
    await flush();
    expect(answer).toBe(true);
    finish({ id: 'slow' });
    await flush();
    expect(after.sent).toEqual(['slow']);
    expect(map.size).toBe(0);
  });

  // That the linger is not restarted by the passes it covers is the inbox lock's (inbox-lock.spec.ts).
  it('lets a waiting page in after the current pass', async () => {
    const map = new Map<string, unknown>();
    const locks = tellingLocks(map);
    const a = page({ map, id: 'pageA', locks });
    const b = page({ map, id: 'pageB', clock: a.clock, locks });
    await a.send('a1');
    await flush();
    const waiting = b.send('b1');
    await flush();
    expect(b.sent).toEqual([]);
    // A's next pass runs under the lock it kept; as it ends, B, which waits, goes next.
    await a.send('a2');
    await flush();
    await expect(waiting).resolves.toEqual({ id: 'b1' });
  });
});

describe('turns between pages', () => {
  it("serves a waiting page after one send of another page's backlog, not after the whole backlog", async () => {
    const map = new Map<string, unknown>();
    const locks = tellingLocks(map);
    const log: string[] = [];
    const answer: Answer = async (r) => {
      log.push(r.messageId);
      return { id: r.messageId };
    };
    const a = page({ map, id: 'pageA', locks, answer });
    const b = page({ map, id: 'pageB', clock: a.clock, locks, answer });
    a.setOnline(false);
    for (const id of ['a1', 'a2', 'a3']) a.send(id);
    await flush();
    a.setOnline(true);
    a.outbox.drain(true);
    const quiet = b.send('b1');
    await flush();
    await quiet;
    a.clock.advance(LINGER);
    await flush();
    expect(log).toEqual(['a1', 'b1', 'a2', 'a3']);
  });
});

describe('Retry-After on 503 (RFC 9110 §10.2.3)', () => {
  const unavailable = (retryAfter: string | null) => Object.assign(httpFailure(503), { retryAfter });

  it.each([
    ['delta-seconds', '7', 7_000],
    ['an HTTP date', new Date(1_700_000_000_000 + 9_000).toUTCString(), 9_000],
  ])('waits as long as %s says, even when a new message asks for a retry at once', async (_, header, wait) => {
    let down = true;
    const p = page({ answer: async (r) => (down ? Promise.reject(unavailable(header)) : { id: r.messageId }) });
    const first = p.send(1);
    await flush();
    expect(p.states('msg-1').at(-1)).toMatchObject({ state: 'queued', nextAttemptAt: p.clock.now() + wait });
    down = false;
    const second = p.send(2);
    await flush();
    expect(p.sent).toEqual(['msg-1']);
    p.clock.advance(wait);
    await flush();
    await expect(first).resolves.toEqual({ id: 'msg-1' });
    await expect(second).resolves.toEqual({ id: 'msg-2' });
  });

  const DAY = 86_400_000;
  it.each([
    ['an HTTP date 30 days ahead', new Date(1_700_000_000_000 + 30 * DAY).toUTCString(), 1_700_000_000_000 + 30 * DAY],
    ['3000000 seconds', '3000000', 1_700_000_000_000 + 3_000_000_000],
    ['a 400-digit number', '9'.repeat(400), undefined],
    ['a day and a second', '86401', 1_700_000_000_000 + DAY + 1_000],
  ])(
    'ends the automatic retries where a 503 asks for %s, with the failure giving when in retryAt, and sends the next message',
    async (_, header, until) => {
      const p = page({
        answer: async (r) => (r.messageId === 'msg-1' ? Promise.reject(unavailable(header)) : { id: r.messageId }),
      });
      const { error, second } = await sendTwoFirstFailing(p);
      // The server's own failure (retryable: the server is away), not a wait: nothing spins on a timer.
      expect(error).toMatchObject({ code: 'server_error', status: 503 });
      expect(error?.message).toContain('Retry-After over a day: not retried automatically');
      if (until === undefined) expect(error).not.toHaveProperty('retryAt');
      else expect(error?.retryAt).toBe(until);
      await expect(second).resolves.toEqual({ id: 'msg-2' });
      expect(p.sent).toEqual(['msg-1', 'msg-2']);
      expect(p.states('msg-1').at(-1)).toMatchObject({ state: 'failed' });
      expect(p.states('msg-1').some((s) => s.state === 'queued' && 'nextAttemptAt' in s)).toBe(false);
      expect(Math.max(...p.timerDelays)).toBeLessThanOrEqual(2 ** 31 - 1);
      expect(p.map.size).toBe(0);
    },
  );

  it('waits a Retry-After of a day, telling the host when, on one timer within the platform maximum', async () => {
    let down = true;
    const p = page({ answer: async (r) => (down ? Promise.reject(unavailable('86400')) : { id: r.messageId }) });
    const first = p.send(1);
    await flush();
    expect(p.states('msg-1').at(-1)).toMatchObject({ state: 'queued', nextAttemptAt: p.clock.now() + DAY });
    expect(Math.max(...p.timerDelays)).toBeLessThanOrEqual(2 ** 31 - 1);
    down = false;
    p.clock.advance(DAY - 1_000);
    await flush();
    expect(p.sent).toEqual(['msg-1']);
    p.clock.advance(1_000);
    await flush();
    await expect(first).resolves.toEqual({ id: 'msg-1' });
  });

  it.each([
    ['back an hour', -3_600_000],
    ['forward an hour', 3_600_000],
  ])('keeps a Retry-After wait as long as asked with the device clock set %s meanwhile', async (_, offset) => {
    let down = true;
    const p = page({ answer: async (r) => (down ? Promise.reject(unavailable('2')) : { id: r.messageId }) });
    const first = p.send(1);
    await flush();
    p.setWallClock(offset);
    down = false;
    // Forward: a new message (a retry at once) must still not cut the server's wait short.
    const second = p.send(2);
    p.clock.advance(1_900);
    await flush();
    expect(p.sent).toEqual(['msg-1']);
    // The listing tells the wait's end on the clock as the device reads it now.
    const listed = (await p.outbox.list()).find((m) => m.messageId === 'msg-1');
    expect(listed?.nextAttemptAt).toBe(p.clock.now() + offset + 100);
    // Back: sent when the 2 s are up, not an hour later.
    p.clock.advance(100);
    await flush();
    await expect(first).resolves.toEqual({ id: 'msg-1' });
    await expect(second).resolves.toEqual({ id: 'msg-2' });
  });

  it('keeps a backoff wait as long as it was with the device clock set back an hour', async () => {
    let down = true;
    const p = page({ answer: async (r) => (down ? Promise.reject(networkError()) : { id: r.messageId }) });
    const first = p.send(1);
    await flush();
    const told = (p.states('msg-1').at(-1) as MessageStateMessage).nextAttemptAt as number;
    p.setWallClock(-3_600_000);
    down = false;
    p.clock.advance(told - p.clock.now());
    await flush();
    await expect(first).resolves.toEqual({ id: 'msg-1' });
  });

  it('backs off as before when a 503 has no usable Retry-After', async () => {
    const p = page({ answer: async () => Promise.reject(unavailable('soon')) });
    p.send(1);
    await flush();
    const next = (p.states('msg-1').at(-1) as MessageStateMessage).nextAttemptAt as number;
    expect(next - p.clock.now()).toBeLessThanOrEqual(2_000);
  });
});

describe("a 429 its request gave up on, where the profile's rate limits pass (issue 33, Chatwoot: the outbox keeps it)", () => {
  const NOW = 1_700_000_000_000;
  const DAY = 86_400_000;
  /** As http.ts throws it after its own retries: `retryAt` where the server gave a Retry-After. */
  const rateLimited = (retryAt?: number) =>
    bridgeError(
      'rate_limited',
      `[POST /messages] 429: too many requests; ${retryAt === undefined ? 'gave up after 4 retries' : 'Retry-After over the 10 s cap'}`,
      429,
      undefined,
      retryAt,
    );

  it('keeps the message on its backoff, tells the host once with rate_limited, and sends it once the limit has passed', async () => {
    const p = page({
      rateLimitPasses: true,
      answer: async (r, n) => (n < 4 ? Promise.reject(rateLimited()) : { id: r.messageId }),
    });
    let settled = false;
    const outcome = p.send(1).finally(() => (settled = true));
    await flush();
    const queued = p.states('msg-1').at(-1) as MessageStateMessage;
    expect(queued).toMatchObject({ state: 'queued', attempt: 1 });
    expect((queued.nextAttemptAt as number) - NOW).toBeGreaterThan(0);
    expect((queued.nextAttemptAt as number) - NOW).toBeLessThanOrEqual(2_000);
    expect(p.errors()).toEqual([
      {
        type: 'error',
        code: 'rate_limited',
        message: '[POST /messages] 429: too many requests; gave up after 4 retries; 1 queued',
        retryable: true,
        status: 429,
        retryAt: queued.nextAttemptAt,
      },
    ]);
    expect(settled).toBe(false);
    expect((await p.outbox.list()).map((m) => m.messageId)).toEqual(['msg-1']);
    for (let i = 0; i < 3; i++) {
      p.clock.advance(((p.states('msg-1').at(-1) as MessageStateMessage).nextAttemptAt as number) - p.clock.now());
      await flush();
    }
    await expect(outcome).resolves.toEqual({ id: 'msg-1' });
    expect(p.sent).toEqual(['msg-1', 'msg-1', 'msg-1', 'msg-1']);
    // One error event for the burst, not one per attempt; the message never failed.
    expect(p.errors()).toHaveLength(1);
    expect(p.states('msg-1').some((s) => s.state === 'failed')).toBe(false);
    expect(p.map.size).toBe(0);
  });

  it("waits as long as the server's Retry-After said (the error's retryAt), even when a new message asks for a retry at once", async () => {
    let limited = true;
    const p = page({
      rateLimitPasses: true,
      answer: async (r) => (limited ? Promise.reject(rateLimited(NOW + 60_000)) : { id: r.messageId }),
    });
    const first = p.send(1);
    await flush();
    expect(p.states('msg-1').at(-1)).toMatchObject({ state: 'queued', nextAttemptAt: NOW + 60_000 });
    expect(p.errors()).toMatchObject([{ code: 'rate_limited', retryable: true, retryAt: NOW + 60_000 }]);
    limited = false;
    const second = p.send(2);
    p.clock.advance(59_999);
    await flush();
    expect(p.sent).toEqual(['msg-1']);
    p.clock.advance(1);
    await flush();
    await expect(first).resolves.toEqual({ id: 'msg-1' });
    await expect(second).resolves.toEqual({ id: 'msg-2' });
    expect(p.sent).toEqual(['msg-1', 'msg-1', 'msg-2']);
  });

  it('ends the automatic retries where its Retry-After is over a day: failed with rate_limited and when, the next message sent', async () => {
    const until = NOW + DAY + 1_000;
    const p = page({
      rateLimitPasses: true,
      answer: async (r) => (r.messageId === 'msg-1' ? Promise.reject(rateLimited(until)) : { id: r.messageId }),
    });
    const { error, second } = await sendTwoFirstFailing(p);
    expect(error).toEqual({
      type: 'error',
      code: 'rate_limited',
      message:
        '[POST /messages] 429: too many requests; Retry-After over the 10 s cap; Retry-After over a day: not retried automatically',
      retryable: true,
      status: 429,
      retryAt: until,
    });
    await expect(second).resolves.toEqual({ id: 'msg-2' });
    expect(p.sent).toEqual(['msg-1', 'msg-2']);
    expect(p.states('msg-1').at(-1)).toMatchObject({ state: 'failed' });
    expect(p.states('msg-1').some((s) => s.state === 'queued' && 'nextAttemptAt' in s)).toBe(false);
  });

  it("fails it on the contract's profile, whose 429 stays final after the request's retries", async () => {
    const p = page({
      answer: async (r) => (r.messageId === 'msg-1' ? Promise.reject(rateLimited()) : { id: r.messageId }),
    });
    const first = p.send(1);
    const second = p.send(2);
    await flush();
    await expect(first).rejects.toMatchObject({ event: { code: 'rate_limited', status: 429 } });
    await expect(second).resolves.toEqual({ id: 'msg-2' });
    expect(p.sent).toEqual(['msg-1', 'msg-2']);
    expect(p.states('msg-1').at(-1)).toMatchObject({ state: 'failed' });
  });
});
