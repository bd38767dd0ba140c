// @vitest-environment node
/**
 * The upload checks with Chatwoot's profile, over a fetch that answers by the body's size: what
 * the requests carry (Chatwoot's path, website_token, X-Auth-Token, multipart field, 40 MiB) and
 * how the answers are read. Against the real reference backend, nginx and Caddy:
 * test/doctor/doctor-chatwoot.spec.ts and test/proxy/chatwoot-doctor.spec.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  CHATWOOT_UPLOAD,
  chatwootUploadAnswers,
  chatwootUploadCorsCheck,
  chatwootUploadLimitCheck,
} from '../../../../tools/doctor/chatwoot-upload.js';
import type { DoctorTarget } from '../../../../tools/doctor/probe.js';
import { uploadSize } from '../../../../tools/doctor/upload-checks.js';

const BASE = 'https://chat.example.com';
const OTHER = 'https://app.example.com';
const TOKEN = 'wt_unit_chatwoot_secret';
const MIB = 1024 * 1024;
const NOT_FOUND = JSON.stringify({ error: 'Resource could not be found' });
const RAILS_404_PAGE = "<!DOCTYPE html><title>404</title><h1>The page you were looking for doesn't exist.</h1>";

type Reply = { status: number; text?: string; headers?: Record<string, string> } | 'reset';

interface Seen {
  url: string;
  headers: Record<string, string>;
  fields: string[];
  fileBytes: number;
}

/** A target whose fetch answers `small` under 1 KB of file and `large` above, recording each request. */
function targetFor(small: Reply, large: Reply, options: { origin?: string; maxFileSize?: number } = {}) {
  const seen: Seen[] = [];
  const target: DoctorTarget = {
    baseUrl: BASE,
    websiteToken: TOKEN,
    origin: options.origin ?? BASE,
    timeoutMs: 1_000,
    ...(options.maxFileSize !== undefined && { maxFileSize: options.maxFileSize }),
    fetch: async (url, init) => {
      const form = init.body as FormData;
      const file = form.get('message[attachments][]');
      const fileBytes = file instanceof Blob ? file.size : -1;
      seen.push({ url, headers: init.headers as Record<string, string>, fields: [...form.keys()], fileBytes });
      const reply = fileBytes < 1024 ? small : large;
      if (reply === 'reset') throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
      return new Response(reply.text ?? '', { status: reply.status, headers: reply.headers ?? {} });
    },
  };
  return { probe: { target }, seen };
}

const refused = { status: 404, text: NOT_FOUND, headers: { 'content-type': 'application/json; charset=utf-8' } };

