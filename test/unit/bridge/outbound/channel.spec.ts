/**
 * The delivery channel: messages raised before the native channel exists wait, in order, and
 * go out once it appears; a channel that throws keeps the payload for the next try. And the
 * guard it puts on a channel's `postMessage` (guardOf, postMessageOf), through a running bridge:
 * a page script's direct call reaches the bridge's inbound rules first (at the end of this file).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HostScope } from '../../../../bridge/environment.js';
import type { OutboundMessage } from '../../../../bridge/protocol/messages.js';
import { createBridge, type Bridge } from '../../../../bridge/bridge.js';
import { normalizeOptions } from '../../../../bridge/options.js';
import { DEFAULTS, type ChannelNames, type HostName } from '../../../../bridge/protocol/bridge-options.js';
import {
  BATCH_WINDOW_MS,
  CHANNEL_POLL_MS,
  CHANNEL_QUEUE_LIMIT,
  CHANNEL_WAIT_MS,
  createChannel,
} from '../../../../bridge/outbound/channel.js';
import type { Timers } from '../../../../bridge/environment.js';
import { adapters } from '../../../../bridge/outbound/adapters/index.js';
import {
  createInMemoryEnvironment,
  type InMemoryEnvironment,
} from '../../../../tools/testing/in-memory-environment.js';
import { installStandIns } from '../../../../tools/testing/stand-in-channels.js';
import { createVirtualClock, type VirtualClock } from '../../../../tools/testing/virtual-clock.js';

const names: ChannelNames = {
  androidChannel: DEFAULTS.androidChannel,
  iosHandler: DEFAULTS.iosHandler,
  flutterChannel: DEFAULTS.flutterChannel,
  browserEvent: DEFAULTS.browserEvent,
};

/** Moves the clock to the channel's next poll (the polls back off, so it is not always 50 ms away) and runs it. */
function runNextPoll(clock: VirtualClock): void {
  const due = clock.nextDue();
  if (due === undefined) throw new Error('no poll scheduled');
  clock.advance(due - clock.now());
}

const message = (n: number): OutboundMessage => ({ type: 'widget', event: 'message', data: { n } });

function recorder() {
  const payloads: unknown[] = [];
  return { payloads, target: { postMessage: (payload: unknown) => void payloads.push(payload) } };
}

