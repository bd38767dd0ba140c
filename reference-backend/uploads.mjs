// @ts-check
/**
 * Reading a POST /messages body (JSON or multipart) and applying the
 * contract's upload rules in the contract's order: file count (400), MIME
 * type (400), per-file size (413), then content (400).
 */
import { createHash } from 'node:crypto';
import { HttpError, isObject, parseJsonObject, readBody } from './http-io.mjs';

/** @typedef {import('./store.mjs').AttachmentInfo} AttachmentInfo */
/** @typedef {{content: string, echoId: string | null, attachments: AttachmentInfo[]}} MessageInput */

export const MAX_FILES = 5;
const JSON_BODY_LIMIT = 1024 * 1024;
/** Room for multipart boundaries and text fields on top of the files themselves. */
const MULTIPART_OVERHEAD = 1024 * 1024;
const MIB = 1024 * 1024;

/**
 * "10 MB" for the contract's 10485760; smaller test limits fall back to KB or bytes
 * rather than printing "0 MB".
 * @param {number} bytes
 */
export function formatSize(bytes) {
  if (bytes >= MIB) return `${Number((bytes / MIB).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
  return `${bytes} bytes`;
}

/** @param {number} maxFileSize */
export function fileTooLargeMessage(maxFileSize) {
  return `File exceeds the maximum upload size of ${formatSize(maxFileSize)}`;
}

/**
 * The contract's accepted list: image/*, audio/*, video/*, application/pdf, text/*.
 * @param {string} type a MIME essence (no parameters), lower case
 */
function isAcceptedType(type) {
  return /^(image|audio|video|text)\/[^/]+$/.test(type) || type === 'application/pdf';
}

/**
 * @param {import('node:http').IncomingMessage} req
 * @param {number} maxFileSize
 * @returns {Promise<MessageInput>}
 */
export async function readMessageInput(req, maxFileSize) {
  const contentType = req.headers['content-type'] ?? '';
  if (/^multipart\/form-data/i.test(contentType)) {
    return readMultipart(req, contentType, maxFileSize);
  }
  // Any other content type is tried as JSON: a fetch with a string body sends text/plain.
  const body = parseJsonObject(await readBody(req, JSON_BODY_LIMIT, 'Request body exceeds 1 MB'));
  const message = body?.['message'];
  if (message !== undefined && !isObject(message)) {
    throw new HttpError(400, 'Malformed request body: "message" must be an object');
  }
  return checkText(message?.['content'], message?.['echo_id'], []);
}

/**
 * @param {import('node:http').IncomingMessage} req
 * @param {string} contentType
 * @param {number} maxFileSize
 * @returns {Promise<MessageInput>}
 */
async function readMultipart(req, contentType, maxFileSize) {
  // A cap on the whole body, so one request cannot make the server buffer without bound.
  const limit = (MAX_FILES + 1) * maxFileSize + MULTIPART_OVERHEAD;
  const buffer = await readBody(
    req,
    limit,
    `Request body too large: at most ${MAX_FILES} files of ${formatSize(maxFileSize)} each`,
  );
  /** @type {FormData} */
  let form;
  try {
    form = await new Request('http://reference-backend.invalid/', {
      method: 'POST',
      headers: { 'content-type': contentType },
      // Buffer is a Uint8Array; the DOM typings only doubt its ArrayBuffer kind.
      body: /** @type {Uint8Array<ArrayBuffer>} */ (buffer),
    }).formData();
  } catch {
    throw new HttpError(400, 'Malformed request body: not valid multipart/form-data');
  }

  /** @type {File[]} */
  const files = [];
  for (const [field, value] of form) {
    const isFile = typeof value !== 'string';
    if (field === 'attachments[]') {
      if (!isFile) throw new HttpError(400, 'attachments[] must be files');
      files.push(value);
    } else if (isFile) {
      // Dropping a file silently would hide a client bug behind a message without its attachment.
      throw new HttpError(400, `Unexpected file field: ${field} (files go under attachments[])`);
    }
  }

  if (files.length > MAX_FILES) {
    throw new HttpError(400, `Too many files: at most ${MAX_FILES} attachments per message`);
  }
  const attachments = await Promise.all(
    files.map(async (file) => ({
      name: file.name,
      type: (file.type.split(';')[0] ?? '').trim().toLowerCase() || 'application/octet-stream',
      size: file.size,
      // What arrived, byte for byte, so a test can check a file survived its trip (chunks, storage, reloads).
      sha256: createHash('sha256')
        .update(new Uint8Array(await file.arrayBuffer()))
        .digest('hex'),
    })),
  );
  for (const { type } of attachments) {
    if (!isAcceptedType(type)) throw new HttpError(400, `Unsupported file type: ${type}`);
  }
  if (attachments.some(({ size }) => size > maxFileSize)) {
    throw new HttpError(413, fileTooLargeMessage(maxFileSize));
  }
  return checkText(form.get('message[content]') ?? undefined, form.get('message[echo_id]') ?? undefined, attachments);
}

/**
 * @param {unknown} content
 * @param {unknown} echoId
 * @param {AttachmentInfo[]} attachments
 * @returns {MessageInput}
 */
function checkText(content, echoId, attachments) {
  if (content !== undefined && content !== null && typeof content !== 'string') {
    throw new HttpError(400, 'message.content must be a string');
  }
  if (echoId !== undefined && echoId !== null && typeof echoId !== 'string') {
    throw new HttpError(400, 'message.echo_id must be a string');
  }
  const text = content ?? '';
  // Whitespace alone is not a message; the contract asks for non-empty content.
  if (text.trim() === '' && attachments.length === 0) {
    throw new HttpError(400, 'message.content is required');
  }
  return { content: text, echoId: echoId || null, attachments };
}
