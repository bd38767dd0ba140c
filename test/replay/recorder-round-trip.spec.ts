// @vitest-environment node
/**
 * A session recorded live (a bridge installed with `record: true`, real HTTP to the reference
 * backend on 127.0.0.1) replays as it is: the recording carries no token and its replay
 * delivers to the host exactly what the live session delivered.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceBackend } from '../../reference-backend/server.mjs';
import { createBridge, type Bridge } from '../../bridge/index.js';
import type { HttpRequest, HttpResponse } from '../../bridge/environment.js';
import type { OutboundMessage } from '../../bridge/protocol/messages.js';
import { normalizeOptions } from '../../bridge/options.js';
import { parseFixture, replay } from '../../tools/replay/index.js';
import { createInMemoryEnvironment, type InMemoryEnvironment } from '../../tools/testing/in-memory-environment.js';

const WEBSITE_TOKEN = 'wt_demo';

let backend: Awaited<ReturnType<typeof startReferenceBackend>>;
beforeAll(async () => {
  backend = await startReferenceBackend({ websiteTokens: [WEBSITE_TOKEN] });
});
afterAll(async () => {
  await backend?.close();
});

/** Real fetch that also notes every authToken the backend hands out, to check none is kept. */
function tokenSpyingFetch(authTokens: Set<string>) {
  return async (url: string, request: HttpRequest): Promise<HttpResponse> => {
    const response = await fetch(url, request);
    const text = await response.text();
    try {
      const token = (JSON.parse(text) as { authToken?: unknown }).authToken;
      if (typeof token === 'string') authTokens.add(token);
    } catch {
      // not JSON: no token in it
    }
    return { status: response.status, headers: response.headers, text: async () => text };
  };
}

/** Sends one host command and resolves with its response message. */
function command(bridge: Bridge, id: string, method: string, params?: object): Promise<OutboundMessage> {
  return new Promise((resolve) => {
    const off = bridge.on((message) => {
      if (message.type === 'response' && message.id === id) {
        off();
        resolve(message);
      }
    });
    bridge.receive(params === undefined ? { id, method } : { id, method, params });
  });
}

describe('a recorded live session', () => {
  let live: InMemoryEnvironment;
  let recording: string;
  const authTokens = new Set<string>();

  beforeAll(async () => {
    live = createInMemoryEnvironment({ fetch: tokenSpyingFetch(authTokens), channels: ['android'] });
    const rawOptions = { baseUrl: backend.url, websiteToken: WEBSITE_TOKEN, host: 'android', record: true };
    const bridge = createBridge(normalizeOptions(rawOptions, live.env.pageOrigin), live.env, { rawOptions });
    try {
      expect(await command(bridge, 'init-1', 'init')).toMatchObject({ ok: true });
      // A fresh contact has no conversation: 404, then POST /conversations.
      expect(
        await command(bridge, 'conv-1', 'getConversation', { name: 'Ada', email: 'ada@example.com' }),
      ).toMatchObject({ ok: true });
      expect(await command(bridge, 'm-1', 'sendMessage', { content: 'Hello from the app' })).toMatchObject({
        ok: true,
      });
      // The widget reports it has loaded, posting from the page's own origin (allowed by default;
      // the replay's page is the backend's origin, so the recording must say so).
      live.post('chatwoot-widget:{"event":"loaded","unreadCount":0}', live.env.pageOrigin);
      // An error from the server, and one refused before any request.
      backend.setFault('validation-422', true);
      expect(await command(bridge, 'm-2', 'sendMessage', { content: 'second' })).toMatchObject({
        ok: false,
        error: { code: 'validation_error' },
      });
      backend.setFault('validation-422', false);
      expect(await command(bridge, 'm-3', 'sendMessage', { content: '' })).toMatchObject({
        ok: false,
        error: { code: 'empty_message' },
      });
      recording = bridge.recording();
    } finally {
      bridge.destroy();
    }
  });

  it('is a fixture the replay reads, with the session in it', () => {
    const steps = parseFixture(recording, 'recording');
    expect(steps[0]?.step).toBe('config');
    expect(steps.filter((step) => step.step === 'host')).toHaveLength(5);
    expect(steps.filter((step) => step.step === 'post')).toHaveLength(1);
    expect(
      steps
        .filter((step) => step.step === 'respond')
        .map((step) => step.step === 'respond' && `${step.method} ${step.path} ${step.status}`),
    ).toEqual([
      'GET /config 200',
      'GET /conversations 404',
      'POST /conversations 200',
      'POST /messages 200',
      'POST /messages 422',
    ]);
  });

  it('keeps no token value: neither the website token nor any authToken the backend issued', () => {
    expect(authTokens.size).toBeGreaterThan(0);
    expect(recording).not.toContain(WEBSITE_TOKEN);
    for (const token of authTokens) expect(recording).not.toContain(token);
  });

  it('replays to the same deliveries the live session made, in the same order', async () => {
    const output = await replay(recording, { host: 'android', name: 'recording' });
    const replayed = output
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { kind: string; host?: string; payload?: unknown })
      .filter((line) => line.kind === 'deliver')
      .map(({ host, payload }) => ({ host, payload }));
    expect(live.deliveries.length).toBeGreaterThanOrEqual(9);
    expect(messagesOf(replayed)).toEqual(messagesOf(live.deliveries));
  });
});

