import { describe, expect, it } from 'vitest';
import { listing } from '../../../../../bridge/backend/outbox/listing.js';
import type { Entries } from '../../../../../bridge/backend/outbox/queue.js';
import type { OutboxSettings } from '../../../../../bridge/backend/outbox/settings.js';
import { pageOf, recordKey } from '../../../../../bridge/backend/outbox-record.js';
import { mapRecords } from '../../../../../tools/testing/in-memory-environment.js';
import { createVirtualClock } from '../../../../../tools/testing/virtual-clock.js';

const PREFIX = 'chat-bridge:outbox:test:';
const NOW = 1_700_000_000_000;

function setup(map: Map<string, unknown>, online = true) {
  const clock = createVirtualClock(NOW);
  const s: OutboxSettings = {
    records: mapRecords(map),
    prefix: PREFIX,
    page: 'me',
    maxFileSize: 1024,
    ...clock,
    random: () => 0.5,
    isOnline: () => online,
    send: async () => undefined,
    emit: () => undefined,
  };
  const entries: Entries = new Map();
  const foreign = (key: string) => pageOf(key) !== 'me' && !entries.has(key);
  return { s, entries, list: () => listing(s, s.records, entries, foreign) };
}

describe('listOutbox', () => {
  it("lists gone pages' records first, then this page's, with the state this page knows", async () => {
    const theirs = recordKey(PREFIX, 1, 'gone', 0);
    const mine = recordKey(PREFIX, 2, 'me', 0);
    const map = new Map<string, unknown>([
      [theirs, { v: 1, messageId: 'theirs', content: 'a' }],
      [mine, { v: 1, messageId: 'mine', content: 'b' }],
    ]);
    const t = setup(map);
    t.entries.set(mine, { key: mine, record: { v: 1, messageId: 'mine', content: 'b' }, attempt: 2, state: 'sending' });
    expect(await t.list()).toEqual([
      { messageId: 'theirs', state: 'queued', attempt: 0, nextAttemptAt: undefined, content: 'a', files: undefined },
      { messageId: 'mine', state: 'sending', attempt: 2, nextAttemptAt: undefined, content: 'b', files: undefined },
    ]);
  });

  it('tells when a kept message is due as it was told, online only', async () => {
    const key = recordKey(PREFIX, 1, 'me', 0);
    const record = { v: 1 as const, messageId: 'm', content: 'c' };
    const entry = { key, record, attempt: 1, state: 'queued' as const, next: NOW + 5_000, told: NOW + 5_000 };
    const online = setup(new Map([[key, record]]));
    online.entries.set(key, entry);
    expect((await online.list())[0]?.nextAttemptAt).toBe(NOW + 5_000);
    const offline = setup(new Map([[key, record]]), false);
    offline.entries.set(key, entry);
    expect((await offline.list())[0]?.nextAttemptAt).toBeUndefined();
  });

  it("leaves out this page's stored key with no entry (answered, its removal failed) and invalid records", async () => {
    const answered = recordKey(PREFIX, 1, 'me', 0);
    const invalid = recordKey(PREFIX, 2, 'gone', 0);
    const t = setup(
      new Map<string, unknown>([
        [answered, { v: 1, messageId: 'answered', content: 'x' }],
        [invalid, { v: 9, messageId: 'invalid' }],
      ]),
    );
    expect(await t.list()).toEqual([]);
  });

  it("gives a file's name, type and size, never its bytes", async () => {
    const key = recordKey(PREFIX, 1, 'gone', 0);
    const file = { name: 'a.png', type: 'image/png', data: new ArrayBuffer(10) };
    const t = setup(new Map<string, unknown>([[key, { v: 1, messageId: 'photo', files: [file] }]]));
    expect((await t.list())[0]?.files).toEqual([{ name: 'a.png', type: 'image/png', size: 10 }]);
  });
});
