/**
 * The service's rules, all of them in this one module: files per message, MIME types, sizes,
 * e-mail, identifier. Each is checked once per command, by its host command before any request
 * (the backend calls do not check them again), and refused with the status the server would
 * have given, so a host learns the same thing whether or not the request was made. Envelope and
 * size caps are the inbound edge's (inbound/classify.ts), shapes the schemas' (schemas.ts).
 */
import { BridgeError, bridgeError, errorEvent, type BridgeCode, type ErrorEvent, type FieldErrors } from './errors.js';
import type { Attachment, Contact, SendMessageParams } from './schemas.js';

/** The MIME types the service accepts. */
export const ACCEPTED_TYPES = /^(image|audio|video|text)\/[^\s/]+$|^application\/pdf$/i;
/**
 * The MIME types a Chatwoot website inbox accepts: any `image/`, `video/` or `audio/` type, and
 * its ACCEPTABLE_FILE_TYPES list (chatwoot/chatwoot app/models/attachment.rb, `media_file?` and
 * `validate_file_content_type`; the develop branch's list, which some forks lengthen).
 */
export const CHATWOOT_TYPES =
  /^(image|audio|video)\/[^\s/]+$|^text\/(csv|plain|rtf)$|^application\/(json|pdf|zip|x-7z-compressed|vnd\.rar|x-tar|msword|vnd\.ms-excel|vnd\.ms-powerpoint|rtf|vnd\.oasis\.opendocument\.text|vnd\.openxmlformats-officedocument\.(presentationml\.presentation|spreadsheetml\.sheet|wordprocessingml\.document))$/;
/** Chatwoot's largest attachment: `40.megabytes` (app/models/attachment.rb `validate_file_size`). */
export const CHATWOOT_MAX_FILE_SIZE = 40 * 1024 * 1024;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]*={0,2}$/;
/** What RFC 2045 lets base64 carry between characters (Android's Base64.DEFAULT wraps at 76); atob skips it too. */
const WHITESPACE = /[\t\n\f\r ]/g;
const WHERE = '[POST /messages]';

/** The service's limit on attachments per message. */
export const MAX_FILES = 5;

/** @param types the backend's MIME types (`ACCEPTED_TYPES`, or Chatwoot's) */
export function validateMessage(params: SendMessageParams, maxFileSize: number, types = ACCEPTED_TYPES): void {
  const attachments = params.attachments || [];
  if (attachments.length === 0 && (params.content || '').trim() === '') {
    throw badRequest('empty_message', 'message.content is required');
  }
  if (attachments.length > MAX_FILES) {
    throw badRequest('too_many_files', `${attachments.length} files, max ${MAX_FILES}`);
  }
  attachments.forEach((file, index) => {
    if (!types.test(file.type)) {
      throw badRequest('unsupported_file_type', `${file.name}: unsupported type "${file.type}"`);
    }
    const data = file.data === undefined ? undefined : base64Text(file.data);
    if (
      data === undefined ? file.uploadId === undefined && (file.size === undefined || file.size < 0) : !isBase64(data)
    )
      throw notBase64(data, `[sendMessage] invalid params: attachments.${index}`, 'needs base64 data or size');
    const size = attachmentSize(file);
    if (size > maxFileSize) throw new BridgeError(fileTooLarge(file.name, size, maxFileSize));
  });
}

/** A 400 the server would have given for the message. */
const badRequest = (code: BridgeCode, detail: string) => bridgeError(code, `${WHERE} 400: ${detail}`, 400);

/** Whether base64 text without whitespace is base64 in whole 4-character groups. */
export const isBase64 = (text: string) => text.length % 4 === 0 && BASE64.test(text);

/** The refusal of data that is not base64; base64url (Android's Base64.URL_SAFE) is named, so its sender knows which flag to drop. */
export const notBase64 = (text: string | undefined, where: string, why: string) =>
  bridgeError(
    'parse_error',
    `${where}: ${text !== undefined && text.length % 4 === 0 && BASE64URL.test(text) ? 'data is base64url, not base64' : why}`,
  );

/** The refusal of a file over `maxFileSize`, as the server words it. */
export function fileTooLarge(name: string, size: number, maxFileSize: number): ErrorEvent {
  return errorEvent('file_too_large', `${WHERE} 413: ${name} is ${size} bytes, over ${maxFileSize}`, 413);
}

/** When `data` is present the size is its decoded length and a declared `size` is ignored. */
export function attachmentSize(file: Partial<Attachment>): number {
  return file.data === undefined ? file.size || 0 : base64Size(base64Text(file.data));
}

/** Decoded bytes of base64 text without whitespace. */
export function base64Size(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor(data.length / 4) * 3 - padding;
}

/**
 * The base64 characters alone. The common unwrapped text costs one scan, as a test first would:
 * a replace that matches nothing gives back the string itself.
 */
export function base64Text(data: string): string {
  return data.replace(WHITESPACE, '');
}

export function validateContact(contact: Contact, where: string): void {
  const errors: FieldErrors = {};
  if (contact.email !== undefined && !EMAIL.test(contact.email)) errors['email'] = ['is not a valid e-mail address'];
  if (contact.identifier !== undefined && contact.identifier.trim() === '') errors['identifier'] = ["can't be blank"];
  const fields = Object.keys(errors);
  if (fields.length > 0) {
    throw bridgeError('validation_error', `${where} 422: invalid ${fields.join(' and ')}`, 422, errors);
  }
}
