/**
 * For the platform adapters' specs (test/unit/bridge/outbound/adapters/): a native object that
 * records what it is called with and on which receiver, and one message sent through an adapter the
 * way the channel sends it (find, then encode). What each platform's native side receives comes
 * from the shared stand-ins, tools/testing/stand-in-channels.ts.
 */
import type { HostScope } from '../../bridge/environment.js';
import { DEFAULTS, type ChannelNames, type HostName } from '../../bridge/protocol/bridge-options.js';
import type { OutboundMessage } from '../../bridge/protocol/messages.js';
import type { HostAdapter } from '../../bridge/outbound/channel.js';
import { installStandIns } from '../../tools/testing/stand-in-channels.js';

/** The default channel names, as normalizeOptions resolves them. */
export const CHANNEL_NAMES: ChannelNames = {
  androidChannel: DEFAULTS.androidChannel,
  iosHandler: DEFAULTS.iosHandler,
  flutterChannel: DEFAULTS.flutterChannel,
  browserEvent: DEFAULTS.browserEvent,
};

/** A validation error with a status and field errors: every field an error event can carry. */
export const ERROR_MESSAGE: OutboundMessage = {
  type: 'error',
  code: 'validation_error',
  retryable: false,
  message: '[POST /conversations] 422: email is invalid',
  status: 422,
  errors: { email: ['is invalid'] },
};

export interface RecordedCall {
  self: unknown;
  args: unknown[];
}

/** A native object whose `postMessage` records its arguments and the receiver it was called on. */
export function nativeObject(): { target: { postMessage(...args: unknown[]): void }; calls: RecordedCall[] } {
  const calls: RecordedCall[] = [];
  const target = {
    postMessage(this: unknown, ...args: unknown[]) {
      calls.push({ self: this, args });
    },
  };
  return { target, calls };
}

/** Hands the platform one message through `adapter`, by the same path the channel uses. */
export function sendThrough(
  adapter: HostAdapter,
  scope: HostScope,
  message: OutboundMessage,
  names: ChannelNames = CHANNEL_NAMES,
): void {
  const post = adapter.find(scope, names);
  if (post === undefined) throw new Error('the adapter found no channel in the scope');
  post(adapter.encode(message));
}

/** What `host`'s shared stand-in receives when `adapter` sends ERROR_MESSAGE under `names`. */
export function receivedByStandIn(host: HostName, adapter: HostAdapter, names: ChannelNames): unknown[] {
  const scope: HostScope = {};
  const received: unknown[] = [];
  installStandIns(scope, [host], (_host, payload) => received.push(payload), names);
  sendThrough(adapter, scope, ERROR_MESSAGE, names);
  return received;
}
