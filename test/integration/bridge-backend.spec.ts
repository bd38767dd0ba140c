// @vitest-environment node
/**
 * The contract's "Conditions and results" table, row by row, played by the built bridge
 * (dist/esm) against the reference backend over real HTTP: what each host command makes the
 * bridge send, and what the host receives back.
 */
import { describe, expect, it } from 'vitest';
import {
  WEBSITE_TOKEN,
  base64Bytes,
  createHarness,
  useReferenceBackend,
  type BridgeHarness,
} from '../helpers/bridge-harness.js';
import { startReferenceBackend } from '../../reference-backend/server.mjs';

const suite = useReferenceBackend();

// The contract's wording: "the backend is not running or the widget inbox is not set up".

/** The failed response's error, which must also have been emitted as an error event. */
function failureOf(h: BridgeHarness, response: Awaited<ReturnType<BridgeHarness['send']>>) {
  if (response.ok) throw new Error(`expected a failure, got ${JSON.stringify(response.result)}`);
  expect(h.errors()).toContainEqual(response.error);
  return response.error;
}

const routes = () => suite.log().map((entry) => `${entry.method} ${entry.path} ${entry.status}`);

describe('GET /config failures', () => {
  it('answers a rotated website token (401) with auth_failed carrying the server message', async () => {
    const h = suite.bridge();
    suite.backend.setFault('rotated-website-token', true);

    const error = failureOf(h, await h.send('init'));

    expect(error).toMatchObject({ code: 'auth_failed', status: 401 });
    expect(error.message).toBe('[GET /config] 401: Invalid website token: the token has been rotated');
    expect(routes()).toEqual(['GET /config 401']);
  });

  it('answers a website token the backend does not know (401) with auth_failed', async () => {
    const h = suite.bridge({ options: { websiteToken: 'wt_unknown_token' } });

    const error = failureOf(h, await h.send('init'));

    expect(error).toMatchObject({ code: 'auth_failed', status: 401 });
    expect(error.message).toContain('Invalid website token');
    expect(routes()).toEqual(['GET /config 401']);
  });

  it('refuses with auth_failed and sends nothing when no website token is configured', async () => {
    const h = suite.bridge({ options: { websiteToken: undefined } });

    const error = failureOf(h, await h.send('getConversation'));

    expect(error).toMatchObject({ code: 'auth_failed', status: 401 });
    expect(h.te.requests).toEqual([]);
    expect(suite.log()).toEqual([]);
  });

  it.each([
    ['config-empty', 'empty body'],
    ['config-malformed', 'body not JSON'],
    ['config-no-token', 'no authToken'],
  ])('reports %s as config_error naming the route, the status and what the answer lacked', async (fault, detail) => {
    const h = suite.bridge();
    suite.backend.setFault(fault, true);

    const error = failureOf(h, await h.send('init'));

    expect(error.code).toBe('config_error');
    expect(error.message).toBe(`[GET /config] 200: ${detail}`);
    expect(routes()).toEqual(['GET /config 200']);
  });

  it('answers a backend error (500) with server_error', async () => {
    const h = suite.bridge();
    suite.backend.setFault('server-error', true);

    const error = failureOf(h, await h.send('init'));

    expect(error).toMatchObject({
      code: 'server_error',
      status: 500,
      message: '[GET /config] 500: Internal server error',
    });
    expect(routes()).toEqual(['GET /config 500']);
  });

  it('answers init with the config minus its authToken', async () => {
    const h = suite.bridge();

    const response = await h.send('init');

    expect(response).toMatchObject({ ok: true, result: { config: { widget: { name: 'Reference inbox' } } } });
    expect(JSON.stringify(response)).not.toContain('authToken');
    expect(routes()).toEqual(['GET /config 200']);
  });
});