describe('a session recorded from an install while offline', () => {
  it('replays: the message waits offline and goes out once the device is back online', async () => {
    const live = createInMemoryEnvironment({ channels: ['flutter'] });
    live.setOnline(false);
    const rawOptions = { baseUrl: backend.url, websiteToken: WEBSITE_TOKEN, host: 'flutter', record: true };
    const bridge = createBridge(normalizeOptions(rawOptions, live.env.pageOrigin), live.env, { rawOptions });
    let recording: string;
    try {
      // The offline attempt fails and the outbox reports it; only then is the device back online.
      const stalled = new Promise<void>((resolve) => {
        const off = bridge.on((message) => {
          if (message.type === 'error' && message.code === 'network_error') {
            off();
            resolve();
          }
        });
      });
      const sent = command(bridge, 'm-1', 'sendMessage', { content: 'written in a tunnel' });
      await stalled;
      live.setOnline(true);
      expect(await sent).toMatchObject({ ok: true });
      recording = bridge.recording();
    } finally {
      bridge.destroy();
    }
    const steps = parseFixture(recording, 'recording').map((step) => step.step);
    expect(steps.indexOf('offline')).toBeGreaterThan(0);
    expect(steps.indexOf('offline')).toBeLessThan(steps.indexOf('host'));
    const output = await replay(recording, { host: 'flutter', name: 'recording' });
    const replayed = output
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { kind: string; host?: string; payload?: unknown })
      .filter((line) => line.kind === 'deliver')
      .map(({ host, payload }) => ({ host, payload }));
    expect(live.messages().map((message) => message['code'] ?? message['state'] ?? message['type'])).toEqual([
      'ready',
      'queued',
      'sending',
      'queued',
      'network_error',
      'sending',
      'sent',
      'response',
    ]);
    expect(messagesOf(replayed)).toEqual(messagesOf(live.deliveries));
  });
});

