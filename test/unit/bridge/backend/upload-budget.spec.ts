import { describe, expect, it } from 'vitest';
import { MAX_UPLOADS, MAX_UPLOAD_BYTES, REFUSALS, uploadBudget } from '../../../../bridge/backend/upload-budget.js';
import { httpErrorEvent } from '../../../../bridge/backend/http-errors.js';
import type { OutboxRecord } from '../../../../bridge/backend/outbox-record.js';
import { errorEvent, type ErrorEvent } from '../../../../bridge/protocol/errors.js';

const MB = 1024 * 1024;
const photo = (bytes: number): OutboxRecord => ({
  v: 1,
  messageId: 'm-photo',
  content: '',
  files: [{ name: 'photo.jpg', type: 'image/jpeg', data: new ArrayBuffer(bytes) }],
});
const text: OutboxRecord = { v: 1, messageId: 'm-text', content: 'hello' };
const unanswered = errorEvent('network_error', '[POST /messages] network error: offline, unreachable or no CORS');
const gateway = (status: number) =>
  httpErrorEvent(
    { method: 'POST', path: '/messages' },
    { status, body: undefined, text: '', headers: { get: () => null } },
  );

/** Feeds one failure after another; the index of the first that fails the message, and its error. */
async function finalAfter(
  judge: ReturnType<typeof uploadBudget>,
  record: OutboxRecord,
  failure: ErrorEvent,
  most = 50,
) {
  for (let n = 1; n <= most; n++) {
    const final = await judge(record, failure);
    if (final) return { n, final };
  }
  return undefined;
}

describe('the upload budget of one message with files', () => {
  it(`fails an upload as upload_refused after ${REFUSALS} failures with no answer while the origin answers`, async () => {
    let probes = 0;
    const judge = uploadBudget(
      () => true,
      async () => (probes++, true),
    );
    const result = await finalAfter(judge, photo(2 * MB), unanswered);
    expect(result?.n).toBe(REFUSALS);
    expect(probes).toBe(REFUSALS);
    expect(result?.final).toMatchObject({ type: 'error', code: 'upload_refused' });
    expect(result?.final.message).toMatch(/^\[POST \/messages\] upload refused: 3 uploads of 2097152 bytes/);
    expect(result?.final.message).toContain('client_max_body_size');
    expect(result?.final.message).toContain('maxFileSize');
  });

  it('keeps it for as long as the device is offline, without probing', async () => {
    let probes = 0;
    const judge = uploadBudget(
      () => false,
      async () => (probes++, true),
    );
    expect(await finalAfter(judge, photo(2 * MB), unanswered, 200)).toBeUndefined();
    expect(probes).toBe(0);
  });

  it('keeps it for as long as the origin does not answer either (a server away, a link down)', async () => {
    const judge = uploadBudget(
      () => true,
      async () => false,
    );
    expect(await finalAfter(judge, photo(2 * MB), unanswered, 200)).toBeUndefined();
  });

  it('takes no failure for a refusal without a way to ask the origin', async () => {
    expect(
      await finalAfter(
        uploadBudget(() => true),
        photo(2 * MB),
        unanswered,
        200,
      ),
    ).toBeUndefined();
  });

  it.each([502, 503, 504, 408])(
    `fails it after ${MAX_UPLOADS} uploads answered %i, with that answer's error`,
    async (status) => {
      const result = await finalAfter(
        uploadBudget(
          () => true,
          async () => true,
        ),
        photo(2 * MB),
        gateway(status),
      );
      expect(result?.n).toBe(MAX_UPLOADS);
      expect(result?.final).toMatchObject({ code: gateway(status).code, status });
      expect(result?.final.message).toBe(`${gateway(status).message}; gave up after ${MAX_UPLOADS} uploads`);
    },
  );

  it(`spends at most ${MAX_UPLOAD_BYTES / MB} MiB on one message's uploads, two uploads at least`, async () => {
    const judge = uploadBudget(() => true);
    expect((await finalAfter(judge, photo(10 * MB), gateway(502)))?.n).toBe(4);
    expect((await finalAfter(judge, photo(25 * MB), gateway(502)))?.n).toBe(2);
  });

  it('counts each message apart', async () => {
    const judge = uploadBudget(
      () => true,
      async () => true,
    );
    const first = photo(MB);
    const second = photo(MB);
    expect(await judge(first, unanswered)).toBeUndefined();
    expect(await judge(first, unanswered)).toBeUndefined();
    expect(await judge(second, unanswered)).toBeUndefined();
    expect(await judge(first, unanswered)).toMatchObject({ code: 'upload_refused' });
    expect(await judge(second, unanswered)).toBeUndefined();
  });

  it('leaves text messages to the backoff, as before', async () => {
    const judge = uploadBudget(
      () => true,
      async () => true,
    );
    expect(await finalAfter(judge, text, unanswered, 100)).toBeUndefined();
    expect(await finalAfter(judge, text, gateway(503), 100)).toBeUndefined();
  });
});
