/**
 * Real WebKit for the tests: Debian's WebKitGTK (the engine of WKWebView), embedded by the GJS
 * program test/webkit/host.js under `xvfb-run -a`, driven over a pipe with one JSON object a line.
 *
 * When WebKit is missing, `requireWebKit()` says so loudly; under CI=true it fails the run
 * instead, since a CI that skips its engine tests proves nothing.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const HOST_SCRIPT = fileURLToPath(new URL('../webkit/host.js', import.meta.url));
const TYPELIB = '/usr/lib/x86_64-linux-gnu/girepository-1.0/WebKit2-4.1.typelib';
const APT = 'apt-get install -y gjs gir1.2-webkit2-4.1 xvfb xauth';

/** What is missing for the WebKit tests, or undefined when they can run. */
export function webKitMissing(): string | undefined {
  for (const tool of ['gjs', 'xvfb-run', 'xauth']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `${tool} is not installed`;
  }
  if (!existsSync(TYPELIB)) return `${TYPELIB} is missing`;
  return undefined;
}

/** True when the WebKit tests can run; without WebKit, throws under CI=true and warns otherwise. */
export function requireWebKit(): boolean {
  const missing = webKitMissing();
  if (missing === undefined) return true;
  const message = `WebKit tests cannot run: ${missing}. Install WebKitGTK with "${APT}".`;
  if (process.env['CI'] === 'true') throw new Error(message);
  console.warn(`\n!!! ${message} They are SKIPPED on this machine. !!!\n`);
  return false;
}

/** A message one of the page's script message handlers received, as the native side got it. */
export interface HandlerMessage {
  view: string;
  handler: string;
  /** Dictionaries, arrays, strings, numbers, booleans and null, as WKScriptMessage.body. */
  body: unknown;
  /** Where WebKit delivered `undefined` (left out of `body`): "status", "result.list[1]", ... */
  undefinedAt: string[];
}

export interface OpenViewOptions {
  url: string;
  /** Script message handler names (WKUserContentController.add(_:name:)). */
  handlers: string[];
  /**
   * Injected into the main frame, in order: a string at document start (WKUserScript(.atDocumentStart)),
   * `{source, at: 'end'}` once the document has loaded (.atDocumentEnd).
   */
  userScripts: Array<string | { source: string; at: 'end' }>;
  /** An open view whose data store (storage, caches) this one shares, as two WebViews of one app. */
  shareWith?: string;
}

export interface WebKitHost {
  /** WebKitGTK's version, e.g. "2.50.6". */
  readonly version: string;
  open(view: string, options: OpenViewOptions): Promise<void>;
  /** Runs an async function body in the page (callAsyncJavaScript); resolves with its JSON-able result. */
  evaluate(view: string, body: string): Promise<unknown>;
  /** Reloads and waits for the load to finish. */
  reload(view: string): Promise<void>;
  closeView(view: string): Promise<void>;
  /** Clears every kind of website data of the view's data store, as an app's logout does. */
  clearData(view: string): Promise<void>;
  /** Every handler message from now on; returns the unsubscribe. */
  onMessage(listener: (message: HandlerMessage) => void): () => void;
  close(): Promise<void>;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** Starts the GJS host and waits for it to report WebKit's version. */
export async function startWebKitHost(): Promise<WebKitHost> {
  const child: ChildProcess = spawn('xvfb-run', ['-a', 'gjs', HOST_SCRIPT], {
    stdio: ['pipe', 'ignore', 'pipe', 'pipe'],
    // Its own process group, so a kill reaches gjs and Xvfb too, not only xvfb-run.
    detached: true,
    // Software rendering, no compositor, no sandbox: headless on a CI machine as root.
    env: {
      ...process.env,
      WEBKIT_DISABLE_COMPOSITING_MODE: '1',
      WEBKIT_DISABLE_SANDBOX_THIS_IS_DANGEROUS: '1',
      LIBGL_ALWAYS_SOFTWARE: '1',
      GTK_A11Y: 'none',
      NO_AT_BRIDGE: '1',
    },
  });
  const input = child.stdin as Writable;
  const output = child.stdio[3] as Readable;
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });

  const pending = new Map<number, Pending>();
  const listeners = new Set<(message: HandlerMessage) => void>();
  let nextId = 0;
  let started: (version: string) => void = () => undefined;
  let exited: Error | undefined;
  const ready = new Promise<string>((resolve, reject) => {
    started = resolve;
    child.once('exit', (code) => reject(new Error(`the WebKit host exited (${code}) before starting: ${stderr}`)));
  });
  child.once('exit', (code, signal) => {
    exited = new Error(`the WebKit host exited (${code ?? signal}): ${stderr}`);
    for (const request of pending.values()) request.reject(exited);
    pending.clear();
  });

  createInterface({ input: output }).on('line', (line) => {
    let data: Record<string, unknown>;
    try {
      data = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    if (data['event'] === 'started') started(String(data['webkit']));
    else if (data['event'] === 'message') for (const listener of listeners) listener(data as unknown as HandlerMessage);
    else if (typeof data['id'] === 'number') {
      const request = pending.get(data['id']);
      pending.delete(data['id']);
      if (data['ok'] === true) request?.resolve(data['value']);
      else request?.reject(new Error(`WebKit: ${String(data['error'])}`));
    }
  });

  function request(op: string, params: Record<string, unknown>, timeoutMs = 20_000): Promise<unknown> {
    if (exited) return Promise.reject(exited);
    const id = ++nextId;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`WebKit ${op} got no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      pending.set(id, {
        resolve: (value) => (clearTimeout(timer), resolve(value)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      input.write(`${JSON.stringify({ id, op, ...params })}\n`);
    });
  }

  let version: string;
  try {
    version = await withTimeout(ready, 30_000, () => `the WebKit host did not start within 30 s: ${stderr}`);
  } catch (error) {
    killGroup(child);
    throw error;
  }

  return {
    version,
    open: async (view, options) => void (await request('open', { view, ...options })),
    evaluate: (view, body) => request('eval', { view, body }),
    reload: async (view) => void (await request('reload', { view })),
    closeView: async (view) => void (await request('close', { view })),
    clearData: async (view) => void (await request('clearData', { view })),
    onMessage(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      if (exited) return;
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      input.end();
      await withTimeout(gone, 5_000, () => 'the WebKit host did not exit').catch(() => killGroup(child));
    },
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: () => string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message())), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function killGroup(child: ChildProcess): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  } catch {}
}
