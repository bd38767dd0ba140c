/**
 * HTTP for replays (tools/replay/scripted-http.ts): answers first in, first out per method and
 * path, every request an output line, the Authorization header never in it.
 */
import { describe, expect, it } from 'vitest';
import { REDACTED } from '../../../../bridge/index.js';
import { createScriptedHttp, type RequestLine } from '../../../../tools/replay/scripted-http.js';

function setup(online = true) {
  const lines: RequestLine[] = [];
  const state = { online, now: 0 };
  const http = createScriptedHttp(
    '/api',
    () => state.now,
    () => state.online,
    (line) => lines.push(line),
  );
  return { http, lines, state };
}

const get = { method: 'GET', headers: { Authorization: 'Bearer at_secret_0123456789' } };

describe('createScriptedHttp', () => {
  it('answers each method and path from its own queue, in order, and reports what was never used', async () => {
    const { http } = setup();
    http.queue('GET', '/config', { kind: 'respond', status: 500 });
    http.queue('GET', '/config', { kind: 'respond', status: 200, body: { authToken: 'a' }, headers: { 'X-A': '1' } });
    http.queue('POST', '/messages', { kind: 'respond', status: 201 });

    const first = await http.fetch('https://chat.example/api/config?website_token=wt', get);
    const second = await http.fetch('https://chat.example/api/config', get);
    expect(first.status).toBe(500);
    expect(second.status).toBe(200);
    expect(await second.text()).toBe('{"authToken":"a"}');
    expect(second.headers.get('x-a')).toBe('1');
    expect(http.unused()).toEqual(['POST /messages']);
  });

  it('writes each request as a line: time, path without base or query, headers with Authorization redacted, JSON body parsed', async () => {
    const { http, lines, state } = setup();
    http.queue('POST', '/messages', { kind: 'respond', status: 201 });
    state.now = 1_234;
    await http.fetch('https://chat.example/api/messages?x=1', {
      method: 'POST',
      headers: { Authorization: 'Bearer at_secret_0123456789', 'Content-Type': 'application/json' },
      body: '{"content":"Hi"}',
    });
    expect(lines).toEqual([
      {
        kind: 'request',
        at: 1_234,
        method: 'POST',
        path: '/messages',
        headers: { Authorization: REDACTED, 'Content-Type': 'application/json' },
        body: { content: 'Hi' },
      },
    ]);
    expect(JSON.stringify(lines)).not.toContain('at_secret');
  });

  it('summarises a multipart body as fields and file sizes, not contents', async () => {
    const { http, lines } = setup();
    http.queue('POST', '/messages', { kind: 'respond', status: 201 });
    const form = new FormData();
    form.append('content', 'photo');
    form.append('attachments[]', new File([new Uint8Array(5)], 'a.png', { type: 'image/png' }));
    await http.fetch('https://chat.example/api/messages', { method: 'POST', headers: {}, body: form });
    expect(lines[0]?.headers).toEqual({ 'Content-Type': 'multipart/form-data' });
    expect(lines[0]?.body).toEqual({
      fields: { content: 'photo' },
      files: [{ field: 'attachments[]', name: 'a.png', type: 'image/png', size: 5 }],
    });
  });

  it('fails a request while offline, marking its line, without using an answer', async () => {
    const { http, lines } = setup(false);
    http.queue('GET', '/config', { kind: 'respond', status: 200 });
    await expect(http.fetch('https://chat.example/api/config', get)).rejects.toThrow('Failed to fetch');
    expect(lines[0]?.offline).toBe(true);
    expect(http.unused()).toEqual(['GET /config']);
  });

  it('remembers the first unmatched request; after the last step one is only marked unanswered', async () => {
    const { http, lines } = setup();
    await expect(http.fetch('https://chat.example/api/a', get)).rejects.toThrow(TypeError);
    await expect(http.fetch('https://chat.example/api/b', get)).rejects.toThrow(TypeError);
    expect(http.unmatched).toBe('GET /a');
    http.afterLastStep = true;
    await expect(http.fetch('https://chat.example/api/c', get)).rejects.toThrow(TypeError);
    expect(http.unmatched).toBe('GET /a');
    expect(lines.map((line) => line.unanswered)).toEqual([undefined, undefined, true]);
  });

  it('fails a scripted failure, and holds a hang until the request is aborted', async () => {
    const { http } = setup();
    http.queue('GET', '/config', { kind: 'fail' });
    http.queue('GET', '/config', { kind: 'hang' });
    await expect(http.fetch('https://chat.example/api/config', get)).rejects.toThrow('Failed to fetch');
    const abort = new AbortController();
    const hung = http.fetch('https://chat.example/api/config', { ...get, signal: abort.signal });
    let settled = false;
    hung.catch(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    abort.abort();
    await expect(hung).rejects.toMatchObject({ name: 'AbortError' });
  });
});
