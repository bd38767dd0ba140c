// @vitest-environment node
/**
 * http.ts against a real node:http server on 127.0.0.1: the network is the point here (what
 * goes on the wire, timeouts, refused connections, redirects), so no fetch is mocked.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttp, type Http } from '../../../../bridge/backend/http.js';
import type { HttpRequest, HttpResponse, Upload } from '../../../../bridge/environment.js';
import { failure } from '../../../helpers/failure.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    }),
  );
});

/** A server answering each request with `handle`; resolves with its base URL and what it saw. */
async function serve(handle: (request: IncomingMessage, response: ServerResponse, index: number) => void) {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      handle(request, response, seen.length - 1);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, seen };
}

function http(
  origin: string,
  settings: {
    requestTimeout?: number;
    limit?: number;
    inFlight?: Set<AbortController>;
    basePath?: string;
    upload?: Upload;
  } = {},
): Http {
  return createHttp(
    {
      fetch: (url: string, request: HttpRequest) => fetch(url, request) as Promise<HttpResponse>,
      upload: settings.upload,
      setTimeout: (callback, ms) => setTimeout(callback, ms),
      clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
      random: () => 0.5,
      now: () => Date.now(),
    },
    {
      baseUrl: `${origin}${settings.basePath ?? '/api/v1'}`,
      apiOrigin: origin,
      requestTimeout: settings.requestTimeout ?? 5_000,
      retry: { limit: settings.limit ?? 2, baseDelay: 1, maxDelay: 5 },
    },
    settings.inFlight ?? new Set(),
  );
}

const json = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  response.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
};

