/**
 * Bundle row: dist/chat-bridge.js gzipped, beside penpal, post-robot, comlink and zod/mini
 * (with one discriminated union, the floor of a validated message protocol) bundled the way
 * scripts/build.mjs bundles the bridge: esbuild (minified IIFE, ES2017, browser), then terser
 * and uglify-js with the same options (scripts/minify.mjs), then gzip -9. The same pipeline for all, so only the code differs.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { IIFE_BUILD, INTERNAL_PROPERTIES } from '../scripts/shared-settings.mjs';
import { minifyInjected, minifyMapped } from '../scripts/minify.mjs';
import { validatorsForZod } from '../scripts/generate-validators.mjs';
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

/** esbuild then terser, Closure Compiler and uglify-js, exactly as scripts/build.mjs. @param {string} entry @param {string} resolveDir */
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

/** The Base64 VLQ digits of source maps. */
const VLQ = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * Each generated stretch of a one-line source map's code with the source it came from.
 * @param {string} mappings @returns {Array<{ column: number, source: number | undefined }>}
 */
function decodeSegments(mappings) {
  /** @type {Array<{ column: number, source: number | undefined }>} */
  const segments = [];
  let column = 0;
  let source = 0;
  for (const [line, text] of mappings.split(';').entries()) {
    if (line > 0 && text !== '') throw new Error('expected the minified bundle on one line');
    for (const segment of text.split(',').filter(Boolean)) {
      /** @type {number[]} */
      const fields = [];
      let value = 0;
      let shift = 0;
      for (const char of segment) {
        const digit = VLQ.indexOf(char);
        value += (digit & 31) << shift;
        shift += 5;
        if (digit < 32) {
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = shift = 0;
        }
      }
      column += /** @type {number} */ (fields[0]);
      if (fields.length > 1) source += /** @type {number} */ (fields[1]);
      segments.push({ column, source: fields.length > 1 ? source : undefined });
    }
  }
  return segments;
}

/**
 * What each source module costs in dist/chat-bridge.js: the bundle built as scripts/build.mjs
 * builds it, with source maps through esbuild, terser and uglify-js (without Closure Compiler, whose step minify.mjs leaves out where a map is asked for: the shares are of a bundle about 150 B larger); each stretch of the minified
 * code is given to its module. `bytes`: minified characters. `gzipped`: the module's characters
 * gzipped on their own, scaled so that the modules add up to the whole bundle gzipped (gzip of
 * a part alone over-counts what it shares with the rest; the scale spreads that evenly).
 * @returns {Promise<{ gzipped: number, modules: Array<{ module: string, bytes: number, gzipped: number }> }>}
 */
export async function measureModuleSizes() {
  const result = await build({
    ...IIFE_BUILD,
    define: { CHAT_BRIDGE_WITHOUT_RECORDER: 'true' },
    entryPoints: [join(ROOT, 'bridge/startup/global.ts')],
    outfile: 'chat-bridge.js',
    sourcemap: 'external',
    write: false,
    plugins: [validatorsForZod],
    logLevel: 'error',
  });
  const file = (/** @type {string} */ end) =>
    /** @type {{ text: string }} */ (result.outputFiles.find((output) => output.path.endsWith(end))).text;
  const { code, map } = await minifyMapped(file('.js'), INTERNAL_PROPERTIES, file('.js.map'));
  const { sources, mappings } = JSON.parse(/** @type {string} */ (map));
  const segments = decodeSegments(mappings);
  /** @type {Map<string, string>} */
  const text = new Map();
  segments.forEach(({ column, source }, i) => {
    const path = source === undefined ? undefined : sources[source];
    const module = path === undefined ? '(glue)' : relative(ROOT, path.replace(/^file:\/\//, ''));
    text.set(module, (text.get(module) ?? '') + code.slice(column, segments[i + 1]?.column ?? code.length));
  });
  const whole = gzipped(code);
  const alone = [...text].map(([module, part]) => ({ module, bytes: part.length, gzipped: gzipped(part) }));
  const scale = whole / alone.reduce((sum, { gzipped: g }) => sum + g, 0);
  return {
    gzipped: whole,
    modules: alone
      .map((entry) => ({ ...entry, gzipped: Math.round(entry.gzipped * scale) }))
      .sort((a, b) => b.gzipped - a.gzipped),
  };
}

// `node bench/bundle-size.mjs --modules`: the table of what each module costs.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href && process.argv.includes('--modules')) {
  const { gzipped: whole, modules } = await measureModuleSizes();
  console.log(
    `dist/chat-bridge.js built without the Closure step: ${whole} B gzipped\n\n| module | minified B | gzipped B (share) |\n|---|---:|---:|`,
  );
  for (const { module, bytes, gzipped: g } of modules) console.log(`| ${module} | ${bytes} | ${g} |`);
}
