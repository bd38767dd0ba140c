/**
 * `cancelMessage`: a waiting message taken out by its id, told `failed` with a `cancelled` error,
 * its record removed. A message is taken out only where no attempt of it is under way
 * (decisions.ts `mayCancel`), and only by the page that may send it (`cancelsAtOnce`).
 */
import { errorEvent } from '../../protocol/errors.js';
import { cancelsAtOnce, mayCancel } from './decisions.js';
import type { InboxLock } from './inbox-lock.js';
import type { Orphans } from './orphans.js';
import type { Entries, Entry, Finish } from './queue.js';

/** Resolves false where there is no such message waiting, or it is being sent this moment. */
export function cancelMessage(
  messageId: string,
  page: string,
  entries: Entries,
  lock: InboxLock,
  orphans: Orphans,
  finish: Finish,
): Promise<boolean> {
  const find = () => [...entries.values()].find((candidate) => candidate.record.messageId === messageId);
  const takeOut = async (entry: Entry | false | undefined) => {
    if (!entry || !mayCancel(entry.state)) return false;
    await finish(entry, { ok: false, error: errorEvent('cancelled', `[cancelMessage] ${messageId} cancelled`) });
    return true;
  };
  // This page's own messages are sent by this page alone, and so is every message while it holds
  // the inbox lock; one is marked `sending` before its request starts. Such a message is taken out
  // at once, without waiting for the lock, which a pass holds while it sends everything queued
  // before it (a cancel must not wait for those, nor lose the race).
  const found = find();
  if (found && cancelsAtOnce(lock.holding(), found.key, page)) return takeOut(found);
  return lock.run(async () => {
    await orphans.adopt();
    const entry = find();
    return takeOut(entry && (await orphans.isStored(entry.key)) && entry);
  });
}