describe('messages refused locally, with the status the server would give and no request', () => {
  const png = (bytes: number) => ({ name: 'a.png', type: 'image/png', data: base64Bytes(bytes) });
  // maxFileSize undefined: the bridge's default limit (5 MiB, the widget's).
  const DEFAULT_LIMIT = 5 * 1024 * 1024;
  it.each([
    ['empty content', { content: '   ' }, 'empty_message', 400, undefined],
    ['no content at all', {}, 'empty_message', 400, undefined],
    [
      'more than 5 files',
      { content: 'six', attachments: Array.from({ length: 6 }, () => png(3)) },
      'too_many_files',
      400,
      undefined,
    ],
    [
      'an unsupported MIME type',
      { attachments: [{ name: 'a.zip', type: 'application/zip', data: base64Bytes(3) }] },
      'unsupported_file_type',
      400,
      undefined,
    ],
    [
      'a file declared over the default 5 MiB limit',
      { attachments: [{ name: 'big.mp4', type: 'video/mp4', size: DEFAULT_LIMIT + 1 }] },
      'file_too_large',
      413,
      undefined,
    ],
    ['a file whose bytes exceed maxFileSize', { attachments: [png(1001)] }, 'file_too_large', 413, 1000],
    ['an invalid e-mail', { content: 'hi', email: 'not-an-email' }, 'validation_error', 422, undefined],
  ])('refuses %s before any request', async (_, params, code, status, maxFileSize) => {
    const h = suite.bridge({ options: { maxFileSize } });

    const error = failureOf(h, await h.send('sendMessage', params));

    expect(error).toMatchObject({ code, status });
    expect(h.te.requests).toEqual([]);
    expect(suite.log()).toEqual([]);
  });

  it.each(['getConversation', 'createConversation', 'sendMessage'])(
    'refuses an invalid e-mail and a blank identifier in %s with validation_error 422 and field errors',
    async (method) => {
      const h = suite.bridge();

      const error = failureOf(h, await h.send(method, { content: 'hi', email: 'nobody@', identifier: '  ' }));

      expect(error).toMatchObject({
        code: 'validation_error',
        status: 422,
        errors: { email: [expect.any(String)], identifier: [expect.any(String)] },
      });
      expect(h.te.requests).toEqual([]);
      expect(suite.log()).toEqual([]);
    },
  );
});

