/**
 * The persisted queue of outgoing chat messages.
 *
 * Every `sendMessage` goes through it, so messages leave in the order they were sent even when
 * some wait for the network. An entry is removed only once the backend answered it; one that
 * failed at the network level stays at the head and is tried again when the device comes back
 * online or the bridge is installed again (after a reload). Because each entry keeps its
 * client-generated `echo_id`, a resend after an answer that was lost on the way cannot
 * duplicate the message.
 */
import type { OutgoingMessage } from './api.js';
import type { KeyValueStorage } from '../environment.js';
import { isBridgeError, toErrorEvent, type ErrorEvent } from '../outbound/errors.js';
import type { Outcome } from '../outbound/messages.js';

export interface OutboxEntry extends OutgoingMessage {
  /** The host command that sent it; its response goes out when the message is finally sent. */
  commandId: string;
}

export interface OutboxHooks {
  send(entry: OutboxEntry): Promise<unknown>;
  /** Every entry ends here exactly once, with the backend's answer or its final failure. */
  settled(entry: OutboxEntry, outcome: Outcome): void;
  /** The head failed at the network level; it and everything behind it keep waiting. */
  stalled(error: ErrorEvent, waiting: number): void;
}

export interface Outbox {
  enqueue(entry: OutboxEntry): void;
  /** Sends what is waiting, in order; concurrent calls share one pass. */
  drain(): Promise<void>;
  readonly size: number;
  destroy(): void;
}

export function createOutbox(storage: KeyValueStorage | undefined, key: string, hooks: OutboxHooks): Outbox {
  const entries: OutboxEntry[] = load(storage, key);
  let pass: Promise<void> | undefined;
  let running = false;
  let again = false;
  let destroyed = false;

  const persist = () => {
    if (storage === undefined) return;
    try {
      if (entries.length === 0) storage.removeItem(key);
      else storage.setItem(key, JSON.stringify(entries));
    } catch {
      // Over quota (large attachments in localStorage): the queue still works in memory for
      // this page; only survival across a reload is lost.
    }
  };

  async function run(): Promise<void> {
    running = true;
    try {
      // A drain asked for while this pass ran (an `online` event while a send was failing) gets
      // a pass of its own: the running one may be about to give up on the network.
      do {
        again = false;
        await sendAll();
      } while (again && !destroyed);
    } finally {
      running = false;
    }
  }

  async function sendAll(): Promise<void> {
    while (entries.length > 0 && !destroyed) {
      const head = entries[0] as OutboxEntry;
      let outcome: Outcome;
      try {
        outcome = { ok: true, result: await hooks.send(head) };
      } catch (thrown) {
        const error = toErrorEvent(thrown, 'network_error', '[POST /messages]');
        if (isBridgeError(thrown) && error.code === 'network_error') {
          if (!destroyed) hooks.stalled(error, entries.length);
          return;
        }
        outcome = { ok: false, error };
      }
      if (destroyed) return;
      entries.shift();
      persist();
      hooks.settled(head, outcome);
    }
  }

  return {
    enqueue(entry) {
      entries.push(entry);
      persist();
    },
    drain() {
      if (running && pass !== undefined) {
        again = true;
        return pass;
      }
      pass = run();
      return pass;
    },
    get size() {
      return entries.length;
    },
    destroy() {
      destroyed = true;
    },
  };
}

function load(storage: KeyValueStorage | undefined, key: string): OutboxEntry[] {
  try {
    const stored = storage?.getItem(key);
    const parsed: unknown = stored ? JSON.parse(stored) : [];
    return Array.isArray(parsed) ? parsed.filter(isEntry) : [];
  } catch {
    return [];
  }
}

function isEntry(value: unknown): value is OutboxEntry {
  const entry = value as Partial<OutboxEntry> | null;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    typeof entry.commandId === 'string' &&
    typeof entry.messageId === 'string'
  );
}
