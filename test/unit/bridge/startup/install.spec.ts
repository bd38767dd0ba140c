// @vitest-environment happy-dom
/**
 * The injected script as a WebView runs it: the REAL built bundle, dist/chat-bridge.js,
 * evaluated in a happy-dom window (and the starter, dist/chat-bridge.start.js, before it). Commands used here (an unknown method) and widget messages
 * are answered without any HTTP, so no backend is needed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatBridgeGlobal } from '../../../../bridge/startup/install.js';
import type { OutboundMessage } from '../../../../bridge/protocol/messages.js';
import { EARLY_COMMAND_LIMIT } from '../../../../bridge/startup/early-buffer.js';
import { STARTER_EVENT_LIMIT, STARTER_TEXT_LIMIT, type StarterHandover } from '../../../../bridge/startup/starter.js';
// Only the host side (no zod inside), so this file adds nothing to `window` itself.
import { createReactNativeHost } from '../../../../host-adapters/react-native-host.js';

// Paths from the file's own location (happy-dom replaces the global URL, so no `new URL(..., import.meta.url)`).
const root = resolve(fileURLToPath(import.meta.url), '../../../../..');
const bundlePath = resolve(root, 'dist/chat-bridge.js');
const debugBundlePath = resolve(root, 'dist/chat-bridge.debug.js');
const starterPath = resolve(root, 'dist/chat-bridge.start.js');
let source = '';
let debugSource = '';
let starterSource = '';

beforeAll(() => {
  if (![bundlePath, debugBundlePath, starterPath].every(existsSync))
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  source = readFileSync(bundlePath, 'utf8');
  debugSource = readFileSync(debugBundlePath, 'utf8');
  starterSource = readFileSync(starterPath, 'utf8');
});

type TestWindow = Window &
  typeof globalThis & { ChatBridge?: ChatBridgeGlobal; chatBridgeSettings?: unknown; ReactNativeWebView?: unknown };
const win = window as TestWindow;

/** Evaluates the bundle in the window's global scope, as `injectedJavaScript` would. */
const inject = (script = source) => void (0, win.eval)(script);

function chatBridge(): ChatBridgeGlobal {
  const global = win.ChatBridge;
  if (global === undefined) throw new Error('window.ChatBridge is not defined');
  return global;
}

const BASE_URL = 'https://chat.example.test/api/v1';
/** Browser host, so deliveries are `chatbridge` CustomEvents on window; any origin, so synthetic events pass. */
const options = { baseUrl: BASE_URL, host: 'browser', allowedOrigins: '*' } as const;

let delivered: OutboundMessage[] = [];
const collect = (event: Event) => void delivered.push((event as CustomEvent<OutboundMessage>).detail);
const widgetMessage = `chatwoot-widget:${JSON.stringify({ event: 'loaded', locale: 'en' })}`;
const widgetDeliveries = () => delivered.filter((message) => message.type === 'widget');
const responsesTo = (id: string) => delivered.filter((message) => message.type === 'response' && message.id === id);
const post = (data: unknown, target: EventTarget = win, init: MessageEventInit = {}) =>
  target.dispatchEvent(new MessageEvent('message', { data, bubbles: true, ...init }));
/**
 * The bridge is built in the task after install (bridge/startup/deferred-start.ts); window messages that
 * come before are kept and handled then. A real postMessage is a task of its own anyway.
 */
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));
/** What the host got, in short: types, with the id of each response. */
const summary = () =>
  delivered.map((message) => (message.type === 'response' ? `response ${message.id}` : message.type));

beforeEach(() => {
  delivered = [];
  win.addEventListener('chatbridge', collect);
});

afterEach(() => {
  win.removeEventListener('chatbridge', collect);
  win.ChatBridge?.destroy();
  // Each test injects into a clean window: the global is configurable on purpose, for this.
  delete win.ChatBridge;
  delete win.chatBridgeSettings;
  delete win.ReactNativeWebView;
  delete (win as { __zod_globalConfig?: unknown }).__zod_globalConfig;
  win.localStorage.clear();
  vi.restoreAllMocks();
});

