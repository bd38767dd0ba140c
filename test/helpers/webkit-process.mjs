// @ts-check
/**
 * The GJS host (test/webkit/host.js: WebKitGTK, the engine of WKWebView, embedded as an app
 * embeds it) as a child process under `xvfb-run -a`, driven over a pipe with one JSON object a
 * line. Written once for the tests (test/helpers/webkit.ts) and the bench
 * (bench/webkit-host.mjs), which runs in plain Node: hence JavaScript.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const HOST_SCRIPT = fileURLToPath(new URL('../webkit/host.js', import.meta.url));
const TYPELIB = '/usr/lib/x86_64-linux-gnu/girepository-1.0/WebKit2-4.1.typelib';

/** What is missing for WebKit, or undefined when it can run. @returns {string | undefined} */
export function webKitMissing() {
  for (const tool of ['gjs', 'xvfb-run', 'xauth'])
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `${tool} is not installed`;
  return existsSync(TYPELIB) ? undefined : `${TYPELIB} is missing`;
}

/**
 * @typedef {{ view: string, handler: string, body: unknown, undefinedAt: string[] }} HostMessage
 * A message one of the page's script message handlers received, as the native side got it: `body`
 * in dictionaries, arrays, strings, numbers, booleans and null, as WKScriptMessage.body;
 * `undefinedAt`, where WebKit delivered `undefined` (left out of `body`): "status",
 * "result.list[1]", ...
 *
 * @typedef {{
 *   version: string,
 *   request(op: string, params: Record<string, unknown>, timeoutMs?: number): Promise<unknown>,
 *   onMessage(listener: (message: HostMessage) => void): () => void,
 *   close(): Promise<void>,
 * }} WebKitProcess
 */

/**
 * Starts the GJS host and waits for it to report WebKit's version.
 * @param {{ startTimeoutMs: number, requestTimeoutMs: number }} timeouts how long the start, and
 *   by default each request, may take before failing (the bench's pages work longer than the tests').
 * @returns {Promise<WebKitProcess>}
 */
export async function launchWebKit({ startTimeoutMs, requestTimeoutMs }) {
  const child = spawn('xvfb-run', ['-a', 'gjs', HOST_SCRIPT], {
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
  const input = /** @type {import('node:stream').Writable} */ (child.stdin);
  let stderr = '';
  child.stderr?.on('data', (/** @type {Buffer} */ chunk) => (stderr = (stderr + chunk.toString()).slice(-4000)));

  /** @type {Map<number, { resolve(value: unknown): void, reject(error: Error): void }>} */
  const pending = new Map();
  /** @type {Set<(message: HostMessage) => void>} */
  const listeners = new Set();
  let nextId = 0;
  /** @type {(version: string) => void} */
  let started = () => undefined;
  /** @type {Error | undefined} */
  let exited;
  /** @type {Promise<string>} */
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
    /** @type {Record<string, unknown>} */
    let data;
    try {
      data = JSON.parse(line);
    } catch {
      return;
    }
    if (data['event'] === 'started') started(String(data['webkit']));
    else if (data['event'] === 'message')
      for (const listener of listeners) listener(/** @type {HostMessage} */ (/** @type {unknown} */ (data)));
    else if (typeof data['id'] === 'number') {
      const request = pending.get(data['id']);
      pending.delete(data['id']);
      if (data['ok'] === true) request?.resolve(data['value']);
      else request?.reject(new Error(`WebKit: ${String(data['error'])}`));
    }
  });

  /** @type {WebKitProcess['request']} */
  const request = (op, params, timeoutMs = requestTimeoutMs) => {
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
  };

  const kill = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {}
  };

  let version;
  try {
    version = await withTimeout(
      ready,
      startTimeoutMs,
      () => `the WebKit host did not start within ${startTimeoutMs} ms: ${stderr}`,
    );
  } catch (error) {
    kill();
    throw error;
  }

  return {
    version,
    request,
    onMessage(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async close() {
      if (exited) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      input.end();
      await withTimeout(gone, 5_000, () => 'the WebKit host did not exit').catch(kill);
    },
  };
}

/**
 * @typedef {{
 *   url: string,
 *   handlers?: string[],
 *   userScripts?: Array<string | { source: string, at: 'end' }>,
 *   shareWith?: string,
 *   dataDir?: string,
 *   bodies?: 'json' | 'type',
 * }} OpenViewOptions
 * - `handlers`: script message handler names (WKUserContentController.add(_:name:)).
 * - `userScripts`: injected into the main frame, in order: a string at document start
 *   (WKUserScript(.atDocumentStart)), `{source, at: 'end'}` once the document has loaded.
 * - `shareWith`: an open view whose data store (storage, caches) this one shares, as two WebViews
 *   of one app. `dataDir`: storage on disk instead of an ephemeral store (the bench).
 * - `bodies: 'json'`: each body converted by JSC's JSON in one native call (no `undefinedAt`), as
 *   the bench's host does; `'type'`: each message's `type` read (JSON text parsed first) and
 *   nothing reported (a diagnostic of the bench, bench/round-trip-check.mjs).
 *
 * @typedef {{
 *   version: string,
 *   open(view: string, options: OpenViewOptions): Promise<void>,
 *   evaluate(view: string, body: string, timeoutMs?: number): Promise<unknown>,
 *   reload(view: string): Promise<void>,
 *   closeView(view: string): Promise<void>,
 *   clearData(view: string): Promise<void>,
 *   onMessage(listener: (message: HostMessage) => void): () => void,
 *   close(): Promise<void>,
 * }} WebKitViews
 * The host's requests as methods: views opened, evaluated in (an async function body, as
 * callAsyncJavaScript runs it), reloaded (waiting for the load), closed, and cleared of every kind
 * of website data (as an app's logout does); `version` is WebKitGTK's, e.g. "2.50.6".
 */

/**
 * Starts the GJS host (launchWebKit) and gives its requests as methods, one set for the tests
 * (test/helpers/webkit.ts) and the bench (bench/webkit-host.mjs), each with its
 * own timeouts.
 * @param {{ startTimeoutMs: number, requestTimeoutMs: number }} timeouts
 * @returns {Promise<WebKitViews>}
 */
export async function startWebKitViews(timeouts) {
  const { version, request, onMessage, close } = await launchWebKit(timeouts);
  return {
    version,
    open: async (view, options) => void (await request('open', { view, handlers: [], userScripts: [], ...options })),
    evaluate: (view, body, timeoutMs) => request('eval', { view, body }, timeoutMs),
    reload: async (view) => void (await request('reload', { view })),
    closeView: async (view) => void (await request('close', { view })),
    clearData: async (view) => void (await request('clearData', { view })),
    onMessage,
    close,
  };
}

/**
 * @template T
 * @param {Promise<T>} promise
 * @param {number} ms
 * @param {() => string} message
 * @returns {Promise<T>}
 */
function withTimeout(promise, ms, message) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  /** @type {Promise<never>} */
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(message())), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
