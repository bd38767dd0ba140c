// @vitest-environment node
import { describe, it, expect, beforeAll, afterAll, beforeEach } from 'vitest';
import { createHash } from 'node:crypto';
import { startReferenceBackend } from '../../reference-backend/server.mjs';
import { sendInHalves } from '../helpers/half-body.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

type Backend = Awaited<ReturnType<typeof startReferenceBackend>>;
type Options = NonNullable<Parameters<typeof startReferenceBackend>[0]>;

const MIB = 1024 * 1024;
const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, PATCH, DELETE, OPTIONS',
  'access-control-allow-headers': 'Content-Type, Authorization',
  'access-control-expose-headers': 'Retry-After',
};
const CORS_NAMES = Object.keys(CORS);

let backend: Backend;

beforeAll(async () => {
  backend = await startReferenceBackend();
});
afterAll(async () => {
  await backend.close();
});
beforeEach(() => {
  backend.reset();
});

/** Runs `fn` against a backend of its own, closed afterwards. */
async function withBackend(options: Options, fn: (b: Backend) => Promise<void>): Promise<void> {
  const own = await startReferenceBackend(options);
  try {
    await fn(own);
  } finally {
    await own.close();
  }
}

function call(path: string, init: RequestInit = {}, on: Backend = backend): Promise<Response> {
  return fetch(`${on.url}${path}`, init);
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function fetchToken(on: Backend = backend): Promise<string> {
  const res = await call('/config?website_token=wt_demo', {}, on);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { authToken: string };
  return body.authToken;
}

function postJson(path: string, token: string | undefined, body: unknown, on: Backend = backend) {
  return call(
    path,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token === undefined ? {} : bearer(token)) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    },
    on,
  );
}

/** A token whose contact has a conversation. */
async function tokenWithConversation(on: Backend = backend): Promise<string> {
  const token = await fetchToken(on);
  expect((await postJson('/conversations', token, {}, on)).status).toBe(200);
  return token;
}

function upload(token: string, files: Array<{ type: string; size: number }>, content?: string, on = backend) {
  const form = new FormData();
  if (content !== undefined) form.append('message[content]', content);
  files.forEach(({ type, size }, i) => {
    form.append('attachments[]', new Blob([new Uint8Array(size)], { type }), `file-${i}`);
  });
  return call('/messages', { method: 'POST', headers: bearer(token), body: form }, on);
}

async function expectError(res: Response, status: number, message: string, errors?: Record<string, string[]>) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/json');
  expect(await res.json()).toEqual(errors ? { message, errors } : { message });
}

describe('GET /config', () => {
  it('issues a new auth token on every fetch, with the widget settings', async () => {
    const res = await call('/config?website_token=wt_demo');
    expect(res.status).toBe(200);
    const first = await res.json();
    expect(first).toEqual({ authToken: expect.any(String), widget: { name: 'Reference inbox', locale: 'en' } });
    const second = await fetchToken();
    expect(second).not.toBe(first.authToken);
  });

  it('answers 401 "Missing website token" without a website_token', async () => {
    await expectError(await call('/config'), 401, 'Missing website token');
  });

  it('answers 401 for an unknown website token', async () => {
    await expectError(
      await call('/config?website_token=wt_nope'),
      401,
      'Invalid website token: the token is unknown, disabled or has been rotated',
    );
  });

  it('keeps one contact per website token: a re-fetched config sees the same conversation, old tokens stay valid', async () => {
    const oldToken = await tokenWithConversation();
    const created = await (await call('/conversations', { headers: bearer(oldToken) })).json();
    const newToken = await fetchToken();
    const seen = await (await call('/conversations', { headers: bearer(newToken) })).json();
    expect(seen.id).toBe(created.id);
    expect((await call('/conversations', { headers: bearer(oldToken) })).status).toBe(200);
  });
});

