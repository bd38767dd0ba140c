/**
 * Large attachments in headless Chromium against the reference backend: one and five 5 MiB photos
 * sent through `ChatBridge.receive` as one command and in `appendAttachment` chunks (README "Large
 * attachments in chunks"), each until its response arrives.
 *
 * The page plays a native host: the photos' base64 is in the page before timing starts (how it got
 * there, evaluateJavascript, is the same for both forms and not the bridge's work), and every
 * command goes to `ChatBridge.receive` as JSON text in a task of its own (as each
 * evaluateJavascript is), the next chunk once the previous one is answered.
 * - Longest main-thread task: PerformanceObserver `longtask` entries (tasks over 50 ms) that start
 *   during the send; 0 when there was none.
 * - Whole send: against a bare `fetch` of the same multipart body (the same fields and files, as
 *   Blobs built beforehand) to the same backend from the same page, interleaved; medians.
 * - Peak memory: every Chromium process's peak resident set (Linux /proc: VmHWM, reset through
 *   clear_refs before the send) less its resident set before, summed: an upper bound, since the
 *   processes need not peak at once.
 *
 * The page runs in a persistent profile on disk, as a WebView does, not in `browser.newContext()`:
 * that context is incognito, and its IndexedDB lives in the browser process's memory. There the
 * stored photos raised the browser process's peak by their whole size a second time (53.5 MiB
 * against 25.6 MiB on disk, five 5 MiB photos), which no WebView pays.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/shared-settings.mjs';
import { startReferenceBackend } from '../reference-backend/server.mjs';
import { startStaticServer } from '../demo-page/static-server.mjs';
import { ROOT } from './deps.mjs';
import { median } from './stats.mjs';

export const PHOTO_BYTES = 5 * 1024 * 1024;
const WEBSITE_TOKEN = 'wt_bench_attachments';
const SAMPLES = 3;

/** Runs in the page; plain JavaScript on purpose (it is sent as text). */
const PAGE_SCRIPT = String.raw`
window.__attachments = (function () {
  var settings = window.chatBridgeSettings;
  var CHUNK = 524288;
  var longTasks = [];
  var observed = (PerformanceObserver.supportedEntryTypes || []).indexOf('longtask') >= 0;
  if (observed)
    new PerformanceObserver(function (list) {
      list.getEntries().forEach(function (entry) { longTasks.push({ start: entry.startTime, duration: entry.duration }); });
    }).observe({ type: 'longtask', buffered: true });
  // Where there are no longtask entries (WebKit): a timer ticking through each send, whose gaps
  // over 50 ms are tasks that held the main thread (a gap also holds the timer's own few ms).
  var ticker;
  function tick(last) {
    ticker = setTimeout(function () {
      var now = performance.now();
      if (now - last > 50) longTasks.push({ start: last, duration: now - last });
      tick(now);
    }, 0);
  }
  var photos = [];
  var receiveMs = {};
  var chunksMs = [];
  var current = 'setup';
  var counter = 0;
  var authToken;
  // A task of its own for each command, without setTimeout's 4 ms clamp: a message posted to a
  // blank frame of the page's own (made in setup, once there is a body). Not a MessageChannel: in
  // WebKit its messages go through the network process, which the photos' Blobs keep busy, so the
  // stand-in host's hops, not the bridge, took much of each chunk's time.
  var frame;
  var queued = [];
  function inTask(work) { queued.push(work); frame.postMessage(0, '*'); }
  // The JSON text a native host hands over: base64 goes in as it is (it needs no escaping), as a
  // native JSON encoder writes it, rather than through this page's JSON.stringify.
  function commandText(value) {
    var long = [];
    var text = JSON.stringify(value, function (key, item) {
      return typeof item === 'string' && item.length > 1024 ? '\u0000' + (long.push(item) - 1) : item;
    });
    return text.split(/"\\u0000(\d+)"/).map(function (piece, i) { return i % 2 ? '"' + long[piece] + '"' : piece; }).join('');
  }
  function command(id, method, params) {
    return new Promise(function (resolve, reject) {
      var listener = function (event) {
        var message = event.detail;
        if (!message || message.type !== 'response' || message.id !== id) return;
        removeEventListener('chatbridge', listener);
        if (message.ok) resolve(message.result); else reject(new Error(method + ' answered ' + JSON.stringify(message.error)));
      };
      addEventListener('chatbridge', listener);
      inTask(function () {
        var text = commandText({ id: id, method: method, params: params });
        var started = performance.now();
        ChatBridge.receive(text);
        var took = performance.now() - started;
        var key = current + ' ' + method;
        receiveMs[key] = Math.max(receiveMs[key] || 0, took);
      });
    });
  }
  function photo(bytes) {
    var data = new Uint8Array(bytes);
    for (var i = 0; i < bytes; i += 65536) crypto.getRandomValues(data.subarray(i, Math.min(bytes, i + 65536)));
    var text = '';
    for (var j = 0; j < bytes; j += 49152) text += btoa(String.fromCharCode.apply(null, data.subarray(j, j + 49152)));
    return { data: text, blob: new Blob([data], { type: 'image/jpeg' }) };
  }
  function single(count) {
    var n = ++counter;
    return command('single-' + n, 'sendMessage', {
      content: 'photos ' + n,
      attachments: photos.slice(0, count).map(function (p, i) { return { name: 'photo' + i + '.jpg', type: 'image/jpeg', data: p.data }; }),
    });
  }
  function chunked(count) {
    var n = ++counter;
    var files = photos.slice(0, count);
    var upload = function (f, index) {
      var text = files[f].data;
      if (index * CHUNK >= text.length) return f + 1 < files.length ? upload(f + 1, 0) : Promise.resolve();
      return command('chunk-' + n + '-' + f + '-' + index, 'appendAttachment', {
        uploadId: 'up-' + n + '-' + f, index: index, data: text.slice(index * CHUNK, (index + 1) * CHUNK),
      }).then(function () { return upload(f, index + 1); });
    };
    var started = performance.now();
    return upload(0, 0).then(function () {
      chunksMs.push([files.length, performance.now() - started]);
      return command('chunked-' + n, 'sendMessage', {
        content: 'photos ' + n,
        attachments: files.map(function (p, i) { return { name: 'photo' + i + '.jpg', type: 'image/jpeg', uploadId: 'up-' + n + '-' + i }; }),
      });
    });
  }
  function bare(count) {
    var n = ++counter;
    var form = new FormData();
    form.append('message[content]', 'photos ' + n);
    form.append('message[echo_id]', 'bare-' + n + '-' + Math.random().toString(36).slice(2));
    photos.slice(0, count).forEach(function (p, i) { form.append('attachments[]', p.blob, 'photo' + i + '.jpg'); });
    return fetch(settings.baseUrl + '/messages', { method: 'POST', headers: { Authorization: 'Bearer ' + authToken }, body: form })
      .then(function (response) {
        return response.text().then(function () { if (!response.ok) throw new Error('bare fetch answered ' + response.status); });
      });
  }
  var forms = { single: single, chunked: chunked, bare: bare };
  return {
    setup: function (count, bytes) {
      frame = document.body.appendChild(document.createElement('iframe')).contentWindow;
      frame.addEventListener('message', function () { queued.shift()(); });
      for (var i = 0; i < count; i++) photos.push(photo(bytes));
      return fetch(settings.baseUrl + '/config?website_token=' + encodeURIComponent(settings.websiteToken))
        .then(function (response) { return response.json(); })
        .then(function (config) { authToken = config.authToken; })
        .then(function () { return command('conversation', 'getConversation', {}); });
    },
    receiveMs: function () { return receiveMs; },
    chunksMs: function () { return chunksMs; },
    longTasks: function () { return longTasks; },
    // One send: its time and the longest task that started during it (0: none over 50 ms).
    longTaskSource: function () { return observed ? 'PerformanceObserver longtask' : 'the gaps of a setTimeout ticker'; },
    send: function (form, count) {
      var started = performance.now();
      if (!observed) tick(started);
      current = form === 'single' ? 'one command:' : 'chunks:';
      return forms[form](count).then(function () {
        var ended = performance.now();
        // A long task is reported after it ends; give the observer a moment.
        return new Promise(function (resolve) { setTimeout(resolve, 50); }).then(function () {
          clearTimeout(ticker);
          var longest = longTasks.filter(function (t) { return t.start >= started - 1 && t.start <= ended; })
            .reduce(function (most, t) { return Math.max(most, t.duration); }, 0);
          return { ms: ended - started, longestTask: longest };
        });
      });
    },
  };
})();
`;

