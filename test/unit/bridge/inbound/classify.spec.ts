import { afterEach, describe, expect, it, vi } from 'vitest';
import { classifyHostData, classifyPosted, type Verdict } from '../../../../bridge/inbound/classify.js';
import { normalizeOptions, type ResolvedOptions } from '../../../../bridge/options.js';

const PAGE = 'https://app.example.test';
const API = 'https://chat.example.test';
const EVIL = 'https://evil.example.test';

const options = (extra: Record<string, unknown> = {}): ResolvedOptions =>
  normalizeOptions({ baseUrl: `${API}/api/v1`, websiteToken: 'wt_unit', ...extra }, PAGE);

const posted = (data: unknown, origin = PAGE, resolved = options()): Verdict =>
  classifyPosted({ data, origin }, resolved);

function errorOf(verdict: Verdict) {
  expect(verdict.kind).toBe('invalid');
  if (verdict.kind !== 'invalid') throw new Error('unreachable');
  expect(verdict.error.type).toBe('error');
  expect(verdict.error.code).toBe('parse_error');
  return verdict.error;
}

function commandOf(verdict: Verdict) {
  expect(verdict.kind).toBe('command');
  if (verdict.kind !== 'command') throw new Error('unreachable');
  return verdict.command;
}

const WIDGET_LOADED = 'chatwoot-widget:' + JSON.stringify({ event: 'loaded', config: { locale: 'en' } });
const INIT = { id: 'c1', method: 'init' };

afterEach(() => {
  vi.restoreAllMocks();
});

describe('foreign traffic', () => {
  it.each([
    ['a plain string', 'hello'],
    ['a string with another prefix', 'intercom:{"event":"loaded"}'],
    ['the widget prefix without its colon', 'chatwoot-widget{"event":"loaded"}'],
    ['a longer name that starts with the widget prefix', 'chatwoot-widgets:{"event":"loaded"}'],
    ['JSON text without "method"', '{"type":"webpackOk","data":{"hash":"abc"}}'],
    ['JSON text mentioning "method" that is not valid JSON', '{"method": nope'],
    ['JSON text whose "method" is nested, not top level', '{"payload":{"method":"x"}}'],
    ['a JSON array mentioning "method"', '[{"method":"init","id":"1"}]'],
    ['a webpack HMR object', { type: 'webpackInvalid' }],
    ['a React DevTools object', { source: 'react-devtools-content-script', payload: { event: 'x' } }],
    ['an object without "method"', { id: '1', params: {} }],
    ['a number', 42],
    ['null', null],
    ['undefined', undefined],
    ['a boolean', true],
    ['an array', [1, 2, 3]],
    ['an array carrying a method key', Object.assign([], { method: 'init', id: '1' })],
  ])('ignores %s without an error', (_name, data) => {
    expect(posted(data)).toEqual({ kind: 'ignored' });
  });
});

describe('origin checks', () => {
  it('drops a valid widget message from an origin that is not allowed', () => {
    expect(posted(WIDGET_LOADED, EVIL)).toEqual({ kind: 'ignored' });
  });

  it('drops a valid host command from an origin that is not allowed, as object and as text', () => {
    expect(posted(INIT, EVIL)).toEqual({ kind: 'ignored' });
    expect(posted(JSON.stringify(INIT), EVIL)).toEqual({ kind: 'ignored' });
    expect(posted('chat-bridge:' + JSON.stringify(INIT), EVIL)).toEqual({ kind: 'ignored' });
  });

  it('drops a malformed widget message from a disallowed origin silently, not as parse_error', () => {
    expect(posted('chatwoot-widget:{not json', EVIL)).toEqual({ kind: 'ignored' });
  });

  it('accepts the page origin and the API origin by default', () => {
    expect(posted(WIDGET_LOADED, PAGE).kind).toBe('widget');
    expect(posted(WIDGET_LOADED, API).kind).toBe('widget');
  });

  it("accepts origin '' (a same-realm synthetic event, as react-native-webview dispatches)", () => {
    expect(posted(WIDGET_LOADED, '').kind).toBe('widget');
    expect(commandOf(posted(INIT, ''))).toEqual(INIT);
  });

  it("accepts every origin when allowedOrigins is '*'", () => {
    const resolved = options({ allowedOrigins: '*' });
    expect(posted(WIDGET_LOADED, EVIL, resolved).kind).toBe('widget');
    expect(posted(WIDGET_LOADED, 'null', resolved).kind).toBe('widget');
  });

  it('accepts only the listed origins when allowedOrigins is given', () => {
    const resolved = options({ allowedOrigins: [EVIL] });
    expect(posted(WIDGET_LOADED, EVIL, resolved).kind).toBe('widget');
    expect(posted(WIDGET_LOADED, PAGE, resolved)).toEqual({ kind: 'ignored' });
  });
});

