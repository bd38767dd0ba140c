// @vitest-environment node
/**
 * The doctor's upload check against a real nginx (Debian's 1.22) in front of the reference
 * backend: with nginx's default 1m body limit it FAILs, names the limit and the fixes for nginx,
 * Caddy and Apache; with docs/backend.md's configuration it passes. CORS on the error answers of
 * POST /messages is checked too (nginx's 413 without `always` has none). The output never
 * carries the website token or an auth token (issue 32).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../tools/cli/main.js';
import { startReferenceBackend } from '../../reference-backend/server.mjs';
import { corsSnippet, hostOf } from '../helpers/nginx-configs.js';
import { docsConfig, requireProxy, startNginx, type RunningProxy } from '../helpers/proxies.js';

const TOKEN = 'wt_doctor_proxy_S3cr3t_41d9';
const AUTH_TOKEN_SHAPE = /[A-Za-z0-9_-]{32}/;

describe.skipIf(!requireProxy('nginx'))('chat-bridge doctor behind nginx', () => {
  let backend: Awaited<ReturnType<typeof startReferenceBackend>>;
  const proxies: RunningProxy[] = [];
  beforeAll(async () => {
    backend = await startReferenceBackend({ websiteTokens: [TOKEN] });
  });
  afterAll(async () => {
    await backend.close();
  });
  afterEach(async () => {
    for (const proxy of proxies.splice(0)) await proxy.stop();
    backend.reset();
  });

  const doctor = async (http: string, ...extra: string[]) => {
    const proxy = await startNginx(http, hostOf(backend.url));
    proxies.push(proxy);
    let out = '';
    const code = await main(
      ['doctor', '--base-url', proxy.url, '--website-token', TOKEN, ...extra],
      (text) => (out += text),
      () => undefined,
    );
    const line = (name: string) => out.split('\n').find((l) => l.includes(name)) ?? '';
    return { code, out, line, proxy };
  };
  const noSecrets = (out: string) => {
    expect(out).not.toContain(TOKEN);
    expect(out).not.toMatch(AUTH_TOKEN_SHAPE);
  };

  it("FAILs nginx's default 1m limit under the CORS snippet without `always`, and names the fixes", async () => {
    const { code, out, line, proxy } = await doctor(corsSnippet({ always: false }));
    expect(code).toBe(1);
    expect(line('upload body limit')).toMatch(/^FAIL/);
    expect(line('upload body limit')).toContain('a body size limit (413)');
    expect(line('upload body limit')).toContain('5242880-byte file');
    expect(out).toContain('client_max_body_size');
    expect(out).toContain('request_body { max_size');
    expect(out).toContain('LimitRequestBody');
    expect(line('CORS on POST /messages errors')).toMatch(/^FAIL/);
    expect(line('CORS on POST /messages errors')).toContain('413');
    // It met the proxy's limit, and the small request the app's 401: nothing was stored.
    const log = await proxy.requests();
    expect(log).toContain('POST /messages 413');
    expect(log).toContain('POST /messages 401');
    noSecrets(out);
  });

  it('with `always`, the limit still FAILs, and the 413 is readable (file_too_large)', async () => {
    const { out, line } = await doctor(corsSnippet({ always: true }));
    expect(line('upload body limit')).toMatch(/^FAIL/);
    expect(line('upload body limit')).toContain('file_too_large');
    expect(line('CORS on POST /messages errors')).toMatch(/^PASS/);
    noSecrets(out);
  });

  it('passes a limit above maxFileSize, and checks the size given with --max-file-size', async () => {
    const roomy = corsSnippet({ always: true, bodyLimit: '6m' });
    expect((await doctor(roomy)).line('upload body limit')).toMatch(/^PASS/);
    const bigger = await doctor(roomy, '--max-file-size', String(10 * 1024 * 1024));
    expect(bigger.line('upload body limit')).toMatch(/^FAIL/);
    expect(bigger.line('upload body limit')).toContain('10485760-byte file');
    noSecrets(bigger.out);
  });

  it("passes every check against docs/backend.md's nginx configuration", async () => {
    const { code, out } = await doctor(docsConfig('nginx'));
    expect(out).not.toMatch(/^FAIL/m);
    expect(code).toBe(0);
    noSecrets(out);
  });
});
