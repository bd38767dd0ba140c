/**
 * One queued message as it is stored: its own record under a key that names the inbox, the
 * time it was queued and the page that queued it, so records sort in queue order, every
 * WebView sees every other's, and a record is only ever sent with its own inbox's credentials.
 */
import type { Contact } from '../protocol/schemas.js';
import { isObject } from '../protocol/safe-json.js';
import { ACCEPTED_TYPES, MAX_FILES } from '../protocol/service-rules.js';

/** An attachment: its bytes (a Blob when it came in chunks), or (fixtures) only its size. */
export interface OutboxFile {
  name: string;
  type: string;
  data?: ArrayBuffer | Blob;
  size?: number;
}

/** An attachment's size in bytes: of its bytes, else as given; -1 for bytes the bridge never writes. */
export const fileSize = ({ data, size }: { data?: unknown; size?: unknown }) =>
  (data === undefined
    ? size
    : data instanceof ArrayBuffer
      ? data.byteLength
      : data instanceof Blob
        ? data.size
        : -1) as number | undefined;

export interface OutboxRecord {
  /** The record format's version. */
  v: 1;
  /** The client-side message id, sent as `echo_id` on every attempt. */
  messageId: string;
  content?: string | undefined;
  contact?: Contact | undefined;
  files?: OutboxFile[] | undefined;
}

/**
 * The prefix of an inbox's record keys. The website token goes in hashed (two 32-bit
 * multiplicative hashes): keys are visible to any script of the origin and in storage inspectors.
 */
export function inboxPrefix(baseUrl: string, websiteToken = ''): string {
  let a = 1;
  let b = 7;
  for (const c of `${baseUrl} ${websiteToken}`) {
    a = Math.imul(a ^ c.charCodeAt(0), 0x5bd1e995);
    b = Math.imul(b ^ a, 0x27d4eb2d) ^ (a >>> 15);
  }
  return `chat-bridge:outbox:${(a >>> 0).toString(36)}${(b >>> 0).toString(36)}:`;
}

/** `<prefix><time>.<page>.<n>`: time and counter padded so that keys sort in queue order. */
export const recordKey = (prefix: string, time: number, page: string, n: number) =>
  `${prefix}${time.toString(36).padStart(9, '0')}.${page}.${n.toString(36).padStart(6, '0')}`;

/** The page that queued the record. */
export const pageOf = (key: string) => key.split('.')[1];

/**
 * Keys in the order their messages go: what pages that are gone left first (queued before this
 * page could queue anything, whatever the clock said), then this page's own; by key within each.
 * A native sort of marked keys: a comparator would split two keys at each of thousands of
 * comparisons, one long task with a long queue.
 */
export const inQueueOrder = (keys: Iterable<string>, page: string) =>
  [...keys]
    // Marked 0 (another page's) or 1 (this page's).
    .map((key) => Number(pageOf(key) === page) + key)
    .sort()
    .map((key) => key.slice(1));

const isText = (value: unknown) => value === undefined || typeof value === 'string';

/**
 * A stored value is sent only when it has exactly the shape the bridge writes, within the
 * backend's limits (`types`: its MIME types, the service's by default).
 */
export function isOutboxRecord(value: unknown, maxFileSize: number, types = ACCEPTED_TYPES): value is OutboxRecord {
  if (!isObject(value) || value['v'] !== 1) return false;
  const { messageId: id, content, contact = {}, files = [] } = value as { [key: string]: any };
  return (
    typeof id === 'string' &&
    id.length > 0 &&
    id.length < 129 &&
    isText(content) &&
    isObject(contact) &&
    Object.entries(contact).every(([field, text]) => /^(name|email|identifier)$/.test(field) && isText(text)) &&
    Array.isArray(files) &&
    files.length <= MAX_FILES &&
    files.every((file) => {
      if (!isObject(file)) return false;
      const { name, type } = file as any;
      const bytes = fileSize(file) as number;
      return typeof name === 'string' && types.test(type) && bytes >= 0 && bytes <= maxFileSize;
    })
  );
}
