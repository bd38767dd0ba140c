/**
 * The React Native side: `<WebView onMessage>` data in, `onEvent` calls and settled client
 * calls out; commands out through `injectJavaScript`.
 *
 * The injected scripts are evaluated here (with `new Function` / `node:vm`, in the TEST only)
 * against a fake `window`, because what matters is what the WebView will run, not the text.
 */
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ErrorEvent } from '../../../bridge/protocol/errors.js';
import type { OutboundMessage } from '../../../bridge/protocol/messages.js';
import { ChatBridgeError } from '../../../host-adapters/client.js';
import {
  createReactNativeHost,
  decodeMessage,
  decodeMessages,
  PROBE_ATTEMPTS,
  PROBE_RETRY_MS,
  type ReactNativeHost,
} from '../../../host-adapters/react-native-host.js';

/** A WebView stand-in whose injected scripts run against a window with a recording ChatBridge. */
function fakeWebView() {
  const scripts: string[] = [];
  const received: unknown[] = [];
  const window = { ChatBridge: { receive: (data: unknown) => void received.push(data) } };
  return {
    scripts,
    received,
    /** The commands as the bridge gets them, decoded from the text `receive` was handed. */
    commands: () => received.map((data) => JSON.parse(data as string) as unknown),
    /** Commands with ids cut to their counter part (`c1.k3x9a` -> `c1`): the session part is random. */
    plainCommands: () =>
      received.map((data) => {
        const command = JSON.parse(data as string) as { id: string };
        return { ...command, id: command.id.split('.')[0] };
      }),
    view: {
      injectJavaScript(script: string) {
        scripts.push(script);
        new Function('window', script)(window);
      },
    },
  };
}

/** What `<WebView onMessage>` receives when the bridge posts `message` through ReactNativeWebView. */
const fromWebView = (message: unknown) => ({ nativeEvent: { data: JSON.stringify(message) } });

/** A host whose page has loaded the bridge (it said `ready`), unless `ready: false`. */
function hostWith(webView = fakeWebView(), { ready = true } = {}) {
  const events: OutboundMessage[] = [];
  const host = createReactNativeHost({ onEvent: (event) => void events.push(event), webView: () => webView.view });
  if (ready) {
    host.onMessage(fromWebView({ type: 'ready' }));
    events.length = 0;
  }
  return { host, events, webView };
}

