// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createProbe, type DoctorTarget } from '../../../../tools/doctor/probe.js';
import { messagesErrorCorsCheck, uploadAnswers, uploadLimitCheck } from '../../../../tools/doctor/upload-checks.js';

const ORIGIN = 'https://app.example';
const CORS = { 'access-control-allow-origin': '*' };

type Reply = { status: number; headers?: Record<string, string> } | 'reset';

/** A probe whose fetch answers POST /messages by the body's size: `small` under 1 KB, `large` above. */
function probeFor(small: Reply, large: Reply, maxFileSize = 4096) {
  const seen: Array<{ bytes: number; authorization: string | undefined }> = [];
  const target: DoctorTarget = {
    baseUrl: 'https://chat.example/api',
    websiteToken: 'wt_unit_secret_token',
    origin: ORIGIN,
    timeoutMs: 1_000,
    maxFileSize,
    fetch: async (url, init) => {
      expect(url).toBe('https://chat.example/api/messages');
      const bytes = (await new Response(init.body as FormData).arrayBuffer()).byteLength;
      seen.push({ bytes, authorization: (init.headers as Record<string, string>)['Authorization'] });
      const reply = bytes < 1024 ? small : large;
      if (reply === 'reset') throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
      return new Response('', { status: reply.status, headers: reply.headers ?? {} });
    },
  };
  return { probe: createProbe(target), seen };
}

describe('the upload checks', () => {
  it('send a file of maxFileSize, and a small one, with a made-up token and never the website token, once', async () => {
    const { probe, seen } = probeFor({ status: 401, headers: CORS }, { status: 401, headers: CORS });
    await uploadLimitCheck.run(probe);
    await messagesErrorCorsCheck.run(probe);
    await uploadAnswers(probe);
    expect(seen).toHaveLength(2);
    expect(Math.max(...seen.map((request) => request.bytes))).toBeGreaterThan(4096);
    for (const request of seen) {
      expect(request.authorization).toMatch(/^Bearer doctor-invalid-/);
      expect(request.authorization).not.toContain('wt_unit_secret_token');
    }
  });

  it("pass when the large body reaches the application's 401, with CORS on it", async () => {
    const { probe } = probeFor({ status: 401, headers: CORS }, { status: 401, headers: CORS });
    expect(await uploadLimitCheck.run(probe)).toMatchObject({ status: 'pass' });
    expect(await messagesErrorCorsCheck.run(probe)).toMatchObject({ status: 'pass' });
  });

  it('fail a 413 before the 401, naming the fixes; without CORS the app sees upload_refused', async () => {
    const { probe } = probeFor({ status: 401, headers: CORS }, { status: 413 });
    const limit = await uploadLimitCheck.run(probe);
    expect(limit).toMatchObject({ status: 'fail' });
    expect(limit.detail).toContain('a body size limit (413)');
    expect(limit.detail).toContain('upload_refused');
    expect(limit.fix).toMatch(/client_max_body_size.*request_body \{ max_size.*LimitRequestBody/);
    const cors = await messagesErrorCorsCheck.run(probe);
    expect(cors).toMatchObject({ status: 'fail' });
    expect(cors.detail).toContain('413 (POST /messages with 4096 bytes)');
    expect(cors.detail).not.toContain('401');
  });

  it("fail a 413 with CORS as file_too_large, and Caddy 2.6's 502 and a reset connection as refusals too", async () => {
    const withCors = await uploadLimitCheck.run(probeFor({ status: 401 }, { status: 413, headers: CORS }).probe);
    expect(withCors.detail).toContain('file_too_large');
    const caddy = await uploadLimitCheck.run(probeFor({ status: 401 }, { status: 502 }).probe);
    expect(caddy).toMatchObject({ status: 'fail' });
    expect(caddy.detail).toContain('"502"');
    const reset = await uploadLimitCheck.run(probeFor({ status: 401 }, 'reset').probe);
    expect(reset).toMatchObject({ status: 'fail' });
    expect(reset.detail).toContain('ECONNRESET');
  });

  it('skip when even the small request is not refused as the contract says, or got no answer', async () => {
    expect(await uploadLimitCheck.run(probeFor({ status: 200 }, { status: 413 }).probe)).toMatchObject({
      status: 'skip',
    });
    const gone = probeFor('reset', 'reset').probe;
    expect(await uploadLimitCheck.run(gone)).toMatchObject({ status: 'skip', cause: expect.any(String) });
    expect(await messagesErrorCorsCheck.run(gone)).toMatchObject({ status: 'skip' });
  });
});
