/**
 * Which attachments the typed client sends in chunks (`appendAttachment`, docs/attachments.md "Large
 * attachments"), and the chunks. A file whose base64 is longer than one chunk goes in pieces, so
 * the WebView never parses one huge command (a long task that freezes the page); smaller ones,
 * and data that is not base64 (the bridge refuses it, with its usual message), go inline.
 */
import { CHUNK_MAX } from '../bridge/protocol/limits.js';

const WHITESPACE = /[\t\n\f\r ]/g;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The base64 characters of `data` when it goes in chunks: longer than one chunk, and base64. */
export function chunkedBase64(data: string | undefined): string | undefined {
  if (data === undefined || data.length <= CHUNK_MAX) return undefined;
  const text = data.replace(WHITESPACE, '');
  return text.length > CHUNK_MAX && text.length % 4 === 0 && BASE64.test(text) ? text : undefined;
}

/** The chunks of base64 text: CHUNK_MAX characters each (whole 4-character groups), the last one shorter. */
export function chunksOf(text: string): string[] {
  const chunks: string[] = [];
  for (let at = 0; at < text.length; at += CHUNK_MAX) chunks.push(text.slice(at, at + CHUNK_MAX));
  return chunks;
}
