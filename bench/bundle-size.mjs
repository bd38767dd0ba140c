/**
 * Bundle row: dist/chat-bridge.js gzipped, beside penpal, post-robot, comlink and zod/mini
 * (with one discriminated union, the floor of a validated message protocol) bundled the way
 * scripts/build.mjs bundles the bridge: esbuild (minified IIFE, ES2017, browser), then terser
 * and uglify-js with the same options (scripts/minify.mjs), then gzip -9. The same pipeline for all, so only the code differs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { IIFE_BUILD } from '../scripts/shared-settings.mjs';
import { minifyInjected } from '../scripts/minify.mjs';
import { findPackage, installHint, ROOT } from './deps.mjs';

/** What each comparison bundle contains: the whole library on one global, as a host would inject it. */
const COMPARISONS = [
  { label: 'penpal', pkg: 'penpal', entry: `import * as lib from 'penpal'; window.Penpal = lib;` },
  { label: 'post-robot', pkg: 'post-robot', entry: `import * as lib from 'post-robot'; window.postRobot = lib;` },
  { label: 'comlink', pkg: 'comlink', entry: `import * as lib from 'comlink'; window.Comlink = lib;` },
  {
    label: 'zod/mini + 1 discriminated union',
    pkg: 'zod',
    entry: `import * as z from 'zod/mini';
const Message = z.discriminatedUnion('type', [
  z.object({ type: z.literal('command'), id: z.string().check(z.minLength(1)), method: z.string(), params: z.optional(z.looseObject({})) }),
  z.object({ type: z.literal('widget'), event: z.string().check(z.minLength(1)) }),
]);
window.checkMessage = (value) => Message.safeParse(value);`,
  },
];

/** esbuild then terser and uglify-js, exactly as scripts/build.mjs. @param {string} entry @param {string} resolveDir */
export async function bundleForBrowser(entry, resolveDir) {
  const result = await build({
    ...IIFE_BUILD,
    stdin: { contents: entry, resolveDir, loader: 'js' },
    logLevel: 'error',
    write: false,
  });
  const esbuilt = /** @type {{ text: string }} */ (result.outputFiles[0]).text;
  return minifyInjected(esbuilt);
}

const gzipped = (/** @type {string} */ code) => gzipSync(code, { level: 9 }).length;

/**
 * @returns {Promise<{ bridge: { bytes: number, gzipped: number },
 *   comparisons: Array<{ label: string, version: string, bytes: number, gzipped: number }>,
 *   missing: string[], bundles: Record<string, string> }>}
 *   bundles: the comparison sources by package, for the start-up figure.
 */
export async function measureBundleSizes() {
  const bridgeSource = readFileSync(join(ROOT, 'dist', 'chat-bridge.js'), 'utf8');
  const comparisons = [];
  const missing = [];
  /** @type {Record<string, string>} */
  const bundles = {};
  for (const { label, pkg, entry } of COMPARISONS) {
    const found = findPackage(pkg);
    if (found === undefined) {
      missing.push(pkg);
      continue;
    }
    const code = await bundleForBrowser(entry, found.resolveDir);
    bundles[pkg] = code;
    comparisons.push({ label, version: found.version, bytes: Buffer.byteLength(code), gzipped: gzipped(code) });
  }
  if (missing.length > 0)
    console.warn(`bench: ${missing.join(', ')} not installed; compare with them after: ${installHint(missing)}`);
  return {
    bridge: { bytes: Buffer.byteLength(bridgeSource), gzipped: gzipped(bridgeSource) },
    comparisons,
    missing,
    bundles,
  };
}
