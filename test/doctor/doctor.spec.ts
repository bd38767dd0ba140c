// @vitest-environment node
/**
 * `chat-bridge doctor` against real servers on 127.0.0.1: the reference backend with each
 * relevant fault switched on, and small node:http servers for misconfigurations the reference
 * backend cannot play. Runs go through the CLI's main() (argv, out, err) to stay fast, plus
 * one run of bin/chat-bridge.js in a child process.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../tools/cli/main.js';
import { startReferenceBackend } from '../../reference-backend/server.mjs';

type Backend = Awaited<ReturnType<typeof startReferenceBackend>>;

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Distinctive, so "the output never contains it" cannot pass by accident. */
const TOKEN = 'wt_doctor_S3cr3t_7f3a9c';
const ORIGIN = 'https://app.example.com';
const CHECK_COUNT = 11;
/** The reference backend's auth tokens are 24 random bytes in base64url: 32 such characters. */
const AUTH_TOKEN_SHAPE = /[A-Za-z0-9_-]{32}/;

let backend: Backend;

beforeAll(async () => {
  backend = await startReferenceBackend({ websiteTokens: [TOKEN] });
});
afterAll(async () => {
  await backend.close();
});
beforeEach(() => {
  backend.reset();
});

interface Run {
  code: number;
  out: string;
  err: string;
  lines: string[];
}

async function doctor(...args: string[]): Promise<Run> {
  let out = '';
  let err = '';
  const code = await main(
    ['doctor', ...args],
    (text) => (out += text),
    (text) => (err += text),
  );
  return { code, out, err, lines: out.split('\n').filter((line) => line !== '') };
}

function doctorOn(url: string, ...extra: string[]): Promise<Run> {
  return doctor('--base-url', url, '--website-token', TOKEN, ...extra);
}

/** The line of the named check, e.g. line(run, 'GET /config'). */
function line(run: Run, name: string): string {
  // Every marker (PASS, WARN, FAIL, SKIP) is four letters and a space.
  const found = run.lines.find((text) => text.slice(5).startsWith(`${name}:`));
  if (found === undefined) throw new Error(`no line for "${name}" in:\n${run.out}`);
  return found;
}

function failing(run: Run): string[] {
  return run.lines.filter((text) => text.startsWith('FAIL '));
}

/** Every failing line must say how to fix it, and no output may carry the website token. */
function expectHonestFailure(run: Run): void {
  expect(run.code).toBe(1);
  expect(failing(run).length).toBeGreaterThan(0);
  for (const text of failing(run)) expect(text).toMatch(/\. Fix: \S/);
  expect(run.out + run.err).not.toContain(TOKEN);
}

/** `delayMs`: answer that much later, as a slow upstream would. */
type Reply = { status: number; headers?: OutgoingHttpHeaders; body?: string; delayMs?: number };

