// @vitest-environment node
/**
 * Recordings pass every step through the bridge's redaction: the options (credential fields
 * blanked, `user:password@` taken out of URLs), backend bodies at any depth, widget messages
 * with credential fields, and tokens the redactor has since forgotten (each step is scrubbed as
 * it is kept, and again when the recording is taken).
 */
import { describe, expect, it } from 'vitest';
import { createBridge, type Bridge } from '../../bridge/index.js';
import type { HttpRequest, HttpResponse } from '../../bridge/environment.js';
import { normalizeOptions } from '../../bridge/options.js';
import { TOKEN_MAX_AGE_MS } from '../../bridge/outbound/redact.js';
import { parseFixture, replay } from '../../tools/replay/index.js';
import { createInMemoryEnvironment } from '../../tools/testing/in-memory-environment.js';

/** Answers from a list, in order, as a backend would (the network is not the point here). */
function scripted(answers: Array<{ status: number; body: unknown }>) {
  return async (_url: string, _request: HttpRequest): Promise<HttpResponse> => {
    const answer = answers.shift() ?? { status: 500, body: { message: 'no more answers' } };
    const text = JSON.stringify(answer.body);
    return { status: answer.status, headers: { get: () => null }, text: async () => text };
  };
}

const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 20));

/** Every form the tests look for: raw, URI- and form-encoded, base64, base64url, JSON-escaped. */
const formsOf = (token: string) => [
  token,
  encodeURIComponent(token),
  new URLSearchParams({ t: token }).toString().slice(2),
  Buffer.from(token).toString('base64'),
  Buffer.from(token).toString('base64url'),
  JSON.stringify(token).slice(1, -1),
];

function expectNoToken(text: string, ...tokens: string[]) {
  for (const token of tokens) for (const form of formsOf(token)) expect(text).not.toContain(form);
}

function record(
  rawOptions: Record<string, unknown>,
  answers: Array<{ status: number; body: unknown }>,
  now?: () => number,
) {
  const test = createInMemoryEnvironment({ fetch: scripted(answers), channels: ['android'] });
  const env = now ? { ...test.env, now } : test.env;
  const options = { host: 'android', record: true, ...rawOptions };
  const bridge: Bridge = createBridge(normalizeOptions(options, env.pageOrigin), env, { rawOptions: options });
  return { test, bridge };
}

describe('recording redaction', () => {
  it('keeps the options without user:password@ in URLs and without credential fields', () => {
    const { bridge } = record(
      {
        baseUrl: 'https://alice:pa55word-Q9@chat.example.test/api/v1',
        websiteToken: 'wt_rec_Options1',
        custom: { proxyUrl: 'http://bob:hunter2-Z7@proxy.example.test:8080/', apiSecret: 'sec_rec_Options2' },
      },
      [],
    );
    const config = parseFixture(bridge.recording(), 'rec')[0] as { step: string; options: Record<string, unknown> };
    bridge.destroy();
    expect(config.step).toBe('config');
    expect(config.options).toMatchObject({
      baseUrl: 'https://chat.example.test/api/v1',
      websiteToken: '<redacted>',
      custom: { proxyUrl: 'http://proxy.example.test:8080/', apiSecret: '<redacted>' },
    });
    expectNoToken(bridge.recording(), 'alice', 'pa55word-Q9', 'hunter2-Z7', 'wt_rec_Options1', 'sec_rec_Options2');
  });

  it('blanks a token nested in a backend body ({data: {authToken}}), which the bridge never learned as one', async () => {
    const nested = 'at_nested_Rk29xQ';
    const { test, bridge } = record({ baseUrl: 'https://chat.example.test', websiteToken: 'wt_rec_Nested1' }, [
      { status: 200, body: { data: { authToken: nested, widget: { accessToken: 'at_deeper_Pq11' } } } },
    ]);
    bridge.receive({ id: 'i', method: 'init' });
    await settle();
    expect(test.messages().find((message) => message['type'] === 'error')).toMatchObject({ code: 'config_error' });
    const recording = bridge.recording();
    bridge.destroy();
    expect(recording).toContain('"authToken":"<redacted>"');
    expectNoToken(recording, nested, 'at_deeper_Pq11', 'wt_rec_Nested1');
    // And the recording still replays.
    await expect(replay(recording, { host: 'android' })).resolves.toContain('config_error');
  });

  it("keeps no widget credential: the loaded event's conversation token and other secret fields", () => {
    const { test, bridge } = record({ baseUrl: 'https://chat.example.test', websiteToken: 'wt_rec_Widget1' }, []);
    test.post(
      'chatwoot-widget:' +
        JSON.stringify({ event: 'loaded', config: { authToken: 'cw_rec_conv_Jw81' }, password: 'pw_rec_Widget2' }),
      test.env.pageOrigin,
    );
    const recording = bridge.recording();
    bridge.destroy();
    expect(recording).toContain('chatwoot-widget:');
    expectNoToken(recording, 'cw_rec_conv_Jw81', 'pw_rec_Widget2', 'wt_rec_Widget1');
  });

  it('keeps no token the redactor has since forgotten: each step is scrubbed as it is kept', async () => {
    let now = 1_000_000;
    const first = 'at_rec_first_Tk01';
    const answers: Array<{ status: number; body: unknown }> = [
      { status: 200, body: { authToken: first, widget: {} } },
      { status: 500, body: { message: `failed for ${first}` } },
    ];
    // Later answers: refreshes, each a day apart, so the first token is long forgotten.
    for (let i = 2; i < 6; i++) {
      answers.push(
        { status: 401, body: { message: 'expired' } },
        { status: 200, body: { authToken: `at_rec_later_Tk0${i}`, widget: {} } },
        { status: 200, body: { id: i } },
      );
    }
    const { bridge } = record(
      { baseUrl: 'https://chat.example.test', websiteToken: 'wt_rec_Forget1' },
      answers,
      () => now,
    );
    bridge.receive({ id: 'i', method: 'init' });
    await settle();
    bridge.receive({ id: 'g1', method: 'getConversation' });
    await settle();
    for (let i = 2; i < 6; i++) {
      now += TOKEN_MAX_AGE_MS + 1;
      bridge.receive({ id: `g${i}`, method: 'getConversation' });
      await settle();
    }
    const recording = bridge.recording();
    bridge.destroy();
    expect(recording).toContain('failed for <redacted>');
    expectNoToken(recording, first, 'at_rec_later_Tk02', 'at_rec_later_Tk05', 'wt_rec_Forget1');
  });
});