describe('the injected bundle', () => {
  it('defines exactly one new global, ChatBridge, and installing adds none', () => {
    const before = new Set(Object.getOwnPropertyNames(win));
    inject();
    const added = () => Object.getOwnPropertyNames(win).filter((name) => !before.has(name));

    expect(added()).toEqual(['ChatBridge']);
    chatBridge().install(options);
    expect(added()).toEqual(['ChatBridge']);
  });

  it('exposes install, receive, recording, bridge, destroy and the package version', () => {
    inject();
    const { version } = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { version: string };
    const global = chatBridge();
    expect(global.version).toBe(version);
    expect(typeof global.install).toBe('function');
    expect(typeof global.receive).toBe('function');
    expect(global.recording()).toBe('');
    expect(global.bridge).toBeUndefined();
  });

  it('does not install itself without window.chatBridgeSettings', () => {
    inject();
    expect(chatBridge().bridge).toBeUndefined();
    expect(delivered).toEqual([]);
  });

  it('installs itself when window.chatBridgeSettings is set before injection', () => {
    win.chatBridgeSettings = { ...options, browserEvent: 'acme-chat' };
    const acme: unknown[] = [];
    win.addEventListener('acme-chat', (event) => acme.push((event as CustomEvent).detail));

    inject();

    expect(chatBridge().bridge?.host).toBe('browser');
    expect(acme).toEqual([{ type: 'ready' }]);
    expect(delivered).toEqual([]); // the custom event name was honoured
  });

  it('reports bad injected settings with console.error and keeps the global usable', () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    win.chatBridgeSettings = { baseUrl: 'ftp://chat.example.test', host: 'browser' };

    inject();

    expect(consoleError).toHaveBeenCalledTimes(1);
    expect(String(consoleError.mock.calls[0]?.[0])).toMatch(/"baseUrl"/);
    expect(chatBridge().bridge).toBeUndefined();
    // Options given to install win over the injected ones.
    expect(chatBridge().install({ baseUrl: BASE_URL }).host).toBe('browser');
  });

  it('evaluated twice, keeps the first ChatBridge and one bridge: a widget message posted once is delivered once', async () => {
    inject();
    const first = chatBridge();
    first.install(options);

    inject();

    expect(win.ChatBridge).toBe(first);
    post(widgetMessage);
    await nextTask();
    expect(widgetDeliveries()).toEqual([{ type: 'widget', event: 'loaded', data: { locale: 'en' } }]);
  });

  it('evaluated twice with injected settings, installs once: one ready, one delivery per event', async () => {
    win.chatBridgeSettings = options;
    inject();
    inject();

    post(widgetMessage);
    await nextTask();
    expect(delivered.map((message) => message.type)).toEqual(['ready', 'widget']);
  });
});