describe('auth token', () => {
  it('answers 401 "Missing auth token" without an Authorization header', async () => {
    await expectError(await call('/conversations'), 401, 'Missing auth token');
    await expectError(
      await postJson('/messages', undefined, { message: { content: 'hi' } }),
      401,
      'Missing auth token',
    );
  });

  it('answers 401 for an unknown token', async () => {
    await expectError(await call('/conversations', { headers: bearer('nope') }), 401, 'Invalid or expired auth token');
  });

  it('expires after authTokenTtlMs', async () => {
    let clock = 1_000_000;
    await withBackend({ authTokenTtlMs: 60_000, now: () => clock }, async (b) => {
      const token = await fetchToken(b);
      clock += 59_999;
      expect((await call('/conversations', { headers: bearer(token) }, b)).status).toBe(404);
      clock += 1;
      await expectError(
        await call('/conversations', { headers: bearer(token) }, b),
        401,
        'Invalid or expired auth token',
      );
    });
  });
});

describe('conversations', () => {
  it('answers 404 when the contact has none, then creates one with POST (body optional)', async () => {
    const token = await fetchToken();
    await expectError(
      await call('/conversations', { headers: bearer(token) }),
      404,
      'Conversation not found: the contact has none',
    );
    const res = await call('/conversations', { method: 'POST', headers: bearer(token) });
    expect(res.status).toBe(200);
    const created = await res.json();
    expect(created).toEqual({ id: expect.any(Number), status: 'open', contact: {}, messages: [] });
    expect(await (await call('/conversations', { headers: bearer(token) })).json()).toEqual(created);
  });

  it('stores the contact fields and replaces an older conversation', async () => {
    const token = await tokenWithConversation();
    await postJson('/messages', token, { message: { content: 'old' } });
    const contact = { name: 'Ada', email: 'ada@example.com', identifier: 'u-1' };
    const res = await postJson('/conversations', token, { contact });
    const created = await res.json();
    expect(created).toMatchObject({ status: 'open', contact, messages: [] });
    const current = await (await call('/conversations', { headers: bearer(token) })).json();
    expect(current.id).toBe(created.id);
    expect(current.messages).toEqual([]);
  });

  it('answers 422 naming only the offending fields', async () => {
    const token = await fetchToken();
    await expectError(
      await postJson('/conversations', token, { contact: { email: 'nope', name: 'A' } }),
      422,
      'Validation failed',
      {
        email: ['is not a valid e-mail address'],
      },
    );
    await expectError(
      await postJson('/conversations', token, { contact: { identifier: '  ' } }),
      422,
      'Validation failed',
      {
        identifier: ["can't be blank"],
      },
    );
    await expectError(
      await postJson('/conversations', token, { contact: { email: 'x@', identifier: '' } }),
      422,
      'Validation failed',
      { email: ['is not a valid e-mail address'], identifier: ["can't be blank"] },
    );
  });

  it('answers 400 for malformed JSON', async () => {
    const token = await fetchToken();
    await expectError(
      await postJson('/conversations', token, '{"contact":'),
      400,
      'Malformed request body: not valid JSON',
    );
  });
});

