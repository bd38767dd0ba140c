/** What the outbox is given: its environment, its inbox and page, and where its messages go. */
import type { Locks, ProgressListener, RecordStore, Timers } from '../../environment.js';
import type { ErrorEvent } from '../../protocol/errors.js';
import type { MessageStateMessage } from '../../protocol/messages.js';
import type { OutboxRecord } from '../outbox-record.js';

export interface OutboxSettings extends Timers {
  records?: RecordStore | undefined;
  locks?: Locks | undefined;
  /** This inbox's key prefix (`inboxPrefix`). */
  prefix: string;
  /** This page's id: in its record keys and its liveness lock. */
  page: string;
  maxFileSize: number;
  /** The MIME types the backend accepts, for records read back (the service's when absent). */
  fileTypes?: RegExp | undefined;
  /** The backend's rate limits pass on their own: a 429 its request gave up on keeps the message (the profile's, profile.ts). */
  rateLimitPasses?: boolean | undefined;
  /** The wall clock: what the host is told (`nextAttemptAt`), the order of stored records. */
  now(): number;
  /** The clock waits are measured on (environment.ts): the wall clock set back or forward moves no wait. */
  elapsed?(): number;
  random(): number;
  isOnline(): boolean;
  /** Whether the API origin answers now: tells a refused upload from an unreachable server (upload-budget.ts). */
  reachable?(): Promise<boolean>;
  /** `onProgress`: an upload's progress, reported as `sending` events with `progress`. */
  send(record: OutboxRecord, onProgress: ProgressListener): Promise<unknown>;
  emit(message: MessageStateMessage | ErrorEvent): void;
  /** Told how many records of pages that are gone this page took in (for the recording's note). */
  restored?(count: number): void;
  /** Another bridge ran in this page's window before this one: see orphans.ts. */
  replaces?: boolean | undefined;
}