describe('widget messages', () => {
  it('turns the widget string protocol into a widget verdict with the remaining fields as data', () => {
    expect(posted(WIDGET_LOADED)).toEqual({
      kind: 'widget',
      event: 'loaded',
      data: { config: { locale: 'en' } },
      secrets: [],
    });
  });

  it('uses the configured widget prefix and ignores the default one then', () => {
    const resolved = options({ widgetPrefix: 'acme-chat' });
    expect(posted('acme-chat:{"event":"opened"}', PAGE, resolved)).toEqual({
      kind: 'widget',
      event: 'opened',
      data: {},
      secrets: [],
      conversationToken: false,
    });
    expect(posted(WIDGET_LOADED, PAGE, resolved)).toEqual({ kind: 'ignored' });
  });

  it('drops every field whose name says it holds a credential, at any depth, and hands their values over', () => {
    const verdict = posted(
      `chatwoot-widget:${JSON.stringify({
        event: 'loaded',
        config: { authToken: 'cw_conversation_jwt', locale: 'en', nested: [{ client_SECRET: 'shh-secret-1' }] },
        Password: 'hunter2hunter2',
        websiteToken: { value: 'not-a-string-so-not-learned' },
        count: 2,
      })}`,
    );
    expect(verdict).toEqual({
      kind: 'widget',
      event: 'loaded',
      data: { config: { locale: 'en', nested: [{}] }, count: 2 },
      secrets: ['cw_conversation_jwt', 'shh-secret-1', 'hunter2hunter2'],
      conversationToken: 'cw_conversation_jwt',
    });
  });

  it("takes the conversation token from loaded's config.authToken only", () => {
    const token = (message: object) => {
      const verdict = posted(`chatwoot-widget:${JSON.stringify(message)}`);
      return verdict.kind === 'widget' ? verdict.conversationToken : 'not a widget verdict';
    };
    expect(token({ event: 'loaded', config: { authToken: 'cw_conversation_x' } })).toBe('cw_conversation_x');
    expect(token({ event: 'setAuthCookie', data: { widgetAuthToken: 'cw_new_conversation' } })).toBeFalsy();
    expect(token({ event: 'loaded', config: null })).toBeFalsy();
    expect(token({ event: 'opened', config: { authToken: 'cw_elsewhere_token' } })).toBeFalsy();
  });

  it.each([
    ['set-user', { identifier: 'u1', user: { email: 'ada@example.com', identifier_hash: 'f00d' } }],
    ['set-locale', { locale: 'fr' }],
    ['set-custom-attributes', { customAttributes: { plan: 'pro' } }],
    ['set-color-scheme', { darkMode: 'dark' }],
    ['toggle-open', { isOpen: true }],
    ['config-set', { locale: 'en' }],
  ])('ignores "%s", which the host posts to the widget, never echoing it', (event, fields) => {
    expect(posted(`chatwoot-widget:${JSON.stringify({ event, ...fields })}`)).toEqual({ kind: 'ignored' });
  });

  it('answers a widget message that is not JSON with one parse_error naming the widget, without the raw payload', () => {
    const raw = 'chatwoot-widget:{"event": SECRET-PAYLOAD-4711';
    const error = errorOf(posted(raw));
    expect(error.message).toContain('widget');
    expect(error.message).not.toContain('SECRET-PAYLOAD-4711');
    expect(Object.keys(error).sort()).toEqual(['code', 'message', 'retryable', 'type']);
  });

  it('answers a widget message that fails the schema with a parse_error naming the field path', () => {
    const error = errorOf(posted('chatwoot-widget:{"event":42,"token":"SECRET-VALUE"}'));
    expect(error.message).toContain('event');
    expect(error.message).toMatch(/event: expected string/);
    expect(error.message).not.toContain('SECRET-VALUE');
  });

  it('answers a widget message that is JSON but not an object with a parse_error at the root', () => {
    expect(errorOf(posted('chatwoot-widget:[1,2]')).message).toContain('(root)');
  });

  it('refuses an oversized widget message before parsing it', () => {
    const resolved = options({ maxMessageLength: 100 });
    const parse = vi.spyOn(JSON, 'parse');
    const data = 'chatwoot-widget:' + JSON.stringify({ event: 'loaded', padding: 'x'.repeat(200) });
    const error = errorOf(posted(data, PAGE, resolved));
    expect(error.message).toBe(`[widget message] ${data.length} characters, over the 100 cap`);
    expect(parse).not.toHaveBeenCalled();
  });

  it('accepts a widget message of exactly maxMessageLength characters', () => {
    const head = 'chatwoot-widget:{"event":"loaded","p":"';
    const tail = '"}';
    const data = head + 'x'.repeat(200 - head.length - tail.length) + tail;
    expect(data.length).toBe(200);
    expect(posted(data, PAGE, options({ maxMessageLength: 200 })).kind).toBe('widget');
  });
});

