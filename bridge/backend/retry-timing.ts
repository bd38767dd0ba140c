/**
 * When to retry a 429, as pure functions of the attempt number and the response, so the
 * timing is testable without a clock and reproducible in replays (jitter comes from the
 * caller's random source, which the replay seeds).
 */
import type { RetryPolicy } from '../protocol/bridge-options.js';
import { withNote, type ErrorEvent } from '../protocol/errors.js';

// The policy is an option, defined with the others (protocol/bridge-options.ts), which import nothing from backend/.
export type { RetryPolicy };

/** The delay before the retry in ms, or why there is none. */
export type RetryDecision = number | string;

/**
 * @param attempt the retry about to be made: 1 for the first retry.
 * @param serverDelay what the server's `Retry-After` asks for (parseRetryAfter), or undefined
 *   where it gave none the page can read (a cross-origin page reads the header only when the
 *   server sends `Access-Control-Expose-Headers: Retry-After`).
 * @param random a number in [0, 1) for the jitter.
 */
export function retryDelay(
  attempt: number,
  serverDelay: number | undefined,
  policy: RetryPolicy,
  random: number,
): RetryDecision {
  if (attempt > policy.limit) return `gave up after ${policy.limit} ${policy.limit === 1 ? 'retry' : 'retries'}`;
  if (serverDelay !== undefined) {
    if (serverDelay > policy.maxDelay) {
      return `Retry-After over the ${policy.maxDelay / 1000} s cap`;
    }
    return serverDelay;
  }
  // "Equal jitter": half the exponential delay is fixed, half random, so clients that were
  // limited together spread out but none retries immediately.
  const exponential = Math.min(policy.maxDelay, policy.baseDelay * 2 ** (attempt - 1));
  return Math.round(exponential / 2 + (random * exponential) / 2);
}

/**
 * The longest wait the outbox takes on itself: a Retry-After further off ends its automatic
 * retries with an error that says when (a timer cannot be asked for more than TIMER_MAX, and a
 * message held for weeks holds every message behind it).
 */
export const MAX_WAIT = 86_400_000;

/**
 * The failure that ends a message's automatic retries where its server asked for more than
 * MAX_WAIT: its own code (the server is away: `retryable`), with when it may be sent again in
 * `retryAt` (left out where a Retry-After too large for a date says never).
 */
export const tooFarOff = (error: ErrorEvent, at: number): ErrorEvent =>
  withNote(error, 'Retry-After over a day: not retried automatically', at < 8.64e15 && { retryAt: at });

/** The longest delay a timer takes (2^31−1 ms); a longer one fires at once. */
export const TIMER_MAX = 2 ** 31 - 1;

/** Retry-After is either delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const wait = Math.max(0, Date.parse(trimmed) - now);
  // Every HTTP date form names the month; without a letter, V8's lenient Date.parse reads
  // "1.5" or "-5" as a day in 2001. An unreadable date is NaN, which no comparison holds for.
  return /[a-z]/i.test(trimmed) && wait >= 0 ? wait : undefined;
}