describe('createChannel', () => {
  it("puts the secret before each text payload, iOS included, not before a browser page's object (issue 34, case 7)", () => {
    const clock = createVirtualClock();
    const received: Array<[HostName, unknown]> = [];
    const secret = 'abcdefghijklmnopqrstuvwxyz0123456';
    for (const host of ['react-native', 'ios', 'browser'] as const) {
      const scope: HostScope = {};
      installStandIns(scope, [host], (to, payload) => received.push([to, payload]), names);
      createChannel(adapters[host], scope, names, clock, undefined, secret).deliver({ type: 'ready' });
    }

    expect(received).toEqual([
      ['react-native', `${secret}{"type":"ready"}`],
      ['ios', `${secret}{"type":"ready"}`],
      ['browser', { type: 'ready' }],
    ]);
  });

  it('keeps delivering to the postMessage it first found when a page script replaces it (issue 34, case 8)', () => {
    const clock = createVirtualClock();
    const native = recorder();
    const channelObject = native.target as { postMessage: (payload: unknown) => void };
    const channel = createChannel(adapters.android, { ChatBridgeAndroid: channelObject }, names, clock);
    channel.deliver({ type: 'ready' });
    const stolen: unknown[] = [];
    channelObject.postMessage = (payload) => void stolen.push(payload);
    channel.deliver(message(1));
    channel.deliver({ type: 'error', code: 'network_error', message: 'x', retryable: true });
    expect(stolen).toEqual([]);
    expect(native.payloads).toHaveLength(3);
  });

  it('delivers at once, without scheduling a poll, when the native channel exists', () => {
    const clock = createVirtualClock();
    const native = recorder();
    const channel = createChannel(adapters['react-native'], { ReactNativeWebView: native.target }, names, clock);

    channel.deliver({ type: 'ready' });

    expect(native.payloads).toEqual(['{"type":"ready"}']);
    expect(channel.pending).toBe(0);
    expect(clock.pending).toBe(0);
  });

  it('queues messages raised before the channel exists and delivers them in order once it appears', () => {
    const clock = createVirtualClock();
    const scope: HostScope = {};
    const channel = createChannel(adapters['react-native'], scope, names, clock);

    channel.deliver(message(1));
    channel.deliver(message(2));
    channel.deliver(message(3));
    expect(channel.pending).toBe(3);

    // Still missing at the first poll: nothing is lost and the poll goes on.
    clock.advance(CHANNEL_POLL_MS);
    expect(channel.pending).toBe(3);

    const native = recorder();
    scope['ReactNativeWebView'] = native.target;
    runNextPoll(clock);

    expect(native.payloads.map((payload) => JSON.parse(payload as string))).toEqual([
      message(1),
      message(2),
      message(3),
    ]);
    expect(channel.pending).toBe(0);
    expect(clock.pending).toBe(0);
  });

  it(`polls for the missing channel every ${CHANNEL_POLL_MS} ms with a single timer however many messages wait`, () => {
    const clock = createVirtualClock();
    const channel = createChannel(adapters.android, {}, names, clock);

    for (let n = 0; n < 5; n++) channel.deliver(message(n));

    expect(CHANNEL_POLL_MS).toBe(50);
    expect(clock.pending).toBe(1);
    expect(clock.nextDue()).toBe(50);
  });

  it('keeps a message raised while others wait behind them, even if the channel appeared in between', () => {
    const clock = createVirtualClock();
    const scope: HostScope = {};
    const channel = createChannel(adapters.flutter, scope, names, clock);
    channel.deliver(message(1));

    const native = recorder();
    scope['ChatBridgeFlutter'] = native.target;
    channel.deliver(message(2));
    clock.advance(CHANNEL_POLL_MS);

    expect(native.payloads.map((payload) => JSON.parse(payload as string))).toEqual([message(1), message(2)]);
  });

  it('delivers queued messages as the platform expects them: text for iOS, the object for a browser page', () => {
    const clock = createVirtualClock();
    const iosScope: HostScope = {};
    const browserScope: HostScope = {};
    createChannel(adapters.ios, iosScope, names, clock).deliver(message(1));
    createChannel(adapters.browser, browserScope, names, clock).deliver(message(1));

    const received: Array<[HostName, unknown]> = [];
    const receive = (host: HostName, payload: unknown) => void received.push([host, payload]);
    installStandIns(iosScope, ['ios'], receive, names);
    installStandIns(browserScope, ['browser'], receive, names);
    clock.advance(CHANNEL_POLL_MS);

    expect(received).toEqual([
      ['ios', JSON.stringify(message(1))],
      ['browser', message(1)],
    ]);
  });

  it('keeps the payload when the native postMessage throws and delivers it, once, on the next poll', () => {
    const clock = createVirtualClock();
    const payloads: unknown[] = [];
    let refuse = true;
    const scope: HostScope = {
      ReactNativeWebView: {
        postMessage(payload: unknown) {
          if (refuse) throw new Error('bridge torn down');
          payloads.push(payload);
        },
      },
    };
    const channel = createChannel(adapters['react-native'], scope, names, clock);

    channel.deliver(message(1));
    channel.deliver(message(2));
    expect(payloads).toEqual([]);
    expect(channel.pending).toBe(2);
    expect(clock.pending).toBe(1);

    clock.advance(CHANNEL_POLL_MS); // still refusing
    expect(channel.pending).toBe(2);

    refuse = false;
    runNextPoll(clock);
    expect(payloads.map((payload) => JSON.parse(payload as string))).toEqual([message(1), message(2)]);
    expect(channel.pending).toBe(0);
  });

  it('does not throw out of deliver when the native channel throws', () => {
    const clock = createVirtualClock();
    const scope: HostScope = {
      ChatBridgeAndroid: {
        postMessage() {
          throw new Error('Java exception');
        },
      },
    };
    const channel = createChannel(adapters.android, scope, names, clock);
    expect(() => channel.deliver({ type: 'ready' })).not.toThrow();
    expect(channel.pending).toBe(1);
  });

  it('destroy clears the poll timer and drops what waits', () => {
    const clock = createVirtualClock();
    const scope: HostScope = {};
    const channel = createChannel(adapters['react-native'], scope, names, clock);
    const clear = vi.spyOn(clock, 'clearTimeout');
    const schedule = vi.spyOn(clock, 'setTimeout');
    channel.deliver(message(1));
    const handle = schedule.mock.results[0]?.value;

    channel.destroy();

    expect(clear.mock.calls).toEqual([[handle]]);
    expect(clock.pending).toBe(0);
    expect(channel.pending).toBe(0);

    // The channel appearing later finds nothing to deliver.
    const native = recorder();
    scope['ReactNativeWebView'] = native.target;
    clock.advance(CHANNEL_POLL_MS);
    expect(native.payloads).toEqual([]);
  });

  it('destroy may be called twice and without a pending poll', () => {
    const clock = createVirtualClock();
    const clear = vi.spyOn(clock, 'clearTimeout');
    const channel = createChannel(adapters['react-native'], {}, names, clock);
    channel.destroy();
    channel.destroy();
    expect(clear).not.toHaveBeenCalled();
  });
});

