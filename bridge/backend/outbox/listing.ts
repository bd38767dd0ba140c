/**
 * `listOutbox`: every message waiting for this inbox, in queue order: this page's own and what it
 * took in from memory, with their state; other pages' stored records as `queued`. From memory
 * where it can: only other pages' records not taken in here are read, all at once.
 */
import type { RecordStore } from '../../environment.js';
import type { OutboxListing } from '../../protocol/messages.js';
import { fileSize, isOutboxRecord } from '../outbox-record.js';
import { inQueueOrder, toldTime } from './decisions.js';
import { waitClock, type Entries } from './queue.js';
import type { OutboxSettings } from './settings.js';
import { breather, readAll, readKeys } from './stored.js';

/** `foreign`: a stored key of another page's record not in memory here. */
export async function listing(
  s: OutboxSettings,
  records: RecordStore | undefined,
  entries: Entries,
  foreign: (key: string) => boolean,
): Promise<OutboxListing[]> {
  const keys = await readKeys(records, s.prefix);
  const read = await readAll(records, s.prefix, keys, foreign);
  const breathe = breather(s);
  const listed: OutboxListing[] = [];
  for (const key of inQueueOrder(new Set([...keys, ...entries.keys()]), s.page)) {
    await breathe();
    const entry = entries.get(key);
    // Without an entry, a key of this page is a message answered whose removal failed.
    const record = entry ? entry.record : foreign(key) && read.get(key);
    if (isOutboxRecord(record, s.maxFileSize, s.fileTypes))
      listed.push({
        messageId: record.messageId,
        state: entry ? entry.state : 'queued',
        attempt: entry ? entry.attempt : 0,
        // Offline, no attempt is scheduled: it waits for the network, as its `queued` event
        // says by leaving the time out; the failed attempt's retry time would soon be past.
        // Kept on the wait clock: told on the wall clock as it reads now.
        nextAttemptAt:
          entry && entry.next !== undefined && s.isOnline()
            ? toldTime(s.now(), waitClock(s), entry.next, entry.told)
            : undefined,
        content: record.content,
        files: record.files && record.files.map((file) => ({ name: file.name, type: file.type, size: fileSize(file) })),
      });
  }
  return listed;
}