describe('host commands', () => {
  it('accepts a posted envelope object, JSON text, and chat-bridge: prefixed text alike', () => {
    const envelope = { id: 'c7', method: 'getConversation', params: { email: 'a@b.test' } };
    expect(commandOf(posted(envelope))).toEqual(envelope);
    expect(commandOf(posted(JSON.stringify(envelope)))).toEqual(envelope);
    expect(commandOf(posted('chat-bridge:' + JSON.stringify(envelope)))).toEqual(envelope);
  });

  it('accepts data handed to receive as object, JSON text and chat-bridge: text', () => {
    const resolved = options();
    expect(commandOf(classifyHostData(INIT, resolved))).toEqual(INIT);
    expect(commandOf(classifyHostData(JSON.stringify(INIT), resolved))).toEqual(INIT);
    expect(commandOf(classifyHostData('chat-bridge:' + JSON.stringify(INIT), resolved))).toEqual(INIT);
  });

  it('answers receive(null) or receive(number) with a parse_error, since receive is only for the bridge', () => {
    expect(errorOf(classifyHostData(null, options())).message).toMatch(/^\[host command\].*\bnull\b/);
    expect(errorOf(classifyHostData(7, options())).message).toMatch(/^\[host command\].*\bnumber\b/);
  });

  it('answers chat-bridge: text that is not JSON with a parse_error', () => {
    expect(errorOf(posted('chat-bridge:{oops')).message).toContain('[host command] invalid JSON');
  });

  it('answers an envelope that fails the schema with a parse_error naming the field path', () => {
    expect(errorOf(posted({ id: '', method: 'init' })).message).toMatch(/\bid: must be 1 to 128 characters/);
    expect(errorOf(posted({ id: 'c1', method: 'init', params: 'x' })).message).toMatch(/\bparams: expected object/);
    expect(errorOf(classifyHostData('{"method":"init"}', options())).message).toMatch(/\bid: expected string/);
  });

  it('serializes a posted object, so the command is a plain JSON copy', () => {
    const when = new Date(Date.UTC(2024, 0, 2));
    const envelope = { id: 'c2', method: 'sendMessage', params: { content: 'hi', when, skip: undefined, fn: () => 1 } };
    const command = commandOf(posted(envelope));
    expect(command.params).toEqual({ content: 'hi', when: '2024-01-02T00:00:00.000Z' });
    expect(command.params).not.toBe(envelope.params);
  });

  it('answers a cyclic object with a parse_error instead of throwing', () => {
    const cyclic: Record<string, unknown> = { id: 'c3', method: 'init' };
    cyclic['self'] = cyclic;
    expect(errorOf(posted(cyclic)).message).toMatch(/^\[host command\].*serializ/);
    expect(errorOf(classifyHostData(cyclic, options())).message).toMatch(/^\[host command\].*serializ/);
    // Answered on its id, so the call it belongs to is not left waiting.
    expect(classifyHostData(cyclic, options())).toMatchObject({ kind: 'invalid', id: 'c3' });
    expect(posted(cyclic)).toMatchObject({ kind: 'invalid', id: 'c3' });
  });

  it('refuses an unserialisable object without an id when its id is unusable or reading it throws', () => {
    const long: Record<string, unknown> = { id: 'x'.repeat(129), method: 'init' };
    long['self'] = long;
    const hostile = Object.defineProperty({ method: 'init', n: 1n }, 'id', {
      enumerable: false,
      get: () => {
        throw new Error('hostile getter');
      },
    });
    expect(classifyHostData(long, options())).not.toHaveProperty('id');
    expect(errorOf(classifyHostData(hostile, options())).message).toMatch(/serializ/);
    expect(classifyHostData(hostile, options())).not.toHaveProperty('id');
  });

  it('answers an object holding a BigInt with a parse_error', () => {
    expect(errorOf(classifyHostData({ id: 'c4', method: 'init', params: { n: 10n } }, options())).message).toMatch(
      /^\[host command\].*serializ/,
    );
    expect(classifyHostData({ id: 'c4', method: 'init', params: { n: 10n } }, options())).toMatchObject({ id: 'c4' });
  });

  it('refuses host command text over maxCommandLength before parsing, answering its id', () => {
    const resolved = options({ maxFileSize: 30, maxMessageLength: 10 });
    // 5 files * (ceil(30 / 3) * 4 base64 characters + one escaped line break) + 10 = 230.
    expect(resolved.maxCommandLength).toBe(230);
    const text = JSON.stringify({ id: 'c5', method: 'init', params: { pad: 'x'.repeat(2000) } });
    const parse = vi.spyOn(JSON, 'parse');
    for (const verdict of [classifyHostData(text, resolved), posted(text, PAGE, resolved)]) {
      expect(errorOf(verdict).message).toBe(`[host command] ${text.length} characters, over the 230 cap`);
      expect(verdict).toMatchObject({ id: 'c5' });
    }
    // Only the envelope is parsed, with the long string left out.
    expect(parse.mock.calls.map(([source]) => source)).toEqual(
      Array(2).fill('{"id":"c5","method":"init","params":{"pad":"\\u00000"}}'),
    );
  });

  // What an oversized text is answered with, envelope by envelope, is oversize.spec.ts's.
  describe('an attachment over maxFileSize in a command over the cap', () => {
    const resolved = options({ maxFileSize: 3_000, maxMessageLength: 100 });
    const over = Buffer.alloc(20_000, 7).toString('base64');
    const envelope = (data: string) => ({
      id: 'video-1',
      method: 'sendMessage',
      params: {
        content: 'look',
        attachments: [
          { name: 'small.png', type: 'image/png', data: 'AAAA' },
          { name: 'movie.mp4', type: 'video/mp4', data },
        ],
      },
    });
    const expectTooLarge = (verdict: Verdict) => {
      expect(verdict).toEqual({
        kind: 'invalid',
        id: 'video-1',
        error: {
          type: 'error',
          code: 'file_too_large',
          retryable: false,
          status: 413,
          message: '[POST /messages] 413: movie.mp4 is 20000 bytes, over 3000',
        },
      });
    };

    it('is answered file_too_large with its id, as text, object, prefixed or posted', () => {
      const text = JSON.stringify(envelope(over));
      expect(text.length).toBeGreaterThan(resolved.maxCommandLength);
      expectTooLarge(classifyHostData(text, resolved));
      expectTooLarge(classifyHostData(envelope(over), resolved));
      expectTooLarge(classifyHostData(`chat-bridge:${text}`, resolved));
      expectTooLarge(posted(text, PAGE, resolved));
    });
  });

  it('admits a command carrying 5 attachments of maxFileSize in base64 (default limits)', () => {
    const resolved = options();
    const data = 'A'.repeat(Math.ceil(resolved.maxFileSize / 3) * 4);
    const attachments = Array.from({ length: 5 }, (_, i) => ({ name: `photo-${i}.png`, type: 'image/png', data }));
    const text = JSON.stringify({ id: 'big', method: 'sendMessage', params: { content: 'five files', attachments } });
    const command = commandOf(classifyHostData(text, resolved));
    expect((command.params?.['attachments'] as unknown[]).length).toBe(5);
  });

  it('does not turn one attachment 12 MiB over the file limit into a parse_error at the inbound stage', () => {
    const resolved = options();
    // Left for validation to refuse as file_too_large (413), which says what is actually wrong.
    const data = 'A'.repeat(12 * 1024 * 1024);
    const envelope = {
      id: 'huge',
      method: 'sendMessage',
      params: { attachments: [{ name: 'movie.mp4', type: 'video/mp4', data }] },
    };
    expect(classifyHostData(envelope, resolved).kind).toBe('command');
    expect(classifyHostData(JSON.stringify(envelope), resolved).kind).toBe('command');
  });
});