describe('createReactNativeHost onMessage', () => {
  it('decodes an error event into one onEvent call with type, code, message, status and errors', () => {
    const { host, events } = hostWith();
    const error: ErrorEvent = {
      type: 'error',
      code: 'validation_error',
      retryable: false,
      message: '[POST /conversations] 422: email is invalid',
      status: 422,
      errors: { email: ['is invalid'] },
    };

    host.onMessage(fromWebView(error));

    expect(events).toEqual([error]);
    const [event] = events;
    expect(event?.type === 'error' && event.code).toBe('validation_error');
  });

  it('passes ready and widget events through to onEvent as they came', () => {
    const { host, events } = hostWith();
    host.onMessage(fromWebView({ type: 'ready' }));
    host.onMessage(fromWebView({ type: 'widget', event: 'loaded', data: { locale: 'en' } }));
    expect(events).toEqual([{ type: 'ready' }, { type: 'widget', event: 'loaded', data: { locale: 'en' } }]);
  });

  it('turns text that is not JSON into a parse_error event', () => {
    const { host, events } = hostWith();
    host.onMessage({ nativeEvent: { data: 'hello from another script' } });

    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'error', code: 'parse_error' });
    expect((events[0] as ErrorEvent).message).toMatch(/not JSON/);
  });

  it.each([
    ['an object without type', '{"code":"x"}'],
    ['a number', '42'],
    ['null', 'null'],
    ['an array holding an array', '[[{"type":"widget","event":"loaded","data":{}}]]'],
    ['a non-string type', '{"type":1}'],
  ])('turns JSON that is %s into a parse_error event', (_, data) => {
    const { host, events } = hostWith();
    host.onMessage({ nativeEvent: { data } });
    expect(events).toEqual([
      {
        type: 'error',
        code: 'parse_error',
        retryable: false,
        message: expect.stringMatching(/without a "type" field/),
      },
    ]);
  });

  it('hands each message of a payload that carries several (one task of the page) to onEvent, in order', () => {
    const { host, events } = hostWith();
    host.onMessage({
      nativeEvent: {
        data: JSON.stringify([
          { type: 'message', messageId: 'm-1', state: 'queued', attempt: 0 },
          { type: 'message', messageId: 'm-1', state: 'sending', attempt: 1 },
          { type: 'widget', event: 'loaded', data: {} },
          7,
        ]),
      },
    });
    expect(events).toEqual([
      { type: 'message', messageId: 'm-1', state: 'queued', attempt: 0 },
      { type: 'message', messageId: 'm-1', state: 'sending', attempt: 1 },
      { type: 'widget', event: 'loaded', data: {} },
      {
        type: 'error',
        code: 'parse_error',
        retryable: false,
        message: expect.stringMatching(/without a "type" field/),
      },
    ]);
  });

  it('turns non-string data or a malformed event into a parse_error event instead of throwing', () => {
    const { host, events } = hostWith();
    host.onMessage({ nativeEvent: { data: { type: 'ready' } as unknown as string } });
    host.onMessage(undefined as unknown as { nativeEvent: { data: string } });
    expect(events.map((event) => event.type === 'error' && event.code)).toEqual(['parse_error', 'parse_error']);
  });

  it('settles the client call a response answers and does not pass that response to onEvent', async () => {
    const { host, events, webView } = hostWith();
    const call = host.client.getConversation({ email: 'a@example.com' });
    const [command] = webView.commands() as Array<{ id: string }>;

    host.onMessage(fromWebView({ type: 'response', id: command?.id, ok: true, result: { id: 7 } }));

    await expect(call).resolves.toEqual({ id: 7 });
    expect(events).toEqual([]);
  });

  it('rejects the client call a failed response answers with its code, and still reports the error event', async () => {
    const { host, events, webView } = hostWith();
    const call = host.client.sendMessage({ content: '' });
    const [command] = webView.commands() as Array<{ id: string }>;
    const error: ErrorEvent = {
      type: 'error',
      code: 'empty_message',
      retryable: false,
      message: '[sendMessage] message has no content and no attachments',
      status: 400,
    };

    // What the bridge sends for a failed command: the response, then the error event.
    host.onMessage(fromWebView({ type: 'response', id: command?.id, ok: false, error }));
    host.onMessage(fromWebView(error));

    await expect(call).rejects.toBeInstanceOf(ChatBridgeError);
    await expect(call).rejects.toMatchObject({ code: 'empty_message', status: 400 });
    expect(events).toEqual([error]);
  });

  it('passes a response to a command this client never sent on to onEvent', () => {
    const { host, events } = hostWith();
    const response = { type: 'response', id: 'from-a-previous-page', ok: true, result: null };
    host.onMessage(fromWebView(response));
    expect(events).toEqual([response]);
  });
});

