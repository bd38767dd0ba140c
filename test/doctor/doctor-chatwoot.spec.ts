// @vitest-environment node
/**
 * `chat-bridge doctor --backend chatwoot` against the reference backend's Chatwoot mode over real
 * HTTP on 127.0.0.1, and small node:http proxies in front of it for what a proxy gets wrong.
 */
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../tools/cli/main.js';
import { startReferenceBackend } from '../../reference-backend/server.mjs';
import { chatwootDoctor } from '../helpers/doctor-tokens.js';
import { freePort } from '../helpers/proxies.js';

type Backend = Awaited<ReturnType<typeof startReferenceBackend>>;

const TOKEN = 'wt_doctor_S3cr3t_7f3a9c';
const OTHER_ORIGIN = 'https://app.example.com';
/** Chatwoot's contact tokens are JWTs, whose header always starts so. */
const JWT = /eyJ[\w-]{10,}/;

let backend: Backend;
let cors: Backend;
beforeAll(async () => {
  backend = await startReferenceBackend({ backend: 'chatwoot', websiteTokens: [TOKEN] });
  cors = await startReferenceBackend({ backend: 'chatwoot', websiteTokens: [TOKEN], enableApiCors: true });
});
afterAll(async () => {
  await Promise.all([backend.close(), cors.close()]);
});
beforeEach(() => {
  backend.reset();
  cors.reset();
});

async function doctor(baseUrl: string, origin: string, ...extra: string[]) {
  // Every token the run sent or received (website token, contact tokens, pubsub token, the
  // made-up X-Auth-Token), in every encoding: chatwootDoctor checks.
  const { code, out } = await chatwootDoctor(baseUrl, TOKEN, origin, extra);
  expect(out).not.toContain(TOKEN);
  expect(out).not.toMatch(JWT);
  const line = (name: string) => out.split('\n').find((text) => text.includes(` ${name}:`)) ?? '';
  return { code, out, line };
}

