// @vitest-environment happy-dom
/**
 * The environment as a real window fills it, in happy-dom's window: host messages heard on window
 * and document once each, connectivity and visibility events, fetch kept bound to its window (to
 * a real server on 127.0.0.1), timers, and storage read only when first needed. The records and
 * locks themselves are browser-storage.spec.ts's and browser-locks.spec.ts's; the upload,
 * xhr-upload.spec.ts's.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { browserEnvironment, inboundMessage } from '../../../bridge/browser-environment.js';
import type { InboundMessage } from '../../../bridge/environment.js';

type Win = Window & typeof globalThis;
const win = window as Win;
const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

/** Overrides a read-only property of `target` for this test. */
function override<T extends object>(target: T, name: string, descriptor: PropertyDescriptor): void {
  Object.defineProperty(target, name, { configurable: true, ...descriptor });
  cleanups.push(() => void delete (target as Record<string, unknown>)[name]);
}

describe('onMessage', () => {
  const heard = () => {
    const messages: InboundMessage[] = [];
    const stop = browserEnvironment(win).onMessage((message) => messages.push(message));
    cleanups.push(stop);
    return { messages, stop };
  };

  it("hears a window message event with its data and origin (the widget's, or iOS's host messages)", () => {
    const { messages } = heard();
    win.dispatchEvent(new MessageEvent('message', { data: { id: '1' }, origin: 'https://chat.example.test' }));
    expect(messages).toEqual([{ data: { id: '1' }, origin: 'https://chat.example.test' }]);
  });

  it("hears a document message event (react-native-webview's on Android)", () => {
    const { messages } = heard();
    win.document.dispatchEvent(new MessageEvent('message', { data: '{"id":"2"}' }));
    expect(messages).toEqual([{ data: '{"id":"2"}', origin: '' }]);
  });

  it('handles a bubbling event that passes both document and window once', () => {
    const { messages } = heard();
    let reachedWindow = false;
    const onWindow = () => (reachedWindow = true);
    win.addEventListener('message', onWindow);
    cleanups.push(() => win.removeEventListener('message', onWindow));
    win.document.dispatchEvent(new MessageEvent('message', { data: 'once', bubbles: true }));
    expect(reachedWindow).toBe(true);
    expect(messages).toEqual([{ data: 'once', origin: '' }]);
  });

  it('hears nothing on either after the unsubscribe', () => {
    const { messages, stop } = heard();
    stop();
    win.dispatchEvent(new MessageEvent('message', { data: 'late' }));
    win.document.dispatchEvent(new MessageEvent('message', { data: 'late' }));
    expect(messages).toEqual([]);
  });
});

describe('inboundMessage', () => {
  it("gives a plain event (no MessageEvent: a host's synthetic one) an empty origin", () => {
    expect(inboundMessage(new Event('message'))).toEqual({ data: undefined, origin: '' });
    const odd = Object.assign(new Event('message'), { data: 1, origin: 42 });
    expect(inboundMessage(odd)).toEqual({ data: 1, origin: '' });
  });
});

describe('connectivity and visibility', () => {
  it("reports the window's online and offline events until unsubscribed", () => {
    const states: boolean[] = [];
    const stop = browserEnvironment(win).onConnectivityChange((online) => states.push(online));
    win.dispatchEvent(new Event('offline'));
    win.dispatchEvent(new Event('online'));
    stop();
    win.dispatchEvent(new Event('offline'));
    expect(states).toEqual([false, true]);
  });

  it('is online unless navigator.onLine says false (a WebView without it counts as online)', () => {
    const env = browserEnvironment(win);
    override(win.navigator, 'onLine', { get: () => false });
    expect(env.isOnline()).toBe(false);
    override(win.navigator, 'onLine', { get: () => undefined });
    expect(env.isOnline()).toBe(true);
  });

  it('calls back on visibilitychange only when the page became visible, until unsubscribed', () => {
    let visible = 0;
    const stop = browserEnvironment(win).onVisible?.(() => visible++);
    override(win.document, 'visibilityState', { get: () => 'hidden' });
    win.document.dispatchEvent(new Event('visibilitychange'));
    override(win.document, 'visibilityState', { get: () => 'visible' });
    win.document.dispatchEvent(new Event('visibilitychange'));
    stop?.();
    win.document.dispatchEvent(new Event('visibilitychange'));
    expect(visible).toBe(1);
  });
});