/** Chromium's processes: descendants of this Node process whose command line names chromium. */
function chromiumPids() {
  const parents = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const descends = (/** @type {number} */ pid) => {
    for (let at = pid, hops = 0; at > 1 && hops < 20; at = parents.get(at) ?? 0, hops++)
      if (at === process.pid) return true;
    return false;
  };
  return [...parents.keys()].filter(
    (pid) => pid !== process.pid && descends(pid) && /chrom/i.test(safeRead(`/proc/${pid}/cmdline`)),
  );
}

const safeRead = (/** @type {string} */ path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
};
/** A /proc/<pid>/status field in bytes. */
const statusBytes = (/** @type {number} */ pid, /** @type {string} */ field) =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(safeRead(`/proc/${pid}/status`))?.[1] ?? 0) * 1024;

/** A Chromium process's kind, from its command line: browser, renderer, gpu-process, utility, … */
const processKind = (/** @type {number} */ pid) =>
  /--type=([a-z-]+)/.exec(safeRead(`/proc/${pid}/cmdline`).replace(/\0/g, ' '))?.[1] ?? 'browser';

/**
 * Starts watching: resets each Chromium process's peak; `peak()` is then the summed rise of the
 * peaks, and the rise by kind of process (where the memory went).
 */
function watchMemory() {
  const before = new Map(chromiumPids().map((pid) => [pid, statusBytes(pid, 'VmRSS')]));
  for (const pid of before.keys()) writeFileSync(`/proc/${pid}/clear_refs`, '5');
  return {
    peak: () => {
      /** @type {Record<string, number>} */
      const byKind = {};
      let total = 0;
      for (const pid of chromiumPids()) {
        const rise = Math.max(0, statusBytes(pid, 'VmHWM') - (before.get(pid) ?? 0));
        const kind = processKind(pid);
        byKind[kind] = (byKind[kind] ?? 0) + rise;
        total += rise;
      }
      return { total, byKind };
    },
  };
}

