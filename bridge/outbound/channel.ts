/**
 * The interface every platform adapter implements, and the channel that delivers through it.
 *
 * Each call of a native channel is a crossing into the app (an IPC message on iOS and Android),
 * which costs the page's main thread a fixed price whatever it carries. A message sent goes
 * through its states (`queued` and `sending` as its command comes in; `sent` and the command's
 * response as the backend answers), and the host can show none of them before its next frame
 * anyway. So a message-state event waits up to one frame (`BATCH_WINDOW_MS`, counted from the
 * first event that waits, never restarted), or for the next message that is not one (a
 * response, an error...), and goes with what else waited in one payload: an array of the
 * messages, in order. A message answered within the frame crosses once; upload progress crosses
 * at most once a frame. Any other message goes at once, as itself or with what waited. A browser
 * page's listener costs nothing to call: its adapter takes each message at once, on its own.
 *
 * react-native-webview and flutter_inappwebview create their JavaScript channel late, after
 * the page's first scripts ran, so whatever the bridge says before the channel exists is
 * queued in order and delivered once it appears. The queue keeps the newest
 * `CHANNEL_QUEUE_LIMIT` payloads (a page whose host never listens must not grow without end); when
 * older ones were dropped, the host is told how many events, first thing, once the channel appears.
 * The channel is looked for again after 50 ms, then at doubling intervals up to 1 s; after
 * `CHANNEL_WAIT_MS` the looking stops and `onGiveUp` is called once (the bridge emits a
 * `channel_error`). From then on each new payload tries the channel once, without a timer.
 */
import { apply, type HostScope, type TimerHandle, type Timers } from '../environment.js';
import type { OutboundMessage } from '../protocol/messages.js';
import { errorEvent } from '../protocol/errors.js';
import type { ChannelNames } from '../protocol/bridge-options.js';

/** Sends one encoded payload through the platform's native API. */
export type Poster = (payload: unknown) => void;

/** A platform's adapter: filed under its host's name in adapters/index.ts, which is the one place that names it. */
export interface HostAdapter {
  /** The payload exactly as the platform's native API receives it: a string or an object (or array). */
  encode(message: OutboundMessage | OutboundMessage[]): unknown;
  /** Each message is its own payload, posted at once: a page's listener, not a crossing into the app. */
  readonly oneByOne?: boolean;
  /** The native channel, or undefined while the platform has not created it yet. */
  find(scope: HostScope, names: ChannelNames): Poster | undefined;
}

export interface Channel {
  deliver(message: OutboundMessage): void;
  /** Messages still waiting for the native channel. */
  readonly pending: number;
  destroy(): void;
}

/** The first wait before a missing channel is looked for again; each later wait doubles, up to 1 s. */
export const CHANNEL_POLL_MS = 50;
/** How long a missing channel is looked for before the bridge says it never appeared (1 minute). */
export const CHANNEL_WAIT_MS = 60_000;
/** Payloads kept while the channel is missing; past it the oldest are dropped. */
export const CHANNEL_QUEUE_LIMIT = 500;
/** How long a native host's message-state event waits for others to cross with it: a frame. */
export const BATCH_WINDOW_MS = 16;

/**
 * @param onGiveUp called once when the channel has been missing for `CHANNEL_WAIT_MS`.
 * @param secret put before every text payload (the `channelSecret` option): the host's proof that
 * a payload is the bridge's, which no script of the page can read or forge.
 */
