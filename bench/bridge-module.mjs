/**
 * The bridge from source, for the Node figures (throughput, memory): bridge/bridge.ts and
 * bridge/options.ts bundled by esbuild into one temporary ES module. Bundling from source, not
 * importing dist/esm, means a build another process is swapping in cannot be caught half-way.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { ROOT } from './deps.mjs';

/**
 * Writes the module and returns its path and a `dispose` that deletes it.
 * @returns {Promise<{ path: string, dispose(): void }>}
 */
export async function bundleBridgeForNode() {
  const folder = mkdtempSync(join(tmpdir(), 'chat-bridge-bench-'));
  const path = join(folder, 'bridge.mjs');
  const result = await build({
    stdin: {
      // inbound/classify.ts too: the throughput figure also times the inbound edge on its own, to show where time goes.
      contents: [
        `export { createBridge } from './bridge/bridge.ts';`,
        `export { normalizeOptions } from './bridge/options.ts';`,
        `export { classifyHostData, classifyPosted } from './bridge/inbound/classify.ts';`,
      ].join('\n'),
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
    write: false,
  });
  writeFileSync(path, /** @type {{ text: string }} */ (result.outputFiles[0]).text);
  return { path, dispose: () => rmSync(folder, { recursive: true, force: true }) };
}

/** @param {string} path */
export const importBridge = (path) => import(pathToFileURL(path).href);
