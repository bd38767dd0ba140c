/**
 * The injected scripts as `npm run build` writes them (dist/chat-bridge.js, the debug bundle and
 * the starter), built first when any is missing, for the specs that run or inspect the real files.
 * Paths come from this file's own location rather than `new URL(..., import.meta.url)`, since
 * happy-dom replaces the global URL in the specs that run under it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root. */
export const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');

export const BUILT_PATHS = {
  bundle: resolve(ROOT, 'dist/chat-bridge.js'),
  debug: resolve(ROOT, 'dist/chat-bridge.debug.js'),
  starter: resolve(ROOT, 'dist/chat-bridge.start.js'),
} as const;

export type BuiltScripts = Record<keyof typeof BUILT_PATHS, string>;

/** The three scripts' text, after building them if one is missing. */
export function readBuiltScripts(): BuiltScripts {
  if (!Object.values(BUILT_PATHS).every(existsSync))
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  return {
    bundle: readFileSync(BUILT_PATHS.bundle, 'utf8'),
    debug: readFileSync(BUILT_PATHS.debug, 'utf8'),
    starter: readFileSync(BUILT_PATHS.starter, 'utf8'),
  };
}
