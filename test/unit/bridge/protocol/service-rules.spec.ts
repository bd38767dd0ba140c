import { describe, expect, it } from 'vitest';
import type { ErrorEvent } from '../../../../bridge/protocol/errors.js';
import type { Attachment, SendMessageParams } from '../../../../bridge/protocol/schemas.js';
import {
  CHATWOOT_MAX_FILE_SIZE,
  CHATWOOT_TYPES,
  attachmentSize,
  validateContact,
  validateMessage,
} from '../../../../bridge/protocol/service-rules.js';

const LIMIT = 5 * 1024 * 1024;

/** The event of the BridgeError `run` throws. */
function refusal(run: () => void): ErrorEvent {
  try {
    run();
  } catch (error) {
    expect((error as Error).name).toBe('BridgeError');
    return (error as { event: ErrorEvent }).event;
  }
  throw new Error('expected a refusal');
}

const file = (extra: Partial<Attachment> = {}): Attachment => ({
  name: 'photo.png',
  type: 'image/png',
  data: 'AAAA',
  ...extra,
});
const check =
  (params: SendMessageParams, limit = LIMIT) =>
  () =>
    validateMessage(params, limit);

describe('message rules', () => {
  it('accepts a text message and an attachment-only message', () => {
    expect(check({ content: 'hello' })).not.toThrow();
    expect(check({ attachments: [file()] })).not.toThrow();
  });

  it('refuses a message without content or attachments as empty_message 400', () => {
    for (const params of [{}, { content: '' }, { content: '   \n\t' }, { content: '', attachments: [] }]) {
      const event = refusal(check(params));
      expect(event).toMatchObject({ type: 'error', code: 'empty_message', retryable: false, status: 400 });
      expect(event.message).toMatch(/^\[POST \/messages\] 400: /);
    }
  });

  it('refuses more than 5 attachments as too_many_files 400, and accepts exactly 5', () => {
    expect(check({ attachments: Array.from({ length: 5 }, () => file()) })).not.toThrow();
    const event = refusal(check({ attachments: Array.from({ length: 6 }, () => file()) }));
    expect(event).toMatchObject({ code: 'too_many_files', status: 400 });
    expect(event.message).toMatch(/^\[POST \/messages\] 400: .*6/);
  });

  it.each([
    'image/png',
    'image/svg+xml',
    'audio/mpeg',
    'video/mp4',
    'text/plain',
    'text/csv',
    'application/pdf',
    'APPLICATION/PDF',
    'Image/JPEG',
  ])('accepts the MIME type %s', (type) => {
    expect(check({ attachments: [file({ type })] })).not.toThrow();
  });

  it.each([
    'application/zip',
    'application/octet-stream',
    'application/pdfx',
    'application/x-pdf',
    'image/',
    'image',
    '',
    'text/plain/extra',
    'font/woff2',
  ])('refuses the MIME type %j as unsupported_file_type 400', (type) => {
    const event = refusal(check({ attachments: [file({ name: 'archive.bin', type })] }));
    expect(event).toMatchObject({ code: 'unsupported_file_type', status: 400 });
    expect(event.message).toMatch(/^\[POST \/messages\] 400: archive\.bin/);
  });

  it('refuses a file over maxFileSize as file_too_large 413, and accepts one of exactly maxFileSize', () => {
    expect(check({ attachments: [file({ data: 'AAAA', size: undefined })] }, 3)).not.toThrow();
    const event = refusal(check({ attachments: [file({ name: 'big.png', data: 'AAAAAAAA' })] }, 5));
    expect(event).toMatchObject({ code: 'file_too_large', status: 413 });
    expect(event.message).toMatch(/^\[POST \/messages\] 413: big\.png is 6 bytes, over 5/);
  });

  it('refuses a declared size over the limit as file_too_large 413 when no data is given', () => {
    const event = refusal(check({ attachments: [{ name: 'movie.mp4', type: 'video/mp4', size: 12 * 1024 * 1024 }] }));
    expect(event).toMatchObject({ code: 'file_too_large', status: 413 });
  });

  it('refuses an attachment with neither data nor size as parse_error, naming its index', () => {
    const event = refusal(check({ attachments: [file(), { name: 'x.png', type: 'image/png' }] }));
    expect(event.code).toBe('parse_error');
    expect(event.message).toContain('attachments.1');
    expect(event).not.toHaveProperty('status');
  });

  it.each([['AAA'], ['AA=A'], ['A===']])('refuses data %j that is not base64 as parse_error', (data) => {
    expect(refusal(check({ attachments: [file({ data })] })).code).toBe('parse_error');
  });

  it('refuses base64 with characters outside the alphabet as parse_error', () => {
    expect(refusal(check({ attachments: [file({ data: 'AA$A' })] })).code).toBe('parse_error');
  });

  it('accepts base64 wrapped with line breaks or spaces (RFC 2045, Android Base64.DEFAULT), sized without them', () => {
    const bytes = Buffer.from(Array.from({ length: 200 }, (_, i) => i));
    const wrapped = bytes
      .toString('base64')
      .replace(/.{1,76}/g, '$&\n')
      .replace(/\n$/, '\r\n ');
    expect(wrapped).toContain('\n');
    expect(attachmentSize(file({ data: wrapped }))).toBe(200);
    expect(check({ attachments: [file({ data: wrapped })] }, 200)).not.toThrow();
    expect(refusal(check({ attachments: [file({ name: 'w.png', data: wrapped })] }, 199))).toMatchObject({
      code: 'file_too_large',
      message: '[POST /messages] 413: w.png is 200 bytes, over 199',
    });
  });

  it('refuses base64url as parse_error with a message that names it', () => {
    const event = refusal(check({ attachments: [file(), file({ data: 'ab-_' })] }));
    expect(event).toEqual({
      type: 'error',
      code: 'parse_error',
      retryable: false,
      message: '[sendMessage] invalid params: attachments.1: data is base64url, not base64',
    });
  });

  it('checks the rules in the server order: empty, count, then each file', () => {
    const seven = Array.from({ length: 7 }, () => file({ type: 'application/zip' }));
    expect(refusal(check({ attachments: seven })).code).toBe('too_many_files');
  });
});

