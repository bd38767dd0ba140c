// @vitest-environment node
/**
 * A fixture written by someone outside the project, from the fixture format (docs/replay-and-recording.md) alone: comments and blank
 * lines, no config step, string bodies, respond headers, paths with a query string, an
 * attachment given by `size`, offline/online and advance. It must replay as the contract says on
 * every host; these assertions check its lines one by one rather than only trusting a golden.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HOST_NAMES } from '../../bridge/protocol/bridge-options.js';
import { replay } from '../../tools/replay/index.js';

const FIXTURE = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'fixtures',
  'outside',
  'field-report-photo-offline.jsonl',
);
/** Every app's channel carries JSON text; a browser page's event carries the object. */
const STRING_CHANNELS = new Set(['react-native', 'android', 'ios', 'flutter']);

interface RequestLine {
  kind: 'request';
  at: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: { fields?: Record<string, string>; files?: Array<Record<string, unknown>> };
  offline?: true;
}
interface DeliverLine {
  kind: 'deliver';
  at: number;
  host: string;
  payload: unknown;
}
type Message = Record<string, any>;

describe.each(HOST_NAMES)('the outside fixture on %s', (host) => {
  const run = async () => {
    const output = await replay(readFileSync(FIXTURE, 'utf8'), { host, name: 'field-report-photo-offline.jsonl' });
    const lines = output
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as RequestLine | DeliverLine);
    const requests = lines.filter((line): line is RequestLine => line.kind === 'request');
    const deliveries = lines.filter((line): line is DeliverLine => line.kind === 'deliver');
    // A native channel's call may carry several messages (an array): each in turn.
    const decoded = deliveries.flatMap((line) => {
      const value: unknown = typeof line.payload === 'string' ? JSON.parse(line.payload) : line.payload;
      return (Array.isArray(value) ? value : [value]).map((message) => ({ at: line.at, message: message as Message }));
    });
    const response = (id: string) =>
      decoded.find(({ message }) => message['type'] === 'response' && message['id'] === id);
    return { output, requests, deliveries, decoded, response };
  };

  it('uses the default options: the default baseUrl, and the website token never printed', async () => {
    const { output, requests } = await run();
    expect(requests[0]).toEqual({ kind: 'request', at: 0, method: 'GET', path: '/config', headers: {} });
    expect(output).not.toContain('wt_fixture');
    expect(output).not.toContain('at_from_the_field_93x');
  });

  it("delivers through this platform's channel, as a string or an object as the platform carries it", async () => {
    const { deliveries } = await run();
    expect(deliveries.length).toBeGreaterThan(0);
    for (const line of deliveries) {
      expect(line.host).toBe(host);
      expect(typeof line.payload).toBe(STRING_CHANNELS.has(host) ? 'string' : 'object');
    }
    expect(deliveries[0]).toMatchObject({ at: 0 });
  });

  it('makes exactly the requests the story implies, at the virtual times it implies', async () => {
    const { requests } = await run();
    expect(requests.map(({ at, method, path, offline }) => ({ at, method, path, offline }))).toEqual([
      { at: 0, method: 'GET', path: '/config', offline: undefined },
      { at: 0, method: 'GET', path: '/conversations', offline: undefined },
      { at: 0, method: 'GET', path: '/conversations', offline: undefined },
      // Offline: fails at once and uses up no answer.
      { at: 0, method: 'POST', path: '/messages', offline: true },
      // Online again after the 30 s advance: the queued 429 asks for 3 s.
      { at: 30_000, method: 'POST', path: '/messages', offline: undefined },
      { at: 33_000, method: 'POST', path: '/messages', offline: undefined },
    ]);
    for (const request of requests.slice(1)) expect(request.headers['Authorization']).toBe('<redacted>');
  });

  it('uploads the attachment given by size as a multipart file of that size, with one echo_id on every attempt', async () => {
    const { requests } = await run();
    const uploads = requests.filter((request) => request.method === 'POST');
    expect(uploads).toHaveLength(3);
    for (const upload of uploads) {
      expect(upload.body?.files).toEqual([
        { field: 'attachments[]', name: 'photo.jpg', type: 'image/jpeg', size: 204800 },
      ]);
      expect(upload.body?.fields?.['message[content]']).toBe('photo');
    }
    expect(new Set(uploads.map((upload) => upload.body?.fields?.['message[echo_id]'])).size).toBe(1);
  });

  it('answers init with the config minus its authToken', async () => {
    const { response } = await run();
    expect(response('a')).toEqual({
      at: 0,
      message: { type: 'response', id: 'a', ok: true, result: { config: { widget: { title: 'Help' } } } },
    });
  });

  it('reads a string body that is JSON text as JSON', async () => {
    const { response } = await run();
    expect(response('b')).toEqual({
      at: 0,
      message: { type: 'response', id: 'b', ok: true, result: { id: 5, status: 'open' } },
    });
  });

  it('turns a 502 with an HTML string body into server_error, as a response and as an event', async () => {
    const { response, decoded } = await run();
    const failed = response('c');
    expect(failed?.message).toMatchObject({
      ok: false,
      error: { type: 'error', code: 'server_error', retryable: true, status: 502 },
    });
    expect(failed?.message['error'].message).toContain('[GET /conversations] 502');
    expect(failed?.message['error'].message).not.toContain('<html>');
    expect(
      decoded.filter(({ message }) => message['type'] === 'error' && message['code'] === 'server_error'),
    ).toHaveLength(1);
  });

  it('reports the offline send as network_error at once, and answers it only when the upload succeeds', async () => {
    const { response, decoded } = await run();
    const offline = decoded.filter(({ message }) => message['type'] === 'error' && message['code'] === 'network_error');
    expect(offline).toHaveLength(1);
    expect(offline[0]?.at).toBe(0);
    expect(offline[0]?.message['message']).toContain('[POST /messages]');
    expect(response('d')).toEqual({
      at: 33_000,
      message: { type: 'response', id: 'd', ok: true, result: { id: 77, content: 'photo' } },
    });
    // Nothing is said about "d" before it succeeded, and nothing after.
    expect(decoded.filter(({ message }) => message['id'] === 'd')).toHaveLength(1);
    expect(decoded.at(-1)?.message['id']).toBe('d');
  });
});