describe('createChannel with real timer functions (fake clock)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('delivers a queued message at the first poll after the channel appears, not before', () => {
    vi.useFakeTimers();
    const scope: HostScope = {};
    const timers: Timers = {
      setTimeout: (callback, ms) => setTimeout(callback, ms),
      clearTimeout: (handle) => clearTimeout(handle as number),
    };
    const channel = createChannel(adapters['react-native'], scope, names, timers);
    channel.deliver({ type: 'ready' });

    const native = recorder();
    vi.advanceTimersByTime(CHANNEL_POLL_MS * 2);
    scope['ReactNativeWebView'] = native.target;
    expect(native.payloads).toEqual([]);

    vi.advanceTimersByTime(CHANNEL_POLL_MS - 1);
    expect(native.payloads).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(native.payloads).toEqual(['{"type":"ready"}']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('leaves no timer behind after destroy', () => {
    vi.useFakeTimers();
    const timers: Timers = {
      setTimeout: (callback, ms) => setTimeout(callback, ms),
      clearTimeout: (handle) => clearTimeout(handle as number),
    };
    const channel = createChannel(adapters.android, {}, names, timers);
    channel.deliver({ type: 'ready' });
    expect(vi.getTimerCount()).toBe(1);

    channel.destroy();
    expect(vi.getTimerCount()).toBe(0);
  });

  it(`keeps the newest ${CHANNEL_QUEUE_LIMIT} events and, once the channel appears, first says how many were dropped`, () => {
    const clock = createVirtualClock();
    const scope: HostScope = {};
    const channel = createChannel(adapters.android, scope, names, clock);
    for (let n = 0; n < CHANNEL_QUEUE_LIMIT + 37; n++) channel.deliver(message(n));
    expect(channel.pending).toBe(CHANNEL_QUEUE_LIMIT);

    const native = recorder();
    scope['ChatBridgeAndroid'] = native.target;
    clock.advance(CHANNEL_POLL_MS);

    const delivered = native.payloads.map((payload) => JSON.parse(payload as string) as Record<string, unknown>);
    expect(delivered[0]).toEqual({
      type: 'error',
      code: 'channel_error',
      retryable: true,
      message: expect.stringMatching(/^\[channel\] 37 event\(s\) dropped$/) as unknown,
    });
    expect(delivered.slice(1)).toEqual(Array.from({ length: CHANNEL_QUEUE_LIMIT }, (_, i) => message(i + 37)));
    // Said once: the next event goes out alone.
    channel.deliver(message(-1));
    expect(native.payloads).toHaveLength(CHANNEL_QUEUE_LIMIT + 2);
  });

  it(`backs off from ${CHANNEL_POLL_MS} ms to 1 s and stops after ${CHANNEL_WAIT_MS} ms, calling onGiveUp once`, () => {
    const clock = createVirtualClock();
    const scope: HostScope = {};
    const gaveUp: number[] = [];
    const channel = createChannel(adapters.android, scope, names, clock, (waited) => gaveUp.push(waited));
    channel.deliver(message(1));
    const waits: number[] = [];
    // One poll timer at a time: step from one to the next, noting each wait.
    for (let due = clock.nextDue(); due !== undefined; due = clock.nextDue()) {
      waits.push(due - clock.now());
      clock.moveTo(due);
      clock.runOneDue();
    }
    expect(waits.slice(0, 6)).toEqual([50, 100, 200, 400, 800, 1000]);
    expect(waits.every((ms) => ms <= 1000)).toBe(true);
    const total = waits.reduce((sum, ms) => sum + ms, 0);
    expect(total).toBeGreaterThanOrEqual(CHANNEL_WAIT_MS);
    expect(total).toBeLessThan(CHANNEL_WAIT_MS + 1000);
    expect(gaveUp).toEqual([total]);

    // No timer any more; a new event tries the channel once, and finding it delivers everything.
    channel.deliver(message(2));
    expect(clock.pending).toBe(0);
    expect(gaveUp).toHaveLength(1);
    const native = recorder();
    scope['ChatBridgeAndroid'] = native.target;
    channel.deliver(message(3));
    expect(native.payloads.map((payload) => JSON.parse(payload as string))).toEqual([
      message(1),
      message(2),
      message(3),
    ]);
    expect(channel.pending).toBe(0);
  });
});

