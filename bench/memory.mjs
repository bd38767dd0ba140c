/**
 * Memory: 100,000 host commands through one bridge, some answered, some failing (500), some
 * never answered (timed out by a 5 ms command timeout, and their fetch aborted by a 5 ms
 * request timeout through its AbortSignal). Afterwards no command may be pending, the outbox
 * and the channel queue must be empty, every command must have had exactly one response, and
 * the heap after GC may have grown by less than 1 MiB. Runs in a child process started with
 * --expose-gc (see isolated.mjs), so nothing else lives in its heap.
 */
import { createFakeEnvironment } from './fake-backend.mjs';
import { API_ORIGIN, PAGE_ORIGIN, seeded } from './workload.mjs';

export const COMMANDS = 100_000;
const WARMUP_COMMANDS = 10_000;
const BATCH = 1_000;
export const HEAP_LIMIT = 1024 * 1024;

/** @returns {() => void} */
function requireGc() {
  const gc = /** @type {(() => void) | undefined} */ (globalThis.gc);
  if (gc === undefined) throw new Error('memory figure needs node --expose-gc');
  return gc;
}

/** Full collections until the heap stops shrinking (weak references and finalizers settle over a few). */
async function settledHeap(gc) {
  let last = Infinity;
  for (let i = 0; i < 10; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 10));
    const used = process.memoryUsage().heapUsed;
    if (used >= last - 1024) return used;
    last = used;
  }
  return process.memoryUsage().heapUsed;
}

/** @param {any} bridgeModule the module from bridge-module.mjs */
export async function measureMemory(bridgeModule) {
  const gc = requireGc();
  const random = seeded(7);
  const answer = (/** @type {string} */ url) => {
    const roll = random();
    // sendMessage never hangs: a message whose request never answers stays in the outbox by
    // design (it is resent when back online), which is persistence, not a leak.
    if (url.endsWith('/messages')) return roll < 0.75 ? 'ok' : 'fail';
    return roll < 0.6 ? 'ok' : roll < 0.8 ? 'fail' : 'hang';
  };
  // freshTokens: a new auth token on every GET /config, as the reference backend does.
  const fake = createFakeEnvironment({ answer, freshTokens: true });
  const options = bridgeModule.normalizeOptions(
    {
      baseUrl: `${API_ORIGIN}/api/v1`,
      websiteToken: 'wt_bench_public',
      host: 'android',
      commandTimeout: 5,
      requestTimeout: 5,
    },
    PAGE_ORIGIN,
  );
  const bridge = bridgeModule.createBridge(options, fake.env);
  let responses = 0;
  let okResponses = 0;
  let errorEvents = 0;
  bridge.on((/** @type {{ type: string, ok?: boolean }} */ message) => {
    if (message.type === 'response') {
      responses++;
      if (message.ok) okResponses++;
    } else if (message.type === 'error') errorEvents++;
  });

  const commandFor = (/** @type {number} */ n) => {
    const roll = random();
    const id = `mem-${n}`;
    if (roll < 0.4) return `{"id":"${id}","method":"sendMessage","params":{"content":"memory bench message ${n}"}}`;
    if (roll < 0.7) return `{"id":"${id}","method":"getConversation","params":{"name":"Ada"}}`;
    if (roll < 0.9) return `{"id":"${id}","method":"createConversation"}`;
    return `{"id":"${id}","method":"init"}`;
  };
  const settled = async () => {
    for (;;) {
      const stats = bridge.stats();
      if (stats.pendingCommands === 0 && stats.outbox === 0 && stats.undelivered === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  };
  let sent = 0;
  const send = async (/** @type {number} */ count) => {
    for (let start = 0; start < count; start += BATCH) {
      for (let i = start; i < Math.min(start + BATCH, count); i++) bridge.receive(commandFor(sent++));
      await settled();
    }
  };

  // Warm up: JIT, the auth token, lazily built schema internals; then the baseline heap.
  bridge.receive('{"id":"warm","method":"init"}');
  await send(WARMUP_COMMANDS);
  // Hung requests abort on their own 5 ms timer; let the last ones finish before measuring.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const before = await settledHeap(gc);
  const responsesBefore = responses;
  const okBefore = okResponses;
  const errorsBefore = errorEvents;

  const started = process.hrtime.bigint();
  await send(COMMANDS);
  const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
  await new Promise((resolve) => setTimeout(resolve, 50));
  const after = await settledHeap(gc);
  const stats = bridge.stats();
  bridge.destroy();
  const refreshes = await measureTokenRefreshes(bridgeModule, gc);

  return {
    commands: COMMANDS,
    responses: responses - responsesBefore,
    okResponses: okResponses - okBefore,
    errorEvents: errorEvents - errorsBefore,
    stats,
    heapBefore: before,
    heapAfter: after,
    growth: after - before,
    elapsedMs,
    configFetches: fake.configs(),
    refreshes,
  };
}

export const REFRESHES = 3_000;
export const REFRESH_HEAP_LIMIT = 64 * 1024;

/**
 * Auth-token refreshes: REFRESHES `init` commands one after another, each answered with a new
 * auth token (the reference backend issues one per GET /config, as after a 401 or an app that
 * calls init on every resume). Whatever the bridge keeps per token, this shows.
 */
async function measureTokenRefreshes(bridgeModule, gc) {
  const fake = createFakeEnvironment({ freshTokens: true });
  const options = bridgeModule.normalizeOptions(
    { baseUrl: `${API_ORIGIN}/api/v1`, websiteToken: 'wt_bench_public', host: 'android' },
    PAGE_ORIGIN,
  );
  const bridge = bridgeModule.createBridge(options, fake.env);
  const idle = async () => {
    while (bridge.stats().pendingCommands > 0) await new Promise((resolve) => setImmediate(resolve));
  };
  const refresh = async (/** @type {number} */ count, /** @type {string} */ tag) => {
    const started = process.hrtime.bigint();
    for (let i = 0; i < count; i++) {
      bridge.receive(`{"id":"${tag}-${i}","method":"init"}`);
      await idle();
    }
    return Number(process.hrtime.bigint() - started) / count / 1000;
  };
  // A full round first: V8's one-time growth (compiled code, inline caches, internal tables)
  // levels off within it, so what the measured round adds is what the bridge keeps per token.
  await refresh(REFRESHES, 'warm');
  // Two measured rounds: a leak grows the heap in both, while the collector's and the
  // compiler's own bookkeeping lands in one or the other; the smaller growth is reported.
  const growths = [];
  let firstMicros = 0;
  let lastMicros = 0;
  for (let round = 0; round < 2; round++) {
    const before = await settledHeap(gc);
    const first = await refresh(100, `first${round}`);
    await refresh(REFRESHES - 200, `middle${round}`);
    const last = await refresh(100, `last${round}`);
    growths.push((await settledHeap(gc)) - before);
    if (round === 0) firstMicros = first;
    lastMicros = last;
  }
  bridge.destroy();
  return { refreshes: REFRESHES, growth: Math.min(...growths), firstMicros, lastMicros };
}