describe('POST /messages', () => {
  it('reads the whole body before refusing a made-up token, so a proxy that sends the body gets our 401', async () => {
    // Half a body, then a pause: no answer may come before the rest. Answering at once and closing
    // made nginx meet a reset while it sent the buffered body, and answer 502 instead of the 401.
    const { before, after } = await sendInHalves(
      backend.url,
      `POST /messages HTTP/1.0\r\nHost: 127.0.0.1\r\nAuthorization: Bearer made-up\r\n` +
        `Content-Type: multipart/form-data; boundary=b0undary\r\n`,
      Buffer.alloc(256 * 1024, 1),
    );
    expect(before).toBe('');
    expect(after).toMatch(/^HTTP\/1\.1 401 /);
  });

  it('answers 404 when the contact has no conversation', async () => {
    const token = await fetchToken();
    await expectError(
      await postJson('/messages', token, { message: { content: 'hi' } }),
      404,
      'Conversation not found',
    );
  });

  it('creates a text message and appends it to the conversation', async () => {
    const token = await tokenWithConversation();
    const res = await postJson('/messages', token, { message: { content: 'hello', echo_id: 'e-1' } });
    expect(res.status).toBe(200);
    const message = await res.json();
    expect(message).toEqual({
      id: expect.any(Number),
      content: 'hello',
      echo_id: 'e-1',
      attachments: [],
      created_at: expect.any(String),
    });
    expect(new Date(message.created_at).toISOString()).toBe(message.created_at);
    const noEcho = await (await postJson('/messages', token, { message: { content: 'again' } })).json();
    expect(noEcho.echo_id).toBeNull();
    const conversation = await (await call('/conversations', { headers: bearer(token) })).json();
    expect(conversation.messages).toEqual([message, noEcho]);
  });

  it('returns the stored message for a repeated echo_id instead of creating a second one', async () => {
    const token = await tokenWithConversation();
    const first = await (await postJson('/messages', token, { message: { content: 'once', echo_id: 'dup' } })).json();
    const retry = await postJson('/messages', token, { message: { content: 'once', echo_id: 'dup' } });
    expect(retry.status).toBe(200);
    expect(await retry.json()).toEqual(first);
    const conversation = await (await call('/conversations', { headers: bearer(token) })).json();
    expect(conversation.messages).toHaveLength(1);
  });

  it('answers 400 "message.content is required" for missing, empty or blank content without attachments', async () => {
    const token = await tokenWithConversation();
    for (const body of [{}, { message: {} }, { message: { content: '' } }, { message: { content: '  ' } }]) {
      await expectError(await postJson('/messages', token, body), 400, 'message.content is required');
    }
    await expectError(await upload(token, []), 400, 'message.content is required');
  });

  it('answers 400 for malformed JSON', async () => {
    const token = await tokenWithConversation();
    await expectError(await postJson('/messages', token, 'not json'), 400, 'Malformed request body: not valid JSON');
  });

  it('accepts multipart uploads and reports each attachment', async () => {
    const token = await tokenWithConversation();
    const form = new FormData();
    form.append('message[content]', 'see attached');
    form.append('message[echo_id]', 'mp-1');
    form.append('attachments[]', new Blob(['%PDF'], { type: 'application/pdf' }), 'a.pdf');
    form.append('attachments[]', new Blob(['hi'], { type: 'text/plain;charset=utf-8' }), 'b.txt');
    const res = await call('/messages', { method: 'POST', headers: bearer(token), body: form });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      content: 'see attached',
      echo_id: 'mp-1',
      attachments: [
        // With the sha256 of the bytes that arrived, for tests that check a file survived its trip.
        { name: 'a.pdf', type: 'application/pdf', size: 4, sha256: sha256('%PDF') },
        { name: 'b.txt', type: 'text/plain', size: 2, sha256: sha256('hi') },
      ],
    });
    const attachmentOnly = await upload(token, [{ type: 'image/png', size: 10 }]);
    expect(attachmentOnly.status).toBe(200);
    expect((await attachmentOnly.json()).content).toBe('');
  });

  it('answers 400 for more than 5 files, checked before MIME type', async () => {
    const token = await tokenWithConversation();
    const six = Array.from({ length: 6 }, () => ({ type: 'application/zip', size: 1 }));
    await expectError(await upload(token, six, 'x'), 400, 'Too many files: at most 5 attachments per message');
  });

  it('answers 400 for an unsupported MIME type, checked before size', async () => {
    const token = await tokenWithConversation();
    await expectError(
      await upload(token, [{ type: 'application/zip', size: 1 }], 'x'),
      400,
      'Unsupported file type: application/zip',
    );
    await expectError(
      await upload(token, [{ type: 'application/x-msdownload', size: 10 * MIB + 1 }], 'x'),
      400,
      'Unsupported file type: application/x-msdownload',
    );
  });

  it('answers 413 for a file over the 10 MB default', async () => {
    const token = await tokenWithConversation();
    await expectError(
      await upload(token, [{ type: 'video/mp4', size: 10 * MIB + 1 }], 'x'),
      413,
      'File exceeds the maximum upload size of 10 MB',
    );
    expect((await upload(token, [{ type: 'video/mp4', size: 10 * MIB }], 'x')).status).toBe(200);
  });

  it('derives the size in the 413 message from maxFileSize', async () => {
    await withBackend({ maxFileSize: MIB }, async (b) => {
      const token = await tokenWithConversation(b);
      await expectError(
        await upload(token, [{ type: 'image/png', size: MIB + 1 }], 'x', b),
        413,
        'File exceeds the maximum upload size of 1 MB',
      );
    });
  });
});

