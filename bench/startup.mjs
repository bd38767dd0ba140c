/**
 * Start-up: evaluating dist/chat-bridge.js plus `ChatBridge.install()`, against evaluating
 * penpal's bundle (built by bundle-size.mjs with the bridge's own pipeline), in headless
 * Chromium. Each sample gets a fresh browser context, hence a fresh renderer and no compiled
 * code left over from the previous sample. The source is inserted as an inline script, so no
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

/** Evaluated in the page: inserts the source as a script and times it (and install, when asked). */
function evaluateInPage(/** @type {{ source: string, install: boolean }} */ { source, install }) {
  const win = /** @type {any} */ (window);
  const script = document.createElement('script');
  script.textContent = source;
  const started = performance.now();
  document.head.appendChild(script);
  const evaluated = performance.now();
  if (install)
    win.ChatBridge.install({ baseUrl: 'https://chat.example.test/api/v1', websiteToken: 'wt_bench', host: 'browser' });
  const installed = performance.now();
  // What install leaves to the task after it (bridge/deferred-start.ts), forced here to time it.
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
  const bridgeSource = readFileSync(join(ROOT, 'dist', 'chat-bridge.js'), 'utf8');
  /** @type {{ bridge: number[], bridgeEvaluate: number[], bridgeInstall: number[], bridgeBuild: number[], penpal: number[] }} */
  const samples = { bridge: [], bridgeEvaluate: [], bridgeInstall: [], bridgeBuild: [], penpal: [] };
  let isolated = true;
  const once = async (/** @type {string} */ source, /** @type {boolean} */ install) => {
    const context = await browser.newContext();
    try {
      const tab = await context.newPage();
      await tab.goto(`${server.url}/blank.html`, { waitUntil: 'load' });
      const result = await tab.evaluate(evaluateInPage, { source, install });
      isolated &&= result.isolated;
      return result;
    } finally {
      await context.close().catch(() => undefined);
    }
  };
  try {
    // One untimed round of each first: the browser's own first-use costs are nobody's start-up.
    await once(bridgeSource, true);
    if (penpalSource !== undefined) await once(penpalSource, false);
    for (let i = 0; i < SAMPLES; i++) {
      const bridge = await once(bridgeSource, true);
      samples.bridge.push(bridge.total);
      samples.bridgeEvaluate.push(bridge.evaluate);
      samples.bridgeInstall.push(bridge.install);
      samples.bridgeBuild.push(bridge.build);
      if (penpalSource !== undefined) samples.penpal.push((await once(penpalSource, false)).total);
    }
  } finally {
    await server.close();
  }
  const bridgeMs = median(samples.bridge);
  const penpalMs = samples.penpal.length > 0 ? median(samples.penpal) : undefined;
  return {
    bridgeMs,
    bridgeEvaluateMs: median(samples.bridgeEvaluate),
    bridgeInstallMs: median(samples.bridgeInstall),
    bridgeBuildMs: median(samples.bridgeBuild),
    penpalMs,
    ratio: penpalMs === undefined ? undefined : bridgeMs / penpalMs,
    samples: SAMPLES,
    isolated,
  };
}
