/**
 * The servers both engines' harnesses (browser-harness.ts for Chromium, webkit-harness.ts for
 * WebKit) put their pages on: the reference backend on one 127.0.0.1 port, and the test pages on
 * two others, one plain and one sending a strict Content-Security-Policy whose `connect-src` is
 * the backend alone. Page and API are on different origins, so every API call is a real
 * cross-origin request, preflights included. What differs by engine (the pages, how the bridge
 * gets in) stays in each harness.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { startReferenceBackend } from '../../reference-backend/server.mjs';
import { startStaticServer } from '../../demo-page/static-server.mjs';

export type ReferenceBackend = Awaited<ReturnType<typeof startReferenceBackend>>;

/** A message as the backend stored it. */
export interface StoredMessage {
  content: string;
  echo_id: string | null;
  attachments: Array<{ name: string; type: string; size: number; sha256: string }>;
}

/**
 * The contact's messages as the backend stored them, read through its own API: none before a
 * conversation exists, and a throw for any other answer than 200 or 404.
 */
export async function storedMessages(backend: { url: string }, websiteToken: string): Promise<StoredMessage[]> {
  const config = (await (await fetch(`${backend.url}/config?website_token=${websiteToken}`)).json()) as {
    authToken: string;
  };
  const response = await fetch(`${backend.url}/conversations`, {
    headers: { authorization: `Bearer ${config.authToken}` },
  });
  if (response.status === 404) return [];
  if (response.status !== 200) throw new Error(`GET /conversations answered ${response.status}`);
  return ((await response.json()) as { messages: StoredMessage[] }).messages;
}

/** Tries the one thing a strict CSP forbids the bundle: evaluating code from a string. */
export const EVAL_PROBE_JS = `try { new Function('return 1')(); window.__evalRan = true; } catch (error) { window.__evalRan = false; }\n`;

export interface PageServersOptions {
  /** Inboxes the backend knows. */
  websiteTokens: string[];
  /** Page path → HTML, on both page servers. */
  pages: Record<string, string>;
  /** More files served under /harness/ (eval-probe.js is always there). */
  harnessFiles?: Record<string, string>;
  /** More URL prefixes → folders, e.g. '/dist/'. */
  mounts?: Record<string, string>;
}

export interface PageServers {
  readonly backend: ReferenceBackend;
  /** Origin of the plain page server. */
  readonly pageOrigin: string;
  /** Origin of the page server that sends the strict CSP. */
  readonly strictOrigin: string;
  /** The strict policy, as sent. */
  readonly csp: string;
  close(): Promise<void>;
}

export async function startPageServers(options: PageServersOptions): Promise<PageServers> {
  const folder = await mkdtemp(join(tmpdir(), 'chat-bridge-pages-'));
  const files = { 'eval-probe.js': EVAL_PROBE_JS, ...options.harnessFiles };
  for (const [name, text] of Object.entries(files)) await writeFile(join(folder, name), text);
  // Served, so the engine's own favicon request does not log a 404 among the page's console errors.
  await writeFile(join(folder, 'favicon.ico'), '');

  const backend = await startReferenceBackend({ websiteTokens: options.websiteTokens });
  const csp = `default-src 'self'; script-src 'self'; connect-src ${backend.url}`;
  const mounts = { ...options.mounts, '/harness/': folder, '/favicon.ico': join(folder, 'favicon.ico') };
  const plain = await startStaticServer({ mounts, pages: options.pages });
  const strict = await startStaticServer({
    mounts,
    pages: options.pages,
    headers: { 'Content-Security-Policy': csp },
  });
  return {
    backend,
    pageOrigin: plain.url,
    strictOrigin: strict.url,
    csp,
    async close() {
      await Promise.all([backend.close(), plain.close(), strict.close()]);
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/**
 * What the backend saw of a page's first round trip (init, a conversation created after a 404,
 * a message with an attachment), the same in every engine: each request carrying Authorization
 * preflighted before it, `GET /config` not (a simple request), every request with the page's
 * Origin, the multipart POST's preflight asking for `authorization` alone, and no token in the log.
 */
export function expectPreflightedRoundTrip(backend: ReferenceBackend, pageOrigin: string): void {
  const lines = backend.requests.map((entry) => `${entry.method} ${entry.path} ${entry.status}`);
  expect(lines).toContain('GET /conversations 404');
  expect(lines.indexOf('POST /conversations 200')).toBeGreaterThan(lines.indexOf('GET /conversations 404'));
  for (const path of ['/conversations', '/messages']) {
    const preflight = lines.indexOf(`OPTIONS ${path} 204`);
    const first = lines.findIndex((line) => line.startsWith('GET ' + path) || line.startsWith('POST ' + path));
    expect(preflight, `preflight for ${path} in ${lines.join(', ')}`).toBeGreaterThanOrEqual(0);
    expect(preflight).toBeLessThan(first);
  }
  expect(lines).not.toContain('OPTIONS /config 204');
  const requests = backend.requests.filter((entry) => entry.method !== 'OPTIONS');
  expect(requests.every((entry) => entry.headers['origin'] === pageOrigin)).toBe(true);
  const preflight = backend.requests.find((entry) => entry.method === 'OPTIONS' && entry.path === '/messages');
  expect(preflight?.headers['access-control-request-method']).toBe('POST');
  expect(preflight?.headers['access-control-request-headers']).toBe('authorization');
  const post = backend.requests.find((entry) => entry.method === 'POST' && entry.path === '/messages');
  expect(post?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
  expect(post?.headers['authorization']).toBe('<redacted>');
}
