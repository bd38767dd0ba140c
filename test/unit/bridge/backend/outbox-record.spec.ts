/**
 * One stored outbox record (bridge/backend/outbox-record.ts): the prefix that names its inbox, the
 * key that puts it in queue order, the page read back from a key, and the check a stored value
 * passes before it is sent. test/unit/bridge/backend/outbox.spec.ts checks the outbox that writes
 * and reads them.
 */
import { describe, expect, it } from 'vitest';
import {
  fileSize,
  inboxPrefix,
  inQueueOrder,
  isOutboxRecord,
  pageOf,
  recordKey,
} from '../../../../bridge/backend/outbox-record.js';
import { sourceId } from '../../../../bridge/protocol/message-ids.js';
import { CHATWOOT_TYPES, MAX_FILES } from '../../../../bridge/protocol/service-rules.js';

const BASE = 'https://chat.example.test/api/v1';
const TOKEN = 'wt_outbox_secret_token';
const PREFIX = inboxPrefix(BASE, TOKEN);
const MAX = 1024;

describe('inboxPrefix', () => {
  it('is the same for the same inbox, so a reload or another WebView finds its records', () => {
    expect(inboxPrefix(BASE, TOKEN)).toBe(PREFIX);
  });

  it('is made of a fixed head and two hashes in base 36: no part of the token or the URL can be read in it', () => {
    expect(PREFIX).toMatch(/^chat-bridge:outbox:[0-9a-z]{2,14}:$/);
    const hash = PREFIX.split(':')[2] ?? '';
    for (let i = 0; i + 5 <= TOKEN.length; i++) expect(hash).not.toContain(TOKEN.slice(i, i + 5));
    expect(PREFIX).not.toContain('example');
  });

  it('differs between inboxes: another token, another backend, a token one character away, no token', () => {
    const others = [
      inboxPrefix(BASE, 'another_token'),
      inboxPrefix('https://other.example.test/api/v1', TOKEN),
      inboxPrefix(BASE, 'wt_outbox_secret_tokem'),
      inboxPrefix(BASE, 'WT_outbox_secret_token'),
      inboxPrefix(BASE),
    ];
    expect(new Set([PREFIX, ...others]).size).toBe(others.length + 1);
  });

  it("never starts another inbox's prefix, over many inboxes (records are found by prefix)", () => {
    const prefixes = new Set<string>();
    for (let n = 0; n < 10_000; n++) prefixes.add(inboxPrefix(`https://chat${n % 7}.example.test`, `token${n}`));
    expect(prefixes.size).toBe(10_000);
    const sorted = [...prefixes].sort();
    // Sorted, a prefix of another comes right before one that starts with it.
    for (let i = 1; i < sorted.length; i++) expect(sorted[i]?.startsWith(sorted[i - 1] ?? '')).toBe(false);
  });
});

describe('recordKey and pageOf', () => {
  it('names the inbox, the time, the page and the counter, and gives the page back', () => {
    const page = sourceId(1_700_000_000_000, 0.73);
    const key = recordKey(PREFIX, 1_700_000_000_000, page, 7);
    expect(key.startsWith(PREFIX)).toBe(true);
    expect(pageOf(key)).toBe(page);
    expect(pageOf(recordKey(PREFIX, 1, 'pageA', 0))).toBe('pageA');
    expect(key.slice(PREFIX.length)).toBe(`${(1_700_000_000_000).toString(36).padStart(9, '0')}.${page}.000007`);
  });

  it('sorts as the numbers do: time first, then the counter, across a change in digit count', () => {
    const times = [1, 35, 36, 1_295, 1_296, 1_700_000_000_000, 2_000_000_000_000];
    const byTime = times.map((time) => recordKey(PREFIX, time, 'p', 0));
    expect([...byTime].reverse().sort()).toEqual(byTime);
    const byCounter = [0, 9, 10, 35, 36, 1_295, 1_296, 60_000_000].map((n) => recordKey(PREFIX, 5, 'p', n));
    expect([...byCounter].reverse().sort()).toEqual(byCounter);
  });
});

describe('inQueueOrder', () => {
  it("puts what pages that are gone left before this page's own, whatever their times", () => {
    const mine = [recordKey(PREFIX, 100, 'me', 0), recordKey(PREFIX, 100, 'me', 1)];
    // Left by a page whose clock was ahead: later times, queued before this page could queue.
    const gone = [recordKey(PREFIX, 900, 'old', 0), recordKey(PREFIX, 50_000, 'older', 3)];
    expect(inQueueOrder([mine[1], gone[1], mine[0], gone[0]] as string[], 'me')).toEqual([...gone, ...mine]);
  });

  it("orders this page's keys by their counter, not by what a wall clock would say", () => {
    // Stamped with the same time (the clock did not move, or was set back and the stamp held).
    const keys = [11, 2, 10, 0, 1].map((n) => recordKey(PREFIX, 500, 'me', n));
    expect(inQueueOrder(keys, 'me').map((key) => key.slice(-6))).toEqual([
      '000000',
      '000001',
      '000002',
      '00000a',
      '00000b',
    ]);
  });

  it('orders the keys of other pages by key (time, then page, then counter), and takes any iterable', () => {
    const a = recordKey(PREFIX, 10, 'b', 1);
    const b = recordKey(PREFIX, 10, 'c', 0);
    const c = recordKey(PREFIX, 11, 'a', 0);
    expect(inQueueOrder(new Set([c, b, a]), 'me')).toEqual([a, b, c]);
    expect(inQueueOrder([], 'me')).toEqual([]);
  });
});