describe('createReactNativeHost client', () => {
  it('sends a command through injectJavaScript as a script that hands it to ChatBridge.receive', () => {
    const { host, webView } = hostWith();
    void host.client.init();

    expect(webView.scripts).toHaveLength(1);
    expect(webView.received).toHaveLength(1);
    expect(typeof webView.received[0]).toBe('string');
    expect(webView.plainCommands()).toEqual([{ id: 'c1', method: 'init' }]);
  });

  it('round-trips command params exactly, including quotes, backslashes, script tags and line separators', () => {
    const { host, webView } = hostWith();
    const params = {
      content: 'He said "hi" \\ </script><script>alert(1)</script> ${x} `tick` \u2028\u2029 \n\r\t é 😀',
      attachments: [{ name: "a'b.png", type: 'image/png', data: 'iVBORw0KGgo=' }],
      messageId: 'm-1',
    };

    void host.client.sendMessage(params);

    expect(webView.plainCommands()).toEqual([{ id: 'c1', method: 'sendMessage', params }]);
  });

  it('escapes U+2028 and U+2029 in the injected script, which engines before ES2019 reject inside string literals', () => {
    const { host, webView } = hostWith();
    void host.client.sendMessage({ content: 'line\u2028separator\u2029paragraph', messageId: 'm-1' });

    expect(webView.scripts[0]).not.toMatch(/[\u2028\u2029]/);
    expect(webView.plainCommands()).toEqual([
      {
        id: 'c1',
        method: 'sendMessage',
        params: { content: 'line\u2028separator\u2029paragraph', messageId: 'm-1' },
      },
    ]);
  });

  it('injects a script that does nothing and completes with true when the bundle is not loaded yet', () => {
    const { host, webView } = hostWith();
    void host.client.init();
    // react-native-webview wants injected scripts to end in a value; `true` avoids a warning on iOS.
    expect(runInNewContext(webView.scripts[0] ?? '', { window: {} })).toBe(true);
  });

  it('holds commands sent before the bridge is ready and sends them, in order, when it says ready', () => {
    const { host, webView, events } = hostWith(fakeWebView(), { ready: false });
    void host.client.init();
    void host.client.getConversation();
    expect(webView.scripts).toHaveLength(0);

    host.onMessage(fromWebView({ type: 'ready' }));

    expect(webView.plainCommands()).toEqual([
      { id: 'c1', method: 'init' },
      { id: 'c2', method: 'getConversation' },
    ]);
    expect(events).toEqual([{ type: 'ready' }]);
  });

  it("holds commands again while a new page loads (onLoadStart) until that page's bridge is ready", () => {
    const { host, webView } = hostWith();
    host.onLoadStart();
    void host.client.init();
    expect(webView.received).toHaveLength(0);

    host.onMessage(fromWebView({ type: 'ready' }));
    expect(webView.plainCommands()).toEqual([{ id: 'c1', method: 'init' }]);
  });
});

/**
 * A device for the lifecycle tests: a WebView whose ref can be null (unmounted), pages that
 * load (a new window, bridge installed when `bridgeUp()`), and a channel that delivers what a
 * page posts to `<WebView onMessage>` later, as react-native-webview does (`deliver()`).
 */
function fakeDevice(startUrl = 'https://widget.example.test/chat') {
  interface Page {
    href: string;
    received: Array<{ id: string; method: string; params?: Record<string, unknown> }>;
    window: Record<string, unknown>;
  }
  const posted: string[] = [];
  let host: ReactNativeHost | undefined;
  let mounted = true;
  const open = (href: string): Page => {
    const page: Page = { href, received: [], window: {} };
    page.window['ReactNativeWebView'] = { postMessage: (data: string) => void posted.push(data) };
    page.window['location'] = {
      get href() {
        return page.href;
      },
    };
    return page;
  };
  let page = open(startUrl);
  const device = {
    get page() {
      return page;
    },
    scripts: [] as string[],
    connect(to: ReactNativeHost) {
      host = to;
    },
    view: () =>
      mounted
        ? {
            injectJavaScript(script: string) {
              device.scripts.push(script);
              const scope = page.window;
              new Function('window', 'location', `with (window) { ${script} }`)(scope, scope['location']);
            },
          }
        : null,
    /** The page's bridge installs itself and posts ready, as the bundle does. */
    bridgeUp() {
      const current = page;
      current.window['ChatBridge'] = {
        bridge: {},
        receive: (text: string) => void current.received.push(JSON.parse(text)),
      };
      posted.push(JSON.stringify({ type: 'ready' }));
    },
    /** A real navigation: a new document, no bridge until `bridgeUp()`. */
    navigate(href: string) {
      page = open(href);
    },
    unmount() {
      mounted = false;
    },
    mount() {
      mounted = true;
    },
    /** Delivers what pages posted to onMessage, in order (react-native-webview does so asynchronously). */
    deliver() {
      for (const data of posted.splice(0)) host?.onMessage({ nativeEvent: { data } });
    },
  };
  return device;
}