describe('ChatBridge.install', () => {
  it('a second install replaces the bridge: one set of listeners, one delivery per event', () => {
    inject();
    const first = chatBridge().install(options);
    const second = chatBridge().install(options);

    expect(second).not.toBe(first);
    expect(chatBridge().bridge).toBe(second);
    post(widgetMessage);
    expect(widgetDeliveries()).toHaveLength(1);

    // The replaced bridge is gone: a command handed to it directly is not answered.
    first.receive({ id: 'to-old', method: 'nope' });
    expect(responsesTo('to-old')).toEqual([]);
  });

  it('merges its options over window.chatBridgeSettings', () => {
    win.chatBridgeSettings = { baseUrl: 'https://ignored.example.test', host: 'android', browserEvent: 'acme-chat' };
    inject(); // installs with the injected settings (android, channel not present yet)
    const bridge = chatBridge().install({ host: 'browser', baseUrl: BASE_URL });
    expect(bridge.host).toBe('browser');

    // browserEvent still comes from the injected settings.
    const acme: OutboundMessage[] = [];
    win.addEventListener('acme-chat', (event) => acme.push((event as CustomEvent<OutboundMessage>).detail));
    bridge.receive({ id: 'x', method: 'nope' });
    expect(acme.map((message) => message.type)).toEqual(['response', 'error']);
  });

  it.each([
    ['baseUrl', { host: 'browser' }],
    ['baseUrl', { baseUrl: 'chat.example.test/api' }],
    ['host', { baseUrl: BASE_URL, host: 'windows-phone' }],
    ['allowedOrigins', { baseUrl: BASE_URL, allowedOrigins: 'https://a.example.test' }],
    ['maxFileSize', { baseUrl: BASE_URL, maxFileSize: -1 }],
    ['retry.limit', { baseUrl: BASE_URL, retry: { limit: 1.5 } }],
  ])('throws one clear OptionsError naming "%s" for a bad value', (option, bad) => {
    inject();
    let thrown: unknown;
    try {
      chatBridge().install(bad as never);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).name).toBe('OptionsError');
    expect((thrown as Error).message).toContain(`ChatBridge option "${option}"`);
  });

  it('keeps the running bridge when a reinstall is refused for bad options', async () => {
    inject();
    const running = chatBridge().install(options);
    expect(() => chatBridge().install({ baseUrl: 'nope' })).toThrow(/"baseUrl"/);
    expect(chatBridge().bridge).toBe(running);
    post(widgetMessage);
    await nextTask();
    expect(widgetDeliveries()).toHaveLength(1);
  });
});

