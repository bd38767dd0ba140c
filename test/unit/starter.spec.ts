// @vitest-environment happy-dom
/**
 * The starter (bridge/starter.ts) and the bundle taking its place, as a WebView runs them: the
 * REAL built scripts, dist/chat-bridge.start.js and dist/chat-bridge.js, evaluated in a happy-dom
 * window. Commands used here (an unknown method) and widget messages are answered without HTTP.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatBridgeGlobal } from '../../bridge/install.js';
import type { OutboundMessage } from '../../bridge/outbound/messages.js';
import { EARLY_COMMAND_LIMIT, STARTER_EVENT_LIMIT } from '../../bridge/starter.js';

// Paths from the file's own location (happy-dom replaces the global URL).
const root = resolve(fileURLToPath(import.meta.url), '../../..');
const paths = {
  bundle: resolve(root, 'dist/chat-bridge.js'),
  debug: resolve(root, 'dist/chat-bridge.debug.js'),
  starter: resolve(root, 'dist/chat-bridge.start.js'),
};
const sources = { bundle: '', debug: '', starter: '' };

beforeAll(() => {
  if (!Object.values(paths).every(existsSync))
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  for (const name of ['bundle', 'debug', 'starter'] as const) sources[name] = readFileSync(paths[name], 'utf8');
});

type TestWindow = Window & typeof globalThis & { ChatBridge?: ChatBridgeGlobal; chatBridgeSettings?: unknown };
const win = window as TestWindow;
const inject = (script: string) => void (0, win.eval)(script);
const chatBridge = () => win.ChatBridge as ChatBridgeGlobal;

const BASE_URL = 'https://chat.example.test/api/v1';
/** Browser host, so deliveries are `chatbridge` CustomEvents on window; any origin, so synthetic events pass. */
const options = { baseUrl: BASE_URL, host: 'browser', allowedOrigins: '*' } as const;

let delivered: OutboundMessage[] = [];
const collect = (event: Event) => void delivered.push((event as CustomEvent<OutboundMessage>).detail);
const widgetMessage = `chatwoot-widget:${JSON.stringify({ event: 'loaded', locale: 'en' })}`;
const post = (data: unknown, target: EventTarget = win) =>
  target.dispatchEvent(new MessageEvent('message', { data, bubbles: true }));
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
  delete win.ChatBridge;
  delete win.chatBridgeSettings;
  win.localStorage.clear();
  vi.restoreAllMocks();
});

describe('the starter alone', () => {
  it('defines ChatBridge with the same methods, checks options at install, and delivers nothing', async () => {
    inject(sources.starter);
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
    inject(sources.starter);
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ message: expect.stringContaining('"baseUrl"') }));
    expect(typeof chatBridge().install).toBe('function');
  });

  it('evaluated after the bundle, does nothing: the bundle keeps the page', async () => {
    inject(sources.bundle);
    const bundle = chatBridge();
    inject(sources.starter);
    expect(chatBridge()).toBe(bundle);
  });
});

describe('the bundle after the starter', () => {
  it('takes over: installs with its options and handles what it kept, each once, in order, after ready', async () => {
    win.chatBridgeSettings = { baseUrl: 'https://other.example.test/api', host: 'android' };
    inject(sources.starter);
    chatBridge().install(options); // over the injected settings
    post(widgetMessage);
    post({ id: 'early-1', method: 'nope' }, win.document); // bubbles: passes document and window
    chatBridge().receive('{"id":"early-2","method":"nope"}');
    inject(sources.bundle);
    expect(chatBridge().version).toMatch(/^\d+\.\d+\.\d+$/);
    await nextTask();
    expect(chatBridge().bridge?.host).toBe('browser');
    expect(summary()).toEqual(['ready', 'widget', 'response early-1', 'error', 'response early-2', 'error']);
    // Listening now is the bridge alone: a later message is handled once.
    post(widgetMessage);
    expect(summary().filter((type) => type === 'widget')).toHaveLength(2);
  });

  it('a starter never installed: its events wait for the first install, its commands too', async () => {
    inject(sources.starter);
    post(widgetMessage);
    chatBridge().receive('{"id":"early","method":"nope"}');
    inject(sources.bundle);
    await nextTask();
    expect(chatBridge().bridge).toBeUndefined();
    expect(delivered).toEqual([]);
    chatBridge().install(options);
    await nextTask();
    expect(summary()).toEqual(['ready', 'widget', 'response early', 'error']);
  });

  it(`keeps at most ${STARTER_EVENT_LIMIT} events and ${EARLY_COMMAND_LIMIT} commands`, async () => {
    inject(sources.starter);
    chatBridge().install(options);
    for (let i = 0; i < STARTER_EVENT_LIMIT + 5; i++) post(widgetMessage);
    for (let i = 0; i < EARLY_COMMAND_LIMIT + 5; i++) chatBridge().receive(`{"id":"c${i}","method":"nope"}`);
    inject(sources.bundle);
    await nextTask();
    expect(summary().filter((type) => type === 'widget')).toHaveLength(STARTER_EVENT_LIMIT);
    expect(delivered.filter((message) => message.type === 'response')).toHaveLength(EARLY_COMMAND_LIMIT);
  });

  it('a destroyed starter hands over nothing: no install, nothing kept', async () => {
    inject(sources.starter);
    chatBridge().install(options);
    post(widgetMessage);
    chatBridge().receive('{"id":"early","method":"nope"}');
    chatBridge().destroy();
    post(widgetMessage);
    inject(sources.bundle);
    await nextTask();
    expect(chatBridge().bridge).toBeUndefined();
    chatBridge().install(options);
    await nextTask();
    expect(summary()).toEqual(['ready']);
  });

  it('options the bundle refuses (record: true without the debug bundle) are logged; the debug bundle takes them', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    inject(sources.starter);
    chatBridge().install({ ...options, record: true });
    inject(sources.bundle);
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ message: expect.stringContaining('debug') }));
    expect(chatBridge().bridge).toBeUndefined();
    chatBridge().destroy();
    delete win.ChatBridge;

    inject(sources.starter);
    chatBridge().install({ ...options, record: true });
    post(widgetMessage);
    inject(sources.debug);
    await nextTask();
    expect(summary()).toEqual(['ready', 'widget']);
    expect(chatBridge().recording()).toContain('"step":"post"');
  });
});
