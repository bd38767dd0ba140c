/**
 * Property: whatever the tokens (URL-special characters, unicode, 1 to 200 characters) and
 * wherever a server or the widget echoes them (error bodies, field errors, nested JSON of a
 * config answer, a Retry-After header, widget events' values and keys), in whatever encoding
 * (raw, encodeURIComponent with upper- or lowercase hex digits and encoded twice, form encoding,
 * base64, base64url, JSON-escaped, alone or inside longer text) and however deep in a body (past
 * the bridge's depth limit too), no form of any token reaches a delivery, a `bridge.on` listener, the console or
 * the recording. Tokens under 6 characters are refused instead: a website token by the options,
 * an authToken as config_error; neither message carries them.
 *
 * The network is not the point here, so the backend is a scripted `fetch` in the in-memory
 * environment; the replay fixtures and the unit tests pin the same through goldens.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBridge } from '../../bridge/index.js';
import type { HttpRequest, HttpResponse } from '../../bridge/environment.js';
import { normalizeOptions, OptionsError } from '../../bridge/options.js';
import { MIN_TOKEN_LENGTH } from '../../bridge/outbound/redact.js';
import { REDACTED } from '../../bridge/protocol/limits.js';
import { createInMemoryEnvironment } from '../../tools/testing/in-memory-environment.js';

const BASE = 'https://chat.example.test';

/** Characters that URLs, forms, base64 and JSON treat specially, and some that are not ASCII. */
const SPECIAL = [...'+/=&?%# ~!*()\'"\\<>:;@$,[]{}|^`\n\t', 'é', 'ü', 'ß', '中', '😀', '\u2028', '\u00a0'];
const tokenOf = (min: number, max: number) =>
  fc.oneof(
    fc.string({ unit: fc.constantFrom(...SPECIAL, 'a', 'Z', '0', '_', '-', '.'), minLength: min, maxLength: max }),
    fc.string({ unit: 'grapheme', minLength: min, maxLength: max }),
    fc.string({ minLength: min, maxLength: max }),
  );
/** Tokens the bridge uses (6 to 200 UTF-16 code units: a grapheme may take several). */
const token = tokenOf(MIN_TOKEN_LENGTH, 60).filter(
  (value) =>
    value.length >= MIN_TOKEN_LENGTH &&
    value.length <= 200 &&
    !/[\ud800-\udfff]/.test(value.replace(/[\ud800-\udbff][\udc00-\udfff]/g, '')),
);

/** Percent escapes with lowercase hex digits, as .NET's HttpUtility.UrlEncode writes them. */
const lowerHex = (text: string) => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());

/** The forms a token may be echoed in (and must never be seen in). */
function formsOf(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  return [
    value,
    encodeURIComponent(value),
    lowerHex(encodeURIComponent(value)),
    // Encoded twice over (a redirect or proxy encoding the query again), in either case.
    encodeURIComponent(encodeURIComponent(value)),
    lowerHex(encodeURIComponent(lowerHex(encodeURIComponent(value)))),
    new URLSearchParams({ t: value }).toString().slice(2),
    bytes.toString('base64'),
    bytes.toString('base64url'),
    JSON.stringify(value).slice(1, -1),
  ];
}

const encoding = fc.nat({ max: 8 });
const wrap = fc.constantFrom('%s', 'token=%s&x=1', 'Bearer %s.', '«%s»');
/** One echo of one of the three tokens, in one form, in some surrounding text. */
const echo = fc.record({ which: fc.nat({ max: 2 }), encoding, wrap, inBase64: fc.boolean() });
type Echo = { which: number; encoding: number; wrap: string; inBase64: boolean };

/** `known`: how many of the tokens the bridge can know by then (the widget's comes last). */
function render(echoed: Echo, tokens: string[], known = 3): string {
  echoed = { ...echoed, which: echoed.which % known };
  const text = echoed.wrap.replace('%s', () => formsOf(tokens[echoed.which] as string)[echoed.encoding] as string);
  return echoed.inBase64 ? Buffer.from(`prefix:${text}`).toString('base64') : text;
}

const shape = fc.record({
  status: fc.constantFrom(400, 404, 422, 429, 500),
  message: echo,
  fieldKey: echo,
  fieldValue: echo,
  nested: echo,
  header: echo,
  widgetValue: echo,
  widgetKey: echo,
  /** How deep in the config answer the nested echo sits; past the bridge's depth limit too. */
  depth: fc.nat({ max: 120 }),
});

/** `value` under `depth` levels of objects and arrays, alternately. */
const nestedIn = (value: unknown, depth: number): unknown =>
  Array.from({ length: depth }).reduce<unknown>((inner, _, level) => (level % 2 ? [inner] : { d: inner }), value);

afterEach(() => {
  vi.restoreAllMocks();
});

const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 5));