/**
 * @param {import('playwright-core').Browser} browser
 * @returns {Promise<{
 *   longest: { single1: number, chunked1: number, single5: number, chunked5: number, bare5: number },
 *   chunkedMs: number, bareMs: number, singleMs: number, peakBytes: number | undefined, singlePeakBytes: number | undefined,
 *   attachmentBytes: number, samples: number }>}
 *   longest: the longest task of each form over its samples (ms)
 */
export async function measureAttachments() {
  const { tab, context, close } = await openAttachmentsPage();
  try {
    const errors = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    const cdp = await context.newCDPSession(tab);
    const collect = async () => void (await cdp.send('HeapProfiler.collectGarbage'));
    /** @type {Send} */
    const send = (form, count) =>
      tab.evaluate(
        ([f, c]) => /** @type {any} */ (window).__attachments.send(f, c),
        /** @type {const} */ ([form, count]),
      );
    const sampled = await sampleAttachments(send, collect);
    const peakOf = async (/** @type {string} */ form) => {
      await collect();
      await new Promise((resolve) => setTimeout(resolve, 500));
      try {
        const memory = watchMemory();
        await send(form, 5);
        return memory.peak();
      } catch {
        return undefined; // no /proc (not Linux), or clear_refs refused
      }
    };
    const chunkedPeak = await peakOf('chunked');
    const singlePeak = await peakOf('single');
    const pageFigures = await tab.evaluate(() => {
      const page = /** @type {any} */ (window).__attachments;
      return { receiveMs: page.receiveMs(), chunksMs: page.chunksMs(), longTaskSource: page.longTaskSource() };
    });
    if (errors.length > 0) throw new Error(`attachments page errors: ${errors.join('; ')}`);
    return {
      ...sampled,
      ...pageFigures,
      peakBytes: chunkedPeak?.total,
      peakByKind: chunkedPeak?.byKind,
      singlePeakBytes: singlePeak?.total,
      // Five photos' chunks handed over, each answered: the part of the whole send before sendMessage.
      chunksMs: fiveChunksMs(pageFigures.chunksMs),
    };
  } finally {
    await close();
  }
}

