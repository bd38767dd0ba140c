/**
 * Chunked attachments. One 5 MiB photo is 7 MB of base64; five of them in one command cost the
 * page a 300+ ms task (parsing 35 MB of JSON alone takes ~40 ms). So a host may hand a file over
 * in pieces, `appendAttachment({uploadId, index, data})`, each at most CHUNK_MAX characters and
 * answered on its own (backpressure, and an error at the chunk at fault), decoded on arrival; a
 * `sendMessage` attachment `{name, type, uploadId}` then takes the assembled bytes.
 *
 * Bounded: an upload that grows past `maxFileSize` is refused at the chunk that crosses it and
 * dropped; so is one past MAX_CHUNKS, since each chunk held costs memory of its own (an
 * ArrayBuffer, its place in a list) whatever its size: 200,000 chunks of 4 characters held 19
 * times their bytes. An upload left unused for UPLOAD_IDLE_MS is dropped, and past MAX_UPLOADS
 * open ones the least recently used goes, so abandoned uploads cannot hold memory for long. What
 * open uploads hold is thus at most MAX_UPLOADS files, each under `maxFileSize`, in at most
 * MAX_CHUNKS pieces each.
 */
import type { Timers } from '../environment.js';
import { BridgeError, bridgeError } from '../protocol/errors.js';
import { base64Text, fileTooLarge, notBase64 } from '../protocol/service-rules.js';
import { unbase64 } from '../bytes.js';

/** Unused this long (ms), an upload is dropped. */
export const UPLOAD_IDLE_MS = 300_000;
/** Open uploads at most: two messages' worth. */
export const MAX_UPLOADS = 10;
/**
 * Chunks one upload may have. The typed client's full chunks carry 384 KiB each, so a file of
 * 1.5 GiB fits; a host with its own smaller chunks has room too.
 */
export const MAX_CHUNKS = 4096;
/**
 * Decoded chunks become one Blob per this many bytes. Making a Blob costs about 1 ms in Chromium
 * however small it is (a round trip to the browser process): a Blob per chunk added up over a
 * photo's chunks. WebKit hands a new Blob's bytes to its network process while the constructor
 * waits, and that wait grows faster than the Blob (measured in WebKitGTK: Blobs of 2.25 MiB held
 * the main thread several times longer per byte than Blobs of 1.1 MiB, and were the longest of a
 * chunked send's tasks); about 1 MiB keeps either engine's part of one chunk's task short.
 */
const BLOB_BYTES = 1024 * 1024;

interface Upload {
  /** Chunks taken so far. */
  chunks: number;
  /** Blobs of the earlier chunks, then (from index `loose` on) the decoded chunks not yet in one. */
  parts: BlobPart[];
  loose: number;
  /** Bytes taken so far, and how many of them the Blobs held when the last was made. */
  size: number;
  blobbed: number;
  timer?: unknown;
}

export interface Uploads {
  /** Decodes and keeps chunk `index` (0 starts the upload, then 1, 2...); returns the upload's bytes so far. */
  append(uploadId: string, index: number, data: string): number;
  /** The assembled bytes for each id given (undefined for none), taking those uploads; refuses when one is unknown. */
  take(uploadIds: Array<string | undefined>): Array<Blob | undefined>;
}

export function createUploads(maxFileSize: number, timers: Timers): Uploads {
  // In order of last use: the first is the least recently used.
  const open = new Map<string, Upload>();
  const drop = (id: string, upload = open.get(id) as Upload) => {
    timers.clearTimeout(upload.timer);
    open.delete(id);
  };
  const refuse = (why: string, where = 'appendAttachment') => bridgeError('parse_error', `[${where}] ${why}`);
  const unknown = (id: string, where?: string) => refuse(`unknown upload "${id}"`, where);

  return {
    append(id, index, data) {
      const upload = open.get(id) || (index ? undefined : { chunks: 0, parts: [], loose: 0, size: 0, blobbed: 0 });
      if (!upload) throw unknown(id);
      if (index !== upload.chunks) throw refuse(`upload "${id}" expects chunk ${upload.chunks}, not ${index}`);
      if (index >= MAX_CHUNKS) {
        drop(id, upload);
        throw refuse(`upload "${id}" over ${MAX_CHUNKS} chunks`);
      }
      const text = base64Text(data);
      let bytes: ArrayBuffer;
      try {
        // Decoding checks the characters (a regular expression over 512 KiB costs more than the decoding).
        if (text.length % 4) throw text;
        bytes = unbase64(text);
      } catch {
        throw notBase64(text, '[appendAttachment] invalid params', 'data must be base64 in 4-character groups');
      }
      const size = upload.size + bytes.byteLength;
      drop(id, upload);
      if (size > maxFileSize) throw new BridgeError(fileTooLarge(`upload "${id}"`, size, maxFileSize));
      // Blobs of a few chunks each (a copy of BLOB_BYTES in one chunk's task): the message's Blob is
      // then made of them by reference, and stored (IndexedDB keeps Blobs by reference too) and
      // uploaded without one 25 MB copy or structured clone in a single task.
      upload.chunks++;
      upload.parts.push(bytes);
      if (size - upload.blobbed >= BLOB_BYTES) {
        upload.loose = upload.parts.push(new Blob(upload.parts.splice(upload.loose)));
        upload.blobbed = size;
      }
      upload.size = size;
      open.set(id, upload);
      upload.timer = timers.setTimeout(() => open.delete(id), UPLOAD_IDLE_MS);
      if (open.size > MAX_UPLOADS) drop(open.keys().next().value as string);
      return size;
    },
    take(ids) {
      const uploads = ids.map((id) => {
        const upload = id && open.get(id);
        if (id && !upload) throw unknown(id, 'sendMessage');
        return upload;
      });
      return uploads.map((upload, i) => {
        if (!upload) return;
        drop(ids[i] as string, upload);
        return new Blob(upload.parts);
      });
    },
  };
}
