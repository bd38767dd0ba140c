/**
 * The outbox's decisions, as functions of plain state: no clock, no storage, no timers. The
 * sender, the outbox's calls and orphan recovery read the clocks, the store and the locks, ask
 * these what to do, and do it. Tested over tables of states (decisions.spec.ts), as
 * retry-timing.ts is.
 *
 * - Order: a pass goes through the keys in queue order (`inQueueOrder`, outbox-record.ts: what
 *   pages that are gone left first, then this page's own), one at a time; a key of another page
 *   is looked up in the store before its attempt (another live page may have sent it: `othersKey`).
 * - Waits: `waitLeft`, `mustWait`. A failure: `finalFailure`, else `retryWait` and what the host is told
 *   (`queuedFields`, `burstError`). Turns: `yieldsTurn`. Orphans: `isOrphan`, `isWatched`.
 *   Cancels: `cancelsAtOnce`, `mayCancel`. The clocks: `toldTime`.
 */
import { withNote, type ErrorEvent } from '../../protocol/errors.js';
import type { MessageState } from '../../protocol/messages.js';
import { pageOf } from '../outbox-record.js';
import { backoff, isTransient } from '../retry-policy.js';
import { MAX_WAIT, tooFarOff } from '../retry-timing.js';

/** The order a pass takes the messages in (outbox-record.ts): what gone pages left first, then this page's own, by key. */
export { inQueueOrder } from '../outbox-record.js';

/** The lock a page holds while it has records stored (orphans.ts), by its id. */
export const PAGE_LOCK = 'chat-bridge:page:';

/** A key of another page's record: one this page took in (or is to), which another live page may have taken in too. */
export const othersKey = (key: string, page: string) => pageOf(key) !== page;

/** How long a message still waits before its attempt (`next`: when it is due; `clock`: now, both on the wait clock). */
export const waitLeft = (next: number | undefined, clock: number) => (next || 0) - clock;

/**
 * Whether a pass stops at a message to wait `wait` ms for it: nothing behind it overtakes it.
 * `atOnce` (online, visible again, a new message) cuts a backoff short, never a wait the server
 * asked for (`firm`: its Retry-After); it is spent on the first message the pass sends.
 */
export const mustWait = (wait: number, firm: boolean | undefined, atOnce: boolean) => wait > 0 && (!atOnce || firm);

/** A failure burst is under way and the device is offline: a pass sends nothing, it waits for the network. */
export const waitsForNetwork = (burst: boolean, online: boolean) => burst && !online;

/**
 * After a failed attempt: the error that fails the message for good, or undefined where it may be
 * kept. Final: a failure that is not transient (retry-policy.ts `isTransient`), or a wait the
 * server asked for (`asked`, from `now`) longer than anyone waits (it would hold every message
 * behind it: `tooFarOff`). A message that may be kept still meets its upload budget
 * (upload-budget.ts), whose verdict is the caller's to ask (it reads the network): only then.
 */
export const finalFailure = (error: ErrorEvent, asked: number | undefined, now: number, rateLimitPasses?: boolean) =>
  !isTransient(error, rateLimitPasses)
    ? error
    : (asked as number) > MAX_WAIT
      ? tooFarOff(error, now + (asked as number))
      : undefined;

/**
 * A kept message's wait before its next attempt: the server's where it asked (firm), else the
 * backoff after the message's `attempt`s. `random` is drawn only for a backoff (a replay's seeded
 * draws depend on it).
 */
export const retryWait = (asked: number | undefined, message: { attempt: number }, random: () => number) =>
  asked !== undefined ? asked : backoff(message.attempt, random());

/**
 * The `queued` event's own fields for a kept message due at `told` (wall clock): when its next
 * attempt is due, online only (offline it waits for the network, and no timer runs).
 */
export const queuedFields = (told: number, online: boolean) => (online ? { nextAttemptAt: told } : {});

/**
 * The one error event of a failure burst, told at its first failure only (the sender's `burst`):
 * the failure, how many messages wait (`queued`), and, online, when the next attempt is due
 * (`told`, wall clock; offline it waits for the network).
 */
export const burstError = (error: ErrorEvent, queued: number, told: number, online: boolean): ErrorEvent =>
  withNote(error, `${queued} queued`, online && { retryAt: told });

/**
 * After a message went: another WebView waits for the inbox lock (`wanted`, inbox-lock.ts), so
 * this pass ends, its turn comes, and this page's next pass waits for the lock again.
 */
export const yieldsTurn = (wanted: unknown) => !!wanted;

/**
 * A stored key is an orphan to take in: `foreign` (another page's record, not in memory here) and
 * its page's lock is not among `held` (the locks held now: that page is gone).
 */
export const isOrphan = (key: string, foreign: boolean, held: Set<unknown>) =>
  foreign && !held.has(PAGE_LOCK + pageOf(key));

/**
 * Whether a stored key keeps this page looking on a timer: `foreign` (another page's record, not
 * in memory here) and its page lives (its lock among `held`). That page may be closed, which sends
 * no event, and leave it.
 */
export const isWatched = (key: string, foreign: boolean, held: Set<unknown>) =>
  foreign && held.has(PAGE_LOCK + pageOf(key));

/**
 * A cancel takes the message found (under `key`) at once where no other page may send it: this
 * page holds the inbox lock (`holding`), or the message is its own. Otherwise, or where none is
 * found yet, it waits for the inbox lock and takes in what gone pages left first.
 */
export const cancelsAtOnce = (holding: boolean, key: string, page: string) => holding || !othersKey(key, page);

/** A message found may be cancelled unless its request is under way (it is `sending`). */
export const mayCancel = (state: MessageState) => state !== 'sending';

/**
 * When, on the wall clock, a wait ending at `at` on the wait clock ends, for the host: `now` the
 * wall clock, `clock` the wait clock, both read now. It is `told`, what the host was told, unless
 * the wall clock moved since (set back or forward: then as it reads now). The two clocks tick apart
 * by a truncated millisecond, which is not a move.
 */
export const toldTime = (now: number, clock: number, at: number, told?: number) => {
  const ends = Math.round(now + at - clock);
  return Math.abs(ends - (told as number)) < 2 ? told : ends;
};
