/**
 * WebKitGTK for the bench: the tests' GJS host (test/webkit/host.js, the engine of WKWebView
 * embedded as an iOS app embeds it) under `xvfb-run -a`, driven over its pipe, one JSON object a
 * line. The bench runs in plain Node, so this is the few requests it needs from
 * test/helpers/webkit.ts, in JavaScript.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const HOST_SCRIPT = fileURLToPath(new URL('../test/webkit/host.js', import.meta.url));
const TYPELIB = '/usr/lib/x86_64-linux-gnu/girepository-1.0/WebKit2-4.1.typelib';

/** What is missing for WebKit, or undefined when it can run. */
export function webKitMissing() {
  for (const tool of ['gjs', 'xvfb-run', 'xauth'])
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `${tool} is not installed`;
  return existsSync(TYPELIB) ? undefined : `${TYPELIB} is missing`;
}

/**
 * @typedef {{ view: string, handler: string, body: unknown }} HandlerMessage
 * @typedef {{
 *   version: string,
 *   open(view: string, options: { url: string, handlers?: string[], userScripts?: string[], dataDir?: string }): Promise<unknown>,
 *   evaluate(view: string, body: string, timeoutMs?: number): Promise<any>,
 *   closeView(view: string): Promise<unknown>,
 *   onMessage(listener: (message: HandlerMessage) => void): () => void,
 *   close(): Promise<void>,
 * }} WebKitHost
 */

/** @returns {Promise<WebKitHost>} */
export async function startWebKitHost() {
  const child = spawn('xvfb-run', ['-a', 'gjs', HOST_SCRIPT], {
    stdio: ['pipe', 'ignore', 'pipe', 'pipe'],
    // Its own process group, so that a kill reaches gjs and Xvfb too.
    detached: true,
    env: {
      ...process.env,
      WEBKIT_DISABLE_COMPOSITING_MODE: '1',
      WEBKIT_DISABLE_SANDBOX_THIS_IS_DANGEROUS: '1',
      LIBGL_ALWAYS_SOFTWARE: '1',
      GTK_A11Y: 'none',
      NO_AT_BRIDGE: '1',
    },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  /** @type {Map<number, { resolve(value: unknown): void, reject(error: Error): void }>} */
  const pending = new Map();
  /** @type {Set<(message: HandlerMessage) => void>} */
  const listeners = new Set();
  /** @type {Error | undefined} */
  let exited;
  /** @type {(version: string) => void} */
  let started = () => undefined;
  const ready = new Promise((resolve, reject) => {
    started = resolve;
    child.once('exit', (code) => reject(new Error(`the WebKit host exited (${code}) before starting: ${stderr}`)));
  });
  child.once('exit', (code, signal) => {
    exited = new Error(`the WebKit host exited (${code ?? signal}): ${stderr}`);
    for (const request of pending.values()) request.reject(exited);
    pending.clear();
  });
  createInterface({ input: /** @type {import('node:stream').Readable} */ (child.stdio[3]) }).on('line', (line) => {
    let data;
    try {
      data = JSON.parse(line);
    } catch {
      return;
    }
    if (data.event === 'started') started(String(data.webkit));
    else if (data.event === 'message') for (const listener of listeners) listener(data);
    else if (typeof data.id === 'number') {
      const request = pending.get(data.id);
      pending.delete(data.id);
      if (data.ok === true) request?.resolve(data.value);
      else request?.reject(new Error(`WebKit: ${String(data.error)}`));
    }
  });
  let nextId = 0;
  const request = (/** @type {string} */ op, /** @type {object} */ params, timeoutMs = 60_000) => {
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
      child.stdin?.write(`${JSON.stringify({ id, op, ...params })}\n`);
    });
  };
  const kill = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {}
  };
  const timeout = setTimeout(() => kill(), 60_000);
  let version;
  try {
    version = /** @type {string} */ (await ready);
  } finally {
    clearTimeout(timeout);
  }
  return {
    version,
    open: (view, options) => request('open', { view, handlers: [], userScripts: [], ...options }),
    evaluate: (view, body, timeoutMs) => request('eval', { view, body }, timeoutMs),
    closeView: (view) => request('close', { view }),
    onMessage(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      if (exited) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.stdin?.end();
      const timer = setTimeout(kill, 5_000);
      await gone;
      clearTimeout(timer);
    },
  };
}