/**
 * @typedef {(form: string, count: number) => Promise<{ ms: number, longestTask: number }>} Send
 *   one send of `count` photos in the page, in the engine at hand
 */

/** The median time the five photos' chunks took. @param {Array<[number, number]>} chunksMs */
export const fiveChunksMs = (chunksMs) => median(chunksMs.filter(([count]) => count === 5).map(([, took]) => took));

/**
 * The forms sent in turns after a warm-up, the same in every engine.
 * @param {Send} send
 * @param {() => Promise<void>} collect a garbage collection before each send, where the engine allows one
 */
export async function sampleAttachments(send, collect = async () => undefined) {
  // Warm-up: one of each, so no form pays for first-time compilation.
  for (const form of ['bare', 'chunked', 'single']) await send(form, 1);

  /** @type {Record<string, Array<{ ms: number, longestTask: number }>>} */
  const runs = { single1: [], chunked1: [], single5: [], chunked5: [], bare5: [] };
  for (let i = 0; i < SAMPLES; i++) {
    const order = i % 2 === 0 ? ['chunked', 'bare', 'single'] : ['single', 'bare', 'chunked'];
    for (const form of order) {
      await collect();
      runs[`${form}5`]?.push(await send(form, 5));
    }
    for (const form of ['chunked', 'single']) {
      await collect();
      runs[`${form}1`]?.push(await send(form, 1));
    }
  }
  const longest = (/** @type {string} */ key) => Math.max(...(runs[key] ?? []).map((r) => r.longestTask));
  const ms = (/** @type {string} */ key) => median((runs[key] ?? []).map((r) => r.ms));
  return {
    longest: {
      single1: longest('single1'),
      chunked1: longest('chunked1'),
      single5: longest('single5'),
      chunked5: longest('chunked5'),
      // The bare fetch of the same body, which runs no bridge code: what the engine and the
      // machine's load make of such a send on their own.
      bare5: longest('bare5'),
    },
    chunkedMs: ms('chunked5'),
    bareMs: ms('bare5'),
    singleMs: ms('single5'),
    attachmentBytes: 5 * PHOTO_BYTES,
    samples: SAMPLES,
  };
}

/**
 * The bench page with the bridge, against a fresh reference backend, with five photos ready
 * (`window.__attachments`), in a Chromium of its own with a profile on disk (see the top of the
 * file); also for profiling one form by hand.
 */
export async function openAttachmentsPage() {
  const servers = await startAttachmentsServers({ host: 'browser' });
  const profile = mkdtempSync(join(tmpdir(), 'chat-bridge-bench-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  const tab = await context.newPage();
  await tab.goto(servers.url, { waitUntil: 'load' });
  await tab.evaluate(
    ([count, bytes]) => /** @type {any} */ (window).__attachments.setup(count, bytes),
    [5, PHOTO_BYTES],
  );
  return {
    tab,
    context,
    close: async () => {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
      await servers.close();
    },
  };
}

/**
 * The reference backend and the page (the bridge, then `window.__attachments`), for either engine.
 * @param {Record<string, unknown>} settings over baseUrl and websiteToken: the host, for one
 * @param {string} prelude before the bundle: WebKit's relay of the iOS handler's messages
 */
export async function startAttachmentsServers(settings, prelude = '') {
  const backend = await startReferenceBackend({
    websiteTokens: [WEBSITE_TOKEN],
    rateLimit: { limit: 1_000_000, windowMs: 1_000 },
  });
  const page = `<!doctype html><html><head><meta charset="utf-8"><title>attachments</title>
<script>window.chatBridgeSettings = ${JSON.stringify({ baseUrl: backend.url, websiteToken: WEBSITE_TOKEN, ...settings })};${prelude}</script>
<script src="/dist/chat-bridge.js"></script>
<script>${PAGE_SCRIPT}</script></head><body></body></html>`;
  const server = await startStaticServer({
    mounts: { '/dist/': join(ROOT, 'dist') },
    pages: { '/attachments.html': page, '/favicon.ico': '' },
  });
  return {
    url: `${server.url}/attachments.html`,
    close: async () => {
      await server.close();
      await backend.close();
    },
  };
}
