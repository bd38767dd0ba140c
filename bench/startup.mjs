/**
 * Start-up: evaluating dist/chat-bridge.js plus `ChatBridge.install()`, and the same for the
 * starter, dist/chat-bridge.start.js, which two-script hosts inject at document start in the
 * bundle's place (bridge/startup/starter.ts), against evaluating penpal's bundle (built by
 * bundle-size.mjs with the bridge's own pipeline), in headless Chromium. Each sample gets a
 * fresh browser context, hence a fresh renderer and no compiled code left over from the previous
 * sample. The source is inserted as an inline script, so no
 * network time is counted; the page is cross-origin isolated, which gives performance.now()
 * its fine (5 µs) resolution instead of 100 µs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startStaticServer } from '../demo-page/static-server.mjs';
import { ROOT } from './deps.mjs';
import { median } from './stats.mjs';

const SAMPLES = 31;
const ISOLATED = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

/**
 * Evaluated in the page: inserts the source as a script and times it (and install, when asked).
 * `then`: a script inserted afterwards, as a two-script host's after-load injection (the bundle
 * taking over the starter), timed with the bridge it builds.
 */
export function evaluateInPage(
  /** @type {{ source: string, install: boolean, then?: string }} */ { source, install, then },
) {
  const win = /** @type {any} */ (window);
  const insert = (/** @type {string} */ text) => {
    const script = document.createElement('script');
    script.textContent = text;
    document.head.appendChild(script);
  };
  const started = performance.now();
  insert(source);
  const evaluated = performance.now();
  if (install)
    win.ChatBridge.install({ baseUrl: 'https://chat.example.test/api/v1', websiteToken: 'wt_bench', host: 'browser' });
  const installed = performance.now();
  if (then !== undefined) insert(then);
  // What install leaves to the task after it (bridge/startup/deferred-start.ts), forced here to time it.
  if (install) win.ChatBridge.bridge.stats();
  const built = performance.now();
  return {
    evaluate: evaluated - started,
    install: installed - evaluated,
    build: built - installed,
    total: installed - started,
    isolated: win.crossOriginIsolated === true,
  };
}

/**
 * @param {import('playwright-core').Browser} browser
 * @param {string | undefined} penpalSource penpal's bundle, or undefined when penpal is not installed
 */
export async function measureStartup(browser, penpalSource) {
  const server = await startStaticServer({
    mounts: {},
    headers: ISOLATED,
    pages: {
      '/blank.html': '<!doctype html><html><head><meta charset="utf-8"></head><body></body></html>',
      '/favicon.ico': '',
    },
  });
  let isolated = true;
  /** @type {Once} */
  const once = async (run) => {
    const context = await browser.newContext();
    try {
      const tab = await context.newPage();
      await tab.goto(`${server.url}/blank.html`, { waitUntil: 'load' });
      const result = await tab.evaluate(evaluateInPage, run);
      isolated &&= result.isolated;
      return result;
    } finally {
      await context.close().catch(() => undefined);
    }
  };
  try {
    return { ...(await sampleStartup(once, penpalSource)), isolated };
  } finally {
    await server.close();
  }
}

/**
 * @typedef {{ evaluate: number, install: number, build: number, total: number, isolated: boolean }} Evaluated
 * @typedef {(run: { source: string, install: boolean, then?: string }) => Promise<Evaluated>} Once
 *   one sample in a fresh page of the engine at hand
 */

/**
 * The samples of each kind, in a rotating order, through `once`; the same for every engine.
 * @param {Once} once
 * @param {string | undefined} penpalSource
 */
export async function sampleStartup(once, penpalSource, samplesEach = SAMPLES) {
  const bridgeSource = readFileSync(join(ROOT, 'dist', 'chat-bridge.js'), 'utf8');
  const starterSource = readFileSync(join(ROOT, 'dist', 'chat-bridge.start.js'), 'utf8');
  /** @type {Record<'bridge' | 'bridgeEvaluate' | 'bridgeInstall' | 'bridgeBuild' | 'starter' | 'starterEvaluate' | 'starterInstall' | 'takeOver' | 'penpal', number[]>} */
  const samples = {
    bridge: [],
    bridgeEvaluate: [],
    bridgeInstall: [],
    bridgeBuild: [],
    starter: [],
    starterEvaluate: [],
    starterInstall: [],
    takeOver: [],
    penpal: [],
  };
  // One untimed round of each first: the browser's own first-use costs are nobody's start-up.
  await once({ source: bridgeSource, install: true });
  await once({ source: starterSource, install: true, then: bridgeSource });
  if (penpalSource !== undefined) await once({ source: penpalSource, install: false });
  const kinds = [
    async () => {
      const bridge = await once({ source: bridgeSource, install: true });
      samples.bridge.push(bridge.total);
      samples.bridgeEvaluate.push(bridge.evaluate);
      samples.bridgeInstall.push(bridge.install);
      samples.bridgeBuild.push(bridge.build);
    },
    async () => {
      const starter = await once({ source: starterSource, install: true, then: bridgeSource });
      samples.starter.push(starter.total);
      samples.starterEvaluate.push(starter.evaluate);
      samples.starterInstall.push(starter.install);
      samples.takeOver.push(starter.build);
    },
    async () => {
      if (penpalSource !== undefined) samples.penpal.push((await once({ source: penpalSource, install: false })).total);
    },
  ];
  // Each round in another order, so that no figure always follows the same one: the browser's
  // work for a closed context (more after a bridge has run) can overlap the next sample.
  for (let i = 0; i < samplesEach; i++) {
    const first = i % kinds.length;
    for (const kind of [...kinds.slice(first), ...kinds.slice(0, first)]) await kind();
  }
  const bridgeMs = median(samples.bridge);
  const penpalMs = samples.penpal.length > 0 ? median(samples.penpal) : undefined;
  return {
    bridgeMs,
    bridgeEvaluateMs: median(samples.bridgeEvaluate),
    bridgeInstallMs: median(samples.bridgeInstall),
    bridgeBuildMs: median(samples.bridgeBuild),
    starterMs: median(samples.starter),
    starterEvaluateMs: median(samples.starterEvaluate),
    starterInstallMs: median(samples.starterInstall),
    takeOverMs: median(samples.takeOver),
    penpalMs,
    samples: samplesEach,
  };
}