describe('attachment size', () => {
  it('computes the decoded size of base64 data, subtracting padding', () => {
    expect(attachmentSize(file({ data: '' }))).toBe(0);
    expect(attachmentSize(file({ data: 'AAAA' }))).toBe(3);
    expect(attachmentSize(file({ data: 'AAA=' }))).toBe(2);
    expect(attachmentSize(file({ data: 'AA==' }))).toBe(1);
    expect(attachmentSize(file({ data: Buffer.from('hello world').toString('base64') }))).toBe(11);
  });

  it('ignores a declared size when data is present', () => {
    expect(attachmentSize(file({ data: 'AAAA', size: 999_999_999 }))).toBe(3);
    expect(check({ attachments: [file({ data: 'AAAA', size: LIMIT * 10 })] })).not.toThrow();
  });

  it('uses the declared size only without data', () => {
    expect(attachmentSize({ name: 'x.mp4', type: 'video/mp4', size: 1234 })).toBe(1234);
  });
});

describe('contact rules', () => {
  it('accepts a valid email and identifier, and absent fields', () => {
    expect(() =>
      validateContact({ email: 'ada@example.test', identifier: 'user-1', name: '' }, '[POST /conversations]'),
    ).not.toThrow();
    expect(() => validateContact({}, '[POST /conversations]')).not.toThrow();
  });

  it.each([['not-an-email'], ['a@b'], ['a b@c.test'], ['']])(
    'refuses the email %j as validation_error 422 with field errors',
    (email) => {
      const event = refusal(() => validateContact({ email }, '[POST /conversations]'));
      expect(event).toMatchObject({ code: 'validation_error', status: 422 });
      expect(Object.keys(event.errors ?? {})).toEqual(['email']);
      expect(event.errors?.['email']?.length).toBe(1);
      expect(event.message).toMatch(/^\[POST \/conversations\] 422: .*email/);
    },
  );

  it('refuses a blank identifier as validation_error 422', () => {
    const event = refusal(() => validateContact({ identifier: '  ' }, '[POST /conversations]'));
    expect(event).toMatchObject({ code: 'validation_error', status: 422 });
    expect(event.errors).toEqual({ identifier: [expect.any(String)] });
  });

  it('reports both fields at once', () => {
    const event = refusal(() => validateContact({ email: 'nope', identifier: '' }, '[POST /conversations]'));
    expect(Object.keys(event.errors ?? {}).sort()).toEqual(['email', 'identifier']);
    expect(event.message).toContain('email');
    expect(event.message).toContain('identifier');
  });
});

describe("Chatwoot's attachment rules (app/models/attachment.rb)", () => {
  it.each([
    'image/jpeg',
    'image/heic',
    'video/quicktime',
    'audio/ogg',
    'text/csv',
    'text/plain',
    'application/pdf',
    'application/zip',
    'application/vnd.rar',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  ])('accepts %s', (type) => {
    expect(CHATWOOT_TYPES.test(type)).toBe(true);
    expect(() =>
      validateMessage({ attachments: [{ name: 'f', type, size: 1 }] }, CHATWOOT_MAX_FILE_SIZE, CHATWOOT_TYPES),
    ).not.toThrow();
  });

  it.each(['text/html', 'application/x-msdownload', 'application/octet-stream', 'image', 'IMAGE/PNG', 'image/png x'])(
    'refuses %s as unsupported_file_type',
    (type) => {
      expect(CHATWOOT_TYPES.test(type)).toBe(false);
      expect(() =>
        validateMessage({ attachments: [{ name: 'f', type, size: 1 }] }, CHATWOOT_MAX_FILE_SIZE, CHATWOOT_TYPES),
      ).toThrow(expect.objectContaining({ event: expect.objectContaining({ code: 'unsupported_file_type' }) }));
    },
  );

  it('is 40 MiB, as Rails reads 40.megabytes', () => {
    expect(CHATWOOT_MAX_FILE_SIZE).toBe(41_943_040);
  });
});
