/**
 * One attempt at sending one message: it is told `sending` (with its upload's progress), sent,
 * and a failure is read. The message then leaves with an outcome (sent, or failed for good), or
 * stays, told `queued` again with the time of its next attempt (set on the entry: `next`, `told`,
 * `firm`). What a failure means is decided in decisions.ts; what follows (the removal, the
 * burst's one error event, the retry timer) is the sender's (sender.ts).
 */
import type { ErrorEvent } from '../../protocol/errors.js';
import { toErrorEvent } from '../../protocol/errors.js';
import type { Outcome } from '../../protocol/messages.js';
import type { OutboxRecord } from '../outbox-record.js';
import { askedWait } from '../retry-policy.js';
import { throttledProgress } from '../upload-progress.js';
import { finalFailure, queuedFields, retryWait } from './decisions.js';
import { stateSetter, waitClock, type Entry } from './queue.js';
import type { OutboxSettings } from './settings.js';

/**
 * The outcome of a message that leaves; the failure of one that stays; undefined where the outbox
 * was destroyed meanwhile (`stopped`: no request starts, and a failed message is left as it is).
 * `spent`: the message's upload budget (upload-budget.ts), a final failure where its uploads keep
 * being refused.
 */
export async function attemptSend(
  entry: Entry,
  s: OutboxSettings,
  spent: (record: OutboxRecord, error: ErrorEvent) => Promise<ErrorEvent | undefined>,
  stopped: () => boolean,
): Promise<Outcome | ErrorEvent | undefined> {
  const setState = stateSetter(s.emit);
  entry.attempt++;
  entry.next = undefined;
  setState(entry, 'sending');
  // Told `sending` before the wait (the host hears it with `queued`, in one delivery); a request
  // that would start after `destroy` does not.
  if (entry.issued) {
    await entry.issued;
    if (stopped()) return;
  }
  try {
    const onProgress = throttledProgress(s.now, (progress) => setState(entry, 'sending', { progress }));
    return { ok: true, result: await s.send(entry.record, onProgress) };
  } catch (thrown) {
    const error = toErrorEvent(thrown, 'server_error', '[POST /messages]');
    const now = s.now();
    // The wait the server asked for: a 429 its request gave up on says when in `retryAt`
    // (http.ts); another answer, in its Retry-After. A `retryAt` of 0 (the epoch: a replay's
    // clock only) reads as none, so its backoff waits a little longer, never sooner.
    const asked = error.retryAt ? error.retryAt - now : askedWait(thrown, now);
    // Its upload budget (upload-budget.ts) is asked only where nothing else fails it for good.
    const final = finalFailure(error, asked, now, s.rateLimitPasses) || (await spent(entry.record, error));
    if (final) return { ok: false, error: final };
    if (stopped()) return;
    entry.firm = asked !== undefined;
    const delay = retryWait(asked, entry, s.random);
    entry.next = waitClock(s) + delay;
    entry.told = now + delay;
    setState(entry, 'queued', queuedFields(entry.told, s.isOnline()));
    return error;
  }
}
