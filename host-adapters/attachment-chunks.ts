/**
 * How the typed client sends large attachments (`appendAttachment`, docs/attachments.md "Large
 * attachments"): which go in chunks, the chunks, and the upload before the message that names them.
 * A file whose base64 is longer than one chunk goes in pieces, so the WebView never parses one
 * huge command (a long task that freezes the page); smaller ones, and data that is not base64 (the
 * bridge refuses it, with its usual message), go inline.
 */
import type { SendMessageParams } from '../bridge/protocol/schemas.js';
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

export interface ChunkedUploads {
  /**
   * Hands `message` to `send`: at once when nothing is to upload and no earlier message is still
   * uploading; else after its large attachments went as chunks, with the message naming its
   * uploads, and after every earlier message was handed over (messages go in the order given).
   */
  send<Result>(message: SendMessageParams, send: (ready: SendMessageParams) => Promise<Result>): Promise<Result>;
}

/**
 * @param call sends one command and settles with its answer (a chunk's failure rejects the message's send).
 * @param uploadIdOf a new upload id, unique as the client's command ids are.
 */
export function createChunkedUploads(
  call: (method: string, params: object) => Promise<unknown>,
  uploadIdOf: () => string,
): ChunkedUploads {
  /** Messages with chunked attachments, in order: each later message waits for the one before to be handed over. */
  let uploads: Promise<unknown> = Promise.resolve();
  let uploading = 0;
  const uploaded = () => void uploading--;

  /** Sends the message's large attachments as chunks, one awaited at a time; resolves with the message naming its uploads. */
  const upload = async (message: SendMessageParams): Promise<SendMessageParams> => {
    const attachments = [];
    for (const file of message.attachments ?? []) {
      const text = chunkedBase64(file.data);
      if (text === undefined) {
        attachments.push(file);
        continue;
      }
      const uploadId = uploadIdOf();
      const chunks = chunksOf(text);
      for (let index = 0; index < chunks.length; index++) {
        // Answered within this task (microtasks only): the bridge runs on this thread, as in a
        // browser page. Then a timer before the next chunk gives the page its turn, so the upload is
        // many short tasks, not one long one. A native channel answers in a later task: no wait.
        let sameTask = true;
        setTimeout(() => (sameTask = false), 0);
        await call('appendAttachment', { uploadId, index, data: chunks[index] });
        if (sameTask) await new Promise<void>((resolve) => setTimeout(() => resolve(), 0));
      }
      const { data: _, ...named } = file;
      attachments.push({ ...named, uploadId });
    }
    return { ...message, attachments };
  };

  return {
    send(message, send) {
      // The common case stays synchronous: nothing to upload, and no earlier message still uploading.
      if (uploading === 0 && !message.attachments?.some((file) => chunkedBase64(file.data))) return send(message);
      uploading++;
      // Wrapped, so that the next message waits for this one to be handed over, not answered.
      const handedOver = uploads.then(() => upload(message)).then((ready) => [send(ready)] as const);
      uploads = handedOver.then(uploaded, uploaded);
      return handedOver.then(([sent]) => sent);
    },
  };
}