describe('a recorded 429 whose Retry-After is an HTTP date', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    // A backend that rate-limits the first message with a date one second ahead, as some proxies do.
    let limited = false;
    server = createServer((request, response) => {
      response.setHeader('Content-Type', 'application/json');
      if (request.url?.startsWith('/config'))
        return void response.end(JSON.stringify({ authToken: 'at_http_date_secret', widget: {} }));
      if (!limited) {
        limited = true;
        response.writeHead(429, { 'Retry-After': new Date(Date.now() + 1000).toUTCString() });
        return void response.end(JSON.stringify({ message: 'Too many requests' }));
      }
      response.end(JSON.stringify({ id: 1, content: 'hello' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  it('replays as the wait it meant (a retry and success), not as decades of waiting', async () => {
    const live = createInMemoryEnvironment({ channels: ['ios'] });
    const rawOptions = { baseUrl: url, websiteToken: 'wt_http_date', host: 'ios', record: true };
    const bridge = createBridge(normalizeOptions(rawOptions, live.env.pageOrigin), live.env, { rawOptions });
    let recording: string;
    try {
      expect(await command(bridge, 'm-1', 'sendMessage', { content: 'hello', messageId: 'echo-1' })).toMatchObject({
        ok: true,
      });
      recording = bridge.recording();
    } finally {
      bridge.destroy();
    }
    expect(recording).toMatch(/"Retry-After":"[01]"/);
    expect(recording).not.toContain('at_http_date_secret');
    const output = await replay(recording, { host: 'ios', name: 'recording' });
    const replayed = output
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { kind: string; host?: string; payload?: unknown })
      .filter((line) => line.kind === 'deliver')
      .map(({ host, payload }) => ({ host, payload }));
    expect(messagesOf(replayed)).toEqual(messagesOf(live.deliveries));
  });
});

/**
 * The messages of deliveries, in order, each with its host. A native channel's call carries the
 * message-state events of one task with the next other message; which task a message falls in
 * depends on what the environment makes wait a task (a lock, storage, the network), which a
 * replay does not play again. So a replay gives the same messages in the same order, not always
 * grouped into the same calls.
 */
function messagesOf(deliveries: ReadonlyArray<{ host?: string | undefined; payload?: unknown }>): unknown[] {
  return deliveries.flatMap(({ host, payload }) => {
    const value: unknown = typeof payload === 'string' ? JSON.parse(payload) : payload;
    return (Array.isArray(value) ? value : [value]).map((message: unknown) => ({ host, message }));
  });
}

/** The deliveries of a replay, as `{host, payload}`, to compare with a live session's. */
async function replayedDeliveries(recording: string, host: 'android' | 'ios' | 'flutter' | 'browser' | 'react-native') {
  const warnings: string[] = [];
  const output = await replay(recording, { host, name: 'recording', onWarning: (warning) => warnings.push(warning) });
  const deliveries = output
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { kind: string; host?: string; payload?: unknown })
    .filter((line) => line.kind === 'deliver')
    .map(({ host: to, payload }) => ({ host: to, payload }));
  return { deliveries, warnings };
}

describe('a session recorded against a backend that never answers', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    // Accepts every request and never replies, as a wedged proxy does.
    server = createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('records the timed-out request as hang, and replays the same "no answer within 800 ms" at the same point', async () => {
    const live = createInMemoryEnvironment({ channels: ['android'] });
    const rawOptions = {
      baseUrl: url,
      websiteToken: WEBSITE_TOKEN,
      host: 'android',
      record: true,
      requestTimeout: 1500,
      commandTimeout: 800,
    };
    const bridge = createBridge(normalizeOptions(rawOptions, live.env.pageOrigin), live.env, { rawOptions });
    let recording: string;
    try {
      expect(await command(bridge, 'init-1', 'init')).toMatchObject({
        ok: false,
        error: { code: 'network_error', message: '[init] no answer within 800 ms' },
      });
      // The request itself runs on until requestTimeout aborts it.
      await new Promise((resolve) => setTimeout(resolve, 900));
      recording = bridge.recording();
    } finally {
      bridge.destroy();
    }
    const steps = parseFixture(recording, 'recording').map((step) => step.step);
    expect(steps).toContain('hang');
    expect(steps).not.toContain('fail');
    const { deliveries, warnings } = await replayedDeliveries(recording, 'android');
    expect(live.messages().map((message) => message['code'] ?? message['type'])).toEqual([
      'ready',
      'response',
      'network_error',
    ]);
    expect(messagesOf(deliveries)).toEqual(messagesOf(live.deliveries));
    expect(warnings).toEqual([]);
  });

  it('writes a request still waiting when the recording is taken as hang too', async () => {
    const live = createInMemoryEnvironment({ channels: ['ios'] });
    const rawOptions = { baseUrl: url, websiteToken: WEBSITE_TOKEN, host: 'ios', record: true, commandTimeout: 300 };
    const bridge = createBridge(normalizeOptions(rawOptions, live.env.pageOrigin), live.env, { rawOptions });
    try {
      await command(bridge, 'init-1', 'init');
      const recording = bridge.recording(); // the request (requestTimeout 15 s) is still under way
      expect(recording).toContain('{"step":"hang","method":"GET","path":"/config"}');
      const { deliveries } = await replayedDeliveries(recording, 'ios');
      expect(messagesOf(deliveries)).toEqual(messagesOf(live.deliveries));
    } finally {
      bridge.destroy();
    }
  });
});

describe('a session recorded while navigator.onLine stays true across an offline event', () => {
  it('replays to the same deliveries, using up every recorded answer (the demo Offline switch)', async () => {
    // A fetch wrapper that fails while "offline" and window offline/online events, with
    // isOnline() true throughout: what the demo page's Offline switch and some WebViews do.
    let cut = false;
    const live = createInMemoryEnvironment({
      channels: ['react-native'],
      fetch: (url, request) =>
        cut ? Promise.reject(new TypeError('Failed to fetch')) : (fetch(url, request) as Promise<HttpResponse>),
    });
    const connectivity = new Set<(online: boolean) => void>();
    const env = {
      ...live.env,
      isOnline: () => true,
      onConnectivityChange(listener: (online: boolean) => void) {
        connectivity.add(listener);
        return () => void connectivity.delete(listener);
      },
    };
    const announce = (online: boolean) => connectivity.forEach((listener) => listener(online));
    const rawOptions = { baseUrl: backend.url, websiteToken: WEBSITE_TOKEN, host: 'react-native', record: true };
    const bridge = createBridge(normalizeOptions(rawOptions, env.pageOrigin), env, { rawOptions });
    let recording: string;
    try {
      expect(await command(bridge, 'init-1', 'init')).toMatchObject({ ok: true });
      cut = true;
      announce(false);
      const stalled = new Promise<void>((resolve) => {
        const off = bridge.on((message) => {
          if (message.type === 'error' && message.code === 'network_error') {
            off();
            resolve();
          }
        });
      });
      const sent = command(bridge, 'm-1', 'sendMessage', { content: 'sent in the lift' });
      await stalled;
      cut = false;
      announce(true);
      expect(await sent).toMatchObject({ ok: true });
      recording = bridge.recording();
    } finally {
      bridge.destroy();
    }
    // The failed attempt happened while the recording says offline: the replay fails it by
    // itself, so no `fail` is written for it to leave behind.
    expect(parseFixture(recording, 'recording').map((step) => step.step)).not.toContain('fail');
    const { deliveries, warnings } = await replayedDeliveries(recording, 'react-native');
    expect(live.messages().map((message) => message['code'] ?? message['state'] ?? message['type'])).toEqual([
      'ready',
      'response',
      'queued',
      'sending',
      // Offline by the window's event: no retry timer, so no nextAttemptAt; it goes at `online`.
      'queued',
      'network_error',
      'sending',
      'sent',
      'response',
    ]);
    expect(messagesOf(deliveries)).toEqual(messagesOf(live.deliveries));
    expect(warnings).toEqual([]);
  });
});
