import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../../../../bridge/environment.js';
import { normalizeOptions } from '../../../../bridge/options.js';
import { createRedactor } from '../../../../bridge/outbound/redact.js';
import { REDACTED } from '../../../../bridge/protocol/limits.js';
import { createRecorder } from '../../../../bridge/recording/recorder.js';
import { createInMemoryEnvironment } from '../../../../tools/testing/in-memory-environment.js';
import { createVirtualClock } from '../../../../tools/testing/virtual-clock.js';

const BASE = 'https://chat.example.test/api/v1';

function answer(status: number, text: string, headers: Record<string, string> = {}): HttpResponse {
  return { status, headers: { get: (name) => headers[name] ?? null }, text: async () => text };
}

/** A recorder over an in-memory environment whose fetch answers from `answers`, in order. */
function setup(answers: Array<HttpResponse | 'fail'>, rawOptions: Record<string, unknown> = {}) {
  const clock = createVirtualClock(1_000_000);
  const memory = createInMemoryEnvironment({
    clock,
    fetch: async () => {
      const next = answers.shift();
      if (next === undefined || next === 'fail') throw new TypeError('Failed to fetch');
      return next;
    },
  });
  const raw = { baseUrl: BASE, websiteToken: 'wt_secret', record: true, ...rawOptions };
  const redactor = createRedactor();
  redactor.add('wt_secret');
  const recorder = createRecorder({
    rawOptions: raw,
    options: normalizeOptions(raw, memory.env.pageOrigin),
    redactor,
    env: memory.env,
  });
  const lines = () =>
    recorder
      .text()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { clock, memory, recorder, redactor, lines };
}

const GET = { method: 'GET', headers: {} };

describe('recorder', () => {
  it('starts with the config as given, the website token replaced and the default allowed origins written out', () => {
    const { lines } = setup([], { onReady: () => undefined });
    expect(lines()).toEqual([
      {
        step: 'config',
        options: {
          baseUrl: BASE,
          websiteToken: REDACTED,
          allowedOrigins: ['https://chat.example.test', 'https://app.example.test'],
        },
      },
    ]);
  });

  it('writes each answer just before the input step during which its request started, relative paths', async () => {
    const { recorder, lines } = setup([answer(200, '{"id":1}')]);
    recorder.host(
      { id: 'c1', method: 'getConversation' },
      { kind: 'command', command: { id: 'c1', method: 'getConversation' } },
    );
    await recorder.env.fetch(`${BASE}/conversations`, GET);
    expect(lines().slice(1)).toEqual([
      { step: 'respond', method: 'GET', path: '/conversations', status: 200, body: { id: 1 } },
      { step: 'host', data: { id: 'c1', method: 'getConversation' } },
    ]);
  });

  it('records the time between inputs as advance steps', () => {
    const { clock, recorder, lines } = setup([]);
    recorder.posted({ origin: 'https://chat.example.test', data: 'a' });
    clock.advance(1500);
    recorder.posted({ origin: 'https://chat.example.test', data: 'b' });
    expect(lines().slice(1)).toEqual([
      { step: 'post', origin: 'https://chat.example.test', data: 'a' },
      { step: 'advance', ms: 1500 },
      { step: 'post', origin: 'https://chat.example.test', data: 'b' },
    ]);
  });

  it('records a failed request as fail while online, and nothing while offline (a replay fails it by itself)', async () => {
    const { memory, recorder, lines } = setup(['fail', 'fail']);
    const seen: boolean[] = [];
    recorder.env.onConnectivityChange((online) => seen.push(online));
    await expect(recorder.env.fetch(`${BASE}/messages`, { method: 'POST', headers: {} })).rejects.toThrow();
    memory.setOnline(false);
    await expect(recorder.env.fetch(`${BASE}/messages`, { method: 'POST', headers: {} })).rejects.toThrow();
    expect(seen).toEqual([false]);
    expect(lines().slice(1)).toEqual([{ step: 'fail', method: 'POST', path: '/messages' }, { step: 'offline' }]);
  });

  it('begins with an offline step when installed while offline', () => {
    const clock = createVirtualClock();
    const memory = createInMemoryEnvironment({ clock });
    memory.setOnline(false);
    const raw = { baseUrl: BASE };
    const recorder = createRecorder({
      rawOptions: raw,
      options: normalizeOptions(raw, memory.env.pageOrigin),
      redactor: createRedactor(),
      env: memory.env,
    });
    expect(recorder.text().trimEnd().split('\n').slice(1)).toEqual(['{"step":"offline"}']);
  });

  it('keeps no token: the config answer’s authToken and any token the redactor knows are replaced', async () => {
    const { recorder, redactor, lines } = setup([answer(200, '{"authToken":"at_live","inbox":"x"}')]);
    recorder.host('wt_secret', { kind: 'ignored' });
    await recorder.env.fetch(`${BASE}/config?website_token=wt_secret`, GET);
    redactor.add('at_live');
    const text = recorder.text();
    expect(text).not.toContain('wt_secret');
    expect(text).not.toContain('at_live');
    expect(lines()[1]).toMatchObject({ step: 'respond', path: '/config', body: { authToken: REDACTED, inbox: 'x' } });
  });

  it('turns a Retry-After date into the seconds it meant, since a replay’s clock starts at 0', async () => {
    const { recorder, lines } = setup([
      answer(429, '', { 'Retry-After': new Date(1_000_000 + 30_000).toUTCString() }),
      answer(429, '', { 'Retry-After': '7' }),
    ]);
    await recorder.env.fetch(`${BASE}/messages`, { method: 'POST', headers: {} });
    await recorder.env.fetch(`${BASE}/messages`, { method: 'POST', headers: {} });
    expect(
      lines()
        .slice(1)
        .map((line) => line['headers']),
    ).toEqual([{ 'Retry-After': '30' }, { 'Retry-After': '7' }]);
  });

  it('keeps a body that is not JSON, or is a JSON string, as its text', async () => {
    const { recorder, lines } = setup([answer(502, '<html>bad gateway</html>'), answer(200, '"ok"')]);
    await recorder.env.fetch(`${BASE}/config`, GET);
    await recorder.env.fetch(`${BASE}/config`, GET);
    expect(
      lines()
        .slice(1)
        .map((line) => line['body']),
    ).toEqual(['<html>bad gateway</html>', '"ok"']);
  });
});
