import { describe, expect, it } from 'vitest';
import { stateSetter, storageError, type Entry } from '../../../../../bridge/backend/outbox/queue.js';
import type { MessageStateMessage } from '../../../../../bridge/protocol/messages.js';

const entry = (): Entry => ({ key: 'k', record: { v: 1, messageId: 'm-1' }, attempt: 2, state: 'queued' });

describe('the events that tell the host about waiting messages', () => {
  it("sets an entry's state and tells it by messageId, with the attempts so far and the state's own fields", () => {
    const told: MessageStateMessage[] = [];
    const setState = stateSetter((message) => told.push(message));
    const waiting = entry();
    setState(waiting, 'sending', { progress: { sentBytes: 1, totalBytes: 2 } });
    expect(waiting.state).toBe('sending');
    expect(told).toEqual([
      { type: 'message', messageId: 'm-1', state: 'sending', attempt: 2, progress: { sentBytes: 1, totalBytes: 2 } },
    ]);
  });

  it('reports a storage failure as storage_error, labelled as the outbox', () => {
    expect(storageError('m-1 stays stored')).toMatchObject({
      type: 'error',
      code: 'storage_error',
      message: '[outbox] m-1 stays stored',
    });
  });
});
