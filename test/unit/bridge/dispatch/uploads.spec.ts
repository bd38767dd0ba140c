import { describe, expect, it } from 'vitest';
import { createUploads, MAX_CHUNKS, MAX_UPLOADS, UPLOAD_IDLE_MS } from '../../../../bridge/dispatch/uploads.js';
import { isBridgeError, type ErrorEvent } from '../../../../bridge/protocol/errors.js';
import { createVirtualClock } from '../../../../tools/testing/virtual-clock.js';

const MAX = 1000;
const bytes = (length: number, seed = 1) => Buffer.from(Array.from({ length }, (_, i) => (i * 31 + seed) & 255));
const b64 = (buffer: Buffer) => buffer.toString('base64');

function setup(maxFileSize = MAX) {
  const clock = createVirtualClock();
  return { uploads: createUploads(maxFileSize, clock), clock };
}

function refusal(work: () => unknown): ErrorEvent {
  try {
    work();
  } catch (thrown) {
    if (isBridgeError(thrown)) return thrown.event;
    throw thrown;
  }
  throw new Error('expected a refusal');
}

/** A taken upload's bytes: a Blob, read. */
const taken = async (blob: Blob | undefined) => Buffer.from(await (blob as Blob).arrayBuffer());

describe('chunked uploads (appendAttachment)', () => {
  it('assembles chunks decoded one by one into the original bytes, answering the size so far', async () => {
    const { uploads } = setup();
    const file = bytes(900);
    const chunks = [file.subarray(0, 300), file.subarray(300, 301), file.subarray(301)].map(b64);
    expect(chunks.map((chunk, index) => uploads.append('u1', index, chunk))).toEqual([300, 301, 900]);
    const [assembled] = uploads.take(['u1']);
    expect((await taken(assembled)).equals(file)).toBe(true);
  });

  it('takes only the named uploads, in the order given, and leaves undefined where none is named', async () => {
    const { uploads } = setup();
    uploads.append('a', 0, b64(Buffer.from('first')));
    uploads.append('b', 0, b64(Buffer.from('second')));
    const result = uploads.take([undefined, 'b', 'a']);
    expect(result[0]).toBeUndefined();
    expect(await Promise.all(result.slice(1).map(async (blob) => (await taken(blob)).toString()))).toEqual([
      'second',
      'first',
    ]);
  });

  it('accepts RFC 2045 whitespace (Base64.DEFAULT wraps at 76) inside a chunk, as the single command does', async () => {
    const { uploads } = setup();
    const file = bytes(200);
    const wrapped = (b64(file).match(/.{1,76}/g) as string[]).join('\r\n') + '\n';
    expect(uploads.append('w', 0, wrapped)).toBe(200);
    expect(uploads.append('w', 1, ' YWJj\t')).toBe(203);
    expect((await taken(uploads.take(['w'])[0])).equals(Buffer.concat([file, Buffer.from('abc')]))).toBe(true);
  });

  it('accepts a chunk that ends in padding: each chunk is base64 on its own (a host encoding each read)', async () => {
    const { uploads } = setup();
    uploads.append('p', 0, b64(Buffer.from('a')));
    uploads.append('p', 1, b64(Buffer.from('bc')));
    expect((await taken(uploads.take(['p'])[0])).toString()).toBe('abc');
  });

  it('refuses a chunk cut inside a 4-character group, saying where to cut, and keeps the upload for a corrected chunk', async () => {
    const { uploads } = setup();
    const text = b64(bytes(30));
    uploads.append('g', 0, text.slice(0, 8));
    const event = refusal(() => uploads.append('g', 1, text.slice(8, 18)));
    expect(event).toEqual({
      type: 'error',
      code: 'parse_error',
      retryable: false,
      message: '[appendAttachment] invalid params: data must be base64 in 4-character groups',
    });
    expect(uploads.append('g', 1, text.slice(8))).toBe(30);
    expect((await taken(uploads.take(['g'])[0])).equals(bytes(30))).toBe(true);
  });

  it('names base64url, so its sender knows which flag to drop', async () => {
    const { uploads } = setup();
    expect(refusal(() => uploads.append('x', 0, '-_-_')).message).toBe(
      '[appendAttachment] invalid params: data is base64url, not base64',
    );
  });

  it('refuses a repeated or skipped chunk, naming the chunk it expects, and goes on from there', async () => {
    const { uploads } = setup();
    uploads.append('o', 0, 'YWJj');
    uploads.append('o', 1, 'ZGVm');
    expect(refusal(() => uploads.append('o', 1, 'ZGVm'))).toEqual({
      type: 'error',
      code: 'parse_error',
      retryable: false,
      message: '[appendAttachment] upload "o" expects chunk 2, not 1',
    });
    expect(refusal(() => uploads.append('o', 3, 'Z2hp')).message).toBe(
      '[appendAttachment] upload "o" expects chunk 2, not 3',
    );
    expect(refusal(() => uploads.append('o', 0, 'YWJj')).message).toBe(
      '[appendAttachment] upload "o" expects chunk 2, not 0',
    );
    expect(refusal(() => uploads.append('o', 2.5, 'Z2hp')).message).toContain('expects chunk 2, not 2.5');
    uploads.append('o', 2, 'Z2hp');
    expect((await taken(uploads.take(['o'])[0])).toString()).toBe('abcdefghi');
  });

  it('refuses a first chunk that is not chunk 0 as an unknown upload', async () => {
    const { uploads } = setup();
    expect(refusal(() => uploads.append('late', 1, 'YWJj')).message).toBe('[appendAttachment] unknown upload "late"');
  });

  it('refuses file_too_large at the chunk that crosses maxFileSize, and drops the upload', async () => {
    const { uploads } = setup(10);
    expect(uploads.append('big', 0, b64(bytes(6)))).toBe(6);
    expect(uploads.append('big', 1, b64(bytes(4)))).toBe(10);
    expect(refusal(() => uploads.append('big', 2, b64(bytes(1))))).toEqual({
      type: 'error',
      code: 'file_too_large',
      retryable: false,
      message: '[POST /messages] 413: upload "big" is 11 bytes, over 10',
      status: 413,
    });
    expect(refusal(() => uploads.append('big', 3, b64(bytes(1)))).message).toContain('unknown upload "big"');
    expect(refusal(() => uploads.take(['big'])).message).toBe('[sendMessage] unknown upload "big"');
  });

  it('refuses a sendMessage naming an unknown upload and then takes none of the others', async () => {
    const { uploads } = setup();
    uploads.append('known', 0, 'YWJj');
    expect(refusal(() => uploads.take(['known', 'missing'])).message).toBe('[sendMessage] unknown upload "missing"');
    expect((await taken(uploads.take(['known'])[0])).toString()).toBe('abc');
    // Taken once: a second message cannot send it again.
    expect(refusal(() => uploads.take(['known'])).code).toBe('parse_error');
  });

  it('drops an upload left unused for UPLOAD_IDLE_MS; each chunk restarts the wait', async () => {
    const { uploads, clock } = setup();
    uploads.append('slow', 0, 'YWJj');
    clock.advance(UPLOAD_IDLE_MS - 1);
    uploads.append('slow', 1, 'ZGVm');
    clock.advance(UPLOAD_IDLE_MS - 1);
    expect(clock.pending).toBe(1);
    uploads.append('slow', 2, 'Z2hp');
    clock.advance(UPLOAD_IDLE_MS);
    expect(refusal(() => uploads.take(['slow'])).message).toContain('unknown upload "slow"');
    expect(clock.pending).toBe(0);
  });

  it(`keeps at most ${MAX_UPLOADS} uploads: a new one drops the least recently used`, async () => {
    const { uploads, clock } = setup();
    for (let i = 0; i < MAX_UPLOADS; i++) uploads.append(`u${i}`, 0, 'YWJj');
    uploads.append('u0', 1, 'ZGVm'); // u0 used again: u1 is now the least recently used
    uploads.append('new', 0, 'YWJj');
    expect(refusal(() => uploads.take(['u1'])).message).toContain('unknown upload "u1"');
    expect((await taken(uploads.take(['u0'])[0])).toString()).toBe('abcdef');
    expect(clock.pending).toBe(MAX_UPLOADS - 1);
  });
});

describe('the chunk limit (issue 22, case 5)', () => {
  it(`refuses chunk ${MAX_CHUNKS} with a parse_error naming the limit, and drops the upload`, () => {
    const { uploads } = setup(5 * 1024 * 1024);
    for (let index = 0; index < MAX_CHUNKS; index++) uploads.append('u', index, 'AAAA');
    expect(refusal(() => uploads.append('u', MAX_CHUNKS, 'AAAA'))).toEqual({
      type: 'error',
      code: 'parse_error',
      retryable: false,
      message: `[appendAttachment] upload "u" over ${MAX_CHUNKS} chunks`,
    });
    expect(refusal(() => uploads.take(['u'])).message).toContain('unknown upload "u"');
  });
});