describe("the upload checks on Chatwoot's widget API", () => {
  it('post multipart message[attachments][] to /api/v1/widget/messages?website_token=… with a made-up X-Auth-Token, once', async () => {
    const { probe, seen } = targetFor(refused, refused, { maxFileSize: 4096 });
    await chatwootUploadLimitCheck.run(probe);
    await chatwootUploadCorsCheck.run(probe);
    await chatwootUploadAnswers(probe);
    expect(seen).toHaveLength(2);
    for (const request of seen) {
      const url = new URL(request.url);
      expect(`${url.origin}${url.pathname}`).toBe(`${BASE}/api/v1/widget/messages`);
      expect(url.searchParams.get('website_token')).toBe(TOKEN);
      expect(request.headers['X-Auth-Token']).toMatch(/^doctor-invalid-[0-9a-f-]{36}$/);
      expect(request.headers['Authorization']).toBeUndefined();
      expect(request.fields).toEqual(['message[content]', 'message[echo_id]', 'message[attachments][]']);
    }
    expect(seen.map((request) => request.fileBytes).sort((a, b) => a - b)).toEqual([1, 4096]);
  });

  it("sends Chatwoot's 40 MiB by default, and a --max-file-size under it but never one over (the bridge's rule)", () => {
    const size = (maxFileSize?: number) =>
      uploadSize(
        CHATWOOT_UPLOAD,
        targetFor(refused, refused, maxFileSize === undefined ? {} : { maxFileSize }).probe.target,
      );
    expect(size()).toBe(40 * MIB);
    expect(size(10 * MIB)).toBe(10 * MIB);
    expect(size(100 * MIB)).toBe(40 * MIB);
  });

  it("pass when the large body reaches Chatwoot's JSON 404; the CORS half is skipped on the installation's origin", async () => {
    const { probe } = targetFor(refused, refused);
    const limit = await chatwootUploadLimitCheck.run(probe);
    expect(limit).toEqual({
      status: 'pass',
      detail: 'a body with a 41943040-byte file (maxFileSize) reaches the application (404 for a made-up X-Auth-Token)',
    });
    expect(await chatwootUploadCorsCheck.run(probe)).toMatchObject({ status: 'skip' });
  });

  it("fail a proxy's 413 on the widget page as file_too_large, with the limit to set for 40 MiB", async () => {
    const { probe } = targetFor(refused, { status: 413, text: '<html>413</html>' });
    const limit = await chatwootUploadLimitCheck.run(probe);
    expect(limit.status).toBe('fail');
    expect(limit.detail).toContain('refused before the application checks the X-Auth-Token: a body size limit (413)');
    expect(limit.detail).toContain(': the app sees file_too_large; a small one gets 404');
    expect(limit.fix).toContain('nginx "client_max_body_size 41m;"');
    expect(limit.fix).toContain('client_max_body_size 0');
    expect(limit.fix).toContain('Caddy "request_body { max_size 41MiB }"');
    expect(limit.fix).toContain(`Apache "LimitRequestBody ${41 * MIB}"`);
  });

  it('scale the fix to --max-file-size', async () => {
    const { probe } = targetFor(refused, { status: 413 }, { maxFileSize: 10 * MIB });
    expect((await chatwootUploadLimitCheck.run(probe)).fix).toContain('"client_max_body_size 11m;"');
  });

  it("fail on another origin a 413 without CORS as upload_refused, and the CORS half names rack-cors' limits", async () => {
    const cors = { 'access-control-allow-origin': '*' };
    const { probe } = targetFor({ ...refused, headers: cors }, { status: 413 }, { origin: OTHER });
    const limit = await chatwootUploadLimitCheck.run(probe);
    expect(limit.detail).toContain('without CORS headers: the app sees a network error, then upload_refused');
    const errors = await chatwootUploadCorsCheck.run(probe);
    expect(errors.status).toBe('fail');
    expect(errors.detail).toBe(
      'Access-Control-Allow-Origin missing on 413 (POST /api/v1/widget/messages with 41943040 bytes): the WebView reports a network error instead',
    );
    expect(errors.fix).toContain('rack-cors');
    expect(errors.fix).toContain('ENABLE_API_CORS');
  });

  it("fail Caddy 2.6's 502 and a reset connection as refusals too", async () => {
    const caddy = await chatwootUploadLimitCheck.run(targetFor(refused, { status: 502 }).probe);
    expect(caddy).toMatchObject({ status: 'fail', detail: expect.stringContaining('"502"') });
    const reset = await chatwootUploadLimitCheck.run(targetFor(refused, 'reset').probe);
    expect(reset).toMatchObject({ status: 'fail', detail: expect.stringContaining('ECONNRESET') });
  });

  it("skip when the small request does not get Chatwoot's JSON 404: a routing 404 page (not the root), a suspended account", async () => {
    const page = await chatwootUploadLimitCheck.run(
      targetFor({ status: 404, text: RAILS_404_PAGE }, { status: 413 }).probe,
    );
    expect(page).toMatchObject({ status: 'skip' });
    expect(page.detail).toContain('got 404, not Chatwoot\'s 404 {"error": ...} for an unknown contact');
    const suspended = JSON.stringify({ error: 'Account is suspended' });
    const account = await chatwootUploadLimitCheck.run(
      targetFor({ status: 401, text: suspended }, { status: 401, text: suspended }).probe,
    );
    expect(account).toMatchObject({ status: 'skip', detail: expect.stringContaining('got 401') });
  });
});