describe('createChannel: one crossing for what one frame delivers', () => {
  const state = (state: 'queued' | 'sending' | 'sent', attempt: number, progress?: number): OutboundMessage => ({
    type: 'message',
    messageId: 'm-1',
    state,
    attempt,
    ...(progress === undefined ? {} : { progress: { sentBytes: progress, totalBytes: 100 } }),
  });
  const response: OutboundMessage = { type: 'response', id: 'c1', ok: true, result: { id: 1 } };
  /** An iOS host's channel on a virtual clock, and what its handler received. */
  const iosChannel = () => {
    const clock = createVirtualClock();
    const native = recorder();
    const scope = { webkit: { messageHandlers: { chatBridge: native.target } } };
    return { clock, native, channel: createChannel(adapters.ios, scope, names, clock) };
  };

  it(`holds message-state events up to ${BATCH_WINDOW_MS} ms after the first, then posts them as one array, a lone one as itself`, () => {
    const clock = createVirtualClock();
    const native = recorder();
    const channel = createChannel(adapters['react-native'], { ReactNativeWebView: native.target }, names, clock);

    channel.deliver(state('queued', 0));
    channel.deliver(state('sending', 1));
    clock.advance(BATCH_WINDOW_MS - 1);
    expect(native.payloads).toEqual([]);
    expect(channel.pending).toBe(2);
    clock.advance(1);
    expect(native.payloads).toEqual([JSON.stringify([state('queued', 0), state('sending', 1)])]);

    channel.deliver(state('sent', 1));
    clock.advance(BATCH_WINDOW_MS);

    expect(native.payloads).toEqual([
      JSON.stringify([state('queued', 0), state('sending', 1)]),
      JSON.stringify(state('sent', 1)),
    ]);
    expect(channel.pending).toBe(0);
    expect(clock.pending).toBe(0);
  });

  it('posts a message answered within the window in one call: its states and its response, in order', () => {
    const { clock, native, channel } = iosChannel();

    channel.deliver(state('queued', 0));
    channel.deliver(state('sending', 1));
    clock.advance(BATCH_WINDOW_MS - 2);
    channel.deliver(state('sent', 1));
    channel.deliver(response);
    channel.deliver({ type: 'ready' });

    expect(native.payloads).toEqual([
      JSON.stringify([state('queued', 0), state('sending', 1), state('sent', 1), response]),
      '{"type":"ready"}',
    ]);
    expect(clock.pending).toBe(0);
  });

  it('posts a slow message in two calls: its first states a window after its command, the rest with its response', () => {
    const { clock, native, channel } = iosChannel();

    channel.deliver(state('queued', 0));
    channel.deliver(state('sending', 1));
    clock.advance(200);
    channel.deliver(state('sent', 1));
    channel.deliver(response);

    expect(native.payloads).toEqual([
      JSON.stringify([state('queued', 0), state('sending', 1)]),
      JSON.stringify([state('sent', 1), response]),
    ]);
  });

  it('does not let a steady stream of events postpone the post past the window of the first', () => {
    const { clock, native, channel } = iosChannel();

    // Upload progress every 5 ms: each post carries what came within the window of its first event.
    for (let at = 0; at < 40; at += 5) {
      clock.advance(at - clock.now());
      channel.deliver(state('sending', 1, at));
    }
    clock.advance(BATCH_WINDOW_MS);

    const progress = (payload: unknown) =>
      (JSON.parse(payload as string) as { progress: { sentBytes: number } }[]).map(
        (message) => message.progress.sentBytes,
      );
    expect(native.payloads.map(progress)).toEqual([
      [0, 5, 10, 15],
      [20, 25, 30, 35],
    ]);
    expect(clock.pending).toBe(0);
  });

  it('gives a browser page each message at once, in its own event', () => {
    const clock = createVirtualClock();
    const details: unknown[] = [];
    const events = new EventTarget();
    events.addEventListener(names.browserEvent, (event) => details.push((event as CustomEvent).detail));
    const scope: HostScope = { CustomEvent, dispatchEvent: (event: Event) => events.dispatchEvent(event) };
    const channel = createChannel(adapters.browser, scope, names, clock);

    channel.deliver(state('queued', 0));
    channel.deliver(state('sending', 1));

    expect(details).toEqual([state('queued', 0), state('sending', 1)]);
    expect(clock.pending).toBe(0);
  });

  it('counts what waits for the window as pending, and queues it as one payload while the channel is missing', () => {
    const clock = createVirtualClock();
    const scope: HostScope = {};
    const channel = createChannel(adapters.android, scope, names, clock);

    channel.deliver(state('queued', 0));
    channel.deliver(state('sending', 1));
    expect(channel.pending).toBe(2);
    clock.advance(BATCH_WINDOW_MS);
    expect(channel.pending).toBe(2);

    const native = recorder();
    scope[names.androidChannel] = native.target;
    runNextPoll(clock);

    expect(native.payloads).toEqual([JSON.stringify([state('queued', 0), state('sending', 1)])]);
    expect(channel.pending).toBe(0);
    expect(clock.pending).toBe(0);
  });

  it('posts what waits for the window on destroy, then nothing more', () => {
    const clock = createVirtualClock();
    const native = recorder();
    const channel = createChannel(adapters.android, { [names.androidChannel]: native.target }, names, clock);

    channel.deliver(state('queued', 0));
    channel.destroy();

    expect(native.payloads).toEqual([JSON.stringify(state('queued', 0))]);
    expect(clock.pending).toBe(0);
  });
});