export function createChannel(
  adapter: HostAdapter,
  scope: HostScope,
  names: ChannelNames,
  timers: Timers,
  onGiveUp: (waitedMs: number) => void = () => undefined,
  secret = '',
): Channel {
  const encode = (message: OutboundMessage | OutboundMessage[]) => {
    const payload = adapter.encode(message);
    return typeof payload === 'string' ? secret + payload : payload;
  };
  /** What waits for the native channel: each group of messages goes as one payload. */
  const queue: OutboundMessage[][] = [];
  /** Message-state events waiting, posted a window after the first or with the next other message. */
  const batch: OutboundMessage[] = [];
  let batchEnd: TimerHandle | undefined;
  let poll: TimerHandle | undefined;
  let dropped = 0;
  /** Time spent looking for the channel; Infinity once the looking stopped. */
  let waited = 0;

  const flush = () => {
    poll = undefined;
    for (let send, head; (head = queue[0]) && (send = adapter.find(scope, names)); queue.shift()) {
      try {
        // Told first, ahead of what is left, so the host reads the gap where it is.
        if (dropped > 0) send(encode(errorEvent('channel_error', `[channel] ${dropped} event(s) dropped`)));
        dropped = 0;
        send(encode(head.length > 1 ? head : (head[0] as OutboundMessage)));
      } catch {
        // The channel exists but refused (a native bridge mid-teardown): keep the payload, retry.
        break;
      }
    }
    if (queue.length === 0) waited = 0;
    else if (waited < CHANNEL_WAIT_MS) {
      // 50, 100, 200, 400, 800 ms, then every second: each wait is the time waited so far plus 50 ms.
      const delay = Math.min(1_000, waited + CHANNEL_POLL_MS);
      waited += delay;
      poll = timers.setTimeout(flush, delay);
    } else if (waited < Infinity) {
      const total = waited;
      waited = Infinity;
      onGiveUp(total);
    }
  };
  /** Queues what waited in `batch` (never empty here) as one payload, and tries the channel. */
  const endBatch = () => {
    if (batchEnd !== undefined) timers.clearTimeout(batchEnd);
    batchEnd = undefined;
    if (queue.push(batch.splice(0)) > CHANNEL_QUEUE_LIMIT) dropped += (queue.shift() as OutboundMessage[]).length;
    if (poll === undefined) flush();
  };

  return {
    deliver(message) {
      const waits = batch.push(message);
      if (message.type !== 'message' || adapter.oneByOne) endBatch();
      else if (waits === 1) batchEnd = timers.setTimeout(endBatch, BATCH_WINDOW_MS);
    },
    get pending() {
      return queue.reduce((sum, group) => sum + group.length, batch.length);
    },
    destroy() {
      if (batch.length > 0) endBatch();
      if (poll !== undefined) timers.clearTimeout(poll);
      poll = undefined;
      queue.length = 0;
    },
  };
}

type Send = (this: unknown, payload: unknown) => void;

/**
 * Where a page script's direct call of a channel goes: the running bridge's inbound (bridge.ts),
 * which says whether the message was its own.
 */
let pageCall: ((data: unknown) => boolean) | undefined;
/** Sets the handler; returns its removal, which leaves a later bridge's in place. */
export function onPageCall(handler: (data: unknown) => boolean): () => void {
  pageCall = handler;
  return () => void (pageCall === handler && (pageCall = undefined));
}
/** The guards put in place of channels' `postMessage`, each with the channel's own (none: a stand-in). */
const guards = new WeakMap<object, Send | undefined>();
/**
 * Each channel object's own `postMessage`, as first found (at install, before the page's scripts):
 * a page script that replaces the method later gets its own calls, never the bridge's deliveries.
 */
const originals = new WeakMap<object, Send | undefined>();

/**
 * A guard for a channel's `postMessage`: a page script that calls it directly reaches the bridge
 * first. Chatwoot's widget loaded as the page itself (as its mobile SDKs load it) calls
 * `window.ReactNativeWebView.postMessage('chatwoot-widget:' + JSON)` so; its messages then pass
 * the bridge's inbound rules and become widget events, redacted, and never reach the native side
 * raw. What is not the bridge's (another script's own traffic, the React Native host's probe)
 * goes on to the channel as before. The bridge's own deliveries go through `send`, unchanged.
 * Without `send`: the stand-in for a channel that does not exist, which no adapter delivers to.
 */
export function guardOf(send?: Send): Send {
  const guard: Send = function (this: unknown, data) {
    if (!(pageCall && pageCall(data)) && send) apply(send, this, [data]);
  };
  guards.set(guard, send);
  return guard;
}

/**
 * `window.<name>.postMessage(...)`, called as a method: native interfaces need their receiver.
 * Its `postMessage` is replaced by a guard (where the object lets it), so the page cannot talk
 * past the bridge; the method first found is the one delivered to from then on.
 */
export function postMessageOf(target: unknown): Poster | undefined {
  // Object(x) is x for an object or a function (null and primitives excepted).
  if (Object(target) !== target) return undefined;
  const candidate = target as { postMessage?: unknown };
  let send = originals.get(candidate);
  if (!originals.has(candidate)) {
    send = candidate.postMessage as Send | undefined;
    if (typeof send !== 'function') return undefined;
    if (guards.has(send)) send = guards.get(send);
    else
      try {
        candidate.postMessage = guardOf(send);
      } catch {
        // A native object that keeps its method (some Java bridges): delivered to all the same.
      }
    originals.set(candidate, send);
  }
  return send && ((payload) => apply(send as Send, candidate, [payload]));
}

export const toJsonString = (message: OutboundMessage): string => JSON.stringify(message);