describe('fileSize', () => {
  it("is an ArrayBuffer's length or a Blob's size, else the size given, and -1 for any other data", () => {
    expect(fileSize({ data: new Uint8Array(5).buffer })).toBe(5);
    expect(fileSize({ data: new Blob(['abc', new Uint8Array(4)]), size: 1 })).toBe(7);
    expect(fileSize({ data: new ArrayBuffer(0) })).toBe(0);
    expect(fileSize({ size: 12 })).toBe(12);
    expect(fileSize({})).toBeUndefined();
    expect(fileSize({ data: 'abc', size: 3 })).toBe(-1);
  });
});

describe('isOutboxRecord', () => {
  const file = (extra: Record<string, unknown>) => ({
    v: 1,
    messageId: 'm',
    files: [{ name: 'f', type: 'image/png', ...extra }],
  });

  it('accepts what the bridge writes: an id, and any of text, contact and files within the limits', () => {
    const accepted: unknown[] = [
      { v: 1, messageId: 'm' },
      { v: 1, messageId: 'x'.repeat(128), content: 'hello' },
      { v: 1, messageId: 'm', contact: { name: 'Ann', email: 'a@b.c', identifier: 'u1' } },
      { v: 1, messageId: 'm', contact: { name: undefined } },
      file({ data: new Uint8Array(MAX).buffer }),
      file({ data: new Blob(['ok']) }),
      file({ size: MAX }),
      {
        v: 1,
        messageId: 'm',
        files: Array.from({ length: MAX_FILES }, () => ({ name: 'f', type: 'application/pdf', size: 1 })),
      },
    ];
    for (const value of accepted) expect(isOutboxRecord(value, MAX), JSON.stringify(value)).toBe(true);
  });

  it('refuses anything else: another version or shape, a bad id, unknown contact fields, files out of bounds', () => {
    const refused: Array<[string, unknown]> = [
      ['not an object', 'not an object'],
      ['null', null],
      ['an array', [{ v: 1, messageId: 'm' }]],
      ['another version', { v: 2, messageId: 'm' }],
      ['no id', { v: 1 }],
      ['an empty id', { v: 1, messageId: '' }],
      ['an id too long', { v: 1, messageId: 'x'.repeat(129) }],
      ['a number as id', { v: 1, messageId: 7 }],
      ['content not text', { v: 1, messageId: 'm', content: { html: '<b>' } }],
      ['a contact field the bridge never writes', { v: 1, messageId: 'm', contact: { email: 'a@b.c', admin: 'true' } }],
      ['a contact value not text', { v: 1, messageId: 'm', contact: { name: 5 } }],
      ['a contact that is an array', { v: 1, messageId: 'm', contact: ['name'] }],
      ['files not an array', { v: 1, messageId: 'm', files: { 0: {} } }],
      [
        'too many files',
        {
          v: 1,
          messageId: 'm',
          files: Array.from({ length: MAX_FILES + 1 }, () => ({ name: 'f', type: 'image/png', size: 1 })),
        },
      ],
      ['a type the service refuses', file({ type: 'application/x-msdownload', size: 1 })],
      ['a file without a name', { v: 1, messageId: 'm', files: [{ type: 'image/png', size: 1 }] }],
      ['a file that is not an object', { v: 1, messageId: 'm', files: ['f'] }],
      ['bytes as text', file({ data: 'AAAA' })],
      ['neither bytes nor size', file({})],
      ['a negative size', file({ size: -1 })],
      ['a size over maxFileSize', file({ size: MAX + 1 })],
      ['an ArrayBuffer over maxFileSize', file({ data: new Uint8Array(MAX + 1).buffer })],
      ['a Blob over maxFileSize', file({ data: new Blob([new Uint8Array(MAX + 1)]) })],
    ];
    for (const [what, value] of refused) expect(isOutboxRecord(value, MAX), what).toBe(false);
  });

  it('holds a file to the maxFileSize it is given', () => {
    const record = file({ data: new Uint8Array(2048).buffer });
    expect(isOutboxRecord(record, 2048)).toBe(true);
    expect(isOutboxRecord(record, 2047)).toBe(false);
  });
});

describe("isOutboxRecord with a backend's own types", () => {
  it("keeps a record with a file the backend accepts (Chatwoot's zip), which the service's types refuse", () => {
    const record = { v: 1, messageId: 'm-1', files: [{ name: 'logs.zip', type: 'application/zip', size: 10 }] };
    expect(isOutboxRecord(record, 1024)).toBe(false);
    expect(isOutboxRecord(record, 1024, CHATWOOT_TYPES)).toBe(true);
  });
});
