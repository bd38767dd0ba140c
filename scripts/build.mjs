// Builds everything in dist/: the injectable bundle, the ES modules, the CLI and the types.
import { build } from 'esbuild';
import { BUNDLE_BUDGET, IIFE_BUILD, INTERNAL_PROPERTIES } from './shared-settings.mjs';
import { gzippedSizes } from './gzip-size.mjs';
import { minifyInjected } from './minify.mjs';
import { validatorsForZod } from './generate-validators.mjs';
import { copyNativeAssets } from './native-assets.mjs';
import { keepPublicDeclarations } from './public-types.mjs';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

// Build into a fresh folder and swap it in at the end, so a test reading dist/ while a build
// runs never finds it half-written.
const out = `dist.tmp-${process.pid}`;
rmSync(out, { recursive: true, force: true });
mkdirSync(`${out}/esm`, { recursive: true });

/**
 * The scripts native hosts inject, each defining the one global `ChatBridge`: the bundle, and
 * the debug bundle with the recorder (`record: true`), which only a developer reproducing a bug
 * needs. esbuild bundles and lowers to ES2017 (keeping SYNTAX_BEYOND_ES2017, in
 * scripts/shared-settings.mjs); terser, Closure Compiler and uglify-js (scripts/minify.mjs) then
 * take off what the injected script's size budget needs. `properties`: the names it may shorten
 * (INTERNAL_PROPERTIES in scripts/shared-settings.mjs says which); the generated validators stand
 * in for zod (scripts/generate-validators.mjs).
 */
async function buildInjected(entry, file, define = {}, properties = undefined) {
  await build({
    ...IIFE_BUILD,
    define,
    entryPoints: [entry],
    outfile: `${out}/${file}`,
    logLevel: 'warning',
    plugins: [validatorsForZod],
  });
  const code = await minifyInjected(readFileSync(`${out}/${file}`, 'utf8'), properties);
  writeFileSync(`${out}/${file}`, code);
  return code;
}
// Without a recorder, the bridge's recording hooks are dead code (bridge/bridge.ts says how).
const bundle = await buildInjected(
  'bridge/startup/global.ts',
  'chat-bridge.js',
  { CHAT_BRIDGE_WITHOUT_RECORDER: 'true' },
  INTERNAL_PROPERTIES,
);
const debugBundle = await buildInjected('bridge/startup/global.debug.ts', 'chat-bridge.debug.js');
// The starter, for hosts that inject it at document start and the bundle after load (bridge/startup/starter.ts).
const starter = await buildInjected('bridge/startup/global.start.ts', 'chat-bridge.start.js');

// ES modules for TypeScript users and Node (replay); dependencies stay imports.
await build({
  entryPoints: {
    index: 'bridge/index.ts',
    'react-native-host': 'host-adapters/react-native-host.ts',
    client: 'host-adapters/client.ts',
    replay: 'tools/replay/index.ts',
  },
  outdir: `${out}/esm`,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2020',
  packages: 'external',
  logLevel: 'warning',
});

// The platform channels' stand-ins, for the demo page, which loads it from /dist/esm/ as a
// module: self-contained (a browser cannot resolve the bare imports the modules above keep).
await build({
  entryPoints: ['tools/testing/stand-in-channels.ts'],
  outfile: `${out}/esm/stand-in-channels.js`,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2020',
  logLevel: 'warning',
});

await build({
  entryPoints: ['tools/cli/main.ts'],
  outfile: `${out}/cli.js`,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});

// For hosts that inject the bundle from code (react-native-webview's injectedJavaScript...);
// the debug bundle in a module of its own, so an app that never records never ships it.
writeFileSync(`${out}/esm/bundle-source.js`, `export const bundleSource = ${JSON.stringify(bundle)};\n`);
writeFileSync(`${out}/esm/bundle-source.d.ts`, 'export declare const bundleSource: string;\n');
writeFileSync(
  `${out}/esm/debug-bundle-source.js`,
  `export const debugBundleSource = ${JSON.stringify(debugBundle)};\n`,
);
writeFileSync(`${out}/esm/debug-bundle-source.d.ts`, 'export declare const debugBundleSource: string;\n');
writeFileSync(`${out}/esm/start-source.js`, `export const startSource = ${JSON.stringify(starter)};\n`);
writeFileSync(`${out}/esm/start-source.d.ts`, 'export declare const startSource: string;\n');

// What `require('chat-bridge')` (and every other entry's `require` condition) gets. The package is
// ES modules only, on purpose: one build, the same modules for bundlers and Node. Without this, a
// CommonJS consumer gets a resolution error that names neither the cause nor the fix.
writeFileSync(
  `${out}/esm-only.cjs`,
  `'use strict';
// The package's \`require\` condition: chat-bridge is ES modules only.
const error = new Error(
  "chat-bridge is an ES module package: load it with import, not require(). " +
    "In an ES module: import { createClient } from 'chat-bridge/client'; " +
    "from CommonJS: const { createClient } = await import('chat-bridge/client').",
);
error.code = 'ERR_REQUIRE_ESM';
throw error;
`,
);

execFileSync(
  process.execPath,
  ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json', '--declarationDir', `${out}/types`],
  { stdio: 'inherit' },
);
// Only what the public entries' types need ships (not the doctor's internals, tools/testing, the CLI).
keepPublicDeclarations(JSON.parse(readFileSync('package.json', 'utf8')).exports, `${out}/types`);

const old = `dist.old-${process.pid}`;
if (existsSync('dist')) renameSync('dist', old);
renameSync(out, 'dist');
rmSync(old, { recursive: true, force: true });
// The native packages carry the two scripts as their own resources (scripts/native-assets.mjs).
copyNativeAssets('.');

const gzipped = (code) => gzipSync(code, { level: 9 }).length;
const sizes = gzippedSizes('dist/chat-bridge.js');
console.log(
  `dist/chat-bridge.js: ${bundle.length} bytes, ${sizes.zlib} bytes gzipped, ${sizes.gnu} by GNU gzip -9 (budget ${BUNDLE_BUDGET} for both)`,
);
console.log(
  `dist/chat-bridge.debug.js: ${debugBundle.length} bytes, ${gzipped(debugBundle)} bytes gzipped (with the recorder; no budget)`,
);
console.log(`dist/chat-bridge.start.js: ${starter.length} bytes, ${gzipped(starter)} bytes gzipped (the starter)`);
