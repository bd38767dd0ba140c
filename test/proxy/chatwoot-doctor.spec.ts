// @vitest-environment node
/**
 * `chat-bridge doctor --backend chatwoot`'s upload check behind a real nginx (Debian's 1.22) and
 * Caddy (2.6) in front of the reference backend's Chatwoot mode: a limit under Chatwoot's 40 MiB
 * attachment plus its form fields FAILs, with the limit to set; docs/chatwoot.md's configurations
 * pass as written. The page on the installation's origin (the widget page) needs no CORS; one on
 * another origin, with ENABLE_API_CORS, reads Chatwoot's own 404 but not nginx's 413. Nothing is
 * stored, and no token the run sent or received is in its output in any encoding.
 */
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceBackend } from '../../reference-backend/server.mjs';
import { chatwootDoctor } from '../helpers/doctor-tokens.js';
import { hostOf } from '../helpers/nginx-configs.js';
import { docsConfig, requireProxy, startCaddy, startNginx, type RunningProxy } from '../helpers/proxies.js';

type Backend = Awaited<ReturnType<typeof startReferenceBackend>>;

const TOKEN = 'wt_cw_proxy_S3cr3t_5e2b';
const MESSAGES = '/api/v1/widget/messages';
const FORTY_MIB = 40 * 1024 * 1024;
/** A proxy and nothing else: the widget page is same-origin, so no CORS headers. */
const plainNginx = (limit: string) => `
server {
  listen 127.0.0.1:{{PORT}};
  ${limit}
  location / {
    proxy_pass http://{{UPSTREAM}};
  }
}
`;
const plainCaddy = (maxSize: string) => `http://127.0.0.1:{{PORT}} {
\trequest_body {
\t\tmax_size ${maxSize}
\t}
\treverse_proxy {{UPSTREAM}}
}
`;

let backend: Backend;
let withCors: Backend;
const proxies: RunningProxy[] = [];
beforeAll(async () => {
  backend = await startReferenceBackend({ backend: 'chatwoot', websiteTokens: [TOKEN] });
  withCors = await startReferenceBackend({ backend: 'chatwoot', websiteTokens: [TOKEN], enableApiCors: true });
});
afterAll(async () => {
  await Promise.all([backend.close(), withCors.close()]);
});
afterEach(async () => {
  for (const proxy of proxies.splice(0)) await proxy.stop();
  backend.reset();
  withCors.reset();
});

/** The doctor through `proxy`; `origin` the page's (the proxy's own, the widget page's, unless told). */
async function doctor(proxy: RunningProxy, origin = proxy.url, ...extra: string[]) {
  const { code, out, tokens } = await chatwootDoctor(proxy.url, TOKEN, origin, extra);
  // The recording saw the contact's token (a JWT) too: chatwootDoctor's check has teeth.
  expect([...tokens].some((token) => token.startsWith('eyJ'))).toBe(true);
  const line = (name: string) => out.split('\n').find((text) => text.slice(5).startsWith(`${name}:`)) ?? '';
  return { code, out, line };
}

const started = async (proxy: Promise<RunningProxy>) => {
  const running = await proxy;
  proxies.push(running);
  return running;
};

/** Nothing stored: the doctor's uploads carried a made-up X-Auth-Token. */
async function expectNothingStored(target: Backend) {
  expect(await (await fetch(`${target.url}/__admin/conversations`)).json()).toEqual([]);
}

