/**
 * The React Native side: `<WebView onMessage>` data in, `onEvent` calls and settled client
 * calls out; commands out through `injectJavaScript`.
 *
 * The injected scripts are evaluated here (with `new Function` / `node:vm`, in the TEST only)
 * against a fake `window`, because what matters is what the WebView will run, not the text.
 */
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { ErrorEvent } from '../../../bridge/outbound/errors.js';
import type { OutboundMessage } from '../../../bridge/outbound/messages.js';
import { ChatBridgeError } from '../../../host-adapters/client.js';
import { createReactNativeHost, decodeMessage } from '../../../host-adapters/react-native-host.js';

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
    ['an array', '[{"type":"ready"}]'],
    ['a non-string type', '{"type":1}'],
  ])('turns JSON that is %s into a parse_error event', (_, data) => {
    const { host, events } = hostWith();
    host.onMessage({ nativeEvent: { data } });
    expect(events).toEqual([
      { type: 'error', code: 'parse_error', message: expect.stringMatching(/without a "type" field/) },
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
    void host.client.sendMessage({ content: 'line\u2028separator\u2029paragraph' });

    expect(webView.scripts[0]).not.toMatch(/[\u2028\u2029]/);
    expect(webView.plainCommands()).toEqual([
      { id: 'c1', method: 'sendMessage', params: { content: 'line\u2028separator\u2029paragraph' } },
    ]);
  });

  it('injects a script that does nothing and completes with true when the bundle is not loaded yet', () => {
    const { host, webView } = hostWith();
    void host.client.init();
    // react-native-webview wants injected scripts to end in a value; `true` avoids a warning on iOS.
    expect(runInNewContext(webView.scripts[0] ?? '', { window: {} })).toBe(true);
  });

  it('rejects a call when the bridge said ready but the WebView is no longer mounted, without sending anything', async () => {
    const events: OutboundMessage[] = [];
    const host = createReactNativeHost({ onEvent: (event) => void events.push(event), webView: () => null });
    host.onMessage(fromWebView({ type: 'ready' }));

    await expect(host.client.init()).rejects.toThrow(/not mounted/);
    expect(host.client.pending).toBe(0);
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
    expect(webView.scripts).toHaveLength(0);

    host.onMessage(fromWebView({ type: 'ready' }));
    expect(webView.plainCommands()).toEqual([{ id: 'c1', method: 'init' }]);
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
    });
    expect(completion).toBe(true);
  });

  it('overrides a host given in the settings with react-native', () => {
    const script = hostWith().host.injectedJavaScript({ baseUrl: 'https://chat.example.com', host: 'ios' }, '');
    const window: Record<string, unknown> = {};
    runInNewContext(script, { window });
    expect(window['chatBridgeSettings']).toEqual({ baseUrl: 'https://chat.example.com', host: 'react-native' });
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

describe('decodeMessage', () => {
  it('returns the decoded message for JSON text with a type', () => {
    expect(decodeMessage('{"type":"response","id":"c1","ok":true,"result":[1]}')).toEqual({
      type: 'response',
      id: 'c1',
      ok: true,
      result: [1],
    });
  });

  it('names the react-native side in its parse_error messages', () => {
    const event = decodeMessage('not json');
    expect(event).toMatchObject({
      type: 'error',
      code: 'parse_error',
      message: expect.stringMatching(/^\[react-native\] /),
    });
  });
});