/*
 * Issue 22, case 8: Chatwoot's widget loaded as the WebView's page calls
 * `window.ReactNativeWebView.postMessage('chatwoot-widget:' + JSON)` directly. On every host such
 * calls reach the bridge's inbound rules and become the same redacted widget events as posted
 * ones; where no ReactNativeWebView exists the bridge provides one; the bridge's own deliveries
 * go out unchanged; what is not the bridge's goes on to the channel.
 */
const WEBSITE_TOKEN = 'wt_page_calls_token_9f';
const CONVERSATION_TOKEN = 'cw_conversation_jwt_page_call';
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
const noFetch = () => Promise.reject(new Error('no request expected'));

/** What Chatwoot's RNHelper sends for `loaded`: the conversation's token and the website token. */
const LOADED = `chatwoot-widget:${JSON.stringify({
  event: 'loaded',
  config: { authToken: CONVERSATION_TOKEN, channelConfig: { websiteToken: WEBSITE_TOKEN, locale: 'en' } },
})}`;
const CLOSE = 'chatwoot-widget:{"type":"close-widget"}';

const bridges: Bridge[] = [];
afterEach(() => bridges.splice(0).forEach((bridge) => bridge.destroy()));

function start(host: HostName, channels: HostName[] = [host]): { t: InMemoryEnvironment; bridge: Bridge } {
  const t = createInMemoryEnvironment({ fetch: noFetch, channels });
  const options = normalizeOptions({ baseUrl: 'https://chat.example.test', websiteToken: WEBSITE_TOKEN, host }, '');
  const bridge = createBridge(options, t.env);
  bridges.push(bridge);
  return { t, bridge };
}