/** A backend of the test's own making: `answer` decides every reply; requests are recorded. */
async function withServer(
  answer: (req: IncomingMessage, url: URL) => Reply,
  fn: (url: string, seen: IncomingMessage[]) => Promise<void>,
): Promise<void> {
  const seen: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    seen.push(req);
    const reply = answer(req, new URL(req.url ?? '/', 'http://127.0.0.1'));
    const send = () => {
      res.writeHead(reply.status, reply.headers ?? {});
      res.end(reply.body ?? '');
    };
    if (reply.delayMs === undefined) send();
    else setTimeout(() => !res.destroyed && send(), reply.delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

const GOOD_CORS: OutgoingHttpHeaders = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, PATCH, DELETE, OPTIONS',
  'access-control-allow-headers': 'Content-Type, Authorization',
  'access-control-expose-headers': 'Retry-After',
};
const json = (status: number, body: unknown, headers: OutgoingHttpHeaders = GOOD_CORS): Reply => ({
  status,
  headers: { ...headers, 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** A correct backend apart from what `override` changes. */
function backendLike(
  override: (req: IncomingMessage, url: URL) => Reply | undefined = () => undefined,
  cors: OutgoingHttpHeaders = GOOD_CORS,
) {
  return (req: IncomingMessage, url: URL): Reply => {
    const replaced = override(req, url);
    if (replaced !== undefined) return replaced;
    if (req.method === 'OPTIONS') return { status: 204, headers: cors };
    if (url.searchParams.get('website_token') === TOKEN)
      return json(200, { authToken: 'at_known_0123456789abcdef' }, cors);
    return json(401, { message: 'Invalid website token' }, cors);
  };
}

describe('chat-bridge doctor against a healthy reference backend', () => {
  it('passes every check with exit 0, one line per check, without printing any token', async () => {
    const run = await doctorOn(backend.url);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const checks = run.lines.filter((text) => /^(PASS|WARN|FAIL|SKIP) /.test(text));
    expect(checks).toHaveLength(CHECK_COUNT);
    for (const text of checks) expect(text).toMatch(/^PASS /);
    expect(line(run, 'CORS Access-Control-Allow-Methods')).toContain('"GET, POST, PATCH, DELETE, OPTIONS"');
    expect(line(run, 'CORS Access-Control-Allow-Headers')).toContain('"Content-Type, Authorization"');
    expect(line(run, 'GET /config')).toContain('usable authToken (not shown)');
    expect(run.out).not.toContain(TOKEN);
    expect(run.out).not.toMatch(AUTH_TOKEN_SHAPE);
  });

  it('sends the preflights, the config request and a wrong-token request a WebView would, with the Origin', async () => {
    await doctorOn(backend.url, '--origin', 'https://shop.example.org');
    const requests = backend.requests.map((entry) => `${entry.method} ${entry.path}`);
    expect(requests).toEqual(expect.arrayContaining(['OPTIONS /config', 'OPTIONS /messages', 'GET /config']));
    expect(backend.requests.filter((entry) => entry.method === 'GET' && entry.path === '/config')).toHaveLength(2);
    expect(backend.requests.map((entry) => entry.status)).toEqual(expect.arrayContaining([204, 200, 401]));
  });

  it('prints machine-readable results with --json', async () => {
    const run = await doctorOn(backend.url, '--json');
    expect(run.code).toBe(0);
    const document = JSON.parse(run.out) as { ok: boolean; origin: string; checks: { name: string; status: string }[] };
    expect(document.ok).toBe(true);
    expect(document.origin).toBe(ORIGIN);
    expect(document.checks).toHaveLength(CHECK_COUNT);
    expect(document.checks.every((check) => check.status === 'pass')).toBe(true);
    expect(run.out).not.toContain(TOKEN);
  });
});

describe('chat-bridge doctor with a reference backend fault switched on', () => {
  it('no-cors: fails Allow-Origin and Allow-Headers (what breaks the bridge), warns for Allow-Methods and Retry-After', async () => {
    backend.setFault('no-cors', true);
    const run = await doctorOn(backend.url);
    expectHonestFailure(run);
    // The preflights themselves still answer 204; what is missing is their headers.
    expect(line(run, 'preflight OPTIONS /messages')).toMatch(/^PASS .*204/);
    expect(line(run, 'CORS Access-Control-Allow-Origin')).toMatch(
      /^FAIL .*missing.*Fix: send "Access-Control-Allow-Origin: \*"/,
    );
    // GET and POST are CORS-safelisted: a preflight passes them without Allow-Methods.
    expect(line(run, 'CORS Access-Control-Allow-Methods')).toMatch(
      /^WARN .*CORS-safelisted.*Fix: send "Access-Control-Allow-Methods: GET, POST, PATCH, DELETE, OPTIONS"/,
    );
    expect(line(run, 'CORS Access-Control-Allow-Headers')).toMatch(
      /^FAIL .*Fix: send "Access-Control-Allow-Headers: Content-Type, Authorization"/,
    );
    expect(line(run, 'CORS on API responses')).toMatch(/^FAIL .*network error/);
    expect(line(run, 'CORS Access-Control-Expose-Headers')).toMatch(
      /^WARN .*own backoff.*Fix: send "Access-Control-Expose-Headers: Retry-After"/,
    );
    expect(line(run, 'CORS on POST /messages errors')).toMatch(/^FAIL .*missing on 401 \(POST \/messages\)/);
    expect(failing(run)).toHaveLength(4);
  });

  it('no-expose-retry-after: warns (exit 0) that the bridge cannot honour the delay, as the bridge still works', async () => {
    backend.setFault('no-expose-retry-after', true);
    const run = await doctorOn(backend.url);
    expect(run.code).toBe(0);
    expect(failing(run)).toEqual([]);
    expect(line(run, 'CORS Access-Control-Expose-Headers')).toMatch(/^WARN .*cannot read the server's delay/);
  });

  it.each([
    ['config-empty', 'an empty body'],
    ['config-malformed', 'a body that is not JSON (Content-Type text/html'],
    ['config-no-token', 'JSON without a non-empty string authToken'],
  ])('%s: fails GET /config as a backend misconfiguration (%s)', async (fault, what) => {
    backend.setFault(fault, true);
    const run = await doctorOn(backend.url);
    expectHonestFailure(run);
    expect(line(run, 'GET /config')).toMatch(
      new RegExp(`^FAIL GET /config: answered 200 with ${escape(what)}.*misconfigured.*Fix: .*"authToken"`),
    );
    // The same answer comes whatever the token: the wrong-token check has nothing to judge, and says why.
    expect(line(run, 'rejected website token')).toMatch(
      /^SKIP rejected website token: not checked: GET \/config answers 200 without a usable authToken whatever the token.*see "GET \/config"$/,
    );
    expect(failing(run)).toEqual([line(run, 'GET /config')]);
  });

  it('rotated-website-token: fails GET /config saying the token is invalid, disabled or rotated', async () => {
    backend.setFault('rotated-website-token', true);
    const run = await doctorOn(backend.url);
    expectHonestFailure(run);
    expect(line(run, 'GET /config')).toMatch(
      /^FAIL GET \/config: answered 401: the website token is invalid, disabled or rotated \(server: "Invalid website token: the token has been rotated"\)\. Fix: use the inbox's current website token/,
    );
    expect(failing(run)).toHaveLength(1);
  });

  it('hang: reports the missing answer after --timeout and skips the checks that would wait again', async () => {
    backend.setFault('hang', true);
    const run = await doctorOn(backend.url, '--timeout', '300');
    expectHonestFailure(run);
    expect(line(run, 'GET /config')).toMatch(
      /^FAIL GET \/config: no answer within 300 ms.*Fix: check the backend and any proxy.*raise --timeout/,
    );
    expect(failing(run)).toEqual([line(run, 'GET /config')]);
    // The checks reading GET /config answers are skipped with the reason, none with a remedy for
    // what it never saw; the preflights (which this fault still answers) are judged.
    for (const name of ['CORS on API responses', 'rejected website token', 'CORS Access-Control-Expose-Headers'])
      expect(line(run, name)).toMatch(/^SKIP .*no answer within 300 ms/);
    expect(line(run, 'preflight OPTIONS /messages')).toMatch(/^PASS /);
    expect(run.out).not.toMatch(/^SKIP .*Fix:/m);
  });

  it('a fixed Allow-Origin of another site fails for the page origin and passes for that site', async () => {
    const other = await startReferenceBackend({ websiteTokens: [TOKEN], allowOrigin: 'https://other.example' });
    try {
      const run = await doctorOn(other.url);
      expectHonestFailure(run);
      expect(line(run, 'CORS Access-Control-Allow-Origin')).toMatch(
        /^FAIL .*"https:\/\/other\.example", which does not match the page origin https:\/\/app\.example\.com/,
      );
      const fromThatSite = await doctorOn(other.url, '--origin', 'https://other.example');
      expect(fromThatSite.code).toBe(0);
    } finally {
      await other.close();
    }
  });
});

describe('chat-bridge doctor against misconfigured servers', () => {
  it('an unreachable server (connection refused) fails with a clear reason and skips the rest', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));

    const run = await doctorOn(`http://127.0.0.1:${port}`);
    expectHonestFailure(run);
    expect(line(run, 'GET /config')).toMatch(/^FAIL .*connection refused.*ECONNREFUSED.*Fix: check --base-url/);
    expect(failing(run)).toHaveLength(1);
    expect(run.lines.filter((text) => text.startsWith('SKIP '))).toHaveLength(CHECK_COUNT - 1);
  });

  it('a 401 whose body is not an ErrorResponse is a warning: the app still gets auth_failed', async () => {
    const plain401 = backendLike((req, url) =>
      req.method === 'GET' && url.searchParams.get('website_token') !== TOKEN
        ? { status: 401, headers: { ...GOOD_CORS, 'content-type': 'text/plain' }, body: 'Unauthorized' }
        : undefined,
    );
    await withServer(plain401, async (url) => {
      const run = await doctorOn(url);
      expect(run.code).toBe(0);
      expect(line(run, 'rejected website token')).toMatch(
        /^WARN .*got 401 with a body that is not JSON, not an ErrorResponse.*Fix: .*\{"message": /,
      );
    });
  });

  it('a backend that accepts any website token gets a warning: the bridge works, the inbox is open to anyone', async () => {
    const anyToken = backendLike((req) =>
      req.method === 'GET' ? json(200, { authToken: 'at_for_anyone_0123456789' }) : undefined,
    );
    await withServer(anyToken, async (url) => {
      const run = await doctorOn(url);
      expect(run.code).toBe(0);
      expect(line(run, 'rejected website token')).toMatch(
        /^WARN .*got 200 instead of 401 and an authToken: the backend does not check website tokens/,
      );
    });
  });

  it('a made-up token answered 404 fails: an app with a rotated token would be told not_found, not auth_failed', async () => {
    const notFound = backendLike((req, url) =>
      req.method === 'GET' && url.searchParams.get('website_token') !== TOKEN
        ? json(404, { message: 'No inbox' })
        : undefined,
    );
    await withServer(notFound, async (url) => {
      const run = await doctorOn(url);
      expectHonestFailure(run);
      expect(failing(run)).toEqual([line(run, 'rejected website token')]);
      expect(line(run, 'rejected website token')).toMatch(/got 404 instead of 401.*auth_failed/);
    });
  });

  it('a preflight refused with 401 (authentication before CORS) fails with the fix to answer OPTIONS first', async () => {
    const authFirst = backendLike((req) =>
      req.method === 'OPTIONS' ? json(401, { message: 'Missing auth token' }) : undefined,
    );
    await withServer(authFirst, async (url) => {
      const run = await doctorOn(url);
      expectHonestFailure(run);
      expect(line(run, 'preflight OPTIONS /messages')).toMatch(
        /^FAIL .*answered 401.*Fix: answer OPTIONS on every API path with 204.*before any authentication/,
      );
    });
  });

  it('Allow-Headers "*" fails because a wildcard never covers Authorization', async () => {
    const wildcard = backendLike(undefined, { ...GOOD_CORS, 'access-control-allow-headers': '*' });
    await withServer(wildcard, async (url) => {
      const run = await doctorOn(url);
      expectHonestFailure(run);
      expect(failing(run)).toEqual([line(run, 'CORS Access-Control-Allow-Headers')]);
      expect(line(run, 'CORS Access-Control-Allow-Headers')).toContain(
        'missing Authorization (a * never covers Authorization)',
      );
    });
  });

  it('an echoed origin without Vary: Origin is a warning, not a failure (exit 0)', async () => {
    const echo = backendLike(undefined, { ...GOOD_CORS, 'access-control-allow-origin': ORIGIN });
    await withServer(echo, async (url) => {
      const run = await doctorOn(url);
      expect(run.code).toBe(0);
      expect(line(run, 'CORS Access-Control-Allow-Origin')).toMatch(
        /^WARN .*without "Vary: Origin"\. Fix: add "Vary: Origin"/,
      );
    });
  });

  it('sends the preflight a WebView sends before POST /messages: Origin, method and both request headers', async () => {
    await withServer(backendLike(), async (url, seen) => {
      await doctorOn(url, '--origin', 'http://localhost:8081');
      const preflight = seen.find((req) => req.method === 'OPTIONS' && req.url === '/messages');
      expect(preflight?.headers['origin']).toBe('http://localhost:8081');
      expect(preflight?.headers['access-control-request-method']).toBe('POST');
      expect(preflight?.headers['access-control-request-headers']).toBe('content-type, authorization');
      const config = seen.find((req) => req.method === 'GET' && req.url?.startsWith('/config?'));
      expect(config?.headers['origin']).toBe('http://localhost:8081');
      expect(config?.headers['authorization']).toBeUndefined();
    });
  });

  it('never prints an auth token or website token a server echoes back, in text or JSON', async () => {
    const authToken = 'at_echoed_secret_value_42';
    const echoing = backendLike((req, url) => {
      if (req.method !== 'GET') return undefined;
      return url.searchParams.get('website_token') === TOKEN
        ? json(200, { authToken })
        : json(401, { message: `not ${authToken}, and not ${TOKEN}` });
    });
    await withServer(echoing, async (url) => {
      for (const format of [[], ['--json']]) {
        const run = await doctorOn(url, ...format);
        expect(run.code).toBe(0);
        expect(run.out).toContain('not <redacted>, and not <redacted>');
        expect(run.out).not.toContain(authToken);
        expect(run.out).not.toContain(TOKEN);
      }
    });
  });

  it('never prints the website token when an error message quotes it', async () => {
    const quoting = backendLike((req, url) =>
      req.method === 'GET' && url.searchParams.get('website_token') === TOKEN
        ? json(500, { message: `boom for ${TOKEN}` })
        : undefined,
    );
    await withServer(quoting, async (url) => {
      const run = await doctorOn(url);
      expectHonestFailure(run);
      expect(line(run, 'GET /config')).toMatch(/^FAIL GET \/config: answered 500 \(server: "boom for <redacted>"\)/);
    });
  });
});

describe('chat-bridge doctor judges by what the bridge needs', () => {
  it('a backend without Access-Control-Allow-Methods passes with a warning (exit 0): GET and POST are CORS-safelisted', async () => {
    const { ['access-control-allow-methods']: _left, ...withoutMethods } = GOOD_CORS;
    await withServer(backendLike(undefined, withoutMethods), async (url) => {
      const run = await doctorOn(url);
      expect(run.code).toBe(0);
      expect(failing(run)).toEqual([]);
      expect(line(run, 'CORS Access-Control-Allow-Methods')).toMatch(
        /^WARN CORS Access-Control-Allow-Methods: missing on OPTIONS \/messages and OPTIONS \/config: the contract asks for it, but the bridge sends only GET and POST/,
      );
    });
  });

  it('a 301 to https on every path: one FAIL with the right fix, every later check skipped with the reason, no remedies', async () => {
    const redirecting = (_req: IncomingMessage, url: URL): Reply => ({
      status: 301,
      headers: { location: `https://chat.example.com${url.pathname}${url.search}` },
    });
    await withServer(redirecting, async (url) => {
      const run = await doctorOn(url);
      expectHonestFailure(run);
      expect(failing(run)).toEqual([line(run, 'GET /config')]);
      expect(line(run, 'GET /config')).toMatch(
        /^FAIL GET \/config: answered 301, a redirect to https:\/\/chat\.example\.com\/config\?.*Fix: use the final URL as baseUrl/,
      );
      const rest = run.lines.slice(2, -1);
      expect(rest).toHaveLength(CHECK_COUNT - 1);
      for (const text of rest) {
        expect(text).toMatch(/^SKIP .*not checked: .*(redirect|redirected).*https:\/\/chat\.example\.com/);
        expect(text).not.toContain('Fix:');
      }
    });
  });

  it('a duplicated "Access-Control-Allow-Origin: *" (proxy and app both add it): the fix is to remove one', async () => {
    // node:http writes each array item as a header line of its own; its types allow one string only.
    const twice = { ...GOOD_CORS, 'access-control-allow-origin': ['*', '*'] as unknown as string };
    await withServer(backendLike(undefined, twice), async (url) => {
      const run = await doctorOn(url);
      expectHonestFailure(run);
      for (const name of ['CORS Access-Control-Allow-Origin', 'CORS on API responses']) {
        expect(line(run, name)).toMatch(/^FAIL .*sent 2 times \("\*, \*"\)/);
        expect(line(run, name)).toMatch(/Fix: remove one of the 2 "Access-Control-Allow-Origin: \*" headers/);
        expect(line(run, name)).not.toMatch(/Fix: send "Access-Control-Allow-Origin: \*"/);
      }
    });
  });

  it('a slow preflight on /config is a warning about that preflight alone: every other check still runs and passes', async () => {
    const slowConfigPreflight = backendLike((req, url) =>
      req.method === 'OPTIONS' && url.pathname === '/config'
        ? { status: 204, headers: GOOD_CORS, delayMs: 1500 }
        : undefined,
    );
    await withServer(slowConfigPreflight, async (url) => {
      const run = await doctorOn(url, '--timeout', '300');
      expect(run.code).toBe(0);
      expect(line(run, 'preflight OPTIONS /config')).toMatch(
        /^WARN preflight OPTIONS \/config: no answer within 300 ms.*the bridge never preflights GET \/config/,
      );
      expect(run.lines.filter((text) => text.startsWith('SKIP '))).toEqual([]);
      for (const name of [
        'GET /config',
        'preflight OPTIONS /messages',
        'CORS on API responses',
        'rejected website token',
      ])
        expect(line(run, name)).toMatch(/^PASS /);
      expect(line(run, 'CORS Access-Control-Allow-Headers')).toMatch(
        /^PASS .*on OPTIONS \/messages; not checked on OPTIONS \/config got no answer/,
      );
    });
  });

  it('a 401 on the /config preflight only is a warning: the bridge never sends it', async () => {
    const authOnConfigPreflight = backendLike((req, url) =>
      req.method === 'OPTIONS' && url.pathname === '/config' ? json(401, { message: 'Missing auth token' }) : undefined,
    );
    await withServer(authOnConfigPreflight, async (url) => {
      const run = await doctorOn(url);
      expect(run.code).toBe(0);
      expect(line(run, 'preflight OPTIONS /config')).toMatch(/^WARN .*answered 401.*never preflights GET \/config/);
    });
  });
});

describe('chat-bridge doctor usage', () => {
  it.each([
    [['--website-token', TOKEN], '--base-url'],
    [['--base-url', 'http://127.0.0.1:1'], '--website-token'],
    [['--base-url', 'ftp://example.com', '--website-token', TOKEN], '--base-url'],
    [['--base-url', 'http://127.0.0.1:1/api?x=1', '--website-token', TOKEN], '--base-url'],
    [
      ['--base-url', 'http://127.0.0.1:1', '--website-token', TOKEN, '--origin', 'https://app.example.com/page'],
      '--origin',
    ],
    [['--base-url', 'http://127.0.0.1:1', '--website-token', TOKEN, '--timeout', '0'], '--timeout'],
    [['--base-url', 'http://127.0.0.1:1', '--website-token', TOKEN, '--verbose'], '--verbose'],
    [['--base-url', 'http://127.0.0.1:1', '--website-token', TOKEN, 'extra'], 'positional'],
  ])('exits 2 on bad usage %j, naming %s, without printing the token', async (args, named) => {
    const run = await doctor(...args);
    expect(run.code).toBe(2);
    expect(run.out).toBe('');
    expect(run.err).toContain(named);
    expect(run.err).toContain('chat-bridge --help');
    expect(run.err).not.toContain(TOKEN);
  });

  it('documents its options under doctor --help, exiting 0', async () => {
    const run = await doctor('--help');
    expect(run.code).toBe(0);
    for (const word of ['--base-url', '--website-token', '--origin', '--timeout', '--json'])
      expect(run.out).toContain(word);
  });
});

describe('bin/chat-bridge.js doctor', () => {
  it('runs as a command: exit 1 and FAIL lines on stdout for a backend without CORS', async () => {
    backend.setFault('no-cors', true);
    // Asynchronous on purpose: the backend answering the child lives in this process.
    const child = await promisify(execFile)(
      process.execPath,
      [join(ROOT, 'bin', 'chat-bridge.js'), 'doctor', '--base-url', backend.url, '--website-token', TOKEN],
      {
        cwd: ROOT,
        timeout: 20_000,
      },
    ).then(
      (result) => ({ code: 0, stdout: result.stdout }),
      (error: { code?: number; stdout?: string }) => ({ code: error.code, stdout: error.stdout ?? '' }),
    );
    expect(child.code).toBe(1);
    expect(child.stdout).toMatch(/^FAIL CORS Access-Control-Allow-Origin: /m);
    expect(child.stdout).not.toContain(TOKEN);
  });
});

describe("docs/doctor.md's broken server, tried as the page shows it", () => {
  it("runs the page's script, then the page's command against it, and prints the page's output", async () => {
    const page = readFileSync(join(ROOT, 'docs/doctor.md'), 'utf8');
    const section = page.slice(page.indexOf('## Trying it against a broken server'));
    const script = /```js\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const [, command = '', expected = ''] =
      /```\n\$ npx (chat-bridge doctor [^\n]+)\n([\s\S]*?)```/.exec(section) ?? [];
    expect(script).toContain('listen(8787');
    // Any free port for 8787, in the script, the command and the output alike.
    const free = createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    const port = String((free.address() as AddressInfo).port);
    await new Promise((resolve) => free.close(resolve));
    const scratch = mkdtempSync(join(tmpdir(), 'chat-bridge-doctor-page-'));
    writeFileSync(join(scratch, 'broken-backend.mjs'), script.replaceAll('8787', port));
    const server = spawn(process.execPath, ['broken-backend.mjs'], { cwd: scratch });
    try {
      await new Promise((resolve, reject) => {
        server.stdout.once('data', resolve);
        server.once('exit', reject);
      });
      const args = command.replaceAll('8787', port).split(' ').slice(1);
      const child = await promisify(execFile)(process.execPath, [join(ROOT, 'bin', 'chat-bridge.js'), ...args], {
        cwd: ROOT,
        timeout: 20_000,
      }).then(
        (result) => ({ code: 0, stdout: result.stdout }),
        (error: { code?: number; stdout?: string }) => ({ code: error.code, stdout: error.stdout ?? '' }),
      );
      expect(child.code).toBe(1);
      expect(child.stdout).toBe(expected.replaceAll('8787', port));
    } finally {
      server.kill();
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('chat-bridge doctor against a server that attacks the report (issue 22, case 4)', () => {
  /** URL-special characters, so its encoded forms differ from it. */
  const SPECIAL_TOKEN = 'wt+doctor/S3cr3t=9c';
  const encodedForms = [
    encodeURIComponent(SPECIAL_TOKEN),
    encodeURIComponent(SPECIAL_TOKEN).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
    new URLSearchParams({ t: SPECIAL_TOKEN }).toString().slice(2),
    Buffer.from(SPECIAL_TOKEN).toString('base64'),
  ];
  const expectNoForm = (text: string) => {
    for (const form of [SPECIAL_TOKEN, ...encodedForms]) expect(text).not.toContain(form);
  };

  it('prints a redirect that keeps the query with the website token taken out, in text and JSON', async () => {
    const redirecting = (_req: IncomingMessage, url: URL): Reply => ({
      status: 301,
      headers: { location: `https://chat.example.com${url.pathname}${url.search}` },
    });
    await withServer(redirecting, async (url) => {
      for (const format of [[], ['--json']]) {
        const run = await doctor('--base-url', url, '--website-token', SPECIAL_TOKEN, ...format);
        expect(run.code).toBe(1);
        expect(run.out).toContain('https://chat.example.com/config?website_token=<redacted>');
        expectNoForm(run.out + run.err);
      }
    });
  });

  it('never prints the website token a 401 message echoes URL-encoded or in base64', async () => {
    const echoing = (req: IncomingMessage, url: URL): Reply => {
      if (req.method === 'OPTIONS') return { status: 204, headers: GOOD_CORS };
      if (url.searchParams.get('website_token') === SPECIAL_TOKEN)
        return json(401, { message: `rejected ${encodedForms.join(' and ')}` });
      return json(401, { message: 'Invalid website token' });
    };
    await withServer(echoing, async (url) => {
      for (const format of [[], ['--json']]) {
        const run = await doctor('--base-url', url, '--website-token', SPECIAL_TOKEN, ...format);
        expect(run.out).toContain('rejected <redacted> and <redacted> and <redacted> and <redacted>');
        expectNoForm(run.out + run.err);
      }
    });
  });

  it('strips the control characters a server message carries: OSC 52, clear screen, C1, bidi overrides', async () => {
    const osc52 = '\x1b]52;c;ZWNobyBwd25lZA==\x07';
    const hostile = `boom${osc52}\x1b[2J\x1b[H\x9b31m\x9d0;title\x9c\u202eevil\r\nFAIL fake line`;
    const attacking = backendLike((req, url) =>
      req.method === 'GET' && url.searchParams.get('website_token') === TOKEN
        ? json(500, { message: hostile })
        : undefined,
    );
    await withServer(attacking, async (url) => {
      for (const format of [[], ['--json']]) {
        const run = await doctorOn(url, ...format);
        // Nothing a terminal obeys is left: no C0 but the report's own newlines, no DEL, no C1, no bidi.
        // eslint-disable-next-line no-control-regex -- control characters are what must be absent
        expect(run.out).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
        expect(run.out).not.toContain('52;c;');
        expect(run.out).not.toContain('[2J');
        expect(run.out).toContain('boom');
      }
      // The server's line break cannot forge a report line of its own.
      const run = await doctorOn(url);
      expect(run.lines.filter((text) => text.startsWith('FAIL fake line'))).toEqual([]);
    });
  });

  it('refuses a website token too short to keep out of the report, as the bridge does', async () => {
    const run = await doctor('--base-url', 'http://127.0.0.1:9', '--website-token', 'abc');
    expect(run.code).toBe(2);
    expect(run.err).toContain('--website-token must be 6+ characters');
    expect(run.out).toBe('');
  });
});
