/**
 * Which failures the bridge retries, and when, in one place:
 * - a 429 is retried by the request itself (http.ts), within the host's `retry` option
 *   (`limit`, `baseDelay`, `maxDelay`; checked in options.ts), as `retryDelay` times it;
 * - a 408 is the server giving up waiting for the request: reported as `network_error`
 *   (http-errors.ts), no answer in time, and retried like one (a 4xx code would tell a chat UI
 *   the message itself was wrong);
 * - the outbox keeps a message through a transient failure (no answer at the network level, a
 *   408, a gateway's 502, 503 or 504, and on a backend whose limits pass on their own, Chatwoot's,
 *   a 429 its request's own retries did not outlast) and tries again after a capped, jittered
 *   exponential backoff, or when the server's `Retry-After` says; every other failure is final.
 */
import type { ErrorEvent } from '../protocol/errors.js';
import { parseRetryAfter, retryDelay } from './retry-timing.js';

/** Gateways' answers that say the backend is away for now (a 408 comes as a `network_error`). */
const TRANSIENT = [502, 503, 504];

/**
 * Whether the outbox keeps a message after a failure reported as `error` (toErrorEvent: what is not
 * a bridge error, a programming error, is a `server_error` without a status, never kept).
 * `rateLimitPasses` (the profile's): a 429 too. Chatwoot's rack-attack counts a
 * minute and gives no Retry-After (config/initializers/rack_attack.rb), which the request's own
 * 429 retries (about 15 s, http.ts) do not outlast: failed there, the message would be lost unless
 * the app sent it again; kept, it goes when the window has passed. The contract's 429 stays final
 * after those retries (its behaviour before Chatwoot's profile, kept as it was).
 */
export const isTransient = (error: ErrorEvent, rateLimitPasses?: boolean) =>
  error.code === 'network_error' ||
  TRANSIENT.includes(error.status as number) ||
  (!!rateLimitPasses && error.status === 429);

/**
 * The wait the server asked for before the next attempt (its `Retry-After`, RFC 9110 §10.2.3, on
 * a 502, 503 or 504; a 429's is in the error's `retryAt`, http.ts), or undefined: the outbox keeps
 * it even against a retry "at once".
 */
export const askedWait = (thrown: unknown, now: number) =>
  parseRetryAfter((thrown as { retryAfter?: string | null }).retryAfter, now);

/** The outbox's wait before the next attempt where the server asked for none (`attempt`: the attempts made so far). */
export const backoff = (attempt: number, random: number) =>
  // The first within 2 s, none more than a minute apart, without limit.
  retryDelay(attempt, undefined, { limit: Infinity, baseDelay: 1_000, maxDelay: 60_000 }, random) as number;