function lifecycle(options: { timeout?: number } = {}) {
  const device = fakeDevice();
  const events: OutboundMessage[] = [];
  const host = createReactNativeHost({
    onEvent: (event) => void events.push(event),
    webView: device.view,
    client: options,
  });
  device.connect(host);
  const methods = () => device.page.received.map((command) => command.method);
  const answer = (index: number, result: unknown) =>
    host.onMessage(fromWebView({ type: 'response', id: device.page.received[index]?.id, ok: true, result }));
  return { device, events, host, client: host.client, methods, answer };
}

const outcomeOf = (promise: Promise<unknown>) =>
  promise.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, code: (error as ChatBridgeError).code, message: (error as Error).message }),
  );

describe('createReactNativeHost across page loads and unmounts', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('never throws into react-native-webview: a throwing onEvent is reported and the next message still handled', () => {
    const device = fakeDevice();
    const report = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const original = (globalThis as { reportError?: unknown }).reportError;
    delete (globalThis as { reportError?: unknown }).reportError;
    const seen: string[] = [];
    const host = createReactNativeHost({
      onEvent(event) {
        seen.push(event.type);
        throw new Error('app bug');
      },
      webView: device.view,
    });
    try {
      expect(() => host.onMessage(fromWebView({ type: 'widget', event: 'loaded', data: {} }))).not.toThrow();
      expect(() => host.onMessage(null as never)).not.toThrow();
      expect(() => host.onLoadStart(undefined)).not.toThrow();
      expect(seen).toEqual(['widget', 'error']);
      expect(report).toHaveBeenCalledWith(expect.objectContaining({ message: 'app bug' }));
    } finally {
      (globalThis as { reportError?: unknown }).reportError = original;
    }
  });

  it('keeps commands while the WebView is unmounted and sends them, in order, at the next ready once mounted', async () => {
    const { device, client, methods, answer } = lifecycle();
    device.unmount();
    device.bridgeUp();
    expect(() => device.deliver()).not.toThrow(); // ready while the ref is null
    const init = client.init();
    const conversation = client.getConversation();
    expect(methods()).toEqual([]);
    expect(client.pending).toBe(2);

    device.mount();
    device.navigate('https://widget.example.test/chat');
    device.bridgeUp();
    device.deliver();

    expect(methods()).toEqual(['init', 'getConversation']);
    answer(0, { config: {} });
    answer(1, { id: 1 });
    await expect(init).resolves.toEqual({ config: {} });
    await expect(conversation).resolves.toEqual({ id: 1 });
  });

  it('keeps a command made after ready while the ref is null, instead of rejecting it', async () => {
    const { device, client, methods } = lifecycle();
    device.bridgeUp();
    device.deliver();
    device.unmount();

    const call = outcomeOf(client.init());
    await vi.advanceTimersByTimeAsync(0);
    expect(client.pending).toBe(1);

    device.mount();
    device.navigate('https://widget.example.test/chat');
    device.bridgeUp();
    device.deliver();
    expect(methods()).toEqual(['init']);
    void call;
  });

  it('after a false onLoadStart (a hash change, react-native-webview#1049) asks the page, whose bridge answers, and goes on', async () => {
    const { device, events, host, client, methods, answer } = lifecycle();
    device.bridgeUp();
    device.deliver();
    events.length = 0;
    const before = client.init();

    device.page.href = 'https://widget.example.test/chat#settings';
    host.onLoadStart({ nativeEvent: { url: 'https://widget.example.test/chat#settings' } });
    const after = client.getConversation();
    expect(methods()).toEqual(['init']);

    device.deliver(); // the probe's answer: same document, at the URL loading

    expect(methods()).toEqual(['init', 'getConversation']);
    answer(0, { config: {} });
    answer(1, { id: 2 });
    await expect(before).resolves.toEqual({ config: {} });
    await expect(after).resolves.toEqual({ id: 2 });
    // The probe's answer is the host's own business, not an event for the app.
    expect(events).toEqual([]);
  });

  it('after a real page load: calls the old page took reject with page_gone, messages are followed, held calls go to the new page', async () => {
    const { device, host, client, methods } = lifecycle();
    device.bridgeUp();
    device.deliver();
    const lost = outcomeOf(client.init());
    const message = outcomeOf(client.sendMessage({ content: 'Hi', messageId: 'm-1' }));
    const oldPage = device.page;

    host.onLoadStart({ nativeEvent: { url: 'https://widget.example.test/other' } });
    const held = client.getConversation();
    device.deliver(); // the old document answers the probe, still at its old URL: not believed
    expect(oldPage.received.map((command) => command.method)).toEqual(['init', 'sendMessage']);

    device.navigate('https://widget.example.test/other');
    device.bridgeUp();
    device.deliver();

    expect(await lost).toEqual({
      ok: false,
      code: 'page_gone',
      message: '[init] the page that took it went away before answering',
    });
    expect(methods()).toEqual(['getConversation', 'listOutbox']);
    const [conversation, list] = device.page.received;
    host.onMessage(fromWebView({ type: 'response', id: conversation?.id, ok: true, result: { id: 3 } }));
    host.onMessage(
      fromWebView({ type: 'response', id: list?.id, ok: true, result: { messages: [{ messageId: 'm-1' }] } }),
    );
    await expect(held).resolves.toEqual({ id: 3 });

    host.onMessage(fromWebView({ type: 'message', messageId: 'm-1', state: 'sent', attempt: 1, result: { id: 9 } }));
    expect(await message).toEqual({ ok: true, value: { id: 9 } });
  });

  it('believes a page still at the old URL after asking it PROBE_ATTEMPTS times, so commands do not wait forever', async () => {
    const { device, host, client, methods } = lifecycle();
    device.bridgeUp();
    device.deliver();

    host.onLoadStart({ nativeEvent: { url: 'https://widget.example.test/never-loads' } });
    void client.init();
    for (let attempt = 1; attempt < PROBE_ATTEMPTS; attempt++) {
      device.deliver();
      expect(methods()).toEqual([]);
      await vi.advanceTimersByTimeAsync(PROBE_RETRY_MS);
    }
    device.deliver();

    expect(methods()).toEqual(['init']);
  });

  it('rejects a call with timeout when no page ever says ready, instead of waiting forever', async () => {
    const { device, host, client } = lifecycle({ timeout: 5_000 });
    device.bridgeUp();
    device.deliver();
    host.onLoadStart({ nativeEvent: { url: 'https://widget.example.test/offline' } });
    device.navigate('https://widget.example.test/offline'); // an error page: no bridge, no ready

    const call = outcomeOf(client.init());
    device.deliver();
    await vi.advanceTimersByTimeAsync(5_000);

    expect(await call).toMatchObject({ ok: false, code: 'timeout' });
    expect(client.pending).toBe(0);
  });

  it('close() before ready: the queued call rejects with closed and is never injected at the next ready', async () => {
    const { device, client, methods } = lifecycle();
    const call = outcomeOf(client.sendMessage({ content: 'cancelled by close' }));

    client.close();
    device.bridgeUp();
    device.deliver();

    expect(await call).toMatchObject({ ok: false, code: 'closed' });
    expect(methods()).toEqual([]);
  });

  it('gives command ids that differ between two hosts (app restarts), both starting at c1', () => {
    const first = lifecycle();
    const second = lifecycle();
    for (const { device, client } of [first, second]) {
      device.bridgeUp();
      device.deliver();
      void client.init();
    }
    const [a, b] = [first.device.page.received[0]?.id, second.device.page.received[0]?.id];
    expect(a).toMatch(/^c1\./);
    expect(a).not.toBe(b);
  });
});