describe('record: true and the two bundles', () => {
  it('the plain bundle refuses record: true with an OptionsError that names the debug script, keeping the running bridge', async () => {
    inject();
    const running = chatBridge().install(options);
    expect(() => chatBridge().install({ ...options, record: true })).toThrow(
      /ChatBridge option "record" needs dist\/chat-bridge\.debug\.js/,
    );
    expect(chatBridge().bridge).toBe(running);
    post(widgetMessage);
    await nextTask();
    expect(widgetDeliveries()).toHaveLength(1);
  });

  it('the plain bundle with injected record: true says so on the console and keeps the global usable', () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    win.chatBridgeSettings = { ...options, record: true };
    inject();
    expect(consoleError).toHaveBeenCalledTimes(1);
    expect(String(consoleError.mock.calls[0]?.[0])).toMatch(/chat-bridge\.debug\.js/);
    expect(chatBridge().bridge).toBeUndefined();
    expect(chatBridge().install({ record: false }).host).toBe('browser');
  });

  it('the debug bundle defines the same one global with the same API, and records', () => {
    win.chatBridgeSettings = { ...options, record: true, websiteToken: 'wt_never_in_a_recording' };
    const before = new Set(Object.getOwnPropertyNames(win));
    inject(debugSource);
    expect(Object.getOwnPropertyNames(win).filter((name) => !before.has(name))).toEqual(['ChatBridge']);
    expect(Object.keys(chatBridge()).sort()).toEqual([
      'bridge',
      'destroy',
      'install',
      'receive',
      'recording',
      'version',
    ]);

    chatBridge().receive({ id: 'rec-1', method: 'nope' });
    post(widgetMessage);

    const steps = chatBridge()
      .recording()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((step) => step['step'] !== 'advance'); // real time passes between the steps
    expect(steps.map((step) => step['step'])).toEqual(['config', 'host', 'post']);
    expect(steps[0]).toMatchObject({ options: { baseUrl: BASE_URL, websiteToken: '<redacted>' } });
    expect(steps[0]?.['options']).not.toHaveProperty('record');
    expect(steps[1]).toEqual({ step: 'host', data: { id: 'rec-1', method: 'nope' } });
    expect(chatBridge().recording()).not.toContain('wt_never_in_a_recording');
  });

  it('is smaller without the recorder than the debug bundle with it', () => {
    expect(source.length).toBeLessThan(debugSource.length);
    // The recorder's own wording appears only in the debug bundle.
    expect(debugSource).toContain('Retry-After');
    // The string 'advance', in whichever quotes the minifiers wrote it.
    const advance = /(["'`])advance\1/;
    expect(source).not.toMatch(advance);
    expect(debugSource).toMatch(advance);
  });
});

describe('the bridge is built in the task after install', () => {
  it('install checks the options and returns; ready comes in the next task', async () => {
    inject();
    const bridge = chatBridge().install(options);
    expect(chatBridge().bridge).toBe(bridge);
    expect(delivered).toEqual([]);

    await nextTask();
    expect(delivered).toEqual([{ type: 'ready' }]);
  });

  it('keeps window messages that come before, and handles each once, in order, after ready', async () => {
    inject();
    chatBridge().install(options);
    post(widgetMessage);
    post({ id: 'kept-1', method: 'nope' }, win.document, { bubbles: true }); // passes document and window
    post('{"id":"kept-2","method":"nope"}', win);
    expect(delivered).toEqual([]);

    await nextTask();
    expect(delivered.map((message) => (message.type === 'response' ? `response ${message.id}` : message.type))).toEqual(
      ['ready', 'widget', 'response kept-1', 'error', 'response kept-2', 'error'],
    );
  });

  it('a command handed to receive builds it at once: ready, the kept messages, then the command', () => {
    inject();
    chatBridge().install(options);
    post(widgetMessage);
    chatBridge().receive({ id: 'now', method: 'nope' });
    expect(delivered.map((message) => (message.type === 'response' ? `response ${message.id}` : message.type))).toEqual(
      ['ready', 'widget', 'response now', 'error'],
    );
  });

  it('an offline event that comes before is kept too: a message that fails then waits for the network', async () => {
    vi.spyOn(win, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'));
    inject();
    chatBridge().install({ ...options, websiteToken: 'wt_install_spec' });
    win.dispatchEvent(new Event('offline'));
    await nextTask();

    chatBridge().receive({ id: 'offline-send', method: 'sendMessage', params: { content: 'hello' } });
    const retried = () => delivered.find((m) => m.type === 'message' && m.state === 'queued' && m.attempt === 1);
    await vi.waitFor(() => expect(retried()).toBeDefined());
    // Offline, a failed attempt waits for the `online` event rather than for a retry time.
    expect(retried()).not.toHaveProperty('nextAttemptAt');
  });

  it('destroyed before it was built, it is built and destroyed: one ready, and nothing handled after', async () => {
    inject();
    chatBridge().install(options);
    chatBridge().destroy();
    post({ id: 'after', method: 'nope' });
    await nextTask();
    expect(delivered).toEqual([{ type: 'ready' }]);
  });
});

describe('ChatBridge.receive', () => {
  it('buffers commands received before install and handles them, in order, right after ready', () => {
    inject();
    chatBridge().receive({ id: 'early-1', method: 'nope' });
    chatBridge().receive(JSON.stringify({ id: 'early-2', method: 'nope' }));
    expect(delivered).toEqual([]);

    chatBridge().install(options);

    expect(delivered.map((message) => (message.type === 'response' ? `response ${message.id}` : message.type))).toEqual(
      ['ready', 'response early-1', 'error', 'response early-2', 'error'],
    );
    expect(responsesTo('early-1')[0]).toMatchObject({ ok: false, error: { code: 'unknown_method' } });
  });

  it('keeps the order of commands received before install, ahead of one a host sends as it hears ready', () => {
    inject();
    chatBridge().receive({ id: 'early-1', method: 'nope' });
    chatBridge().receive({ id: 'early-2', method: 'nope' });
    // A page's host answers `ready` at once, in the same call (the browser host's events are synchronous).
    const answerReady = (event: Event) => {
      if ((event as CustomEvent<OutboundMessage>).detail.type === 'ready')
        chatBridge().receive({ id: 'on-ready', method: 'nope' });
    };
    win.addEventListener('chatbridge', answerReady);

    chatBridge().install(options);
    win.removeEventListener('chatbridge', answerReady);

    expect(summary().filter((line) => line.startsWith('response'))).toEqual([
      'response early-1',
      'response early-2',
      'response on-ready',
    ]);
  });

  it('answers an object that cannot be serialised (a cycle) on its id, so its call is not left waiting', () => {
    inject();
    chatBridge().install(options);
    const cyclic: Record<string, unknown> = { id: 'cyclic-1', method: 'init' };
    cyclic['self'] = cyclic;
    chatBridge().receive(cyclic);
    expect(responsesTo('cyclic-1')).toEqual([
      expect.objectContaining({ ok: false, error: expect.objectContaining({ code: 'parse_error' }) }),
    ]);
  });

  it('hands a command to the running bridge and answers it once', () => {
    inject();
    chatBridge().install(options);
    chatBridge().receive('chat-bridge:{"id":"r1","method":"nope"}');
    expect(responsesTo('r1')).toHaveLength(1);
  });
});

describe('host commands posted as message events', () => {
  beforeEach(async () => {
    inject();
    chatBridge().install(options);
    await nextTask(); // built: from here on, each message is handled as it is dispatched
  });

  it.each([
    ['an object envelope', { id: 'w1', method: 'nope' }],
    ['JSON text', '{"id":"w1","method":"nope"}'],
    ["'chat-bridge:' + JSON", 'chat-bridge:{"id":"w1","method":"nope"}'],
  ])('handles %s dispatched on window exactly once', (_, data) => {
    post(data, win);
    expect(responsesTo('w1')).toEqual([
      {
        type: 'response',
        id: 'w1',
        ok: false,
        error: expect.objectContaining({ type: 'error', code: 'unknown_method' }),
      },
    ]);
  });

  it('handles a command dispatched on document exactly once, although it bubbles on to window', () => {
    let reachedWindow = false;
    const onWindow = () => void (reachedWindow = true);
    win.addEventListener('message', onWindow);

    post({ id: 'd1', method: 'nope' }, win.document, { bubbles: true });
    win.removeEventListener('message', onWindow);

    // The premise: happy-dom propagates a bubbling document event to window, as browsers do.
    expect(reachedWindow).toBe(true);
    expect(responsesTo('d1')).toHaveLength(1);
  });

  it('handles a non-bubbling command dispatched on document (react-native-webview on Android)', () => {
    post({ id: 'd2', method: 'nope' }, win.document, { bubbles: false });
    expect(responsesTo('d2')).toHaveLength(1);
  });

  it('ignores foreign traffic without a word', () => {
    post('webpackHotUpdate');
    post({ type: 'devtools' });
    post('{"foo":1}');
    expect(delivered.filter((message) => message.type !== 'ready')).toEqual([]);
  });
});

describe('origin checks with the default allowedOrigins', () => {
  beforeEach(async () => {
    inject();
    chatBridge().install({ baseUrl: BASE_URL, host: 'browser' });
    await nextTask();
  });

  it('accepts widget messages from the API origin, the page origin and same-realm synthetic events', () => {
    post(widgetMessage, win, { origin: 'https://chat.example.test' });
    post(widgetMessage, win, { origin: win.location.origin });
    post(widgetMessage, win, { origin: '' });
    expect(widgetDeliveries()).toHaveLength(3);
  });

  it('drops widget messages and commands from any other origin silently', () => {
    post(widgetMessage, win, { origin: 'https://evil.example.test' });
    post({ id: 'o1', method: 'nope' }, win, { origin: 'https://evil.example.test' });
    expect(delivered.filter((message) => message.type !== 'ready')).toEqual([]);
  });
});

describe('ChatBridge.destroy', () => {
  it('removes every listener: later messages are not handled and the bridge is gone', async () => {
    inject();
    chatBridge().install(options);
    chatBridge().destroy();

    expect(chatBridge().bridge).toBeUndefined();
    post(widgetMessage);
    post({ id: 'after', method: 'nope' }, win.document);
    await nextTask();
    expect(delivered.map((message) => message.type)).toEqual(['ready']);
  });

  it('may be called twice, and a later install starts a fresh bridge', async () => {
    inject();
    chatBridge().install(options);
    chatBridge().destroy();
    chatBridge().destroy();

    chatBridge().install(options);
    post(widgetMessage);
    await nextTask();
    expect(delivered.map((message) => message.type)).toEqual(['ready', 'ready', 'widget']);
  });
});

describe('commands running when the bridge goes', () => {
  /** A backend that takes every request and never answers. */
  const hangFetch = () => vi.spyOn(win, 'fetch').mockImplementation(() => new Promise<Response>(() => undefined));
  const withToken = { ...options, websiteToken: 'wt_install_spec' };

  it('a second install answers the command the first bridge was running with network_error, once', async () => {
    hangFetch();
    inject();
    chatBridge().install(withToken);
    chatBridge().receive({ id: 'slow-init', method: 'init' });
    await Promise.resolve();
    expect(responsesTo('slow-init')).toEqual([]);

    chatBridge().install(withToken);

    expect(responsesTo('slow-init')).toEqual([
      {
        type: 'response',
        id: 'slow-init',
        ok: false,
        error: {
          type: 'error',
          code: 'network_error',
          retryable: true,
          message: '[init] bridge reinstalled',
        },
      },
    ]);
    // The answer comes before the new bridge's ready, so a host can tell which bridge it came from.
    await nextTask();
    expect(delivered.map((message) => message.type)).toEqual(['ready', 'response', 'error', 'ready']);
    expect(chatBridge().bridge?.stats().pendingCommands).toBe(0);
  });

  it('ChatBridge.destroy answers the running command with network_error saying the bridge was destroyed', async () => {
    hangFetch();
    inject();
    chatBridge().install(withToken);
    chatBridge().receive({ id: 'slow-conversation', method: 'getConversation' });
    await Promise.resolve();

    chatBridge().destroy();

    expect(responsesTo('slow-conversation')).toEqual([
      expect.objectContaining({
        ok: false,
        error: expect.objectContaining({
          code: 'network_error',
          message: '[getConversation] bridge destroyed',
        }),
      }),
    ]);
  });
});

describe('with the react-native host side', () => {
  it('injectedJavaScript installs the real bundle as host react-native, and a client call round-trips through it', async () => {
    const events: OutboundMessage[] = [];
    const host = createReactNativeHost({
      onEvent: (event) => void events.push(event),
      webView: () => ({ injectJavaScript: (script) => inject(script) }),
    });
    // react-native-webview's channel, delivering to <WebView onMessage> as a string.
    const posted: unknown[] = [];
    win.ReactNativeWebView = {
      postMessage(data: unknown) {
        posted.push(data);
        host.onMessage({ nativeEvent: { data: data as string } });
      },
    };

    inject(host.injectedJavaScript({ baseUrl: BASE_URL }, source));

    expect(chatBridge().bridge?.host).toBe('react-native');
    expect(events).toEqual([{ type: 'ready' }]);
    expect(posted.every((data) => typeof data === 'string')).toBe(true);

    await expect(host.client.call('nope', { a: 1 })).rejects.toMatchObject({
      name: 'ChatBridgeError',
      code: 'unknown_method',
    });
    // The response settled the call; the error event that follows a failed command reached onEvent.
    expect(events.map((event) => (event.type === 'error' ? event.code : event.type))).toEqual([
      'ready',
      'unknown_method',
    ]);
    expect(delivered).toEqual([]); // nothing went through the browser channel
  });

  it('after a false onLoadStart the probe finds the real bundle still running, and held calls go to it', async () => {
    const events: OutboundMessage[] = [];
    const host = createReactNativeHost({
      onEvent: (event) => void events.push(event),
      webView: () => ({ injectJavaScript: (script) => inject(script) }),
    });
    win.ReactNativeWebView = {
      postMessage: (data: unknown) => queueMicrotask(() => host.onMessage({ nativeEvent: { data: data as string } })),
    };
    inject(host.injectedJavaScript({ baseUrl: BASE_URL }, source));
    await nextTask(); // the bridge is built and its ready has reached the host

    host.onLoadStart({ nativeEvent: { url: win.location.href } }); // a hash change: same document, same bridge
    const call = host.client.call('nope');
    await expect(call).rejects.toMatchObject({ code: 'unknown_method' });
    // One ready from the bundle; the probe's answer stays with the host.
    expect(events.filter((event) => event.type === 'ready')).toHaveLength(1);
  });
});

describe('the starter alone', () => {
  it('defines ChatBridge with the same methods, checks options at install, and delivers nothing', async () => {
    inject(starterSource);
    const global = chatBridge();
    expect(Object.keys(global)).toEqual(
      expect.arrayContaining(['version', 'install', 'receive', 'recording', 'bridge', 'destroy']),
    );
    expect(() => global.install({ baseUrl: 'nope' })).toThrow(/"baseUrl"/);
    global.install(options);
    global.receive('{"id":"c1","method":"nope"}');
    post(widgetMessage);
    await nextTask();
    await nextTask();
    expect(global.bridge).toBeUndefined();
    expect(global.recording()).toBe('');
    expect(delivered).toEqual([]);
  });

  it('installs itself from window.chatBridgeSettings; bad ones are logged and the global stays', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    win.chatBridgeSettings = { baseUrl: 'ftp://nope' };
    inject(starterSource);
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ message: expect.stringContaining('"baseUrl"') }));
    expect(typeof chatBridge().install).toBe('function');
  });

  it('evaluated after the bundle, does nothing: the bundle keeps the page', async () => {
    inject(source);
    const bundle = chatBridge();
    inject(starterSource);
    expect(chatBridge()).toBe(bundle);
  });
});

