// @vitest-environment happy-dom
/**
 * The starter (bridge/startup/starter.ts) from its source: what it keeps for the bundle, within
 * which limits, and its one hand-over. test/unit/bridge/startup/install.spec.ts runs the built
 * starter and bundle together.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EARLY_COMMAND_LIMIT } from '../../../../bridge/startup/early-buffer.js';
import {
  exposeStarter,
  STARTER_EVENT_LIMIT,
  STARTER_TEXT_LIMIT,
  TAKE_OVER,
  type StarterHandover,
} from '../../../../bridge/startup/starter.js';

interface Starter {
  version: string;
  install(options?: object): void;
  receive(data: unknown): void;
  destroy(): void;
  [TAKE_OVER](): StarterHandover;
}
type TestWindow = Window & typeof globalThis & { ChatBridge?: Starter; chatBridgeSettings?: unknown };
const win = window as TestWindow;
const BASE_URL = 'https://chat.example.test/api/v1';
const post = (data: unknown, origin = win.location.origin) =>
  win.dispatchEvent(new MessageEvent('message', { data, origin }));
const dataOf = (handover: StarterHandover) => handover.events.map((event) => (event as MessageEvent).data);

function starter(): Starter {
  exposeStarter();
  const global = win.ChatBridge;
  if (global === undefined) throw new Error('no starter');
  return global;
}

afterEach(() => {
  win.ChatBridge?.destroy();
  delete win.ChatBridge;
  delete win.chatBridgeSettings;
  vi.restoreAllMocks();
});

describe('exposeStarter', () => {
  it('defines ChatBridge, and leaves one already there (the bundle, or another starter) alone', () => {
    const first = starter();
    expect(first.version).toBe('starter');
    exposeStarter();
    expect(win.ChatBridge).toBe(first);
  });

  it('checks options at install, as the bundle does', () => {
    expect(() => starter().install({ baseUrl: 'nope' })).toThrow(/"baseUrl"/);
  });

  it('installs itself from window.chatBridgeSettings, and hands those options over', () => {
    win.chatBridgeSettings = { baseUrl: BASE_URL };
    expect(starter()[TAKE_OVER]().options).toEqual({ baseUrl: BASE_URL });
  });
});

describe('what the starter keeps', () => {
  it("before install, the page's own messages only; after, those of the allowed origins", () => {
    const global = starter();
    post('own');
    post('foreign', 'https://widget.example.test');
    global.install({ baseUrl: BASE_URL, allowedOrigins: ['https://widget.example.test'] });
    post('widget', 'https://widget.example.test');
    post('own again');
    expect(dataOf(global[TAKE_OVER]())).toEqual(['own', 'widget']);
  });

  it('connectivity events, whatever the origin rule', () => {
    const global = starter();
    win.dispatchEvent(new Event('offline'));
    win.dispatchEvent(new Event('online'));
    expect(global[TAKE_OVER]().events.map((event) => event.type)).toEqual(['offline', 'online']);
  });

  it(`at most ${STARTER_EVENT_LIMIT} events and ${EARLY_COMMAND_LIMIT} commands, counting what it drops`, () => {
    const global = starter();
    for (let i = 0; i < STARTER_EVENT_LIMIT + 2; i++) post(`m${i}`);
    for (let i = 0; i < EARLY_COMMAND_LIMIT + 3; i++) global.receive(`c${i}`);
    const handover = global[TAKE_OVER]();
    expect(handover.events).toHaveLength(STARTER_EVENT_LIMIT);
    expect(handover.commands).toHaveLength(EARLY_COMMAND_LIMIT);
    expect(handover.dropped).toBe(5);
  });

  it(`at most ${STARTER_TEXT_LIMIT} characters of message data`, () => {
    const global = starter();
    const quarter = 'x'.repeat(STARTER_TEXT_LIMIT / 4);
    for (let i = 0; i < 5; i++) post(quarter);
    post('small');
    const handover = global[TAKE_OVER]();
    expect(handover.events).toHaveLength(4);
    expect(handover.dropped).toBe(2);
  });

  it('messages from origins it ignores use up no limit and are not counted', () => {
    const global = starter();
    for (let i = 0; i < STARTER_EVENT_LIMIT + 5; i++) post('foreign', 'https://evil.example.test');
    post('own');
    expect(global[TAKE_OVER]()).toMatchObject({ dropped: 0, events: [expect.any(MessageEvent)] });
  });
});

describe('the hand-over', () => {
  it('happens once: a second call gets nothing, and the starter keeps listening no more', () => {
    const global = starter();
    global.install({ baseUrl: BASE_URL, allowedOrigins: '*' });
    post('kept');
    global.receive('command');
    const first = global[TAKE_OVER]();
    expect(first.options).toMatchObject({ baseUrl: BASE_URL });
    expect(dataOf(first)).toEqual(['kept']);
    expect(first.commands).toEqual(['command']);
    post('later');
    expect(global[TAKE_OVER]()).toEqual({ options: undefined, events: [], commands: [], dropped: 0 });
  });

  it('destroy drops everything kept', () => {
    const global = starter();
    post('kept');
    global.destroy();
    expect(global[TAKE_OVER]()).toEqual({ options: undefined, events: [], commands: [], dropped: 0 });
  });
});