describe('no form of any token leaves the bridge', () => {
  it('in deliveries, listener messages, console output or the recording, whatever the echo', async () => {
    await fc.assert(
      fc.asyncProperty(token, token, token, shape, async (websiteToken, authToken, conversationToken, echoes) => {
        const tokens = [websiteToken, authToken, conversationToken];
        const consoleOutput: unknown[] = [];
        for (const method of ['error', 'warn', 'log', 'info', 'debug'] as const)
          vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void consoleOutput.push(args));

        const answers: Array<{ status: number; body: unknown; headers?: Record<string, string> }> = [
          {
            status: 200,
            body: {
              authToken,
              widget: {
                note: render(echoes.nested, tokens, 2),
                deep: [{ x: render(echoes.nested, tokens, 2) }],
                deeper: nestedIn(render(echoes.nested, tokens, 2), echoes.depth),
              },
            },
          },
          {
            status: echoes.status,
            body: {
              message: `failed: ${render(echoes.message, tokens)}`,
              errors: { [render(echoes.fieldKey, tokens)]: [render(echoes.fieldValue, tokens)] },
            },
            headers: { 'Retry-After': render(echoes.header, tokens) },
          },
        ];
        const fetch = async (_url: string, _request: HttpRequest): Promise<HttpResponse> => {
          const answer = answers.shift() ?? { status: 500, body: { message: 'no more' } };
          const text = JSON.stringify(answer.body);
          const headers = new Map(Object.entries(answer.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
          return {
            status: answer.status,
            headers: { get: (name) => headers.get(name.toLowerCase()) ?? null },
            text: async () => text,
          };
        };
        const memory = createInMemoryEnvironment({ fetch, channels: ['android', 'ios'] });
        const raw = {
          baseUrl: BASE,
          websiteToken,
          host: 'android',
          record: true,
          retry: { limit: 0 },
          forwardConversationToken: false,
        };
        const bridge = createBridge(normalizeOptions(raw, memory.env.pageOrigin), memory.env, {
          rawOptions: raw,
          hosts: ['android', 'ios'],
        });
        const heard: unknown[] = [];
        bridge.on((message) => heard.push(message));
        try {
          // Init first: a token is scrubbed from the moment the bridge learns it (the widget's own
          // credentials from the very event that carries them).
          bridge.receive({ id: 'i', method: 'init' });
          await settle();
          memory.post(
            `chatwoot-widget:${JSON.stringify({
              event: 'loaded',
              config: { authToken: conversationToken },
              note: render(echoes.widgetValue, tokens),
              [render(echoes.widgetKey, tokens)]: 1,
            })}`,
            memory.env.pageOrigin,
          );
          bridge.receive({ id: 'g', method: 'getConversation' });
          for (let i = 0; i < 20 && !heard.some((m) => (m as { id?: string }).id === 'g'); i++) await settle();
          expect(heard.some((m) => (m as { id?: string }).id === 'g')).toBe(true);

          // The placeholder becomes a character no form contains, so a form cannot span it.
          const outputs = [
            JSON.stringify(memory.deliveries),
            // Both channels carry JSON text, escaped once more by the line above: their messages
            // are searched decoded too, as the host reads them.
            JSON.stringify(memory.messages()),
            JSON.stringify(heard),
            JSON.stringify(consoleOutput),
            bridge.recording(),
          ].map((text) => text.split(REDACTED).join('\u0001'));
          for (const value of tokens) {
            for (const form of formsOf(value)) {
              for (const text of outputs) {
                if (text.includes(form))
                  throw new Error(`a form of a token got out: ${JSON.stringify(form)} in ${text.slice(0, 400)}`);
              }
            }
          }
        } finally {
          bridge.destroy();
          vi.restoreAllMocks();
        }
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a website token under 6 characters without quoting it', () => {
    fc.assert(
      fc.property(
        tokenOf(1, MIN_TOKEN_LENGTH - 1).filter((value) => value.length >= 1 && value.length < MIN_TOKEN_LENGTH),
        (websiteToken) => {
          let thrown: unknown;
          try {
            normalizeOptions({ baseUrl: BASE, websiteToken }, 'https://app.example.test');
          } catch (error) {
            thrown = error;
          }
          expect(thrown).toBeInstanceOf(OptionsError);
          expect((thrown as Error).message).toBe(
            `ChatBridge option "websiteToken" must be ${MIN_TOKEN_LENGTH}+ characters`,
          );
        },
      ),
    );
  });

  it('answers an authToken under 6 characters with config_error, the same text whatever it is, and never sends it', async () => {
    await fc.assert(
      fc.asyncProperty(
        tokenOf(1, MIN_TOKEN_LENGTH - 1).filter((value) => value.length >= 1 && value.length < MIN_TOKEN_LENGTH),
        async (authToken) => {
          const requests: HttpRequest[] = [];
          const fetch = async (_url: string, request: HttpRequest): Promise<HttpResponse> => {
            requests.push(request);
            const text = JSON.stringify({ authToken });
            return { status: 200, headers: { get: () => null }, text: async () => text };
          };
          const memory = createInMemoryEnvironment({ fetch, channels: ['android'] });
          const bridge = createBridge(
            normalizeOptions({ baseUrl: BASE, websiteToken: 'wt_property', host: 'android' }, memory.env.pageOrigin),
            memory.env,
          );
          try {
            bridge.receive({ id: 'g', method: 'getConversation' });
            for (let i = 0; i < 20 && memory.messages().length < 3; i++) await settle();
            expect(memory.messages().slice(1)).toEqual([
              expect.objectContaining({ type: 'response', id: 'g', ok: false }),
              {
                type: 'error',
                code: 'config_error',
                retryable: false,
                message: '[GET /config] 200: no authToken',
                status: 200,
              },
            ]);
            expect(requests.every((request) => !JSON.stringify(request.headers).includes('Authorization'))).toBe(true);
          } finally {
            bridge.destroy();
          }
        },
      ),
      { numRuns: 30 },
    );
  });
});