describe('the bundle after the starter', () => {
  it('takes over: installs with its options and handles what it kept, each once, in order, after ready', async () => {
    win.chatBridgeSettings = { baseUrl: 'https://other.example.test/api', host: 'android' };
    inject(starterSource);
    chatBridge().install(options); // over the injected settings
    post(widgetMessage);
    post({ id: 'early-1', method: 'nope' }, win.document); // bubbles: passes document and window
    chatBridge().receive('{"id":"early-2","method":"nope"}');
    inject(source);
    expect(chatBridge().version).toMatch(/^\d+\.\d+\.\d+$/);
    await nextTask();
    expect(chatBridge().bridge?.host).toBe('browser');
    expect(summary()).toEqual(['ready', 'widget', 'response early-1', 'error', 'response early-2', 'error']);
    // Listening now is the bridge alone: a later message is handled once.
    post(widgetMessage);
    expect(summary().filter((type) => type === 'widget')).toHaveLength(2);
  });

  it('a starter never installed: its events wait for the first install, its commands too', async () => {
    inject(starterSource);
    post(widgetMessage);
    chatBridge().receive('{"id":"early","method":"nope"}');
    inject(source);
    await nextTask();
    expect(chatBridge().bridge).toBeUndefined();
    expect(delivered).toEqual([]);
    chatBridge().install(options);
    await nextTask();
    expect(summary()).toEqual(['ready', 'widget', 'response early', 'error']);
  });

  it(`keeps at most ${STARTER_EVENT_LIMIT} events and ${EARLY_COMMAND_LIMIT} commands, and the bridge tells how many it dropped, once, after ready`, async () => {
    inject(starterSource);
    chatBridge().install(options);
    for (let i = 0; i < STARTER_EVENT_LIMIT + 5; i++) post(widgetMessage);
    for (let i = 0; i < EARLY_COMMAND_LIMIT + 5; i++) chatBridge().receive(`{"id":"c${i}","method":"nope"}`);
    inject(source);
    await nextTask();
    expect(summary().filter((type) => type === 'widget')).toHaveLength(STARTER_EVENT_LIMIT);
    expect(delivered.filter((message) => message.type === 'response')).toHaveLength(EARLY_COMMAND_LIMIT);
    expect(delivered.slice(0, 2)).toEqual([
      { type: 'ready' },
      { type: 'error', code: 'channel_error', retryable: true, message: '[starter] 10 event(s) dropped' },
    ]);
    expect(delivered.filter((message) => message.type === 'error' && message.code === 'channel_error')).toHaveLength(1);
  });

  it(`keeps at most ${STARTER_TEXT_LIMIT} characters of message data, however few the messages`, async () => {
    inject(starterSource);
    // Messages this long are the bridge's to take, so only the starter's limit is in play.
    chatBridge().install({ ...options, maxMessageLength: STARTER_TEXT_LIMIT });
    const big = `chatwoot-widget:${JSON.stringify({ event: 'big', pad: 'x'.repeat(STARTER_TEXT_LIMIT / 4) })}`;
    for (let i = 0; i < 6; i++) post(big);
    post(widgetMessage);
    inject(source);
    await nextTask();
    // Three fit under the limit; the other three are dropped; the small one after them still fits.
    expect(summary().filter((type) => type === 'widget')).toHaveLength(4);
    expect(delivered[1]).toEqual({
      type: 'error',
      code: 'channel_error',
      retryable: true,
      message: '[starter] 3 event(s) dropped',
    });
  });

  it("ignores other origins' messages by the bridge's rule: they use up no limit and are not counted", async () => {
    inject(starterSource);
    chatBridge().install({ ...options, allowedOrigins: ['https://widget.example.test'] });
    for (let i = 0; i < STARTER_EVENT_LIMIT + 5; i++) post(widgetMessage, win, { origin: 'https://evil.example.test' });
    post(widgetMessage, win, { origin: 'https://widget.example.test' });
    inject(source);
    await nextTask();
    expect(summary()).toEqual(['ready', 'widget']);
  });

  it('before install, keeps messages from the page itself only', async () => {
    inject(starterSource);
    post(widgetMessage, win, { origin: 'https://evil.example.test' });
    post(widgetMessage, win, { origin: win.location.origin });
    inject(source);
    chatBridge().install(options);
    await nextTask();
    expect(summary()).toEqual(['ready', 'widget']);
  });

  it('takeOver hands over once: a second call gets nothing and changes nothing', async () => {
    inject(starterSource);
    chatBridge().install(options);
    post(widgetMessage);
    chatBridge().receive('{"id":"early","method":"nope"}');
    const starter = chatBridge() as unknown as { takeOver(): StarterHandover };
    const first = starter.takeOver();
    expect(first.events).toHaveLength(1);
    expect(first.commands).toHaveLength(1);
    expect(first.options).toMatchObject({ baseUrl: BASE_URL });
    expect(starter.takeOver()).toEqual({ options: undefined, events: [], commands: [], dropped: 0 });
    expect(starter.takeOver()).toEqual({ options: undefined, events: [], commands: [], dropped: 0 });
  });

  it('a destroyed starter hands over nothing: no install, nothing kept', async () => {
    inject(starterSource);
    chatBridge().install(options);
    post(widgetMessage);
    chatBridge().receive('{"id":"early","method":"nope"}');
    chatBridge().destroy();
    post(widgetMessage);
    inject(source);
    await nextTask();
    expect(chatBridge().bridge).toBeUndefined();
    chatBridge().install(options);
    await nextTask();
    expect(summary()).toEqual(['ready']);
  });

  it('options the bundle refuses (record: true without the debug bundle) are logged; the debug bundle takes them', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    inject(starterSource);
    chatBridge().install({ ...options, record: true });
    inject(source);
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ message: expect.stringContaining('debug') }));
    expect(chatBridge().bridge).toBeUndefined();
    chatBridge().destroy();
    delete win.ChatBridge;

    inject(starterSource);
    chatBridge().install({ ...options, record: true });
    post(widgetMessage);
    inject(debugSource);
    await nextTask();
    expect(summary()).toEqual(['ready', 'widget']);
    expect(chatBridge().recording()).toContain('"step":"post"');
  });
});
