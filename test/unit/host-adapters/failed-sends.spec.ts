/**
 * What the typed client keeps of failed messages for `resendMessage`: their params, taken once,
 * the latest FAILED_KEPT and FAILED_KEPT_CHARS characters of attachment data at most.
 */
import { describe, expect, it } from 'vitest';
import { ChatBridgeError } from '../../../host-adapters/client-errors.js';
import {
  createFailedSends,
  createResending,
  FAILED_KEPT,
  FAILED_KEPT_CHARS,
  type SentParams,
} from '../../../host-adapters/failed-sends.js';

const text = (messageId: string): SentParams => ({ messageId, content: `text of ${messageId}` });
const photo = (messageId: string, chars: number): SentParams => ({
  messageId,
  content: '',
  attachments: [{ name: 'p.jpg', type: 'image/jpeg', data: 'A'.repeat(chars) }],
});

describe('failed sends kept for a resend', () => {
  it('gives back the params it kept, once: a second take of one failure finds none', () => {
    const failed = createFailedSends();
    const message = photo('m-1', 8);
    failed.keep(message);
    expect(failed.take('m-1')).toEqual(message);
    expect(failed.take('m-1')).toBeUndefined();
    expect(failed.take('m-unknown')).toBeUndefined();
    expect(failed.size).toBe(0);
  });

  it(`keeps the latest ${FAILED_KEPT} messages, forgetting the oldest first; kept again, one is the newest`, () => {
    const failed = createFailedSends();
    for (let i = 0; i < FAILED_KEPT; i++) failed.keep(text(`m-${i}`));
    failed.keep(text('m-0'));
    failed.keep(text('m-new'));
    expect(failed.size).toBe(FAILED_KEPT);
    expect(failed.take('m-1')).toBeUndefined();
    expect(failed.take('m-0')).toEqual(text('m-0'));
    expect(failed.take('m-2')).toEqual(text('m-2'));
    expect(failed.take('m-new')).toEqual(text('m-new'));
  });

  it('keeps attachment data up to its bound in all, the oldest photo forgotten for a new one', () => {
    const failed = createFailedSends();
    const half = FAILED_KEPT_CHARS / 2;
    failed.keep(photo('p-1', half));
    failed.keep(text('t-1'));
    failed.keep(photo('p-2', half));
    expect(failed.size).toBe(3);
    failed.keep(photo('p-3', 1));
    // p-1 went for p-3's one character; the text message, newer, stays.
    expect(failed.take('p-1')).toBeUndefined();
    expect([failed.take('t-1'), failed.take('p-2'), failed.take('p-3')].map((m) => m?.messageId)).toEqual([
      't-1',
      'p-2',
      'p-3',
    ]);
  });

  it('does not keep a message whose data alone is over the bound, and counts no data of one taken', () => {
    const failed = createFailedSends();
    failed.keep(photo('huge', FAILED_KEPT_CHARS + 1));
    expect(failed.take('huge')).toBeUndefined();
    failed.keep(photo('p-1', FAILED_KEPT_CHARS));
    failed.take('p-1');
    // Taken: its characters no longer count, so a full-size photo fits again beside a text.
    failed.keep(text('t-1'));
    failed.keep(photo('p-2', FAILED_KEPT_CHARS));
    expect(failed.size).toBe(2);
  });

  it('forgets everything on clear()', () => {
    const failed = createFailedSends();
    failed.keep(text('m-1'));
    failed.keep(photo('p-1', 4));
    failed.clear();
    expect(failed.size).toBe(0);
    expect(failed.take('m-1')).toBeUndefined();
    failed.keep(photo('p-2', FAILED_KEPT_CHARS));
    expect(failed.size).toBe(1);
  });
});

describe('sendMessage and resendMessage over one send', () => {
  const failure = (code: 'server_error' | 'inbox_switched' | 'closed') =>
    new ChatBridgeError({ type: 'error', code, message: code, retryable: code === 'server_error' });

  it('resends the failed params under their messageId, with the options given to the resend', async () => {
    const sends: Array<[SentParams, string | undefined]> = [];
    let outcome: 'fail' | 'ok' = 'fail';
    const resending = createResending((message: SentParams, options?: string) => {
      sends.push([message, options]);
      return outcome === 'ok' ? Promise.resolve('sent') : Promise.reject(failure('server_error'));
    });
    await expect(resending.sendMessage(photo('m-1', 4), 'first')).rejects.toMatchObject({ code: 'server_error' });
    outcome = 'ok';
    await expect(resending.resendMessage('m-1', 'again')).resolves.toBe('sent');
    expect(sends).toEqual([
      [photo('m-1', 4), 'first'],
      [photo('m-1', 4), 'again'],
    ]);
    await expect(resending.resendMessage('m-1')).rejects.toMatchObject({ code: 'not_kept', retryable: false });
    expect(sends).toHaveLength(2);
  });

  it('keeps nothing after inbox_switched or closed, or after forget()', async () => {
    let next = failure('inbox_switched');
    const resending = createResending(() => Promise.reject(next));
    await resending.sendMessage(text('m-a')).catch(() => undefined);
    next = failure('closed');
    await resending.sendMessage(text('m-c')).catch(() => undefined);
    next = failure('server_error');
    await resending.sendMessage(text('m-s')).catch(() => undefined);
    for (const id of ['m-a', 'm-c'])
      await expect(resending.resendMessage(id)).rejects.toMatchObject({ code: 'not_kept' });
    // m-s was kept (the server_error of the test above); forget() drops it unsent.
    resending.forget();
    await expect(resending.resendMessage('m-s')).rejects.toMatchObject({ code: 'not_kept' });
  });
});
