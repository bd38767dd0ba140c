/** Base64 to bytes, for attachments (commands carry base64; storage and uploads carry bytes). */
import { base64Text } from './protocol/service-rules.js';

type FromBase64 = (text: string, options: { lastChunkHandling?: 'strict' }) => Uint8Array;

/**
 * Throws on data that is not base64, as atob does (whitespace is skipped, missing padding forgiven).
 * `whole`: base64 in whole 4-character groups only, as a chunk of a longer text must be, where a
 * group cut in two would decode to wrong bytes.
 */
export function unbase64(data: string, whole?: boolean): ArrayBuffer {
  // Native where the engine has it (Chromium 140, Safari 18.2): several times faster than atob and
  // the loop below. Its strict mode checks the groups while it decodes: no scan of the text first.
  const native = (Uint8Array as { fromBase64?: FromBase64 }).fromBase64;
  if (native) return native(data, whole ? { lastChunkHandling: 'strict' } : {}).buffer as ArrayBuffer;
  if (whole && base64Text(data).length % 4) throw data;
  const text = atob(data);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes.buffer;
}
