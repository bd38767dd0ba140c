// @ts-check
/**
 * The native packages (host-adapters/android, ios, flutter) each carry the bridge's two scripts
 * as their platform's resources, so an app that adds a package gets the scripts of the same
 * version with it. They are copies of dist/, made by `npm run build` and gitignored; package.json
 * `files` puts them in the npm package.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The scripts each package carries, from dist/. */
export const NATIVE_SCRIPTS = ['chat-bridge.js', 'chat-bridge.start.js'];

/** Where each package keeps them: Android assets, the Swift package's resources, Flutter assets. */
export const NATIVE_ASSET_FOLDERS = [
  'host-adapters/android/src/main/assets/chat-bridge',
  'host-adapters/ios/Sources/ChatBridge/Resources',
  'host-adapters/flutter/assets',
];

/**
 * Copies the scripts from [dist] into every package under [root].
 * @param {string} root
 * @param {string} dist
 * @returns {string[]} the files written, relative to root
 */
export function copyNativeAssets(root, dist = join(root, 'dist')) {
  const written = [];
  for (const folder of NATIVE_ASSET_FOLDERS) {
    for (const script of NATIVE_SCRIPTS) {
      const target = join(root, folder, script);
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(join(dist, script), target);
      written.push(join(folder, script));
    }
  }
  return written;
}
