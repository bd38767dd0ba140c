// @ts-check
/**
 * POST /api/v1/widget/messages bodies: JSON `{"message": {...}}` or multipart with
 * `message[content]`, `message[echo_id]` and files under `message[attachments][]`
 * (app/controllers/api/v1/widget/messages_controller.rb `build_attachment`;
 * app/javascript/widget/api/endPoints.js sends them so). The file rules are the attachment
 * model's for a web widget inbox (app/models/attachment.rb `acceptable_file`, develop of 2025-26):
 * at most MAXIMUM_FILE_UPLOAD_SIZE (default 40) MB, and `image/*`, `video/*`, `audio/*` or one of
 * ACCEPTABLE_FILE_TYPES; a message takes at most 15 (app/models/message.rb
 * NUMBER_OF_PERMITTED_ATTACHMENTS). A refused file fails the message's save as an autosaved
 * association does, so its error is named `attachments.file` ("Attachments file size is too big").
 */
import { createHash } from 'node:crypto';
import { isObject, parseJsonObject, readBody } from '../http-io.mjs';
import { RecordInvalid } from './errors.mjs';
import { parseMultipart } from './multipart.mjs';

/** app/models/attachment.rb ACCEPTABLE_FILE_TYPES (upstream develop; forks add to it). */
export const ACCEPTABLE_FILE_TYPES = new Set([
  'text/csv',
  'text/plain',
  'text/rtf',
  'application/json',
  'application/pdf',
  'application/zip',
  'application/x-7z-compressed',
  'application/vnd.rar',
  'application/x-tar',
  'application/msword',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'application/rtf',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
]);
export const MAX_ATTACHMENTS = 15;
const JSON_LIMIT = 1024 * 1024;
/** Ours, not Chatwoot's (Rails has no body cap; a proxy in front has one): bounds this server's memory. */
const MULTIPART_FILES_CAP = 5;

/** @param {string} type */
const isAcceptable = (type) => /^(image|video|audio)\//.test(type) || ACCEPTABLE_FILE_TYPES.has(type);
/** app/helpers/file_type_helper.rb `file_type`: image, video, audio, else file. */
const fileType = (/** @type {string} */ type) => /^(image|video|audio)\//.exec(type)?.[1] ?? 'file';

/**
 * @typedef {{message: Record<string, unknown> | undefined, attachments: import('./store.mjs').MessageInput['attachments']}} MessageBody
 */

/**
 * @param {import('node:http').IncomingMessage} req
 * @param {number} maxFileSize
 * @returns {Promise<MessageBody>}
 */
export async function readMessageBody(req, maxFileSize) {
  const contentType = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(contentType)) {
    const body = parseJsonObject(await readBody(req, JSON_LIMIT, 'Request body exceeds 1 MB'));
    const message = body?.['message'];
    return { message: isObject(message) ? message : undefined, attachments: [] };
  }
  const buffer = await readBody(req, MULTIPART_FILES_CAP * maxFileSize + JSON_LIMIT, 'Request body too large');
  /** @type {Record<string, unknown>} */
  const message = {};
  /** @type {import('./multipart.mjs').Part[]} */
  const files = [];
  for (const part of parseMultipart(buffer, contentType)) {
    const key = /^message\[(\w+)\](\[\])?$/.exec(part.name);
    if (!key) continue; // Rails' strong parameters drop what is not permitted.
    if (key[1] === 'attachments' && part.filename !== undefined) files.push(part);
    else if (part.filename === undefined) message[/** @type {string} */ (key[1])] = part.data.toString('utf8');
  }
  if (files.length > MAX_ATTACHMENTS)
    throw new RecordInvalid([['attachments', 'Attachments exceeded maximum allowed']]);
  const attachments = files.map(describe);
  /** @type {Array<[string, string]>} */
  const errors = [];
  for (const file of attachments) {
    if (file.file_size > maxFileSize) errors.push(['attachments.file', 'Attachments file size is too big']);
    if (!isAcceptable(file.contentType)) errors.push(['attachments.file', 'Attachments file type not supported']);
  }
  if (errors.length > 0) throw new RecordInvalid(errors);
  return { message: Object.keys(message).length > 0 || files.length > 0 ? message : undefined, attachments };
}

/** @param {import('./multipart.mjs').Part} file a part with a filename */
function describe(file) {
  const contentType = (file.type.split(';')[0] ?? '').trim().toLowerCase();
  const name = file.filename ?? '';
  return {
    name,
    contentType,
    file_type: fileType(contentType),
    extension: name.includes('.') ? (name.split('.').pop() ?? '') : '',
    file_size: file.data.length,
    // What arrived, byte for byte, so a test can check a photo survived its trip.
    sha256: createHash('sha256').update(file.data).digest('hex'),
  };
}