describe('413 from the server', () => {
  it('answers the payload-too-large fault with file_too_large carrying the server message', async () => {
    const h = suite.bridge({ options: { maxFileSize: 100_000 } });
    expect((await h.send('createConversation')).ok).toBe(true);
    suite.backend.setFault('payload-too-large', true);
    suite.clearRequests();

    const error = failureOf(
      h,
      await h.send('sendMessage', { attachments: [{ name: 'a.png', type: 'image/png', data: base64Bytes(2000) }] }),
    );

    expect(error).toMatchObject({ code: 'file_too_large', status: 413 });
    expect(error.message).toBe('[POST /messages] 413: File exceeds the maximum upload size of 5 MB');
    expect(routes()).toEqual(['POST /messages 413']);
    expect(h.sent.map((request) => request.body)).toEqual(['multipart']);
  });

  it('answers a real upload over the backend limit with file_too_large, the message stating that limit', async () => {
    const small = await startReferenceBackend({ websiteTokens: [WEBSITE_TOKEN], maxFileSize: 1000 });
    const h = createHarness(small, { options: { maxFileSize: 100_000 } });
    try {
      const error = failureOf(
        h,
        await h.send('sendMessage', {
          content: 'photo',
          attachments: [{ name: 'a.png', type: 'image/png', data: base64Bytes(2000) }],
        }),
      );

      expect(error).toMatchObject({ code: 'file_too_large', status: 413 });
      expect(error.message).toBe('[POST /messages] 413: File exceeds the maximum upload size of 1000 bytes');
      // Fresh contact: the conversation is looked up (404) and created before the upload goes once.
      expect(small.requests.map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual([
        'GET /config 200',
        'GET /conversations 404',
        'POST /conversations 200',
        'POST /messages 413',
      ]);
    } finally {
      h.destroy();
      await small.close();
    }
  });

  it('sends a file under the backend limit as multipart and gets the stored message back', async () => {
    const h = suite.bridge({ options: { maxFileSize: 100_000 } });

    const response = await h.send('sendMessage', {
      content: 'photo',
      attachments: [{ name: 'a.png', type: 'image/png', data: base64Bytes(2000) }],
    });

    expect(response).toMatchObject({
      ok: true,
      result: { content: 'photo', attachments: [{ name: 'a.png', type: 'image/png', size: 2000 }] },
    });
    expect(h.errors()).toEqual([]);
  });
});

describe("a contact's first message with photos", () => {
  /** The bytes the backend received for POST /messages, as each request's Content-Length declared them. */
  const uploadedBytes = () =>
    suite
      .log()
      .filter((entry) => entry.method === 'POST' && entry.path === '/messages')
      .map((entry) => Number(entry.headers['content-length']));
  const photos = (count: number, size: number) =>
    Array.from({ length: count }, (_, n) => ({ name: `p${n}.jpg`, type: 'image/jpeg', data: base64Bytes(size) }));

  it("sends the photos' bytes once: the conversation is created before the upload", async () => {
    const h = suite.bridge({ options: { maxFileSize: 1_000_000 } });

    const response = await h.send('sendMessage', { content: 'hello', name: 'Ada', attachments: photos(3, 200_000) });

    expect(response).toMatchObject({ ok: true, result: { content: 'hello' } });
    expect(h.errors()).toEqual([]);
    expect(routes()).toEqual([
      'GET /config 200',
      'GET /conversations 404',
      'POST /conversations 200',
      'POST /messages 200',
    ]);
    const [bytes, ...more] = uploadedBytes();
    expect(more).toEqual([]);
    // The three photos and the multipart framing around them, once.
    expect(bytes).toBeGreaterThanOrEqual(600_000);
    expect(bytes).toBeLessThan(601_000);
    expect(await suite.storedMessages()).toMatchObject([{ content: 'hello' }]);
  });

  it('looks the conversation up once a page: the next photos go straight to POST /messages', async () => {
    const h = suite.bridge({ options: { maxFileSize: 1_000_000 } });
    await h.send('createConversation');
    expect((await h.send('sendMessage', { content: 'one', attachments: photos(1, 1000) })).ok).toBe(true);
    expect((await h.send('sendMessage', { content: 'two', attachments: photos(1, 1000) })).ok).toBe(true);

    expect(routes()).toEqual([
      'GET /config 200',
      'POST /conversations 200',
      'POST /messages 200',
      'POST /messages 200',
    ]);
  });

  it('finds an existing conversation with one GET and does not replace it', async () => {
    const first = suite.bridge();
    const created = (await first.send('createConversation')) as { result: { id: number } };
    suite.clearRequests();
    const h = suite.bridge({ options: { maxFileSize: 1_000_000 } });

    expect((await h.send('sendMessage', { content: 'photo', attachments: photos(1, 50_000) })).ok).toBe(true);

    expect(routes()).toEqual(['GET /config 200', 'GET /conversations 200', 'POST /messages 200']);
    expect(uploadedBytes()).toHaveLength(1);
    const conversation = (await h.send('getConversation')) as { result: { id: number } };
    expect(conversation.result.id).toBe(created.result.id);
  });
});

describe('GET /conversations 404', () => {
  it('creates the conversation with POST /conversations and answers with it, with no error event', async () => {
    const h = suite.bridge();

    const response = await h.send('getConversation', { name: 'Ada', email: 'ada@example.test' });

    expect(response).toMatchObject({
      ok: true,
      result: { id: expect.any(Number), status: 'open', contact: { name: 'Ada', email: 'ada@example.test' } },
    });
    expect(h.errors()).toEqual([]);
    expect(routes()).toEqual(['GET /config 200', 'GET /conversations 404', 'POST /conversations 200']);
  });

  it('answers with the existing conversation without creating another', async () => {
    const h = suite.bridge();
    const created = await h.send('createConversation');
    suite.clearRequests();

    const response = await h.send('getConversation');

    expect(response).toMatchObject({ ok: true, result: { id: (created as { result: { id: number } }).result.id } });
    expect(routes()).toEqual(['GET /conversations 200']);
  });
});

describe('401 on conversation endpoints', () => {
  it('refetches the config exactly once and retries once with the new token when the auth token expired', async () => {
    const h = suite.bridge();
    await h.send('createConversation');
    suite.backend.setFault('expired-auth-token', true);
    suite.clearRequests();

    const response = await h.send('getConversation');

    expect(response.ok).toBe(true);
    expect(h.errors()).toEqual([]);
    expect(routes()).toEqual(['GET /conversations 401', 'GET /config 200', 'GET /conversations 200']);
    const [first, , retry] = h.sent;
    expect(retry?.headers['Authorization']).toMatch(/^Bearer \S+$/);
    expect(retry?.headers['Authorization']).not.toBe(first?.headers['Authorization']);
  });

  it('gives up with auth_failed after two attempts and two config fetches when every token is refused', async () => {
    const h = suite.bridge();
    suite.backend.setFault('always-401', true);

    const error = failureOf(h, await h.send('getConversation'));

    expect(error).toMatchObject({
      code: 'auth_failed',
      status: 401,
      message: '[GET /conversations] 401: Invalid or expired auth token',
    });
    // A little longer, to see that nothing keeps retrying in the background.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(routes()).toEqual([
      'GET /config 200',
      'GET /conversations 401',
      'GET /config 200',
      'GET /conversations 401',
    ]);
  });
});

