/**
 * Host commands over the length cap. Parsing them whole is the cost the cap is there to avoid,
 * yet the host's call waits for an answer (a typed-client call would wait forever). So only the
 * envelope is parsed: long strings are found by pairing quotes with indexOf, which jumps over
 * base64 at memory speed, and left out. A readable id is answered: `file_too_large` for the first
 * file over `maxFileSize`, measured where it lies (what is really wrong, worded as the server
 * words it), else the cap's own parse_error.
 */
import type { ErrorEvent } from '../protocol/errors.js';
import { attachmentSize, base64Size, fileTooLarge } from '../protocol/service-rules.js';
import { isObject, parseJson } from '../protocol/safe-json.js';
import { idString } from '../protocol/schemas.js';

/** Strings longer than this are measured where they lie, not copied or parsed. */
const SHORT = 1024;

export interface Oversized {
  error: ErrorEvent;
  /** The envelope's id, when it could be read. */
  id?: string;
}

export function refuseOversized(text: string, tooLong: ErrorEvent, maxFileSize: number): Oversized {
  const long: string[] = [];
  const parsed = parseJson(withoutLongStrings(text, long) || '');
  const envelope = parsed.ok ? parsed.value : undefined;
  if (!isEnvelopeLike(envelope) || !idString.safeParse(envelope['id']).success) return { error: tooLong };
  const { id, method, params } = envelope;
  const files = method === 'sendMessage' && isObject(params) ? params['attachments'] : undefined;
  for (const file of Array.isArray(files) ? (files as unknown[]) : []) {
    if (!isObject(file) || typeof file['name'] !== 'string' || typeof file['data'] !== 'string') continue;
    const size = sizeOf(file['data'], long);
    if (size > maxFileSize) return { id: id as string, error: fileTooLarge(file['name'], size, maxFileSize) };
  }
  return { id: id as string, error: tooLong };
}

/**
 * An object with a string `id` and `method`, as a host command's envelope has; JSON-RPC traffic,
 * which has the same keys, is told apart by its `jsonrpc` member.
 */
export function isEnvelopeLike(value: unknown): value is Record<string, unknown> {
  return (
    isObject(value) && typeof value['id'] === 'string' && typeof value['method'] === 'string' && !('jsonrpc' in value)
  );
}

/**
 * The text with each string longer than SHORT replaced by `"\u0000<n>"` and kept (raw, quotes
 * included) as `long[n]`: strings are found by pairing quotes with indexOf, which jumps over
 * base64 at memory speed. Undefined when a string never ends.
 */
function withoutLongStrings(text: string, long: string[]): string | undefined {
  let kept = '';
  let from = 0;
  for (let open = text.indexOf('"'); open >= 0; open = text.indexOf('"', from)) {
    let close = open;
    do close = text.indexOf('"', close + 1);
    while (close > 0 && escaped(text, close));
    if (close < 0) return undefined;
    if (close - open > SHORT) {
      kept += `${text.slice(from, open)}"\\u0000${long.length}"`;
      long.push(text.slice(open, close + 1));
    } else kept += text.slice(from, close + 1);
    from = close + 1;
  }
  return kept + text.slice(from);
}

/** Whether the quote at `at` is escaped: preceded by an odd number of backslashes. */
function escaped(text: string, at: number): boolean {
  let slashes = 0;
  while (text.charCodeAt(at - 1 - slashes) === 92) slashes++;
  return slashes % 2 === 1;
}

/** The decoded size of `data` as read, which may stand for one of the long strings. */
function sizeOf(data: string, long: string[]): number {
  const raw = data.charCodeAt(0) === 0 ? long[Number(data.slice(1))] : undefined;
  if (raw === undefined) return attachmentSize({ data });
  // Plain base64 (what nearly every host sends) is measured between its quotes (a slice shares the
  // text's characters); escapes (org.json's `\/`, wrapped lines' `\n`) and spaces need the string
  // itself, one file at a time.
  return raw.indexOf('\\') < 0 && raw.indexOf(' ') < 0
    ? base64Size(raw.slice(1, -1))
    : attachmentSize({ data: JSON.parse(raw) as string });
}
