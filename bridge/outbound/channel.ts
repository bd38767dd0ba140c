/**
 * The interface every platform adapter implements, and the channel that delivers through it.
 *
 * react-native-webview and flutter_inappwebview create their JavaScript channel late, after
 * the page's first scripts ran, so whatever the bridge says before the channel exists is
 * queued in order and delivered once it appears. Nothing is dropped.
 */
import type { HostScope, TimerHandle, Timers } from '../environment.js';
import type { OutboundMessage } from './messages.js';
import type { ChannelNames, HostName } from '../options.js';

/** Sends one encoded payload through the platform's native API. */
export type Poster = (payload: unknown) => void;

export interface HostAdapter {
  readonly host: HostName;
  /** The payload exactly as the platform's native API receives it: a string or an object. */
  encode(message: OutboundMessage): unknown;
  /** The native channel, or undefined while the platform has not created it yet. */
  find(scope: HostScope, names: ChannelNames): Poster | undefined;
}

export interface Channel {
  deliver(message: OutboundMessage): void;
  /** Messages still waiting for the native channel. */
  readonly pending: number;
  destroy(): void;
}

/** How often a missing channel is looked for again while messages wait for it. */
export const CHANNEL_POLL_MS = 50;

export function createChannel(adapter: HostAdapter, scope: HostScope, names: ChannelNames, timers: Timers): Channel {
  const queue: unknown[] = [];
  let poll: TimerHandle | undefined;

  const flush = () => {
    poll = undefined;
    while (queue.length > 0) {
      const post = adapter.find(scope, names);
      if (post === undefined) break;
      try {
        post(queue[0]);
      } catch {
        // The channel exists but refused (a native bridge mid-teardown): keep the payload, retry.
        break;
      }
      queue.shift();
    }
    if (queue.length > 0) poll = timers.setTimeout(flush, CHANNEL_POLL_MS);
  };

  return {
    deliver(message) {
      queue.push(adapter.encode(message));
      if (poll === undefined) flush();
    },
    get pending() {
      return queue.length;
    },
    destroy() {
      if (poll !== undefined) timers.clearTimeout(poll);
      poll = undefined;
      queue.length = 0;
    },
  };
}

/** `window.<name>.postMessage(...)`, called as a method: native interfaces need their receiver. */
export function postMessageOf(target: unknown): Poster | undefined {
  if (typeof target !== 'object' && typeof target !== 'function') return undefined;
  if (target === null) return undefined;
  const candidate = target as { postMessage?: unknown };
  if (typeof candidate.postMessage !== 'function') return undefined;
  return (payload) => (candidate.postMessage as (payload: unknown) => void).call(candidate, payload);
}

export const toJsonString = (message: OutboundMessage): string => JSON.stringify(message);
