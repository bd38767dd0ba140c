// @vitest-environment node
/**
 * The reference backend's Chatwoot mode (reference-backend/chatwoot/), over real HTTP on 127.0.0.1:
 * each rule it cites from Chatwoot's source, in the shape Chatwoot answers it.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startReferenceBackend } from '../../reference-backend/server.mjs';
import { sendInHalves } from '../helpers/half-body.js';

type Backend = Awaited<ReturnType<typeof startReferenceBackend>>;
type Options = NonNullable<Parameters<typeof startReferenceBackend>[0]>;

const Q = '?website_token=wt_demo';
const API = '/api/v1/widget';
let backend: Backend;

beforeAll(async () => {
  backend = await startReferenceBackend({ backend: 'chatwoot' });
});
afterAll(async () => {
  await backend.close();
});
beforeEach(() => backend.reset());

async function withBackend(options: Options, fn: (b: Backend) => Promise<void>): Promise<void> {
  const own = await startReferenceBackend({ backend: 'chatwoot', ...options });
  try {
    await fn(own);
  } finally {
    await own.close();
  }
}

async function newContact(on: Backend = backend): Promise<string> {
  const res = await fetch(`${on.url}${API}/config${Q}`, { method: 'POST' });
  expect(res.status).toBe(200);
  return ((await res.json()) as { auth_token: string }).auth_token;
}

function send(token: string, content: string, extra: Record<string, unknown> = {}, on: Backend = backend) {
  return fetch(`${on.url}${API}/messages${Q}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-auth-token': token },
    body: JSON.stringify({ message: { content, ...extra } }),
  });
}

const list = async (token: string, on: Backend = backend) =>
  (await (await fetch(`${on.url}${API}/messages${Q}`, { headers: { 'x-auth-token': token } })).json()) as Array<{
    id: number;
    content: string;
  }>;

async function conversations(on: Backend = backend) {
  return (await (await fetch(`${on.url}/__admin/conversations`)).json()) as Array<{
    id: number;
    contactId: number;
    messages: Array<{ content: string; attachments: Array<{ sha256: string; size: number }> }>;
  }>;
}

describe('contacts and tokens (configs_controller.rb, website_token_helper.rb)', () => {
  it("PATCH contact sets the contact's identifier, email and name (contacts_controller.rb update, ContactIdentifyAction); blanks change nothing; a bad e-mail is the model's 422", async () => {
    const token = await newContact();
    const patch = (body: unknown, as = token) =>
      fetch(`${backend.url}${API}/contact${Q}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', 'x-auth-token': as },
        body: JSON.stringify(body),
      });
    const res = await patch({ name: 'Ada', email: 'Ada@Example.com', identifier: 'user-7' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ name: 'Ada', email: 'ada@example.com', identifier: 'user-7' });
    expect(await (await patch({ name: '  ', email: '' })).json()).toMatchObject({
      name: 'Ada',
      email: 'ada@example.com',
    });
    const bad = await patch({ email: 'not an address' });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toEqual({ message: 'Email Invalid email', attributes: ['email'] });
    expect((await patch({ name: 'Bo' }, 'eyJ.not.known')).status).toBe(404);
    // The first message's conversation shows the contact as set.
    await fetch(`${backend.url}${API}/messages${Q}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-auth-token': token },
      body: JSON.stringify({ message: { content: 'hello' } }),
    });
    expect((await conversations())[0]).toMatchObject({
      contact: { name: 'Ada', email: 'ada@example.com', identifier: 'user-7' },
    });
  });

  it('POST config makes a contact and returns its token as auth_token, with the jbuilder view around it', async () => {
    const res = await fetch(`${backend.url}${API}/config${Q}`, { method: 'POST' });
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(
      ['auth_token', 'chatwoot_website_channel', 'chatwoot_widget_defaults', 'contact', 'global_config'].sort(),
    );
    expect(body['auth_token']).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('keeps the contact when POST config carries its token, and makes a new one for a token it does not know', async () => {
    const token = await newContact();
    await send(token, 'first');
    const again = await fetch(`${backend.url}${API}/config${Q}`, {
      method: 'POST',
      headers: { 'x-auth-token': token },
    });
    const same = ((await again.json()) as { auth_token: string }).auth_token;
    expect((await list(same)).map((m) => m.content)).toEqual(['first']);
    const stranger = await fetch(`${backend.url}${API}/config${Q}`, {
      method: 'POST',
      headers: { 'x-auth-token': `${token}x` },
    });
    expect((await list(((await stranger.json()) as { auth_token: string }).auth_token)).length).toBe(0);
  });

  it('answers 404 {"error":"Resource could not be found"} for an unknown contact token, a missing one, or an unknown website token', async () => {
    const token = await newContact();
    const answers = await Promise.all([
      fetch(`${backend.url}${API}/messages${Q}`, { headers: { 'x-auth-token': 'not-a-token' } }),
      fetch(`${backend.url}${API}/conversations${Q}`),
      fetch(`${backend.url}${API}/messages?website_token=wt_other`, { headers: { 'x-auth-token': token } }),
      fetch(`${backend.url}${API}/config?website_token=wt_other`, { method: 'POST' }),
    ]);
    for (const res of answers) {
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: 'Resource could not be found' });
    }
  });

  it('never takes the contact from an Authorization header', async () => {
    const token = await newContact();
    const res = await fetch(`${backend.url}${API}/messages${Q}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(404);
  });

  it('a token past its 180 days names no contact (404), and POST config then makes a new contact', async () => {
    let clock = Date.UTC(2026, 0, 1);
    await withBackend({ now: () => clock }, async (own) => {
      const token = await newContact(own);
      expect((await send(token, 'fresh', {}, own)).status).toBe(200);
      clock += 180 * 24 * 3600 * 1000;
      const res = await send(token, 'stale', {}, own);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: 'Resource could not be found' });
    });
  });

  it('expired-contact-token: tokens issued so far answer 404 until the fault goes off', async () => {
    const token = await newContact();
    await send(token, 'before');
    backend.setFault('expired-contact-token', true);
    expect((await send(token, 'during')).status).toBe(404);
    const fresh = await newContact();
    expect((await send(fresh, 'new contact')).status).toBe(200);
    backend.setFault('expired-contact-token', false);
    expect((await list(token)).map((m) => m.content)).toEqual(['before']);
  });

  it('account-suspended: 401 {"error":"Account is suspended"} on every call, config included', async () => {
    const token = await newContact();
    backend.setFault('account-suspended', true);
    for (const res of [
      await fetch(`${backend.url}${API}/config${Q}`, { method: 'POST' }),
      await send(token, 'x'),
      await fetch(`${backend.url}${API}/conversations${Q}`, { headers: { 'x-auth-token': token } }),
    ]) {
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: 'Account is suspended' });
    }
  });
});

describe('conversations and messages (conversations_controller.rb, messages_controller.rb and their views)', () => {
  it('GET conversations is {} without one; POST messages makes one and later messages join the latest', async () => {
    const token = await newContact();
    const get = () => fetch(`${backend.url}${API}/conversations${Q}`, { headers: { 'x-auth-token': token } });
    expect(await (await get()).json()).toEqual({});
    const first = (await (await send(token, 'one')).json()) as Record<string, unknown>;
    expect(Object.keys(first).sort()).toEqual(
      [
        'content',
        'conversation_id',
        'created_at',
        'id',
        'inbox_id',
        'message_type',
        'private',
        'sender',
        'source_id',
      ].sort(),
    );
    await send(token, 'two');
    expect(await (await get()).json()).toEqual({
      id: first['conversation_id'],
      inbox_id: 1,
      contact_last_seen_at: 0,
      status: 'open',
    });
    expect((await list(token)).map((m) => m.content)).toEqual(['one', 'two']);
  });

  it('POST conversations starts a new conversation with its first message, which messages then go to', async () => {
    const token = await newContact();
    await send(token, 'old');
    const res = await fetch(`${backend.url}${API}/conversations${Q}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-auth-token': token },
      body: JSON.stringify({ contact: { name: 'Ada' }, message: { content: 'new one' } }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id: number; messages: Array<{ content: string }> };
    expect(body.messages.map((m) => m.content)).toEqual(['new one']);
    expect((await list(token)).map((m) => m.content)).toEqual(['new one']);
    expect((await conversations()).length).toBe(2);
  });

  it("POST conversations without a message is Rails' JSON 500: no conversation, and the contact's name not kept", async () => {
    const token = await newContact();
    const res = await fetch(`${backend.url}${API}/conversations${Q}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-auth-token': token },
      body: JSON.stringify({ contact: { name: 'Ada' } }),
    });
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toEqual({ status: 500, error: 'Internal Server Error' });
    expect(await conversations()).toEqual([]);
    // The transaction is rolled back: the name given with the refused conversation is not the contact's.
    await send(token, 'later');
    const [message] = (await list(token)) as unknown as Array<{ sender: { name: string } }>;
    expect(message!.sender.name).not.toBe('Ada');
  });

  it('stores a repeated echo_id twice: Chatwoot keeps no echo_id, and its answer carries none', async () => {
    const token = await newContact();
    const a = (await (await send(token, 'same', { echo_id: 'echo-1' })).json()) as Record<string, unknown>;
    const b = (await (await send(token, 'same', { echo_id: 'echo-1' })).json()) as Record<string, unknown>;
    expect(a['id']).not.toBe(b['id']);
    expect('echo_id' in a).toBe(false);
    expect((await list(token)).map((m) => m.content)).toEqual(['same', 'same']);
  });

  it('lists the latest 20, and those before `before` (MessageFinder)', async () => {
    const token = await newContact();
    for (let i = 1; i <= 23; i += 1) await send(token, `m${i}`);
    const latest = await list(token);
    expect(latest.map((m) => m.content)).toEqual(Array.from({ length: 20 }, (_, i) => `m${i + 4}`));
    const res = await fetch(`${backend.url}${API}/messages${Q}&before=${latest[0]!.id}`, {
      headers: { 'x-auth-token': token },
    });
    expect(((await res.json()) as Array<{ content: string }>).map((m) => m.content)).toEqual(['m1', 'm2', 'm3']);
  });

  it('lost-answer: stores the message, then drops the connection without an answer', async () => {
    const token = await newContact();
    backend.setFault('lost-answer', true);
    await expect(send(token, 'lost')).rejects.toThrow();
    backend.setFault('lost-answer', false);
    expect((await list(token)).map((m) => m.content)).toEqual(['lost']);
  });
});

describe("errors in Chatwoot's shapes (request_exception_handler.rb, message.rb, attachment.rb)", () => {
  it('answers a missing message with 422 {"error": ...} (ParameterMissing)', async () => {
    const token = await newContact();
    const res = await fetch(`${backend.url}${API}/messages${Q}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-auth-token': token },
      body: '{}',
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ error: 'param is missing or the value is empty: message' });
  });

  it('refuses content over 150,000 characters with 422 {"message", "attributes": ["content"]}, and takes 150,000', async () => {
    const token = await newContact();
    expect((await send(token, 'x'.repeat(150_000))).status).toBe(200);
    const res = await send(token, 'x'.repeat(150_001));
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      message: 'Content is too long (maximum is 150000 characters)',
      attributes: ['content'],
    });
  });

  it('refuses the message past the per-minute limit of its conversation with 422 "Too many messages"', async () => {
    let clock = 1_000_000;
    await withBackend({ messagesPerMinute: 3, now: () => clock }, async (own) => {
      const token = await newContact(own);
      for (const text of ['1', '2', '3']) expect((await send(token, text, {}, own)).status).toBe(200);
      const res = await send(token, '4', {}, own);
      expect(res.status).toBe(422);
      expect(await res.json()).toEqual({ message: 'Too many messages', attributes: ['base'] });
      clock += 60_001;
      expect((await send(token, '4', {}, own)).status).toBe(200);
    });
  });

  it('takes multipart message[attachments][] byte for byte, of image/*, video/*, audio/* and the listed types', async () => {
    const token = await newContact();
    const bytes = new Uint8Array(3000).map((_, i) => i % 251);
    const form = new FormData();
    form.append('message[content]', 'photo');
    form.append('message[attachments][]', new Blob([bytes], { type: 'image/jpeg' }), 'photo.jpg');
    form.append('message[attachments][]', new Blob(['a,b'], { type: 'text/csv' }), 'data.csv');
    const res = await fetch(`${backend.url}${API}/messages${Q}`, {
      method: 'POST',
      headers: { 'x-auth-token': token },
      body: form,
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { attachments: Array<{ file_type: string; file_size: number }> };
    expect(body.attachments.map((a) => [a.file_type, a.file_size])).toEqual([
      ['image', 3000],
      ['file', 3],
    ]);
    const stored = (await conversations())[0]!.messages[0]!.attachments[0]!;
    expect(stored.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it('refuses a file over the size limit or of another type with 422 on attachments.file, storing nothing', async () => {
    await withBackend({ maxFileSize: 1024 }, async (own) => {
      const token = await newContact(own);
      const post = async (blob: Blob, name: string) => {
        const form = new FormData();
        form.append('message[attachments][]', blob, name);
        return fetch(`${own.url}${API}/messages${Q}`, {
          method: 'POST',
          headers: { 'x-auth-token': token },
          body: form,
        });
      };
      const big = await post(new Blob([new Uint8Array(1025)], { type: 'image/png' }), 'big.png');
      expect(big.status).toBe(422);
      expect(await big.json()).toEqual({
        message: 'Attachments file size is too big',
        attributes: ['attachments.file'],
      });
      const exe = await post(new Blob(['MZ'], { type: 'application/x-msdownload' }), 'tool.exe');
      expect(exe.status).toBe(422);
      expect(await exe.json()).toEqual({
        message: 'Attachments file type not supported',
        attributes: ['attachments.file'],
      });
      expect((await post(new Blob([new Uint8Array(1024)], { type: 'image/png' }), 'ok.png')).status).toBe(200);
      expect((await conversations(own))[0]!.messages.length).toBe(1);
    });
  });

  it('defaults to 40 MB a file (MAXIMUM_FILE_UPLOAD_SIZE)', async () => {
    const token = await newContact();
    // Written by hand: FormData's own encoding of 40 MB takes the client seconds.
    const multipart = (size: number) =>
      Buffer.concat([
        Buffer.from(
          '--b0undary\r\nContent-Disposition: form-data; name="message[attachments][]"; filename="clip.mp4"\r\n' +
            'Content-Type: video/mp4\r\n\r\n',
        ),
        Buffer.alloc(size),
        Buffer.from('\r\n--b0undary--\r\n'),
      ]);
    const post = (size: number) =>
      fetch(`${backend.url}${API}/messages${Q}`, {
        method: 'POST',
        headers: { 'x-auth-token': token, 'content-type': 'multipart/form-data; boundary=b0undary' },
        body: multipart(size),
      });
    const over = await post(40 * 1024 * 1024 + 1);
    expect(over.status).toBe(422);
    expect(await over.json()).toEqual({
      message: 'Attachments file size is too big',
      attributes: ['attachments.file'],
    });
    expect((await post(40 * 1024 * 1024)).status).toBe(200);
    expect((await conversations())[0]!.messages[0]!.attachments[0]!.size).toBe(40 * 1024 * 1024);
    // 80 MB over loopback: seconds on a loaded machine.
  }, 120_000);

  it('reads the whole body before refusing an unknown contact (Puma, then params in set_web_widget), and validates files after it', async () => {
    // Half a body, then a pause: no answer may come before the rest (a proxy that streams bodies,
    // Caddy, meets its limit only if the application reads on).
    const head =
      '--b0undary\r\nContent-Disposition: form-data; name="message[attachments][]"; filename="a.exe"\r\n\r\n';
    const body = Buffer.concat([Buffer.from(head), Buffer.alloc(64 * 1024), Buffer.from('\r\n--b0undary--\r\n')]);
    const { before, after } = await sendInHalves(
      backend.url,
      `POST ${API}/messages${Q} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Auth-Token: not-a-contact\r\n` +
        `Content-Type: multipart/form-data; boundary=b0undary\r\nConnection: close\r\n`,
      body,
    );
    expect(before).toBe('');
    // An .exe would be a 422 on a known contact; an unknown one is refused first, as set_contact runs before the save.
    expect(after).toMatch(/^HTTP\/1\.1 404 /);
    expect(after).toContain('{"error":"Resource could not be found"}');
  });

  it('message-flood fault: 422 "Too many messages" without storing', async () => {
    const token = await newContact();
    backend.setFault('message-flood', true);
    const res = await send(token, 'x');
    expect(await res.json()).toEqual({ message: 'Too many messages', attributes: ['base'] });
    expect(await conversations()).toEqual([]);
  });
});

describe('rack-attack (config/initializers/rack_attack.rb)', () => {
  const expectRetryLater = async (res: Response) => {
    expect(res.status).toBe(429);
    expect(res.headers.get('content-type')).toBe('text/plain');
    expect(res.headers.get('retry-after')).toBeNull();
    expect(await res.text()).toBe('Retry later\n');
  };

  it('throttles requests per IP past the limit a minute with a text/plain 429 and no Retry-After', async () => {
    await withBackend({ rackAttack: 3 }, async (own) => {
      const token = await newContact(own);
      await list(token, own);
      await list(token, own);
      await expectRetryLater(await fetch(`${own.url}${API}/messages${Q}`, { headers: { 'x-auth-token': token } }));
    });
  });

  it('takes 6 new conversations per IP in 12 hours', async () => {
    const token = await newContact();
    const create = () =>
      fetch(`${backend.url}${API}/conversations${Q}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-auth-token': token },
        body: JSON.stringify({ message: { content: 'hi' } }),
      });
    for (let i = 0; i < 6; i += 1) expect((await create()).status).toBe(200);
    await expectRetryLater(await create());
  });

  it('counts a POST conversations without a message too: rack-attack throttles before Rails answers it', async () => {
    const token = await newContact();
    const create = () =>
      fetch(`${backend.url}${API}/conversations${Q}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-auth-token': token },
        body: JSON.stringify({ contact: { name: 'Ada' } }),
      });
    for (let i = 0; i < 6; i += 1) expect((await create()).status).toBe(500);
    await expectRetryLater(await create());
  });

  it('the rate-limited fault answers the same way; rackAttack: false switches the throttles off', async () => {
    backend.setFault('rate-limited', true);
    await expectRetryLater(await fetch(`${backend.url}${API}/config${Q}`, { method: 'POST' }));
    await withBackend({ rackAttack: false }, async (own) => {
      for (let i = 0; i < 7; i += 1) expect((await fetch(`${own.url}/widget${Q}`)).status).toBe(200);
    });
  });
});

describe('CORS (config/initializers/cors.rb)', () => {
  const preflight = (on: Backend) =>
    fetch(`${on.url}${API}/messages${Q}`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-auth-token',
      },
    });

  it('has none on /api/* by default: the widget API is same-origin', async () => {
    const res = await preflight(backend);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const token = await newContact();
    const get = await fetch(`${backend.url}${API}/messages${Q}`, {
      headers: { origin: 'https://app.example', 'x-auth-token': token },
    });
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('opens /api/* to any origin with enableApiCors, allowing the X-Auth-Token header', async () => {
    await withBackend({ enableApiCors: true }, async (own) => {
      const res = await preflight(own);
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-headers')).toBe('content-type,x-auth-token');
      const page = await fetch(`${own.url}/widget${Q}`, { headers: { origin: 'https://app.example' } });
      expect(page.headers.get('access-control-allow-origin')).toBeNull();
    });
  });
});

describe('the widget page (widgets_controller.rb, widgets/show.html.erb)', () => {
  it('renders the cw_conversation contact token back into the page, and a new contact for none', async () => {
    const token = await newContact();
    await send(token, 'seen in the widget');
    const page = await (await fetch(`${backend.url}/widget${Q}&cw_conversation=${encodeURIComponent(token)}`)).text();
    expect(page).toContain(`window.authToken = ${JSON.stringify(token)}`);
    expect(page).toContain('/packs/js/widget-stand-in.js');
    const fresh = await (await fetch(`${backend.url}/widget${Q}`)).text();
    const other = /window\.authToken = "([^"]+)"/.exec(fresh)?.[1];
    expect(other).toBeDefined();
    expect(other).not.toBe(token);
    expect((await list(other!)).length).toBe(0);
  });

  it('serves the widget stand-in, which posts loaded the way the widget does', async () => {
    const script = await (await fetch(`${backend.url}/packs/js/widget-stand-in.js`)).text();
    expect(script).toContain("'chatwoot-widget:'");
    expect(script).toContain('window.ReactNativeWebView.postMessage(message)');
    expect(script).toContain("window.parent.postMessage(message, '*')");
  });

  it('answers an unknown website token with a 404 page', async () => {
    const res = await fetch(`${backend.url}/widget?website_token=nope`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('text/html');
  });

  it('keeps tokens out of the request log: website_token, cw_conversation, X-Auth-Token', async () => {
    const token = await newContact();
    await fetch(`${backend.url}/widget${Q}&cw_conversation=${encodeURIComponent(token)}`);
    await list(token);
    const log = JSON.stringify(backend.requests);
    expect(log).not.toContain(token);
    expect(log).not.toContain('wt_demo');
    expect(log).toContain('"cw_conversation":"<redacted>"');
  });
});

describe('the CLI', () => {
  it('starts the Chatwoot mode with --backend chatwoot and answers the widget API', async () => {
    const child = spawn(process.execPath, ['reference-backend/cli.mjs', '--backend', 'chatwoot', '--port', '0'], {
      cwd: new URL('../../', import.meta.url),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          const match = /listening on (\S+)/.exec(chunk.toString());
          if (match) resolve(match[1]!);
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}`)));
      });
      const res = await fetch(`${url}${API}/config${Q}`, { method: 'POST' });
      expect(res.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