/** A proxy in front of `target` that lets `edit` change each request's headers, or answer itself. */
async function proxy(
  target: Backend,
  edit: (req: IncomingMessage, res: ServerResponse) => Record<string, string | string[] | undefined> | undefined,
) {
  const server = createServer((req, res) => {
    const headers = edit(req, res);
    if (headers === undefined) return;
    const upstream = request(`${target.url}${req.url}`, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('chat-bridge doctor --backend chatwoot', () => {
  it("passes on the installation's own origin (the widget page) with no CORS at all", async () => {
    const run = await doctor(backend.url, backend.url);
    expect(run.code).toBe(0);
    expect(run.line('POST /api/v1/widget/config')).toMatch(/^PASS .*contact token \(not shown\)/);
    expect(run.line('X-Auth-Token reaches the widget API')).toMatch(/^PASS/);
    expect(run.line('same origin or ENABLE_API_CORS')).toMatch(/^PASS .*no CORS needed/);
    expect(run.line('CORS allows X-Auth-Token')).toMatch(/^SKIP/);
    // Chatwoot's 40 MiB (the bridge's maxFileSize on Chatwoot) reaches the application, which
    // refuses the made-up X-Auth-Token with its 404 before storing anything.
    expect(run.line('upload body limit')).toMatch(
      /^PASS upload body limit: a body with a 41943040-byte file \(maxFileSize\) reaches the application \(404 for a made-up X-Auth-Token\)/,
    );
    expect(run.line('CORS on POST /api/v1/widget/messages errors')).toMatch(/^SKIP .*no CORS applies/);
    const uploads = backend.requests.filter((entry) => entry.method === 'POST' && entry.path.endsWith('/messages'));
    expect(uploads.map((entry) => entry.status)).toEqual([404, 404]);
    expect(uploads.every((entry) => entry.query['website_token'] === '<redacted>')).toBe(true);
    expect(uploads.every((entry) => entry.headers['authorization'] === undefined)).toBe(true);
    const stored = (await (await fetch(`${backend.url}/__admin/conversations`)).json()) as unknown[];
    expect(stored).toEqual([]);
  });

  it("caps --max-file-size at Chatwoot's 40 MiB, as the bridge does, and sends a smaller one as given", async () => {
    const larger = await doctor(backend.url, backend.url, '--max-file-size', String(100 * 1024 * 1024));
    expect(larger.line('upload body limit')).toContain('a body with a 41943040-byte file');
    const smaller = await doctor(backend.url, backend.url, '--max-file-size', '65536');
    expect(smaller.line('upload body limit')).toMatch(/^PASS upload body limit: a body with a 65536-byte file/);
  });

  it('fails a page on another origin without ENABLE_API_CORS, with the two ways out', async () => {
    const run = await doctor(backend.url, OTHER_ORIGIN);
    expect(run.code).toBe(1);
    const line = run.line('same origin or ENABLE_API_CORS');
    expect(line).toMatch(/^FAIL /);
    expect(line).toContain('/widget?website_token=…');
    expect(line).toContain('ENABLE_API_CORS=true');
  });

  it('passes a page on another origin with ENABLE_API_CORS, X-Auth-Token allowed', async () => {
    const run = await doctor(cors.url, OTHER_ORIGIN, '--json');
    expect(run.code).toBe(0);
    const document = JSON.parse(run.out) as {
      ok: boolean;
      checks: Array<{ name: string; status: string; detail: string }>;
    };
    expect(document.checks.map((check) => check.status)).toEqual(['pass', 'pass', 'pass', 'pass', 'pass', 'pass']);
    // rack-cors puts its headers on Chatwoot's own 404s too, so a page elsewhere reads them.
    expect(document.checks.slice(-2)).toEqual([
      expect.objectContaining({ name: 'upload body limit', detail: expect.stringContaining('41943040-byte file') }),
      expect.objectContaining({
        name: 'CORS on POST /api/v1/widget/messages errors',
        detail:
          'Access-Control-Allow-Origin right on 404 (POST /api/v1/widget/messages) and 404 (POST /api/v1/widget/messages with 41943040 bytes)',
      }),
    ]);
  });

  it('fails an unknown website token with 404 and skips what needs a contact', async () => {
    let out = '';
    const code = await main(
      [
        'doctor',
        '--backend',
        'chatwoot',
        '--base-url',
        backend.url,
        '--website-token',
        'wt_not_an_inbox_123',
        '--origin',
        backend.url,
      ],
      (text) => (out += text),
      () => undefined,
    );
    expect(code).toBe(1);
    expect(out).toMatch(/FAIL POST \/api\/v1\/widget\/config: answered 404/);
    expect(out).toMatch(/SKIP X-Auth-Token reaches the widget API/);
    expect(out).not.toContain('wt_not_an_inbox_123');
  });

  it("fails a suspended account with the server's words", async () => {
    backend.setFault('account-suspended', true);
    const run = await doctor(backend.url, backend.url);
    expect(run.line('POST /api/v1/widget/config')).toContain('answered 401 (server: "Account is suspended")');
  });

  it('fails when a proxy drops the X-Auth-Token header', async () => {
    const stripping = await proxy(backend, (req) => {
      const { 'x-auth-token': _dropped, ...headers } = req.headers;
      return headers;
    });
    try {
      // A small file: this proxy is about headers, and piping 40 MiB through it only takes time.
      const run = await doctor(stripping.url, stripping.url, '--max-file-size', '65536');
      expect(run.code).toBe(1);
      expect(run.line('POST /api/v1/widget/config')).toMatch(/^PASS/);
      expect(run.line('X-Auth-Token reaches the widget API')).toMatch(/^FAIL .*answered 404/);
    } finally {
      await stripping.close();
    }
  });

  it('fails a proxy that answers preflights itself without X-Auth-Token in Allow-Headers', async () => {
    const narrow = await proxy(cors, (req, res) => {
      if (req.method !== 'OPTIONS') return req.headers;
      res.writeHead(204, {
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET, POST',
        'access-control-allow-headers': 'Content-Type, Authorization',
      });
      res.end();
      return undefined;
    });
    try {
      const run = await doctor(narrow.url, OTHER_ORIGIN, '--max-file-size', '65536');
      expect(run.code).toBe(1);
      expect(run.line('same origin or ENABLE_API_CORS')).toMatch(/^PASS/);
      expect(run.line('CORS allows X-Auth-Token')).toMatch(/^FAIL .*"Content-Type, Authorization"/);
    } finally {
      await narrow.close();
    }
  });

  it('refuses an unknown --backend as bad usage', async () => {
    const code = await main(
      ['doctor', '--backend', 'zendesk', '--base-url', backend.url, '--website-token', TOKEN],
      () => undefined,
      () => undefined,
    );
    expect(code).toBe(2);
  });
});

describe("docs/doctor.md's Chatwoot run, tried as the page shows it", () => {
  it("starts the reference backend's Chatwoot mode as the page says, runs the page's command and prints the page's output", async () => {
    const page = readFileSync(new URL('../../docs/doctor.md', import.meta.url), 'utf8');
    const section = page.slice(page.indexOf('## A Chatwoot installation'));
    const server = /`(node reference-backend\/cli\.mjs --backend chatwoot --port 8788)`/.exec(section)?.[1] ?? '';
    const [, command = '', expected = ''] =
      /```\n\$ npx (chat-bridge doctor --backend chatwoot [^\n]+)\n([\s\S]*?)```/.exec(section) ?? [];
    expect(server).not.toBe('');
    expect(command).toContain('--website-token wt_demo');
    const port = String(await freePort());
    const root = new URL('../../', import.meta.url);
    const backendProcess = spawn(process.execPath, server.replaceAll('8788', port).split(' ').slice(1), { cwd: root });
    try {
      await new Promise((resolve, reject) => {
        backendProcess.stdout.once('data', resolve);
        backendProcess.once('exit', reject);
      });
      const args = command.replaceAll('8788', port).split(' ').slice(1);
      const child = await promisify(execFile)(process.execPath, ['bin/chat-bridge.js', ...args], {
        cwd: root,
        timeout: 60_000,
      }).then(
        (result) => ({ code: 0, stdout: result.stdout }),
        (error: { code?: number; stdout?: string }) => ({ code: error.code, stdout: error.stdout ?? '' }),
      );
      expect(child.stdout).toBe(expected.replaceAll('8788', port));
      expect(child.code).toBe(0);
      expect(child.stdout).not.toContain('wt_demo');
      expect(child.stdout).not.toMatch(JWT);
    } finally {
      backendProcess.kill();
    }
  });
});