describe('prototype keys', () => {
  const hostile =
    '{"id":"p1","method":"sendMessage","params":{"content":"hi","__proto__":{"polluted":"yes"},' +
    '"constructor":{"prototype":{"polluted":"yes"}},"prototype":{"polluted":"yes"},' +
    '"attachments":[{"name":"a.txt","type":"text/plain","data":"","__proto__":{"polluted":"yes"}}]}}';

  const expectClean = (params: Record<string, unknown> | undefined) => {
    expect(params).toBeDefined();
    const value = params as Record<string, unknown>;
    for (const key of ['__proto__', 'constructor', 'prototype'])
      expect(Object.prototype.hasOwnProperty.call(value, key)).toBe(false);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(value['polluted']).toBeUndefined();
    const file = (value['attachments'] as Array<Record<string, unknown>>)[0] as Record<string, unknown>;
    expect(Object.prototype.hasOwnProperty.call(file, '__proto__')).toBe(false);
    expect(file['polluted']).toBeUndefined();
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
  };

  it('drops __proto__, constructor and prototype keys from command text', () => {
    expectClean(commandOf(classifyHostData(hostile, options())).params);
    expectClean(commandOf(posted(hostile)).params);
  });

  it('drops them from a posted object whose own __proto__ key came from JSON.parse', () => {
    expectClean(commandOf(posted(JSON.parse(hostile) as unknown)).params);
  });

  it('drops them from widget messages', () => {
    const verdict = posted('chatwoot-widget:{"event":"loaded","__proto__":{"polluted":"yes"},"constructor":{"x":1}}');
    expect(verdict).toEqual({ kind: 'widget', event: 'loaded', data: {}, secrets: [] });
    if (verdict.kind !== 'widget') throw new Error('unreachable');
    expect(Object.prototype.hasOwnProperty.call(verdict.data, '__proto__')).toBe(false);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('keeps keys that only contain the forbidden words', () => {
    const command = commandOf(
      classifyHostData('{"id":"p2","method":"x","params":{"constructorName":"a","my_prototype":1}}', options()),
    );
    expect(command.params).toEqual({ constructorName: 'a', my_prototype: 1 });
  });
});
