import { describe, expect, it } from 'vitest';
import { attemptSend } from '../../../../../bridge/backend/outbox/attempt.js';
import type { Entry } from '../../../../../bridge/backend/outbox/queue.js';
import type { OutboxSettings } from '../../../../../bridge/backend/outbox/settings.js';
import { httpError } from '../../../../../bridge/backend/http-errors.js';
import { bridgeError, type ErrorEvent } from '../../../../../bridge/protocol/errors.js';
import type { MessageStateMessage } from '../../../../../bridge/protocol/messages.js';
import { createVirtualClock } from '../../../../../tools/testing/virtual-clock.js';

const NOW = 1_700_000_000_000;

function setup(send: OutboxSettings['send'], { online = true, stopped = false } = {}) {
  const clock = createVirtualClock(NOW);
  const events: Array<MessageStateMessage | ErrorEvent> = [];
  const s: OutboxSettings = {
    prefix: 'p:',
    page: 'me',
    maxFileSize: 1024,
    ...clock,
    random: () => 0.5,
    isOnline: () => online,
    send,
    emit: (event) => void events.push(event),
  };
  const entry: Entry = { key: 'p:k', record: { v: 1, messageId: 'm-1', content: 'hi' }, attempt: 0, state: 'queued' };
  const attempt = () =>
    attemptSend(
      entry,
      s,
      async () => undefined,
      () => stopped,
    );
  return { s, entry, events, attempt };
}

describe('one attempt', () => {
  it('tells `sending` with the attempt counted, and gives the answer as the outcome', async () => {
    const t = setup(async (record) => `sent ${record.messageId}`);
    expect(await t.attempt()).toEqual({ ok: true, result: 'sent m-1' });
    expect(t.entry.attempt).toBe(1);
    expect(t.events).toEqual([{ type: 'message', messageId: 'm-1', state: 'sending', attempt: 1 }]);
  });

  it('keeps a message on a transient failure: its failure back, queued again with when its next attempt is due', async () => {
    const t = setup(async () => {
      throw bridgeError('network_error', '[POST /messages] network error');
    });
    expect(await t.attempt()).toMatchObject({ type: 'error', code: 'network_error' });
    const told = t.entry.told as number;
    expect(told).toBeGreaterThan(NOW);
    expect(t.entry.next).toBe(told); // the virtual clock has no `elapsed`: the wait clock is the wall clock
    expect(t.entry).toMatchObject({ state: 'queued', firm: false });
    expect(t.events.at(-1)).toEqual({
      type: 'message',
      messageId: 'm-1',
      state: 'queued',
      attempt: 1,
      nextAttemptAt: told,
    });
  });

  it('waits what the server asked for (Retry-After), firmly, and tells no time offline', async () => {
    const headers = new Headers({ 'Retry-After': '30' });
    const t = setup(
      async () => {
        throw httpError({ method: 'POST', path: '/messages' }, { status: 503, headers, text: '', body: undefined });
      },
      { online: false },
    );
    expect(await t.attempt()).toMatchObject({ code: 'server_error', status: 503 });
    expect(t.entry).toMatchObject({ firm: true, told: NOW + 30_000 });
    expect(t.events.at(-1)).toEqual({ type: 'message', messageId: 'm-1', state: 'queued', attempt: 1 });
  });

  it('fails a message for good where its upload budget says so, and only where nothing else did', async () => {
    const spentOn: string[] = [];
    const t = setup(async () => {
      throw bridgeError('network_error', '[POST /messages] network error');
    });
    const final = bridgeError('file_too_large', '[POST /messages] upload refused', 413).event;
    const outcome = await attemptSend(
      t.entry,
      t.s,
      async (record, error) => (spentOn.push(`${record.messageId} ${error.code}`), final),
      () => false,
    );
    expect(outcome).toEqual({ ok: false, error: final });
    expect(spentOn).toEqual(['m-1 network_error']);
  });

  it('fails a message for good on a failure that is not transient, and leaves its state to the caller', async () => {
    const refused = bridgeError('validation_error', '[POST /messages] 422: invalid', 422);
    const t = setup(async () => {
      throw refused;
    });
    expect(await t.attempt()).toEqual({ ok: false, error: refused.event });
    expect(t.entry.state).toBe('sending');
  });

  it('starts no request once stopped while it waited for its record to be issued', async () => {
    let sends = 0;
    const t = setup(
      async () => {
        sends++;
      },
      { stopped: true },
    );
    t.entry.issued = Promise.resolve();
    expect(await t.attempt()).toBeUndefined();
    expect(sends).toBe(0);
  });

  it('reports an upload as `sending` with its progress', async () => {
    const t = setup(async (_record, onProgress) => {
      onProgress(100, 100);
      return 'ok';
    });
    await t.attempt();
    expect(t.events.at(-1)).toEqual({
      type: 'message',
      messageId: 'm-1',
      state: 'sending',
      attempt: 1,
      progress: { sentBytes: 100, totalBytes: 100 },
    });
  });
});