describe('createReactNativeHost injectedJavaScript', () => {
  it('sets window.chatBridgeSettings with host react-native before the bundle runs, and ends with true', () => {
    const host = hostWith().host;
    const bundle = 'window.seenSettings = JSON.parse(JSON.stringify(window.chatBridgeSettings));';
    const script = host.injectedJavaScript(
      {
        baseUrl: 'https://chat.example.com/api/v1',
        websiteToken: 'wt_demo',
        allowedOrigins: ['https://chat.example.com'],
      },
      bundle,
    );

    const window: Record<string, unknown> = {};
    const completion = runInNewContext(script, { window });

    expect(script).toContain(bundle);
    expect(window['seenSettings']).toEqual({
      baseUrl: 'https://chat.example.com/api/v1',
      websiteToken: 'wt_demo',
      allowedOrigins: ['https://chat.example.com'],
      host: 'react-native',
      channelSecret: expect.stringMatching(/^[0-9a-z]{35}$/),
    });
    expect(completion).toBe(true);
  });

  it('escapes U+2028 and U+2029 in the settings, which engines before ES2019 reject in the script', () => {
    const script = hostWith().host.injectedJavaScript(
      { baseUrl: 'https://chat.example.com', widgetPrefix: 'line\u2028para\u2029' },
      '',
    );
    expect(script).not.toMatch(/[\u2028\u2029]/);
    const window: Record<string, unknown> = {};
    runInNewContext(script, { window });
    expect(window['chatBridgeSettings']).toMatchObject({ widgetPrefix: 'line\u2028para\u2029' });
  });

  it('overrides a host given in the settings with react-native', () => {
    const script = hostWith().host.injectedJavaScript({ baseUrl: 'https://chat.example.com', host: 'ios' }, '');
    const window: Record<string, unknown> = {};
    runInNewContext(script, { window });
    expect(window['chatBridgeSettings']).toMatchObject({ baseUrl: 'https://chat.example.com', host: 'react-native' });
  });

  it('still runs the settings and ends with true after a bundle that ends without a semicolon or with a line comment', () => {
    const script = hostWith().host.injectedJavaScript(
      { baseUrl: 'https://chat.example.com' },
      'window.loaded = 1\n//# sourceMappingURL=chat-bridge.js.map',
    );
    const window: Record<string, unknown> = {};
    expect(runInNewContext(script, { window })).toBe(true);
    expect(window['loaded']).toBe(1);
  });
});