const pageCall = (t: InMemoryEnvironment, data: unknown) =>
  (t.env.scope['ReactNativeWebView'] as { postMessage(data: unknown): void }).postMessage(data);

describe('the widget calling window.ReactNativeWebView.postMessage directly', () => {
  it.each(['android', 'ios', 'flutter', 'browser'] as const)(
    'on %s, where no ReactNativeWebView exists, reaches the bridge through its stand-in, redacted',
    async (host) => {
      const { t } = start(host);
      pageCall(t, LOADED);
      pageCall(t, CLOSE);
      await settle();
      expect(t.messages()).toEqual([
        { type: 'ready' },
        { type: 'widget', event: 'loaded', data: { config: { channelConfig: { locale: 'en' } } } },
        { type: 'widget', event: 'close-widget', data: {} },
      ]);
      const text = JSON.stringify(t.deliveries);
      expect(text).not.toContain(WEBSITE_TOKEN);
      expect(text).not.toContain(CONVERSATION_TOKEN);
    },
  );

  it('on react-native, becomes widget events and never reaches the native side raw; the bridge delivers unchanged', async () => {
    const { t } = start('react-native');
    pageCall(t, LOADED);
    pageCall(t, CLOSE);
    await settle();
    expect(t.deliveries.map((delivery) => delivery.payload)).toEqual([
      '{"type":"ready"}',
      '{"type":"widget","event":"loaded","data":{"config":{"channelConfig":{"locale":"en"}}}}',
      '{"type":"widget","event":"close-widget","data":{}}',
    ]);
  });

  it('on react-native, passes what is not the bridge on to the channel (the host probe, other scripts)', async () => {
    const { t } = start('react-native');
    pageCall(t, '{"type":"ready","probe":"p1.abc","href":"https://chat.example.test/"}');
    pageCall(t, 'some other script');
    await settle();
    expect(t.deliveries.map((delivery) => delivery.payload)).toEqual([
      '{"type":"ready"}',
      '{"type":"ready","probe":"p1.abc","href":"https://chat.example.test/"}',
      'some other script',
    ]);
  });

  it('on flutter with its channel named ReactNativeWebView (as Chatwoot names it), is guarded the same', async () => {
    const t = createInMemoryEnvironment({
      fetch: noFetch,
      channels: [],
      names: { ...DEFAULTS, flutterChannel: 'ReactNativeWebView' },
    });
    const received: unknown[] = [];
    t.env.scope['ReactNativeWebView'] = { postMessage: (payload: unknown) => received.push(payload) };
    const options = normalizeOptions(
      {
        baseUrl: 'https://chat.example.test',
        websiteToken: WEBSITE_TOKEN,
        host: 'flutter',
        flutterChannel: 'ReactNativeWebView',
      },
      '',
    );
    bridges.push(createBridge(options, t.env));
    pageCall(t, LOADED);
    await settle();
    expect(received).toEqual([
      '{"type":"ready"}',
      '{"type":"widget","event":"loaded","data":{"config":{"channelConfig":{"locale":"en"}}}}',
    ]);
  });

  it('is refused by the inbound rules like a posted message: a bad widget message is one parse_error', async () => {
    const { t } = start('android');
    pageCall(t, 'chatwoot-widget:{not json');
    await settle();
    expect(t.messages()[1]).toMatchObject({ type: 'error', code: 'parse_error' });
  });

  it('goes nowhere once the bridge is destroyed', async () => {
    const { t, bridge } = start('android');
    bridge.destroy();
    pageCall(t, LOADED);
    await settle();
    expect(t.messages()).toEqual([{ type: 'ready' }]);
  });
});