describe('fetch', () => {
  let server: Server;
  let origin = '';
  beforeAll(async () => {
    server = createServer((request, response) => {
      response.setHeader('Access-Control-Allow-Origin', '*');
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ path: request.url }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("goes out through the window's fetch, to a real server", async () => {
    const response = await browserEnvironment(win).fetch(`${origin}/api/v1/config`, { method: 'GET', headers: {} });
    expect(response.status).toBe(200);
    expect(JSON.parse(await response.text())).toEqual({ path: '/api/v1/config' });
  });

  it("calls the window's fetch on the window, even taken off the environment (WebViews throw Illegal invocation otherwise)", async () => {
    const strict = Object.create(win) as Win;
    const receivers: unknown[] = [];
    strict.fetch = function (this: unknown) {
      receivers.push(this);
      if (this !== strict) throw new TypeError('Illegal invocation');
      return Promise.resolve(new Response('ok'));
    };
    const { fetch } = browserEnvironment(strict);
    expect(await (await fetch(`${origin}/`, { method: 'GET', headers: {} })).text()).toBe('ok');
    expect(receivers).toEqual([strict]);
  });
});

describe('timers, identity and storage', () => {
  it("runs and clears timers through the window's own", async () => {
    const env = browserEnvironment(win);
    const ran: string[] = [];
    const cleared = env.setTimeout(() => ran.push('cleared'), 5);
    env.setTimeout(() => ran.push('ran'), 5);
    env.clearTimeout(cleared);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(ran).toEqual(['ran']);
  });

  it("takes the page's origin from its location and looks host channels up on the window itself", () => {
    const env = browserEnvironment(win);
    expect(env.pageOrigin).toBe(win.location.origin);
    expect(env.scope).toBe(win);
    expect(env.upload).toBeTypeOf('function');
  });

  it('reads localStorage at the first call that needs it, not at install, once, and never for records without IndexedDB', async () => {
    let reads = 0;
    const sandboxed = Object.create(win) as Win;
    override(sandboxed, 'indexedDB', { value: undefined });
    override(sandboxed, 'localStorage', {
      get() {
        reads++;
        return win.localStorage;
      },
    });
    const env = browserEnvironment(sandboxed);
    expect(reads).toBe(0);
    // Without IndexedDB, records are not kept anywhere: the outbox sends from memory and says so.
    await expect(env.records?.put('p:1', { v: 1 })).rejects.toBeDefined();
    await expect(env.records?.all('p:')).rejects.toBeDefined();
    expect(reads).toBe(0);
    // The locks (a lease in localStorage without Web Locks) read it, once.
    expect(await env.locks?.request('send', async () => 'locked')).toBe('locked');
    expect(await env.locks?.request('send', async () => 'again')).toBe('again');
    expect(reads).toBe(1);
    expect(Object.keys(win.localStorage).filter((key) => key.startsWith('p:'))).toEqual([]);
    win.localStorage.clear();
  });

  it('rejects record calls, without throwing at install, where reading localStorage throws (a sandboxed WebView)', async () => {
    const sandboxed = Object.create(win) as Win;
    override(sandboxed, 'indexedDB', { value: undefined });
    override(sandboxed, 'localStorage', {
      get() {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
    });
    const env = browserEnvironment(sandboxed);
    await expect(env.records?.keys('p:')).rejects.toBeDefined();
    await expect(env.records?.put('p:1', { v: 1 })).rejects.toBeDefined();
  });
});