/**
 * A host whose page got its settings from `injectedJavaScript` (for inbox `websiteToken`), and the
 * bridge's deliveries, marked with the secret those settings carried.
 */
function markedHost(websiteToken = 'wt_inbox_a') {
  const webView = fakeWebView();
  const events: OutboundMessage[] = [];
  const host = createReactNativeHost({ onEvent: (event) => void events.push(event), webView: () => webView.view });
  const settingsFor = (token: string) => {
    const script = host.injectedJavaScript({ baseUrl: 'https://chat.example.com/api/v1', websiteToken: token }, '');
    const window: Record<string, unknown> = {};
    runInNewContext(script, { window });
    return window['chatBridgeSettings'] as { channelSecret: string };
  };
  const secret = settingsFor(websiteToken).channelSecret;
  const fromBridge = (message: unknown) => ({ nativeEvent: { data: secret + JSON.stringify(message) } });
  host.onMessage(fromBridge({ type: 'ready' }));
  events.length = 0;
  return { host, events, webView, secret, fromBridge, settingsFor };
}

describe("createReactNativeHost takes only the bridge's own payloads (issue 34, case 7)", () => {
  it("a page script's own ready rejects no call under way", async () => {
    const { host, webView, fromBridge } = markedHost();
    const call = outcomeOf(host.client.getConversation());
    host.onMessage(fromWebView({ type: 'ready' }));
    const [command] = webView.commands() as Array<{ id: string }>;
    host.onMessage(fromBridge({ type: 'response', id: command?.id, ok: true, result: { id: 1 } }));
    expect(await call).toEqual({ ok: true, value: { id: 1 } });
  });

  it("a page script's own error event never reaches onEvent; the bridge's does", () => {
    const { host, events, fromBridge } = markedHost();
    host.onMessage(fromWebView({ type: 'error', code: 'auth_failed', message: 'forged' }));
    host.onMessage({ nativeEvent: { data: 'not even JSON' } });
    expect(events).toEqual([]);
    host.onMessage(fromBridge({ type: 'error', code: 'network_error', message: '[init] offline' }));
    expect(events).toEqual([{ type: 'error', code: 'network_error', message: '[init] offline' }]);
  });

  it('5,000 ready in one payload inject nothing when forged, and count as one new page when marked', () => {
    const { host, webView, fromBridge } = markedHost();
    void host.client.sendMessage({ content: 'followed', messageId: 'm-5000' }).catch(() => undefined);
    host.onMessage(fromBridge({ type: 'message', messageId: 'm-5000', state: 'queued', attempt: 0 }));
    const before = webView.scripts.length;
    const flood = Array.from({ length: 5_000 }, () => ({ type: 'ready' }));
    host.onMessage(fromWebView(flood));
    expect(webView.scripts.length).toBe(before);
    host.onMessage(fromBridge(flood));
    // One new page: one listOutbox for the followed message.
    expect(webView.scripts.length).toBe(before + 1);
    expect(webView.commands().slice(-1)).toMatchObject([{ method: 'listOutbox' }]);
  });

  it('answers a probe that carries no mark (the probe script posts it, not the bridge)', () => {
    const { host, webView } = markedHost();
    host.onLoadStart({ nativeEvent: { url: 'https://widget.example.test/chat#x' } });
    const token = /probe:("[^"]+")/.exec(webView.scripts.at(-1) as string)?.[1] as string;
    void host.client.init();
    const before = webView.received.length;
    host.onMessage(
      fromWebView({ type: 'ready', probe: JSON.parse(token) as string, href: 'https://widget.example.test/chat#x' }),
    );
    expect(webView.received.length).toBe(before + 1);
  });
});

