/**
 * A count, not a time: the uploads and bytes one 2 MB photo costs in its first 10 minutes when
 * every upload of it is refused with no answer the page can read (a proxy's 413 without CORS
 * headers) while the server answers everything else. The outbox itself (bridge/backend/outbox.ts,
 * bundled from source) on a virtual clock, so ten minutes take milliseconds and nothing depends on
 * the machine.
 *
 * "Before" is the same outbox without a way to ask whether the server answers (`reachable`
 * left out): its failures at the network level then count for nothing, as every failure did before
 * upload-budget.ts, so the photo is re-sent on the backoff without end. "After" has it, as the
 * bridge wires it (bridge.ts: `api.reachable`). A text message queued right after the photo shows
 * when the conversation goes on.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { ROOT } from './deps.mjs';

export const PHOTO_BYTES = 2_000_000;
export const WINDOW_MS = 10 * 60 * 1000;

async function bundle() {
  const folder = mkdtempSync(join(tmpdir(), 'chat-bridge-bench-refused-'));
  const path = join(folder, 'outbox.mjs');
  const result = await build({
    stdin: {
      contents: [
        `export { createOutbox } from './bridge/backend/outbox.ts';`,
        `export { bridgeError } from './bridge/protocol/errors.ts';`,
        `export { createVirtualClock } from './tools/testing/virtual-clock.ts';`,
        `export { seededRandom } from './tools/testing/seeded-random.ts';`,
        `export { mapRecords } from './tools/testing/in-memory-environment.ts';`,
      ].join('\n'),
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
  });
  writeFileSync(path, /** @type {{ text: string }} */ (result.outputFiles[0]).text);
  const module = await import(pathToFileURL(path).href);
  rmSync(folder, { recursive: true, force: true });
  return module;
}

/**
 * @param {any} m the bundled module
 * @param {boolean} canTell whether the outbox can ask if the server answers
 * @returns {Promise<{ uploads: number, bytes: number, photo: string, textSentAt: number | undefined }>}
 */
async function simulate(m, canTell) {
  const clock = m.createVirtualClock(0);
  const random = m.seededRandom(32);
  let uploads = 0;
  let photo = 'queued';
  /** @type {number | undefined} */
  let textSentAt;
  const outbox = m.createOutbox({
    setTimeout: clock.setTimeout,
    clearTimeout: clock.clearTimeout,
    now: clock.now,
    random,
    records: m.mapRecords(new Map()),
    prefix: 'bench.',
    page: 'p1',
    maxFileSize: 5 * 1024 * 1024,
    isOnline: () => true,
    ...(canTell && { reachable: async () => true }),
    async send(/** @type {{ files?: unknown[] }} */ record) {
      if (!record.files) return { id: 1 };
      uploads++;
      throw m.bridgeError('network_error', '[POST /messages] network error: offline, unreachable or no CORS');
    },
    emit() {},
  });
  const file = { name: 'beach.jpg', type: 'image/jpeg', data: new ArrayBuffer(PHOTO_BYTES) };
  outbox.enqueue({ messageId: 'photo', content: '', files: [file] }).then(
    () => (photo = 'sent'),
    (/** @type {{ event: { code: string } }} */ error) => (photo = `failed: ${error.event.code}`),
  );
  outbox.enqueue({ messageId: 'text', content: 'and a text' }).then(() => (textSentAt = clock.now()));
  // Each timer's promises settle before the next runs (an attempt's failure sets the next timer).
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  for (;;) {
    for (let i = 0; i < 5; i++) await settle();
    const due = clock.nextDue();
    if (due === undefined || due > WINDOW_MS) break;
    clock.moveTo(due);
    clock.runOneDue();
  }
  outbox.destroy();
  return { uploads, bytes: uploads * PHOTO_BYTES, photo, textSentAt };
}

/** Before and after, on the same seeded backoff. */
export async function measureRefusedUpload() {
  const m = await bundle();
  return { before: await simulate(m, false), after: await simulate(m, true) };
}
