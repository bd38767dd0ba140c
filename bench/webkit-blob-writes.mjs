/**
 * A diagnostic, not a figure of `run.mjs`: in WebKitGTK, with storage on disk, the longest gap of
 * a `setTimeout` ticker while five 5 MiB photos (each a Blob of 1 MiB Blobs, as appendAttachment
 * makes them, made just before) are written to IndexedDB and/or uploaded with FormData and XHR:
 *
 *   node bench/webkit-blob-writes.mjs [rounds]
 *
 * Ways: `put` one record holding the five Blobs; `slices` the same bytes as 1 MiB `blob.slice`s,
 * a put each in a transaction and a task of its own; `xhr` the upload alone; `xhr, then put` and
 * `xhr, then slices` the writes made while the upload runs (as the outbox does: its request starts
 * first); `put, then xhr` the record's put made before the upload starts. It shows which of the
 * attachments row's WebKit stalls are the writes' own and which come from their meeting the upload.
 */
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ISOLATED } from './round-trip.mjs';
import { GAP_TICKER, startWebKitHost } from './webkit-host.mjs';

const ROUNDS = Number(process.argv[2] || 4);

/** Runs in the page (sent as text): the photos, the store, the ticker and the ways. */
const SETUP = `${GAP_TICKER}
var MIB = 1048576;
window.photos = function () {
  return [0, 1, 2, 3, 4].map(function () {
    var parts = [];
    for (var at = 0; at < 5 * MIB; at += MIB) {
      var bytes = new Uint8Array(MIB);
      for (var i = 0; i < MIB; i += 65536) crypto.getRandomValues(bytes.subarray(i, i + 65536));
      parts.push(new Blob([bytes.slice(0, MIB / 2), bytes.slice(MIB / 2)]));
    }
    return new Blob([new Blob(parts)], { type: 'image/jpeg' });
  });
};
var db = await new Promise(function (resolve, reject) {
  var request = indexedDB.open('blob-writes', 1);
  request.onupgradeneeded = function () { request.result.createObjectStore('s'); };
  request.onsuccess = function () { resolve(request.result); };
  request.onerror = reject;
});
function write(each) {
  return new Promise(function (resolve, reject) {
    var transaction = db.transaction('s', 'readwrite', { durability: 'strict' });
    each(transaction.objectStore('s'));
    transaction.oncomplete = resolve;
    transaction.onabort = function () { reject(transaction.error); };
  });
}
function put(photos) {
  return write(function (store) {
    store.put({ files: photos.map(function (blob) { return { name: 'photo.jpg', data: blob }; }) }, 'record-' + Math.random());
  });
}
async function slices(photos) {
  var key = 'record-' + Math.random();
  for (var f = 0; f < photos.length; f++)
    for (var n = 0; n * MIB < photos[f].size; n++) {
      var slice = photos[f].slice(n * MIB, (n + 1) * MIB);
      await write(function (store) { store.put(slice, [key, f, n]); });
      await new Promise(function (resolve) { setTimeout(resolve, 0); });
    }
}
function xhr(photos) {
  return new Promise(function (resolve, reject) {
    var form = new FormData();
    form.append('content', 'photos');
    photos.forEach(function (blob, i) { form.append('attachments[]', new Blob([blob], { type: blob.type }), 'photo' + i + '.jpg'); });
    var request = new XMLHttpRequest();
    request.open('POST', '/upload');
    request.upload.onprogress = function () {};
    request.onload = resolve;
    request.onerror = reject;
    request.send(form);
  });
}
window.ways = {
  put: put,
  slices: slices,
  xhr: xhr,
  'xhr, then put': function (p) { return Promise.all([xhr(p), put(p)]); },
  'xhr, then slices': function (p) { return Promise.all([xhr(p), slices(p)]); },
  'put, then xhr': function (p) { return Promise.all([put(p), xhr(p)]); },
};
// The longest gap from the start of the way until half a second after it is done.
window.longestGap = async function (way) {
  var photos = window.photos();
  var ticker = gapTicker();
  await window.ways[way](photos);
  return Math.round(await ticker.stop(500));
};
return Object.keys(window.ways);`;

const server = createServer((request, response) => {
  if (request.method === 'POST') {
    request.resume().on('end', () => response.writeHead(200, ISOLATED).end('ok'));
    return;
  }
  response
    .writeHead(200, { ...ISOLATED, 'Content-Type': 'text/html' })
    .end('<!doctype html><title>blob writes</title>');
});
await new Promise((listening) => server.listen(0, '127.0.0.1', () => listening(undefined)));
const address = /** @type {import('node:net').AddressInfo} */ (server.address());
const dataDir = mkdtempSync(join(tmpdir(), 'chat-bridge-blob-writes-'));
const host = await startWebKitHost();
try {
  await host.open('writes', { url: `http://127.0.0.1:${address.port}/`, dataDir });
  const ways = /** @type {string[]} */ (await host.evaluate('writes', SETUP));
  /** @type {Record<string, number[]>} */
  const gaps = Object.fromEntries(ways.map((way) => [way, []]));
  for (let round = 0; round < ROUNDS; round++)
    for (const way of ways)
      gaps[way]?.push(
        /** @type {number} */ (
          await host.evaluate('writes', `return await window.longestGap(${JSON.stringify(way)});`)
        ),
      );
  console.log(`WebKitGTK ${host.version}, storage on disk: longest main-thread gap (ms) in each of ${ROUNDS} rounds`);
  for (const way of ways) console.log(`  ${way.padEnd(18)} ${gaps[way]?.join(', ')}`);
} finally {
  await host.close();
  server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