describe.skipIf(!requireProxy('nginx'))('chat-bridge doctor --backend chatwoot behind nginx', () => {
  it("FAILs nginx's default 1m on the widget page as file_too_large, word for word as docs/chatwoot.md shows it", async () => {
    const proxy = await started(startNginx(plainNginx(''), hostOf(backend.url)));
    const run = await doctor(proxy);
    expect(run.code).toBe(1);
    const page = readFileSync(new URL('../../docs/chatwoot.md', import.meta.url), 'utf8');
    const shown = /^FAIL upload body limit: .*$/m.exec(page)?.[0];
    expect(run.line('upload body limit')).toBe(shown);
    // Every other check passes: the widget API answers, the token arrives, no CORS is needed.
    expect(run.out.split('\n').filter((text) => text.startsWith('FAIL '))).toHaveLength(1);
    expect(run.line(`CORS on POST ${MESSAGES} errors`)).toMatch(/^SKIP .*no CORS applies/);
    const log = await proxy.requests();
    expect(log).toContain(`POST ${MESSAGES} 413`);
    expect(log).toContain(`POST ${MESSAGES} 404`);
    await expectNothingStored(backend);
  });

  it('FAILs "client_max_body_size 40m;": the 40 MiB file fits, its body does not', async () => {
    const proxy = await started(startNginx(plainNginx('client_max_body_size 40m;'), hostOf(backend.url)));
    const run = await doctor(proxy);
    expect(run.line('upload body limit')).toMatch(/^FAIL .*41943040-byte file.*a body size limit \(413\)/);
    expect(run.line('upload body limit')).toContain('"client_max_body_size 41m;"');
  });

  it("passes docs/chatwoot.md's nginx configuration as written: every check, exit 0", async () => {
    const proxy = await started(startNginx(docsConfig('nginx', 'chatwoot.md'), hostOf(backend.url)));
    const run = await doctor(proxy);
    expect(run.out).not.toMatch(/^FAIL/m);
    expect(run.code).toBe(0);
    expect(run.line('upload body limit')).toBe(
      `PASS upload body limit: a body with a ${FORTY_MIB}-byte file (maxFileSize) reaches the application (404 for a made-up X-Auth-Token)`,
    );
    expect(await proxy.requests()).toEqual(expect.arrayContaining([`POST ${MESSAGES} 404`]));
    await expectNothingStored(backend);
  });

  it('checks the smaller --max-file-size the app sets, and scales the fix to it', async () => {
    const proxy = await started(startNginx(plainNginx('client_max_body_size 11m;'), hostOf(backend.url)));
    const fits = await doctor(proxy, proxy.url, '--max-file-size', String(10 * 1024 * 1024));
    expect(fits.line('upload body limit')).toMatch(/^PASS .*10485760-byte file/);
    const tight = await started(startNginx(plainNginx('client_max_body_size 10m;'), hostOf(backend.url)));
    const over = await doctor(tight, tight.url, '--max-file-size', String(10 * 1024 * 1024));
    expect(over.line('upload body limit')).toMatch(/^FAIL .*10485760-byte file.*"client_max_body_size 11m;"/);
  });

  it("on another origin with ENABLE_API_CORS: Chatwoot's 404 carries CORS, nginx's 413 does not (upload_refused)", async () => {
    const proxy = await started(startNginx(plainNginx(''), hostOf(withCors.url)));
    const run = await doctor(proxy, 'https://app.example.com');
    expect(run.line('same origin or ENABLE_API_CORS')).toMatch(/^PASS/);
    expect(run.line('upload body limit')).toMatch(
      /^FAIL .*a body size limit \(413\), without CORS headers: the app sees a network error, then upload_refused/,
    );
    const cors = run.line(`CORS on POST ${MESSAGES} errors`);
    expect(cors).toBe(
      `FAIL CORS on POST ${MESSAGES} errors: Access-Control-Allow-Origin missing on 413 (POST ${MESSAGES} with ${FORTY_MIB} bytes): ` +
        'the WebView reports a network error instead. Fix: send "Access-Control-Allow-Origin: *" (or exactly "https://app.example.com") ' +
        "on every API response, preflights and errors included (rack-cors adds it to Chatwoot's own answers with ENABLE_API_CORS, " +
        "never to a proxy's own 413 or 502: raise the proxy's body limit so Chatwoot answers, or load the bridge in the widget page, where no CORS applies)",
    );
    await expectNothingStored(withCors);
  });
});

describe.skipIf(!requireProxy('caddy'))('chat-bridge doctor --backend chatwoot behind Caddy', () => {
  it("FAILs request_body max_size 40MB (decimal megabytes) by Caddy 2.6's 502, and names the MiB to set", async () => {
    const proxy = await started(startCaddy(plainCaddy('40MB'), hostOf(backend.url)));
    const run = await doctor(proxy);
    expect(run.code).toBe(1);
    const limit = run.line('upload body limit');
    expect(limit).toMatch(
      /^FAIL .*41943040-byte file \(maxFileSize\) is refused before the application checks the X-Auth-Token: "502"/,
    );
    expect(limit).toContain('Caddy "request_body { max_size 41MiB }"');
    await expectNothingStored(backend);
  });

  it("passes docs/chatwoot.md's Caddy configuration as written: every check, exit 0", async () => {
    const proxy = await started(startCaddy(docsConfig('caddy', 'chatwoot.md'), hostOf(backend.url)));
    const run = await doctor(proxy);
    expect(run.out).not.toMatch(/^FAIL/m);
    expect(run.code).toBe(0);
    expect(run.line('upload body limit')).toMatch(/^PASS .*41943040-byte file.*404 for a made-up X-Auth-Token/);
    await expectNothingStored(backend);
  });
});
