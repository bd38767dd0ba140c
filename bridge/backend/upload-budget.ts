/**
 * How long the outbox keeps trying one message with files, whatever keeps failing it: the
 * bytes of a photo are the user's data plan and battery, and a message that never goes holds
 * up every message behind it.
 *
 * - A refusal: the upload fails at the network level (no answer the page can read) while the
 *   device is online and the API origin answers a small request (`reachable`, a `GET /config`).
 *   That is a server or a proxy refusing this body: a body-size limit (nginx's
 *   `client_max_body_size` is 1m by default) whose error answer carries no CORS headers looks
 *   exactly so. After REFUSALS of them the message is `failed` with `upload_refused`.
 * - Any upload that reached the server (a 5xx, a 408, a refusal) counts: after MAX_UPLOADS of
 *   them, or MAX_UPLOAD_BYTES of their bodies, the message is `failed` with the last failure.
 * - A failure while offline, or while the origin does not answer either, counts for nothing: a
 *   request that cannot connect sends no body, and a device that is really offline keeps its
 *   messages and sends them when it is back.
 *
 * Text messages are not counted: no proxy limit is that small, and their bytes cost nothing.
 * The tallies live as long as the page (a reload starts them again).
 */
import { errorEvent, withNote, type ErrorEvent } from '../protocol/errors.js';
import { fileSize, type OutboxRecord } from './outbox-record.js';

/** Refusals of one message's upload before it fails as `upload_refused`. */
export const REFUSALS = 3;
/** Uploads of one message that reached the server, at most. */
export const MAX_UPLOADS = 8;
/** Bytes of one message's uploads, at most (every message gets two uploads, whatever its size). */
export const MAX_UPLOAD_BYTES = 40 * 1024 * 1024;

interface Tally {
  uploads: number;
  refusals: number;
}

/**
 * @param isOnline the device's connectivity, as the outbox knows it
 * @param reachable whether the API origin answers now (any HTTP answer the page can read);
 *   without it, no failure at the network level is taken for a refusal
 * @returns for a failure the outbox would keep: the error that fails the message for good, or
 *   undefined to keep it
 */
export function uploadBudget(
  isOnline: () => boolean,
  reachable?: () => Promise<boolean>,
): (record: OutboxRecord, error: ErrorEvent) => Promise<ErrorEvent | undefined> {
  const tallies = new WeakMap<OutboxRecord, Tally>();
  return async (record, error) => {
    const files = record.files || [];
    if (!files.length) return;
    const size = files.reduce((sum, file) => sum + (fileSize(file) as number), 0);
    const unanswered = error.code === 'network_error' && error.status === undefined;
    if (unanswered && !(isOnline() && reachable && (await reachable()))) return;
    const tally = tallies.get(record) || { uploads: 0, refusals: 0 };
    tallies.set(record, tally);
    tally.uploads++;
    if (unanswered && ++tally.refusals >= REFUSALS)
      return errorEvent(
        'upload_refused',
        `[POST /messages] upload refused: ${tally.refusals} uploads of ${size} bytes unanswered while others were: a proxy body limit (nginx client_max_body_size) under maxFileSize`,
      );
    if (tally.uploads >= Math.max(2, Math.min(MAX_UPLOADS, Math.floor(MAX_UPLOAD_BYTES / size))))
      return withNote(error, `gave up after ${tally.uploads} uploads`);
  };
}
