/**
 * Uploads through XMLHttpRequest, in headless Chromium against a real server on 127.0.0.1: upload
 * progress exists only in a real engine (happy-dom fires none), and what the module is about is
 * that engine's XHR. The module alone is loaded into the page (built from its source), so what is
 * checked is its contract with http.ts: the headers given and no others, the answer as a response,
 * a redirect refused unread, a network error and an abort as rejections, progress as it goes.
 * (test/browser/upload-progress.spec.ts checks the same path through the whole bundle.)
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, requireChromium, type LaunchedBrowser } from '../../helpers/chromium.js';

const KiB = 1024;

/** xhr-upload.ts alone, as a script that puts `xhrUpload` on window. */
function moduleScript(): string {
  const built = buildSync({
    entryPoints: [fileURLToPath(new URL('../../../bridge/xhr-upload.ts', import.meta.url))],
    bundle: true,
    format: 'iife',
    globalName: 'xhrUploadModule',
    target: 'es2017',
    write: false,
  });
  return built.outputFiles[0]?.text ?? '';
}

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  bytes: number;
}

/** What the page's call came to: the response as read, or a rejection; and every progress report. */
type Outcome =
  | { status: number; answer: string | null; text: string; progress: Array<[number, number]> }
  | { rejected: true; progress: Array<[number, number]> };

describe.skipIf(!requireChromium())('xhrUpload (Chromium, a server on 127.0.0.1)', () => {
  let chromium: LaunchedBrowser;
  let page: Page;
  let server: Server;
  let origin = '';
  const seen: Seen[] = [];

  beforeAll(async () => {
    const script = moduleScript();
    server = createServer((request, response) => {
      const url = request.url ?? '';
      if (request.method === 'GET' && url === '/') {
        response.writeHead(200, { 'Content-Type': 'text/html' }).end('<script src="/xhr-upload.js"></script>');
        return;
      }
      if (request.method === 'GET' && url === '/xhr-upload.js') {
        response.writeHead(200, { 'Content-Type': 'text/javascript' }).end(script);
        return;
      }
      const entry: Seen = { method: request.method ?? '', url, headers: request.headers, bytes: 0 };
      seen.push(entry);
      if (url === '/hang') return; // never answers: only an abort ends it
      // /slow reads at about 750 KiB/s, so the browser reports the upload as it goes rather than
      // once at the end (it reports about every 600 ms; the loopback buffers take the first MiBs at once).
      request.on('data', (chunk: Buffer) => {
        entry.bytes += chunk.length;
        if (url !== '/slow') return;
        request.pause();
        setTimeout(() => request.resume(), chunk.length / 768);
      });
      request.on('end', () => {
        if (url === '/redirect') return void response.writeHead(307, { Location: '/upload' }).end();
        const status = url === '/refused' ? 422 : 201;
        response
          .writeHead(status, { 'Content-Type': 'application/json', 'X-Answer': 'from the server' })
          .end(JSON.stringify({ bytes: entry.bytes }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    chromium = await launchChromium();
    page = await chromium.browser.newPage();
    await page.goto(`${origin}/`);
  });

  afterAll(async () => {
    await chromium?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  /** One upload from the page: a text field and a file of `size` bytes, as the outbox sends them. */
  const upload = (
    path: string,
    options: { size?: number; headers?: Record<string, string>; abortAfterMs?: number } = {},
  ) =>
    page.evaluate(
      async ({ url, size, headers, abortAfterMs }) => {
        const form = new FormData();
        form.append('content', 'photo');
        form.append('attachments[]', new Blob([new Uint8Array(size)], { type: 'image/png' }), 'p.png');
        const controller = new AbortController();
        if (abortAfterMs !== undefined) setTimeout(() => controller.abort(), abortAfterMs);
        const progress: Array<[number, number]> = [];
        const { xhrUpload } = (window as unknown as { xhrUploadModule: typeof import('../../../bridge/xhr-upload.js') })
          .xhrUploadModule;
        try {
          const response = await xhrUpload(window)(
            url,
            { method: 'POST', headers, body: form, signal: controller.signal },
            (sent, total) => progress.push([sent, total]),
          );
          return {
            status: response.status,
            answer: response.headers.get('x-answer'),
            text: await response.text(),
            progress,
          };
        } catch {
          return { rejected: true as const, progress };
        }
      },
      {
        url: `${origin}${path}`,
        size: options.size ?? KiB,
        headers: options.headers ?? {},
        abortAfterMs: options.abortAfterMs,
      },
    ) as Promise<Outcome>;

  it('sends the headers given and the multipart body, and resolves with the status, headers and text', async () => {
    const outcome = await upload('/upload', { size: 10 * KiB, headers: { Authorization: 'Bearer at_xhr_test_0123' } });
    expect(outcome).toMatchObject({ status: 201, answer: 'from the server' });
    const request = seen.at(-1);
    expect(request?.headers.authorization).toBe('Bearer at_xhr_test_0123');
    // The browser writes the multipart Content-Type with its boundary itself.
    expect(request?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(JSON.parse((outcome as { text: string }).text)).toEqual({ bytes: request?.bytes });
    expect(request?.bytes).toBeGreaterThan(10 * KiB);
  });

  it('resolves with a refusal as it came (a 422 is an answer, not a network error)', async () => {
    expect(await upload('/refused')).toMatchObject({ status: 422, answer: 'from the server' });
  });

  it('reports the upload as it goes: rising byte counts of the whole body, the last one all of it', async () => {
    const size = 6 * KiB * KiB;
    const outcome = await upload('/slow', { size });
    expect(outcome).toMatchObject({ status: 201 });
    const { progress } = outcome;
    const body = seen.at(-1)?.bytes ?? 0;
    expect(body).toBeGreaterThan(size);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(new Set(progress.map(([sent]) => sent)).size).toBe(progress.length);
    expect(progress.every(([, total]) => total === body)).toBe(true);
    const sent = progress.map(([bytes]) => bytes);
    expect(sent).toEqual([...sent].sort((a, b) => a - b));
    expect(sent.at(-1)).toBe(body);
  });

  it('refuses an answer from another URL than the one asked (a redirect, even to the same origin)', async () => {
    const before = seen.length;
    expect(await upload('/redirect')).toEqual({ rejected: true, progress: expect.any(Array) });
    // The redirect was followed (XHR cannot be told not to): the refusal is the module's.
    expect(seen.slice(before).map((request) => request.url)).toEqual(['/redirect', '/upload']);
  });

  it('rejects when the signal aborts an upload that is never answered', async () => {
    const before = seen.length;
    expect(await upload('/hang', { abortAfterMs: 300 })).toMatchObject({ rejected: true });
    expect(seen.slice(before).map((request) => request.url)).toEqual(['/hang']);
  });

  it('rejects on a network error (nothing listening)', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const outcome = await page.evaluate(async (url) => {
      const { xhrUpload } = (window as unknown as { xhrUploadModule: typeof import('../../../bridge/xhr-upload.js') })
        .xhrUploadModule;
      try {
        await xhrUpload(window)(
          url,
          { method: 'POST', headers: {}, body: new FormData(), signal: new AbortController().signal },
          () => {},
        );
        return 'resolved';
      } catch {
        return 'rejected';
      }
    }, `http://127.0.0.1:${port}/upload`);
    expect(outcome).toBe('rejected');
  });
});