describe('one request', () => {
  it('sends JSON under the base URL with only Content-Type and Authorization of its own, and parses the answer', async () => {
    const server = await serve((_request, response) => json(response, 201, { id: 7 }));
    const response = await http(server.origin)(
      {
        method: 'POST',
        path: '/messages',
        query: { page: '2' },
        json: { message: { content: 'Hi' } },
      },
      'at_1',
    );
    expect(response).toMatchObject({ status: 201, body: { id: 7 }, text: '{"id":7}' });
    const [seen] = server.seen;
    expect(seen?.method).toBe('POST');
    expect(seen?.url).toBe('/api/v1/messages?page=2');
    expect(seen?.headers['content-type']).toBe('application/json');
    expect(seen?.headers['authorization']).toBe('Bearer at_1');
    expect(JSON.parse(seen?.body ?? '')).toEqual({ message: { content: 'Hi' } });
  });

  it('keeps the text of a body that is not JSON, with no parsed body', async () => {
    const server = await serve((_request, response) => response.writeHead(502).end('<html>Bad gateway</html>'));
    expect(await http(server.origin)({ method: 'GET', path: '/config' })).toMatchObject({
      status: 502,
      body: undefined,
      text: '<html>Bad gateway</html>',
    });
  });

  it('answers network_error naming the route when nothing listens on the port', async () => {
    const server = await serve(() => {});
    await new Promise((resolve) => servers.pop()?.close(resolve));
    expect(await failure(http(server.origin)({ method: 'GET', path: '/config' }))).toEqual({
      type: 'error',
      code: 'network_error',
      retryable: true,
      message: '[GET /config] network error: offline, unreachable or no CORS',
    });
  });

  it('answers network_error after requestTimeout when the server never answers', async () => {
    const server = await serve(() => {});
    expect(await failure(http(server.origin, { requestTimeout: 100 })({ method: 'GET', path: '/config' }))).toEqual({
      type: 'error',
      code: 'network_error',
      retryable: true,
      message: '[GET /config] no answer within 100 ms',
    });
  });

  it('does not follow a redirect, so the Authorization header cannot travel on', async () => {
    const elsewhere = await serve((_request, response) => json(response, 200, {}));
    const server = await serve((_request, response) =>
      response.writeHead(302, { Location: `${elsewhere.origin}/steal` }).end(),
    );
    expect(await failure(http(server.origin)({ method: 'GET', path: '/conversations' }, 'at_1'))).toMatchObject({
      code: 'network_error',
    });
    expect(elsewhere.seen).toEqual([]);
  });

  it('refuses a path that would leave the API origin, before any request', async () => {
    const server = await serve((_request, response) => json(response, 200, {}));
    // "http://127.0.0.1:port" + "@evil.example.test/" reads as user info and another host.
    const outside = http(server.origin, { basePath: '' })({ method: 'GET', path: '@evil.example.test/' });
    await expect(outside).rejects.toThrow('request outside the API origin');
    expect(server.seen).toEqual([]);
  });

  it('aborts the requests under way when their controllers are aborted (the bridge destroyed)', async () => {
    const server = await serve(() => {});
    const inFlight = new Set<AbortController>();
    const pending = http(server.origin, { inFlight })({ method: 'GET', path: '/config' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(inFlight.size).toBe(1);
    inFlight.forEach((controller) => controller.abort());
    expect(await failure(pending)).toMatchObject({ code: 'network_error' });
    expect(inFlight.size).toBe(0);
  });
});

// The upload transport itself (XMLHttpRequest) runs in Chromium, in test/browser/upload-progress.spec.ts;
// here stand-ins for it pin what http.ts does around it: which requests take it, its timeout, its abort.
describe('uploads with progress', () => {
  const form = () => {
    const data = new FormData();
    data.append('attachments[]', new Blob(['x'.repeat(1000)], { type: 'image/png' }), 'a.png');
    return data;
  };
  /** An upload transport over Node's fetch that reports the body in two steps, and what it was given. */
  function transport() {
    const given: Array<{ url: string; request: HttpRequest }> = [];
    const upload: Upload = async (url, request, onProgress) => {
      given.push({ url, request });
      onProgress(500, 1000);
      onProgress(1000, 1000);
      return (await fetch(url, request)) as HttpResponse;
    };
    return { given, upload };
  }

  it('sends a form with onProgress through upload, with only Authorization of its own, and relays the progress', async () => {
    const server = await serve((_request, response) => json(response, 201, { id: 8 }));
    const { given, upload } = transport();
    const progress: number[][] = [];
    const response = await http(server.origin, { upload })(
      {
        method: 'POST',
        path: '/messages',
        form: form(),
        onProgress: (sent, total) => progress.push([sent, total]),
      },
      'at_1',
    );
    expect(response).toMatchObject({ status: 201, body: { id: 8 } });
    expect(given.map(({ url, request }) => [url, request.headers])).toEqual([
      [`${server.origin}/api/v1/messages`, { Authorization: 'Bearer at_1' }],
    ]);
    expect(server.seen[0]?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(progress).toEqual([
      [500, 1000],
      [1000, 1000],
    ]);
  });

  it('sends JSON through fetch even when told onProgress, and a form without onProgress too', async () => {
    const server = await serve((_request, response) => json(response, 201, {}));
    const { given, upload } = transport();
    const send = http(server.origin, { upload });
    await send({ method: 'POST', path: '/messages', json: { message: {} }, onProgress: () => {} });
    await send({ method: 'POST', path: '/messages', form: form() });
    expect(given).toEqual([]);
    expect(server.seen).toHaveLength(2);
  });

  it('restarts the request timeout on each progress report, so a slow upload that keeps moving is not cut off', async () => {
    const upload: Upload = async (_url, _request, onProgress) => {
      // 800 ms in all, against a 400 ms timeout.
      for (let sent = 1; sent <= 8; sent++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        onProgress(sent, 8);
      }
      return { status: 201, headers: new Headers(), text: async () => '{"id":9}' };
    };
    const response = await http('http://127.0.0.1:9', { requestTimeout: 400, upload })({
      method: 'POST',
      path: '/messages',
      form: form(),
      onProgress: () => {},
    });
    expect(response).toMatchObject({ status: 201, body: { id: 9 } });
  });

  it('answers network_error after requestTimeout when an upload stops moving and never settles, even ignoring its abort', async () => {
    let signal: AbortSignal | undefined;
    const upload: Upload = (_url, request, onProgress) => {
      signal = request.signal;
      onProgress(1, 10);
      return new Promise(() => {});
    };
    const pending = http('http://127.0.0.1:9', { requestTimeout: 100, upload })({
      method: 'POST',
      path: '/messages',
      form: form(),
      onProgress: () => {},
    });
    expect(await failure(pending)).toEqual({
      type: 'error',
      code: 'network_error',
      retryable: true,
      message: '[POST /messages] no answer within 100 ms',
    });
    expect(signal?.aborted).toBe(true);
  });

  it('aborts the upload when the command that made it is answered', async () => {
    let signal: AbortSignal | undefined;
    const upload: Upload = (_url, request) => {
      signal = request.signal;
      return new Promise(() => {});
    };
    const command = new AbortController();
    const pending = http('http://127.0.0.1:9', { upload })({
      method: 'POST',
      path: '/messages',
      form: form(),
      onProgress: () => {},
      signal: command.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    command.abort();
    expect(await failure(pending)).toMatchObject({ code: 'network_error' });
    expect(signal?.aborted).toBe(true);
  });
});

describe('429 retries', () => {
  it('tries again after a 429 and returns the answer that follows', async () => {
    const server = await serve((_request, response, index) =>
      index === 0 ? json(response, 429, { message: 'slow down' }) : json(response, 200, { ok: 1 }),
    );
    expect(await http(server.origin)({ method: 'GET', path: '/conversations' })).toMatchObject({ status: 200 });
    expect(server.seen).toHaveLength(2);
  });

  it('answers 429 with rate_limited after retry.limit retries, keeping the server message', async () => {
    const server = await serve((_request, response) => json(response, 429, { message: 'slow down' }));
    const event = await failure(http(server.origin, { limit: 2 })({ method: 'GET', path: '/conversations' }));
    expect(event).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(event.message).toMatch(/^\[GET \/conversations\] 429: slow down; /);
    expect(server.seen).toHaveLength(3);
  });

  it('makes no attempt after a 429 wait once the command that made the request was answered', async () => {
    const server = await serve((_request, response) => json(response, 429, {}));
    const command = new AbortController();
    const send = createHttp(
      {
        fetch: (url: string, request: HttpRequest) => fetch(url, request) as Promise<HttpResponse>,
        setTimeout: (callback, ms) => {
          // The wait before the retry, the one timer shorter than requestTimeout: the command is answered meanwhile.
          if (ms < 5_000) command.abort();
          return setTimeout(callback, ms);
        },
        clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
        random: () => 0.5,
        now: () => Date.now(),
      },
      {
        baseUrl: `${server.origin}/api/v1`,
        apiOrigin: server.origin,
        requestTimeout: 5_000,
        retry: { limit: 2, baseDelay: 1, maxDelay: 5 },
      },
      new Set(),
    );
    expect(await failure(send({ method: 'GET', path: '/conversations', signal: command.signal }))).toMatchObject({
      code: 'network_error',
    });
    expect(server.seen).toHaveLength(1);
  });

  it('does not retry at all with retry.limit 0', async () => {
    const server = await serve((_request, response) => json(response, 429, {}));
    expect(await failure(http(server.origin, { limit: 0 })({ method: 'GET', path: '/config' }))).toMatchObject({
      code: 'rate_limited',
    });
    expect(server.seen).toHaveLength(1);
  });
});
