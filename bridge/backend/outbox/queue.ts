/**
 * The messages this page knows are waiting (its own, and those it took in from pages that are
 * gone), as entries by record key, the events that tell the host about them, and the one way a
 * message leaves (`finisher`: sent, failed for good, or cancelled).
 */
import { errorEvent } from '../../protocol/errors.js';
import type { RecordStore } from '../../environment.js';
import type { MessageState, MessageStateMessage, Outcome } from '../../protocol/messages.js';
import type { OutboxRecord } from '../outbox-record.js';
import { othersKey } from './decisions.js';
import type { PageLock } from './page-lock.js';
import type { OutboxSettings } from './settings.js';

type Clocks = Pick<OutboxSettings, 'now' | 'elapsed'>;

export interface Entry {
  key: string;
  record: OutboxRecord;
  attempt: number;
  state: MessageState;
  /**
   * When its next attempt is due, on `waitClock`: the one the sender waits on (a wall clock set
   * back or forward moves no wait).
   */
  next?: number | undefined;
  /**
   * The same deadline on the wall clock, as the host was told it (`nextAttemptAt`, and the burst's
   * `retryAt`). Both are kept: `next` alone cannot give it back exactly (the two clocks tick apart
   * by a truncated millisecond, so listOutbox would say a millisecond off what the event said),
   * and `told` alone would move with the wall clock. listOutbox tells `told` unless the wall clock
   * moved since (decisions.ts `toldTime`).
   */
  told?: number | undefined;
  /** `next` is the server's (Retry-After), not to be cut short. */
  firm?: boolean;
  /** The write of its record (false: failed): a removal waits for it, so a late write cannot bring a sent message back. */
  written?: Promise<boolean>;
  /** A message with files: resolves once its record is written, or failed to be (its first request waits for that). */
  issued?: Promise<unknown>;
  /** This page's command waiting for it. */
  settle?: (outcome: Outcome) => void;
}

/** The messages waiting, by record key. */
export type Entries = Map<string, Entry>;

/** Sets an entry's state and tells the host (`extra`: the state's own fields). */
export const stateSetter =
  (emit: (message: MessageStateMessage) => void) => (entry: Entry, state: MessageState, extra?: object) => {
    entry.state = state;
    emit({ type: 'message', messageId: entry.record.messageId, state, attempt: entry.attempt, ...extra });
  };

/** What the host is told when the outbox's storage failed it. */
export const storageError = (what: string) => errorEvent('storage_error', `[outbox] ${what}`);

/**
 * The outbox's clock for waits: `elapsed` where the environment has it. Nothing measured on it is
 * stored (a wait is in memory only: a page after a reload starts its messages' attempts afresh),
 * so nothing on it crosses a reload.
 */
export const waitClock = (s: Clocks) => (s.elapsed ? s.elapsed() : s.now());

/**
 * Takes a message out with its outcome (sent, failed for good, cancelled): told first, its record
 * removed after. Resolves once the record is removed (or stays).
 */
export type Finish = (entry: Entry, outcome: Outcome) => Promise<unknown>;

/**
 * The one way out of the queue, for the sender and for a cancel. `answered`: messages answered
 * here whose records are not (yet) removed; `page`: this page's lock, let go with its last record.
 */
export function finisher(
  s: Pick<OutboxSettings, 'emit' | 'page'>,
  records: RecordStore | undefined,
  entries: Entries,
  answered: Set<string>,
  setState: ReturnType<typeof stateSetter>,
  page: PageLock,
): Finish {
  /** Its last record gone, this page has nothing for other pages to leave alone: its lock goes. */
  const lastGone = () => {
    if ([...entries.keys(), ...answered].every((key) => othersKey(key, s.page))) page.letGo();
  };

  return (entry, outcome) => {
    entries.delete(entry.key);
    // Kept until its record is removed (a failed removal keeps it: the record stays behind); with
    // no store there is no record, and nothing to keep.
    if (records) answered.add(entry.key);
    setState(entry, outcome.ok ? 'sent' : 'failed', outcome.ok ? { result: outcome.result } : { error: outcome.error });
    if (entry.settle) entry.settle(outcome);
    else if (!outcome.ok) s.emit(outcome.error);
    // Told first, removed after: the answer does not wait for storage, nor does a pass that has
    // nothing more to send (a message queued right after would wait for that removal before its
    // request: milliseconds on a busy device, and its `queued` and `sending` would cross into the
    // app apart; other pages leave this page's records alone while it lives). A record whose
    // removal fails (or a page closed before it) stays behind and is sent once more under its
    // echo_id. Removed even where its write failed: the store may write it again later.
    return Promise.resolve(entry.written).then((): unknown =>
      records
        ? records.remove(entry.key).then(
            () => {
              answered.delete(entry.key);
              lastGone();
            },
            () => s.emit(storageError(`${entry.record.messageId} stays stored`)),
          )
        : lastGone(),
    );
  };
}