describe('createReactNativeHost switching inbox (issue 34, case 5)', () => {
  it("a new page of another inbox: a followed sendMessage rejects with inbox_switched, never page_gone's resend advice", async () => {
    const { host, webView, fromBridge, settingsFor } = markedHost('wt_inbox_a');
    const message = outcomeOf(host.client.sendMessage({ content: 'for A', messageId: 'm-a' }));
    host.onMessage(fromBridge({ type: 'message', messageId: 'm-a', state: 'queued', attempt: 0 }));

    settingsFor('wt_inbox_b');
    host.onLoadStart({ nativeEvent: { url: 'https://widget.example.test/b' } });
    host.onMessage(fromBridge({ type: 'ready' }));
    // Were the new page asked, B's outbox would not hold the message: answered empty.
    const list = (webView.commands() as Array<{ id: string; method: string }>).find((c) => c.method === 'listOutbox');
    if (list) host.onMessage(fromBridge({ type: 'response', id: list.id, ok: true, result: { messages: [] } }));

    expect(await message).toMatchObject({ ok: false, code: 'inbox_switched' });
    expect(((await message) as { message: string }).message).toContain('stays queued for its own inbox');
  });

  it('a new page of the same inbox: the followed sendMessage is looked for in its outbox, as before', async () => {
    const { host, webView, fromBridge, settingsFor } = markedHost('wt_inbox_a');
    const message = outcomeOf(host.client.sendMessage({ content: 'for A', messageId: 'm-a2' }));
    host.onMessage(fromBridge({ type: 'message', messageId: 'm-a2', state: 'queued', attempt: 0 }));
    settingsFor('wt_inbox_a');
    host.onMessage(fromBridge({ type: 'ready' }));
    const list = (webView.commands() as Array<{ id: string; method: string }>).find((c) => c.method === 'listOutbox');
    host.onMessage(
      fromBridge({ type: 'response', id: list?.id, ok: true, result: { messages: [{ messageId: 'm-a2' }] } }),
    );
    host.onMessage(fromBridge({ type: 'message', messageId: 'm-a2', state: 'sent', attempt: 1, result: { id: 4 } }));
    expect(await message).toEqual({ ok: true, value: { id: 4 } });
  });
});

describe('decodeMessage', () => {
  it('returns the decoded message for JSON text with a type', () => {
    expect(decodeMessage('{"type":"response","id":"c1","ok":true,"result":[1]}')).toEqual({
      type: 'response',
      id: 'c1',
      ok: true,
      result: [1],
    });
  });

  it('refuses a payload of several messages with a parse_error that points to decodeMessages', () => {
    expect(decodeMessage('[{"type":"ready"},{"type":"ready"}]')).toMatchObject({
      type: 'error',
      code: 'parse_error',
      retryable: false,
      message: expect.stringMatching(/decodeMessages/),
    });
  });

  it('names the react-native side in its parse_error messages', () => {
    const event = decodeMessage('not json');
    expect(event).toMatchObject({
      type: 'error',
      code: 'parse_error',
      retryable: false,
      message: expect.stringMatching(/^\[react-native\] /),
    });
  });
});

