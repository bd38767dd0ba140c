/**
 * The bridge's outbound end: every message for the host passes here once. It is scrubbed of
 * tokens, then handed to each host's channel and to the in-page listeners (`Bridge.on`).
 */
import type { HostScope, Timers } from '../environment.js';
import { errorEvent } from '../protocol/errors.js';
import type { ChannelNames, HostName } from '../protocol/bridge-options.js';
import type { OutboundMessage, Outcome } from '../protocol/messages.js';
import { adapters } from './adapters/index.js';
import { createChannel } from './channel.js';
import type { Redactor } from './redact.js';

export interface Emitter {
  /** Scrubs the message and hands it to every channel and listener. */
  emit(message: OutboundMessage): void;
  /** A command's response; a failed one also emits its error event, for hosts that only listen for events. */
  answer(id: string, outcome: Outcome): void;
  /** To the channels only, as it is: past the redactor on purpose, for the one message meant to carry a token. */
  deliver(message: OutboundMessage): void;
  /** Calls back with every message emitted (after redaction), once however often added. Returns the unsubscribe. */
  on(listener: (message: OutboundMessage) => void): () => void;
  /** Messages still waiting for a native channel. */
  readonly undelivered: number;
  /** Stops every channel and forgets every listener. */
  destroy(): void;
}

/** @param hosts the hosts whose channels get every message (one, or all for the replay's `--host all`) */
export function createEmitter(
  hosts: HostName[],
  scope: HostScope,
  names: ChannelNames & { channelSecret?: string | undefined },
  timers: Timers,
  redactor: Redactor,
): Emitter {
  const channels = hosts.map((name) =>
    createChannel(
      adapters[name],
      scope,
      names,
      timers,
      (waited) => emit(errorEvent('channel_error', `[channel] no ${name} channel after ${waited} ms`)),
      names.channelSecret,
    ),
  );
  // One event type and a handful of listeners: a Set does what an emitter library would.
  const listeners = new Set<(message: OutboundMessage) => void>();

  const deliver = (message: OutboundMessage) => channels.forEach((channel) => channel.deliver(message));
  function emit(message: OutboundMessage): void {
    const scrubbed = redactor.scrub(message);
    deliver(scrubbed);
    listeners.forEach((listener) => {
      try {
        listener(scrubbed);
      } catch (error) {
        // As EventTarget does: a throwing listener is reported, and the others still run.
        queueMicrotask(() => {
          throw error;
        });
      }
    });
  }

  return {
    emit,
    answer(id, outcome) {
      // The outcome's own fields, `ok` then `result` or `error`, in that order after `type` and `id`.
      emit({ type: 'response' as const, id, ...outcome });
      if (!outcome.ok) emit(outcome.error);
    },
    deliver,
    on(listener) {
      // As EventTarget does: one function added twice is one subscription.
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    get undelivered() {
      return channels.reduce((sum, channel) => sum + channel.pending, 0);
    },
    destroy() {
      channels.forEach((channel) => channel.destroy());
      listeners.clear();
    },
  };
}
