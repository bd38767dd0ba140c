// @ts-check
/**
 * What IndexedDB's `durability: 'strict'` costs a message (issue 20, "durability as promised"):
 * in Chromium with a profile on disk (a persistent context: incognito contexts keep IndexedDB in
 * memory, where strict costs nothing), the built bundle against the reference backend on another
 * origin, each round
 * - the round trip of `sendMessage` (command in, `response` out: the request and the record's
 *   write go at once, the record's removal after), with dist/chat-bridge.js as built (strict) and
 *   with the same bundle where `durability:"strict"` reads `"relaxed"`;
 * - one bare IndexedDB put of a message-sized record, strict and relaxed (the write alone).
 * Medians of 60 sends each, rounds alternating. Not part of `npm run bench` (a decision's figures,
 * not a goal): `node scripts/build.mjs && node bench/durability.mjs [rounds]`.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startReferenceBackend } from '../reference-backend/server.mjs';
import { startStaticServer } from '../demo-page/static-server.mjs';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/shared-settings.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const ROUNDS = Number(process.argv[2] ?? 3);
const SENDS = 60;
const TOKEN = 'wt_durability_bench_token';

const strict = await readFile(join(ROOT, 'dist', 'chat-bridge.js'), 'utf8');
if (!strict.includes('durability:"strict"'))
  throw new Error('dist/chat-bridge.js does not write strict: build it first');
const relaxed = strict.replace('durability:"strict"', 'durability:"relaxed"');

const backend = await startReferenceBackend({ websiteTokens: [TOKEN] });
const page = (/** @type {string} */ bundle) =>
  `<!doctype html><meta charset="utf-8"><script>window.chatBridgeSettings=${JSON.stringify({
    baseUrl: backend.url,
    websiteToken: TOKEN,
    host: 'browser',
  })};window.__events=[];addEventListener('chatbridge',(e)=>__events.push(e.detail));</script><script>${bundle}</script>`;
const server = await startStaticServer({
  mounts: {},
  pages: { '/strict.html': page(strict), '/relaxed.html': page(relaxed), '/bare.html': '<!doctype html><p>bare' },
});
const profile = await mkdtemp(join(tmpdir(), 'chat-bridge-durability-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM_PATH,
  headless: true,
  args: CHROMIUM_ARGS,
});

const median = (/** @type {number[]} */ values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/** Median ms from `ChatBridge.receive(sendMessage)` to its `response`, over SENDS messages. */
/** @param {'strict' | 'relaxed'} kind */
async function roundTrip(kind) {
  const tab = await context.newPage();
  await tab.goto(`${server.url}/${kind}.html`);
  await tab.waitForFunction(() =>
    /** @type {any} */ (window).__events.some((/** @type {any} */ event) => event.type === 'ready'),
  );
  const times = await tab.evaluate(async (sends) => {
    const answer = (/** @type {string} */ id) =>
      new Promise((resolve) => {
        const look = (/** @type {any} */ event) => {
          if (event.detail.type === 'response' && event.detail.id === id) {
            removeEventListener('chatbridge', look);
            resolve(undefined);
          }
        };
        addEventListener('chatbridge', look);
      });
    const result = [];
    for (let i = -5; i < sends; i++) {
      const id = `d${i}`;
      const started = performance.now();
      const done = answer(id);
      /** @type {any} */ (window).ChatBridge.receive({
        id,
        method: 'sendMessage',
        params: { content: `message ${i} `.repeat(8) },
      });
      await done;
      // Warm-up sends (the conversation's creation, the first connection) are not counted.
      if (i >= 0) result.push(performance.now() - started);
    }
    return result;
  }, SENDS);
  await tab.close();
  return /** @type {number} */ (median(times));
}

/** Median ms of one IndexedDB put (its transaction's `complete`) of a message-sized record. */
/** @param {'strict' | 'relaxed'} durability */
async function barePut(durability) {
  const tab = await context.newPage();
  await tab.goto(`${server.url}/bare.html`);
  const result = await tab.evaluate(async (/** @type {[number, 'strict' | 'relaxed']} */ [sends, mode]) => {
    const database = await new Promise((resolve) => {
      const request = indexedDB.open(`bare-${mode}`, 1);
      request.onupgradeneeded = () => request.result.createObjectStore('s');
      request.onsuccess = () => resolve(request.result);
    });
    const times = [];
    for (let i = 0; i < sends; i++) {
      const started = performance.now();
      await new Promise((resolve, reject) => {
        const transaction = database.transaction('s', 'readwrite', { durability: mode });
        transaction.objectStore('s').put({ v: 1, messageId: `m${i}`, content: 'x'.repeat(120) }, `k${i}`);
        transaction.oncomplete = resolve;
        transaction.onerror = reject;
      });
      times.push(performance.now() - started);
    }
    database.close();
    return times;
  }, /** @type {[number, 'strict' | 'relaxed']} */ ([SENDS, durability]));
  await tab.close();
  return /** @type {number} */ (median(result));
}

/** @type {Record<string, number[]>} */
const rows = { 'round trip, strict': [], 'round trip, relaxed': [], 'put, strict': [], 'put, relaxed': [] };
try {
  for (let round = 0; round < ROUNDS; round++) {
    rows['round trip, strict']?.push(await roundTrip('strict'));
    rows['round trip, relaxed']?.push(await roundTrip('relaxed'));
    rows['put, strict']?.push(await barePut('strict'));
    rows['put, relaxed']?.push(await barePut('relaxed'));
    backend.reset();
  }
  console.log(
    `Chromium ${context.browser()?.version() ?? ''}, profile on disk (${profile}); median ms of ${SENDS}, per round:`,
  );
  for (const [name, values] of Object.entries(rows))
    console.log(`${name.padEnd(22)} ${values.map((value) => value.toFixed(2).padStart(7)).join(' ')}`);
} finally {
  await context.close();
  await server.close();
  await backend.close();
  await rm(profile, { recursive: true, force: true });
}
