/**
 * The messages this page knows are waiting (its own, and those it took in from pages that are
 * gone), as entries by record key, and the events that tell the host about them.
 */
import { errorEvent } from '../../protocol/errors.js';
import type { MessageState, MessageStateMessage, Outcome } from '../../protocol/messages.js';
import type { OutboxRecord } from '../outbox-record.js';
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
  /** A message with files: resolves a task after its record's write was asked for (its first request waits for that). */
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
