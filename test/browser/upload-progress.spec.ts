/**
 * Upload progress in a real page: the bundle in headless Chromium sends attachments through
 * XMLHttpRequest to a real loopback server that reads the body slowly (the reference backend's
 * `slow-upload` fault), and reports the upload in its `sending` message events. Also the XHR
 * path's redirect rule: a redirect is a network error, and Authorization reaches no other origin.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { requireChromium } from '../helpers/chromium.js';
import { useBrowserHarness, type BridgePage, type BrowserHarness } from '../helpers/browser-harness.js';
import type { MessageStateMessage } from '../../bridge/protocol/messages.js';

const MiB = 1024 * 1024;

describe.skipIf(!requireChromium())('upload progress (real bundle in Chromium, loopback servers)', () => {
  const harness = useBrowserHarness();
  const tabs: BridgePage[] = [];
  const servers: Server[] = [];

  afterEach(async () => {
    for (const tab of tabs.splice(0)) await tab.close();
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    harness.backend.reset();
  });

  const open = async (options: Parameters<BrowserHarness['open']>[0]) => {
    const tab = await harness.open(options);
    tabs.push(tab);
    return tab;
  };
  const events = async (tab: BridgePage, messageId: string) =>
    (await tab.messages()).filter(
      (message): message is MessageStateMessage => message.type === 'message' && message.messageId === messageId,
    );

  it('reports two 4 MiB photos going up over a slow link in several sending events, bytes rising to the whole body, then sent', async () => {
    const tab = await open({ host: 'flutter' });
    expect(await tab.call('getConversation')).toMatchObject({ ok: true });
    // 8 MiB at 512 KiB/s: the loopback socket buffers take the first ~4 MiB at once (so the
    // browser counts them sent; more on a loaded machine), the rest goes at the server's pace for
    // up to eight seconds, over which Chromium reports the upload every ~600 ms. At 1 MiB/s a
    // loaded machine once saw only three reports.
    harness.backend.setFault('slow-upload', true, '512');
    const photo = Buffer.alloc(4 * MiB, 3).toString('base64');
    await tab.send('sendMessage', {
      content: 'beach',
      messageId: 'beach',
      attachments: [
        { name: 'beach.jpg', type: 'image/jpeg', data: photo },
        { name: 'sunset.jpg', type: 'image/jpeg', data: photo },
      ],
    });
    await tab.waitFor({ type: 'message', messageId: 'beach', state: 'sent' }, { timeoutMs: 45_000 });

    const post = harness.backend.requests.find((entry) => entry.method === 'POST' && entry.path === '/messages');
    const bodySize = Number(post?.headers['content-length']);
    expect(bodySize).toBeGreaterThan(8 * MiB);
    const seen = await events(tab, 'beach');
    const progress = seen.flatMap((event) => (event.progress ? [event.progress] : []));
    // Every report is of a sending attempt, of the whole multipart body.
    expect(seen.filter((event) => event.progress).every((event) => event.state === 'sending')).toBe(true);
    expect(progress.every((report) => report.totalBytes === bodySize)).toBe(true);
    expect(progress.length).toBeGreaterThanOrEqual(4);
    const sent = progress.map((report) => report.sentBytes);
    expect(sent).toEqual([...sent].sort((a, b) => a - b));
    expect(new Set(sent).size).toBe(sent.length);
    expect(sent.at(-1)).toBe(bodySize);
    // The order a chat UI sees: sending, its progress up to 100%, then sent.
    expect(seen.map((event) => event.state)).toEqual(['queued', 'sending', ...progress.map(() => 'sending'), 'sent']);
  }, 60_000);

  it('sends a text message through fetch, with no progress', async () => {
    const tab = await open({ host: 'android' });
    expect(await tab.call('sendMessage', { content: 'just text', messageId: 'text' })).toMatchObject({ ok: true });
    expect((await events(tab, 'text')).some((event) => event.progress)).toBe(false);
  });

  /** A server on `host` answering each request with `handle`, CORS open to the test page; resolves with its origin and what it saw. */
  async function serve(host: string, handle: (request: IncomingMessage, response: ServerResponse) => void) {
    const seen: Array<{ method: string; url: string; authorization: string | undefined }> = [];
    const server = createServer((request, response) => {
      seen.push({ method: request.method ?? '', url: request.url ?? '', authorization: request.headers.authorization });
      // "*": after a redirect to another origin, the request's Origin is "null".
      response.setHeader('Access-Control-Allow-Origin', '*');
      response.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type');
      response.setHeader('Access-Control-Allow-Methods', 'GET, POST, PATCH, DELETE');
      request.resume();
      request.on('end', () => {
        if (request.method === 'OPTIONS') return void response.writeHead(204).end();
        handle(request, response);
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { origin: `http://${host}:${(server.address() as AddressInfo).port}`, seen };
  }
  const json = (response: ServerResponse, status: number, body: unknown) =>
    response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));

  it('treats a redirected upload as a network error: the message stays queued, and the other origin never sees Authorization', async () => {
    // The other origin admits Authorization in its preflight and would accept the message.
    const elsewhere = await serve('localhost', (_request, response) => json(response, 201, { id: 1, content: 'x' }));
    const api = await serve('127.0.0.1', (request, response) => {
      if (request.url?.startsWith('/api/config'))
        return json(response, 200, { authToken: 'at_redirect_test_token_0123456789' });
      // The conversation is looked up before an upload: it exists, so the upload is what redirects.
      if (request.url === '/api/conversations') return json(response, 200, { id: 1, status: 'open' });
      response.writeHead(307, { Location: `${elsewhere.origin}/api/messages` }).end();
    });
    const tab = await open({ host: 'ios', settings: { baseUrl: `${api.origin}/api` } });
    await tab.send('sendMessage', {
      content: 'photo',
      messageId: 'redirected',
      attachments: [{ name: 'p.png', type: 'image/png', data: Buffer.alloc(200_000, 1).toString('base64') }],
    });
    const error = await tab.waitFor({ type: 'error', code: 'network_error' });
    expect(error).toMatchObject({ message: expect.stringContaining('[POST /messages] network error') });
    const queued = await tab.waitFor({ type: 'message', messageId: 'redirected', state: 'queued', attempt: 1 });
    expect(queued).toMatchObject({ nextAttemptAt: expect.any(Number) });
    expect((await events(tab, 'redirected')).some((event) => event.state === 'sent')).toBe(false);

    // The upload was made and redirected (so the check above is what kept it from counting as sent).
    const posts = api.seen.filter((request) => request.method === 'POST');
    expect(posts.length).toBeGreaterThan(0);
    expect(
      posts.every(
        ({ url, authorization }) =>
          url === '/api/messages' && authorization === 'Bearer at_redirect_test_token_0123456789',
      ),
    ).toBe(true);
    expect(elsewhere.seen.some((request) => request.method === 'POST')).toBe(true);
    expect(elsewhere.seen.every((request) => request.authorization === undefined)).toBe(true);
  });
});