describe('decodeMessages', () => {
  it('returns one message, or each message of an array in order, and a parse_error for what is not one', () => {
    expect(decodeMessages('{"type":"ready"}')).toEqual([{ type: 'ready' }]);
    expect(decodeMessages('[{"type":"ready"},{"type":"widget","event":"loaded","data":{}},null]')).toEqual([
      { type: 'ready' },
      { type: 'widget', event: 'loaded', data: {} },
      {
        type: 'error',
        code: 'parse_error',
        retryable: false,
        message: expect.stringMatching(/without a "type" field/),
      },
    ]);
    expect(decodeMessages('[]')).toEqual([]);
    expect(decodeMessages('not json')).toMatchObject([{ type: 'error', code: 'parse_error' }]);
  });
});

describe('createReactNativeHost sends large attachments in chunks', () => {
  it('injects each appendAttachment chunk on its own, awaiting its answer, then the message naming the upload', async () => {
    const { host, webView } = hostWith();
    const data = Buffer.alloc(700_000, 3).toString('base64'); // two chunks
    const sent = host.client.sendMessage({
      content: 'photo',
      attachments: [{ name: 'p.jpg', type: 'image/jpeg', data }],
    });
    const answer = async (index: number) => {
      await vi.waitFor(() => expect(webView.commands()).toHaveLength(index + 1));
      const command = webView.commands()[index] as { id: string };
      host.onMessage(fromWebView({ type: 'response', id: command.id, ok: true, result: {} }));
    };
    await answer(0);
    await answer(1);
    await answer(2);
    await expect(sent).resolves.toEqual({});
    const commands = webView.commands() as Array<{ method: string; params: Record<string, any> }>;
    expect(commands.map((command) => command.method)).toEqual(['appendAttachment', 'appendAttachment', 'sendMessage']);
    expect(commands[0]?.params['data'] + commands[1]?.params['data']).toBe(data);
    expect(commands[2]?.params['attachments']).toEqual([
      { name: 'p.jpg', type: 'image/jpeg', uploadId: commands[0]?.params['uploadId'] },
    ]);
    // One script per command: no script carries more than one chunk.
    expect(webView.scripts.every((script) => script.length < 600_000)).toBe(true);
  });
});

describe('createReactNativeHost when the WebView process dies', () => {
  it('reloads the WebView, holds commands and tells the app once per death, on either platform', () => {
    const events: OutboundMessage[] = [];
    const injected: string[] = [];
    const reload = vi.fn();
    const host = createReactNativeHost({
      onEvent: (event) => events.push(event),
      webView: () => ({ injectJavaScript: (script: string) => void injected.push(script), reload }),
    });
    host.onMessage({ nativeEvent: { data: '{"type":"ready"}' } });
    host.onRenderProcessGone({ nativeEvent: { didCrash: false } });
    host.onContentProcessDidTerminate();
    void host.client.init().catch(() => undefined);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(injected).toEqual([]);
    const told = events.filter((event) => event.type === 'error');
    expect(told).toEqual([expect.objectContaining({ code: 'webview_restarted', retryable: true })]);

    // The new page's ready: the held command goes to it, and a later death is told again.
    host.onMessage({ nativeEvent: { data: '{"type":"ready"}' } });
    expect(injected).toHaveLength(1);
    host.onContentProcessDidTerminate();
    expect(reload).toHaveBeenCalledTimes(2);
    expect(events.filter((event) => event.type === 'error')).toHaveLength(2);
  });

  it('never throws into react-native-webview, with no WebView or one without reload', () => {
    const events: OutboundMessage[] = [];
    const gone = createReactNativeHost({ onEvent: (event) => events.push(event), webView: () => null });
    expect(() => gone.onRenderProcessGone()).not.toThrow();
    const bare = createReactNativeHost({
      onEvent: () => undefined,
      webView: () => ({ injectJavaScript: () => undefined }),
    });
    expect(() => bare.onContentProcessDidTerminate()).not.toThrow();
    expect(events).toHaveLength(1);
  });
});