describe('422 from the server', () => {
  it('answers with validation_error carrying the server field errors', async () => {
    const h = suite.bridge();
    suite.backend.setFault('validation-422', true);

    const error = failureOf(h, await h.send('createConversation', { email: 'ada@example.test' }));

    expect(error).toMatchObject({
      code: 'validation_error',
      status: 422,
      message: '[POST /conversations] 422: Validation failed',
      errors: { email: ['is not a valid e-mail address'] },
    });
    expect(routes()).toEqual(['GET /config 200', 'POST /conversations 422']);
  });
});

describe('429 from the server', () => {
  it('retries up to the retry limit without Retry-After, then answers rate_limited', async () => {
    const h = suite.bridge({ options: { retry: { limit: 2, baseDelay: 10, maxDelay: 2000 } } });
    suite.backend.setFault('rate-limited-no-retry-after', true);

    const error = failureOf(h, await h.send('init'));

    expect(error).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(error.message).toMatch(/^\[GET \/config\] 429: Too many requests: retry later; gave up after 2 retries$/);
    expect(routes()).toEqual(['GET /config 429', 'GET /config 429', 'GET /config 429']);
  });

  it('honours Retry-After between attempts, then answers rate_limited when the limit is spent', async () => {
    const h = suite.bridge({ options: { retry: { limit: 1, baseDelay: 10, maxDelay: 2000 } } });
    suite.backend.setFault('rate-limited', true);

    const error = failureOf(h, await h.send('init'));

    expect(error).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(error.message).toMatch(/gave up after 1 retry$/);
    expect(routes()).toEqual(['GET /config 429', 'GET /config 429']);
    const [first, second] = suite.log();
    // Retry-After: 1, not the 10 ms baseDelay (a lower bound only).
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(900);
  });

  it('waits out Retry-After and succeeds once the server stops limiting', async () => {
    const h = suite.bridge({ options: { retry: { limit: 2, baseDelay: 10, maxDelay: 2000 } } });
    suite.backend.setFault('rate-limited', true);

    const pending = h.send('init');
    await h.waitFor(() => suite.log().length === 1 && suite.log()[0]?.status === 429, 'the first 429');
    const limitedAt = Date.now();
    suite.backend.setFault('rate-limited', false);
    const response = await pending;

    expect(response.ok).toBe(true);
    expect(h.errors()).toEqual([]);
    // Normally one 429 then 200; a very slow test machine may switch the fault off a retry later.
    expect(routes().join()).toMatch(/^(GET \/config 429,){1,2}GET \/config 200$/);
    // Retry-After: 1 was honoured (10 ms baseDelay would have retried at once); a lower bound only.
    expect((suite.log().at(-1)?.at ?? 0) - limitedAt).toBeGreaterThanOrEqual(900);
  });

  it('gives up at once with rate_limited when Retry-After is over the maxDelay cap', async () => {
    const h = suite.bridge({ options: { retry: { limit: 2, baseDelay: 10, maxDelay: 500 } } });
    suite.backend.setFault('rate-limited', true);

    const asked = Date.now();
    const error = failureOf(h, await h.send('init'));

    expect(error).toMatchObject({ code: 'rate_limited', status: 429, retryable: true });
    expect(error.message).toContain('Retry-After over the 0.5 s cap');
    // When the server's Retry-After (1 s) said a retry would be welcome.
    expect(error.retryAt).toBeGreaterThanOrEqual(asked + 1_000);
    expect(error.retryAt).toBeLessThanOrEqual(Date.now() + 1_000);
    expect(routes()).toEqual(['GET /config 429']);
  });
});
