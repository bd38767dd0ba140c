/**
 * A host command over the length cap is answered without being parsed whole: only its envelope is
 * read, long strings are measured where they lie, and the first attachment over maxFileSize is
 * named as the server would name it. classify.spec.ts checks which texts get here.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { refuseOversized, type Oversized } from '../../../../bridge/inbound/oversize.js';
import type { ErrorEvent } from '../../../../bridge/protocol/errors.js';

const TOO_LONG: ErrorEvent = {
  type: 'error',
  code: 'parse_error',
  retryable: false,
  message: '[host command] over the cap',
};
const pad = { pad: 'x'.repeat(2_000) };

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the envelope', () => {
  it("answers the cap's own error on the command's id", () => {
    const text = JSON.stringify({ id: 'c5', method: 'init', params: pad });
    expect(refuseOversized(text, TOO_LONG, 30)).toEqual({ id: 'c5', error: TOO_LONG });
  });

  it.each([
    ['an id that is not a string', { id: 5, method: 'init', params: pad }],
    ['an id over 128 characters', { id: 'i'.repeat(129), method: 'init', params: pad }],
    ['an empty id', { id: '', method: 'init', params: pad }],
    ['no method', { id: 'c6', params: pad }],
    ['a jsonrpc member', { jsonrpc: '2.0', id: 'c6', method: 'init', params: pad }],
  ])('answers without an id when the envelope has %s', (_, envelope) => {
    expect(refuseOversized(JSON.stringify(envelope), TOO_LONG, 30)).toEqual({ error: TOO_LONG });
  });

  it.each([
    ['cut short', (text: string) => text.slice(0, -1)],
    ['cut inside its long string', (text: string) => text.slice(0, 1_000)],
    ['followed by more', (text: string) => `${text},{}`],
    ['not an object', (text: string) => `[${text}]`],
  ])('answers without an id a text that is not a JSON envelope (%s)', (_, spoil) => {
    const text = JSON.stringify({ id: 'c7', method: 'init', params: pad });
    expect(refuseOversized(spoil(text), TOO_LONG, 30)).toEqual({ error: TOO_LONG });
  });

  it('parses only the envelope, each long string left out', () => {
    const parse = vi.spyOn(JSON, 'parse');
    refuseOversized(JSON.stringify({ id: 'c5', method: 'init', params: pad }), TOO_LONG, 30);
    expect(parse.mock.calls.map(([source]) => source)).toEqual([
      '{"id":"c5","method":"init","params":{"pad":"\\u00000"}}',
    ]);
  });

  it('pairs quotes past escaped ones inside a long string, and ends a string at a quote after an escaped backslash', () => {
    const tricky = `${'a"b\\'.repeat(400)}\\`;
    const text = JSON.stringify({ id: 'c8', method: 'init', params: { note: tricky, after: 'still read' } });
    expect(text).toContain('\\\\"');
    expect(refuseOversized(text, TOO_LONG, 30)).toEqual({ id: 'c8', error: TOO_LONG });
  });
});

describe('an attachment over maxFileSize', () => {
  const MAX = 3_000;
  const over = Buffer.alloc(20_000, 7).toString('base64');
  const envelope = (data: string, method = 'sendMessage') => ({
    id: 'video-1',
    method,
    params: {
      content: 'look',
      attachments: [
        { name: 'small.png', type: 'image/png', data: 'AAAA' },
        { name: 'movie.mp4', type: 'video/mp4', data },
      ],
    },
  });
  const tooLarge = (size = 20_000): Oversized => ({
    id: 'video-1',
    error: {
      type: 'error',
      code: 'file_too_large',
      retryable: false,
      status: 413,
      message: `[POST /messages] 413: movie.mp4 is ${size} bytes, over ${MAX}`,
    },
  });

  it('is answered file_too_large on the id, naming the file and its decoded size', () => {
    expect(refuseOversized(JSON.stringify(envelope(over)), TOO_LONG, MAX)).toEqual(tooLarge());
  });

  it('is measured exactly when wrapped at 76 columns, escaped as org.json does (\\/), or padded', () => {
    const wrapped = over.replace(/.{76}/g, '$&\r\n');
    expect(refuseOversized(JSON.stringify(envelope(wrapped)), TOO_LONG, MAX)).toEqual(tooLarge());
    const orgJson = JSON.stringify(envelope(over)).replace(/\//g, '\\/');
    expect(orgJson).toContain('\\/');
    expect(refuseOversized(orgJson, TOO_LONG, MAX)).toEqual(tooLarge());
    const padded = Buffer.alloc(19_999, 7).toString('base64');
    expect(padded.endsWith('=')).toBe(true);
    expect(refuseOversized(JSON.stringify(envelope(padded)), TOO_LONG, MAX)).toEqual(tooLarge(19_999));
  });

  it('parses only the envelope, not the files', () => {
    const parse = vi.spyOn(JSON, 'parse');
    expect(refuseOversized(JSON.stringify(envelope(over)), TOO_LONG, MAX)).toEqual(tooLarge());
    expect(parse).toHaveBeenCalledTimes(1);
    expect(String(parse.mock.calls[0]?.[0]).length).toBeLessThan(200);
  });

  it('names the first file over the limit when several are', () => {
    const text = JSON.stringify({
      id: 'two',
      method: 'sendMessage',
      params: {
        attachments: [
          { name: 'first.mp4', type: 'video/mp4', data: over },
          { name: 'second.mp4', type: 'video/mp4', data: over },
        ],
      },
    });
    expect(refuseOversized(text, TOO_LONG, MAX).error.message).toContain('first.mp4 is 20000 bytes');
  });

  it("answers the cap's error when every file is within the limit (the command as a whole is what is too long)", () => {
    const within = Buffer.alloc(2_000, 7).toString('base64');
    expect(refuseOversized(JSON.stringify(envelope(within)), TOO_LONG, MAX)).toEqual({
      id: 'video-1',
      error: TOO_LONG,
    });
  });

  it('looks for attachments in sendMessage only, and skips files without a string name and data', () => {
    expect(refuseOversized(JSON.stringify(envelope(over, 'init')), TOO_LONG, MAX)).toEqual({
      id: 'video-1',
      error: TOO_LONG,
    });
    const nameless = JSON.stringify({
      id: 'n1',
      method: 'sendMessage',
      params: { attachments: [{ type: 'video/mp4', data: over }, 'not a file', { name: 'x', data: 5 }] },
    });
    expect(refuseOversized(nameless, TOO_LONG, MAX)).toEqual({ id: 'n1', error: TOO_LONG });
  });
});