describe('routing', () => {
  it('answers 404 with an ErrorResponse for an unknown path', async () => {
    await expectError(await call('/nope'), 404, 'Not found: GET /nope');
  });

  it('answers 405 with an ErrorResponse and Allow for an unsupported method', async () => {
    const res = await call('/config', { method: 'DELETE' });
    expect(res.headers.get('allow')).toBe('GET, OPTIONS');
    await expectError(res, 405, 'Method not allowed: DELETE /config');
  });
});

describe('CORS', () => {
  function expectCors(res: Response, expected: Record<string, string> = CORS) {
    for (const [name, value] of Object.entries(expected)) expect(res.headers.get(name), name).toBe(value);
  }
  function expectNoCors(res: Response) {
    for (const name of CORS_NAMES) expect(res.headers.get(name), name).toBeNull();
  }

  it('sends the headers on successes, errors, 404s and admin routes', async () => {
    expectCors(await call('/config?website_token=wt_demo'));
    expectCors(await call('/config'));
    expectCors(await call('/conversations'));
    expectCors(await call('/nope'));
    expectCors(await call('/__admin/faults'));
  });

  it('answers a preflight on any path with 204 and the headers', async () => {
    for (const path of ['/messages', '/nope', '/__admin/faults']) {
      const res = await call(path, {
        method: 'OPTIONS',
        headers: { origin: 'https://widget.example', 'access-control-request-method': 'POST' },
      });
      expect(res.status).toBe(204);
      expectCors(res);
    }
  });

  it('uses allowOrigin when given', async () => {
    await withBackend({ allowOrigin: 'https://widget.example' }, async (b) => {
      expectCors(await call('/config', {}, b), { ...CORS, 'access-control-allow-origin': 'https://widget.example' });
    });
  });

  it('no-cors strips the headers from API responses and preflights, not from admin routes', async () => {
    backend.setFault('no-cors', true);
    expectNoCors(await call('/config?website_token=wt_demo'));
    const preflight = await call('/messages', { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expectNoCors(preflight);
    expectCors(await call('/__admin/faults'));
    expectCors(await call('/__admin/faults', { method: 'OPTIONS' }));
    backend.setFault('no-cors', false);
    expectCors(await call('/messages', { method: 'OPTIONS' }));
  });

  it('no-expose-retry-after sends CORS without Access-Control-Expose-Headers', async () => {
    backend.setFault('no-expose-retry-after', true);
    const res = await call('/config');
    expect(res.headers.get('access-control-expose-headers')).toBeNull();
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    backend.setFault('no-expose-retry-after', false);
    expectCors(await call('/config'));
  });
});

describe('rate limiter', () => {
  it('answers 429 with Retry-After past the limit, per auth token or client IP, until the window ends', async () => {
    let clock = 0;
    await withBackend({ rateLimit: { limit: 3, windowMs: 10_000 }, now: () => clock }, async (b) => {
      const token = await fetchToken(b); // 1st request of this IP
      for (let i = 0; i < 3; i++)
        expect((await call('/conversations', { headers: bearer(token) }, b)).status).toBe(404);
      clock = 2_500;
      const limited = await call('/conversations', { headers: bearer(token) }, b);
      expect(limited.headers.get('retry-after')).toBe('8');
      expectCors(limited);
      await expectError(limited, 429, 'Too many requests: retry later');
      // The IP's budget is separate from the token's.
      await fetchToken(b);
      await fetchToken(b);
      expect((await call('/config?website_token=wt_demo', {}, b)).status).toBe(429);
      // Preflights are never limited.
      expect((await call('/conversations', { method: 'OPTIONS' }, b)).status).toBe(204);
      clock = 10_000;
      expect((await call('/conversations', { headers: bearer(token) }, b)).status).toBe(404);
    });
  });

  function expectCors(res: Response) {
    expect(res.headers.get('access-control-expose-headers')).toBe('Retry-After');
  }
});

describe('faults', () => {
  it('lists every fault with its state and description, over the API and HTTP', async () => {
    const names = [
      'rotated-website-token',
      'expired-auth-token',
      'always-401',
      'no-conversation',
      'validation-422',
      'rate-limited',
      'rate-limited-no-retry-after',
      'server-error',
      'config-empty',
      'config-malformed',
      'config-no-token',
      'hang',
      'drop-connection',
      'service-unavailable',
      'slow',
      'slow-upload',
      'no-cors',
      'no-expose-retry-after',
      'payload-too-large',
      'bad-request',
      'not-found',
    ];
    expect(backend.faults().map((f) => f.name)).toEqual(names);
    const listed = await (await call('/__admin/faults')).json();
    expect(listed).toEqual(backend.faults());
    expect(listed.every((f: { on: boolean; description: string }) => f.on === false && f.description.length > 0)).toBe(
      true,
    );
  });

  it('switches over HTTP and rejects unknown names', async () => {
    const on = await postJson('/__admin/faults', undefined, { name: 'server-error', on: true });
    expect(on.status).toBe(200);
    expect((await on.json()).find((f: { name: string }) => f.name === 'server-error').on).toBe(true);
    expect((await call('/config')).status).toBe(500);
    await postJson('/__admin/faults', undefined, { name: 'server-error', on: false });
    expect((await call('/config')).status).toBe(401);
    await expectError(
      await postJson('/__admin/faults', undefined, { name: 'nope', on: true }),
      400,
      'Unknown fault: nope',
    );
    expect(() => backend.setFault('nope', true)).toThrow(TypeError);
  });

  it('service-unavailable answers 503, with its detail as Retry-After when one is given', async () => {
    const token = await tokenWithConversation();
    backend.setFault('service-unavailable', true);
    const bare = await postJson('/messages', token, { message: { content: 'x' } });
    expect(bare.headers.get('retry-after')).toBeNull();
    await expectError(bare, 503, 'Service unavailable');
    backend.setFault('service-unavailable', false);
    backend.setFault('service-unavailable', true, '2');
    const timed = await postJson('/messages', token, { message: { content: 'x' } });
    expect(timed.headers.get('retry-after')).toBe('2');
    await expectError(timed, 503, 'Service unavailable');
  });

  it('bad-request answers 400 on POST /conversations and POST /messages only', async () => {
    const token = await tokenWithConversation();
    backend.setFault('bad-request', true);
    await expectError(await postJson('/messages', token, { message: { content: 'x' } }), 400, 'Malformed request body');
    await expectError(await postJson('/conversations', token, {}), 400, 'Malformed request body');
    expect((await call('/conversations', { headers: bearer(token) })).status).toBe(200);
    backend.setFault('bad-request', false);
    expect((await postJson('/messages', token, { message: { content: 'x' } })).status).toBe(200);
  });

  it('not-found answers 404 on every conversation and message request, creating one included', async () => {
    const token = await tokenWithConversation();
    backend.setFault('not-found', true);
    await expectError(await call('/conversations', { headers: bearer(token) }), 404, 'Not found');
    await expectError(await postJson('/conversations', token, {}), 404, 'Not found');
    await expectError(await postJson('/messages', token, { message: { content: 'x' } }), 404, 'Not found');
    expect((await call('/config?website_token=wt_demo')).status).toBe(200);
    backend.setFault('not-found', false);
    expect((await call('/conversations', { headers: bearer(token) })).status).toBe(200);
  });

  it('rotated-website-token answers 401 on GET /config', async () => {
    backend.setFault('rotated-website-token', true);
    await expectError(
      await call('/config?website_token=wt_demo'),
      401,
      'Invalid website token: the token has been rotated',
    );
    backend.setFault('rotated-website-token', false);
    await fetchToken();
  });

  it('expired-auth-token expires the tokens issued so far; a refreshed token works', async () => {
    const old = await tokenWithConversation();
    backend.setFault('expired-auth-token', true);
    await expectError(await call('/conversations', { headers: bearer(old) }), 401, 'Invalid or expired auth token');
    await expectError(
      await postJson('/messages', old, { message: { content: 'x' } }),
      401,
      'Invalid or expired auth token',
    );
    const fresh = await fetchToken();
    expect((await call('/conversations', { headers: bearer(fresh) })).status).toBe(200);
    backend.setFault('expired-auth-token', false);
    expect((await call('/conversations', { headers: bearer(old) })).status).toBe(200);
  });

  it.each([
    ['always-401', undefined],
    ['expired-auth-token', 'always-401'],
  ] as const)('%s (detail %s) answers 401 even after a refresh', async (name, detail) => {
    await tokenWithConversation();
    backend.setFault(name, true, detail);
    const fresh = await fetchToken();
    await expectError(await call('/conversations', { headers: bearer(fresh) }), 401, 'Invalid or expired auth token');
    await expectError(await postJson('/conversations', fresh, {}), 401, 'Invalid or expired auth token');
    backend.setFault(name, false);
    expect((await call('/conversations', { headers: bearer(fresh) })).status).toBe(200);
  });

  it('no-conversation deletes the conversation until one is created; off brings it back', async () => {
    const token = await tokenWithConversation();
    const original = await (await call('/conversations', { headers: bearer(token) })).json();
    backend.setFault('no-conversation', true);
    expect((await call('/conversations', { headers: bearer(token) })).status).toBe(404);
    await expectError(await postJson('/messages', token, { message: { content: 'x' } }), 404, 'Conversation not found');
    backend.setFault('no-conversation', false);
    expect((await (await call('/conversations', { headers: bearer(token) })).json()).id).toBe(original.id);

    backend.setFault('no-conversation', true);
    expect((await postJson('/conversations', token, {})).status).toBe(200);
    expect((await postJson('/messages', token, { message: { content: 'x' } })).status).toBe(200);
  });

  it('validation-422 answers 422 on POST /conversations and POST /messages', async () => {
    const token = await tokenWithConversation();
    backend.setFault('validation-422', true);
    const errors = { email: ['is not a valid e-mail address'] };
    await expectError(await postJson('/conversations', token, {}), 422, 'Validation failed', errors);
    await expectError(
      await postJson('/messages', token, { message: { content: 'x' } }),
      422,
      'Validation failed',
      errors,
    );
    backend.setFault('validation-422', false);
    expect((await postJson('/messages', token, { message: { content: 'x' } })).status).toBe(200);
  });

  it('rate-limited answers 429 with Retry-After: 1, but not preflights or admin routes', async () => {
    backend.setFault('rate-limited', true);
    const res = await call('/config?website_token=wt_demo');
    expect(res.headers.get('retry-after')).toBe('1');
    await expectError(res, 429, 'Too many requests: retry later');
    expect((await call('/config', { method: 'OPTIONS' })).status).toBe(204);
    expect((await call('/__admin/requests')).status).toBe(200);
    backend.setFault('rate-limited', false);
    await fetchToken();
  });

  it('rate-limited-no-retry-after answers 429 without Retry-After', async () => {
    backend.setFault('rate-limited-no-retry-after', true);
    const res = await call('/config?website_token=wt_demo');
    expect(res.headers.get('retry-after')).toBeNull();
    await expectError(res, 429, 'Too many requests: retry later');
    backend.setFault('rate-limited-no-retry-after', false);
    await fetchToken();
  });

  it('server-error answers 500 on every API request', async () => {
    backend.setFault('server-error', true);
    await expectError(await call('/config?website_token=wt_demo'), 500, 'Internal server error');
    await expectError(await postJson('/messages', 'x', {}), 500, 'Internal server error');
    backend.setFault('server-error', false);
    await fetchToken();
  });

  it('config-empty answers 200 with an empty body', async () => {
    backend.setFault('config-empty', true);
    const res = await call('/config?website_token=wt_demo');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    backend.setFault('config-empty', false);
    await fetchToken();
  });

  it('config-malformed answers 200 with HTML', async () => {
    backend.setFault('config-malformed', true);
    const res = await call('/config?website_token=wt_demo');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toBe('<html>not json</html>');
    backend.setFault('config-malformed', false);
    await fetchToken();
  });

  it('config-no-token answers 200 with JSON lacking authToken', async () => {
    backend.setFault('config-no-token', true);
    const res = await call('/config?website_token=wt_demo');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ widget: {} });
    backend.setFault('config-no-token', false);
    await fetchToken();
  });

  it('payload-too-large answers 413 with the 5 MB message whatever the size', async () => {
    const token = await tokenWithConversation();
    backend.setFault('payload-too-large', true);
    await expectError(
      await postJson('/messages', token, { message: { content: 'tiny' } }),
      413,
      'File exceeds the maximum upload size of 5 MB',
    );
    backend.setFault('payload-too-large', false);
    expect((await postJson('/messages', token, { message: { content: 'tiny' } })).status).toBe(200);
  });

  it('hang never answers API requests (admin and preflights still do), and close() still ends them promptly', async () => {
    await withBackend({}, async (b) => {
      b.setFault('hang', true);
      const timedOut = await call('/config?website_token=wt_demo', { signal: AbortSignal.timeout(150) }, b).then(
        () => 'answered',
        (error: Error) => error.name,
      );
      expect(timedOut).toBe('TimeoutError');
      expect(b.requests.at(-1)).toMatchObject({ path: '/config', status: null });
      expect((await call('/__admin/faults', {}, b)).status).toBe(200);
      expect((await call('/config', { method: 'OPTIONS' }, b)).status).toBe(204);

      const pending = call('/conversations', {}, b).then(
        () => 'answered',
        () => 'closed',
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      const started = Date.now();
      await b.close();
      expect(Date.now() - started).toBeLessThan(1000);
      expect(await pending).toBe('closed');
      await b.close(); // a second close is harmless
    });
  });
});

describe('admin routes and the request log', () => {
  it('records API requests with tokens redacted, and never admin requests', async () => {
    const token = await tokenWithConversation();
    await postJson('/messages', token, { message: { content: 'hi' } });
    await call('/__admin/faults');
    expect(backend.requests.map((r) => [r.method, r.path, r.status])).toEqual([
      ['GET', '/config', 200],
      ['POST', '/conversations', 200],
      ['POST', '/messages', 200],
    ]);
    const [config, conversation] = backend.requests;
    expect(config?.query).toEqual({ website_token: '<redacted>' });
    expect(conversation?.headers['authorization']).toBe('<redacted>');
    expect(conversation?.headers['content-type']).toBe('application/json');
    expect(typeof conversation?.at).toBe('number');
    const logged = JSON.stringify(backend.requests);
    expect(logged).not.toContain(token);
    expect(logged).not.toContain('wt_demo');
    const overHttp = await (await call('/__admin/requests')).json();
    expect(overHttp).toEqual(JSON.parse(logged));
  });

  it('DELETE /__admin/requests clears the log; POST /__admin/reset clears faults, data and log', async () => {
    const token = await tokenWithConversation();
    expect((await call('/__admin/requests', { method: 'DELETE' })).status).toBe(204);
    expect(backend.requests).toEqual([]);
    backend.setFault('hang', true);
    expect((await call('/__admin/reset', { method: 'POST' })).status).toBe(204);
    expect(backend.faults().every((f) => !f.on)).toBe(true);
    expect(backend.requests).toEqual([]);
    await expectError(await call('/conversations', { headers: bearer(token) }), 401, 'Invalid or expired auth token');
  });

  it('answers 404 for an unknown admin path', async () => {
    await expectError(await call('/__admin/nope'), 404, 'Not found: GET /__admin/nope');
  });
});
